/*
 * writer.c — the one thread that writes SQLite. The collector queues frames,
 * HTTP queues small tasks; this thread takes whatever is queued (up to a
 * batch), applies it in ONE transaction, commits, and only then ACKs the
 * frames: an ACK promises the frame is on disk, so the payload may forget it.
 * Batching turns thousands of frames/s into a few commits/s.
 *
 * When the database fails (disk full, I/O error) the whole batch is rolled
 * back: nothing is ACKed, the registry forgets the frames (their
 * retransmissions are new again), /health says degraded with the reason,
 * and the next batch simply tries again, so the daemon recovers by itself
 * once there is space. A frame that would change a stored row is refused
 * before it writes anything (store.c) and counted as a conflict.
 *
 * A PostgreSQL server that goes away (restarted, killed) is the same case
 * with one more step: the connection is gone, so after the failed batch the
 * writer reconnects (dbi_ping) with a backoff of 50 ms doubling to 2 s, and
 * until it has a connection every batch of frames fails at once, unACKed
 * (a write an HTTP caller waits for tries to reconnect at once). The idle
 * writer finds a dead connection by its once-a-second statements, so
 * /health says so before any write fails, and a batch whose BEGIN finds it
 * closed goes on a new connection (begin_again). A COMMIT
 * whose answer was lost may have committed: its frames are not ACKed, and
 * their retransmissions find their rows (the frames ledger) and are ACKed
 * as duplicates, so every frame is stored once.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "registry.h"
#include "runrender.h"
#include "store.h"
#include "util.h"
#include "writer.h"
#include "xcbd.h"

/* Beyond either bound the collector drops a frame (no ACK: it is resent).
 * 1000 machines × a 128-frame window is 128k frames in flight: the queue
 * holds them all, so a mass boot costs no drops; the byte bound keeps a
 * queue of large frames to 64 MiB. */
#define QUEUE_MAX (1u << 17)
#define QUEUE_BYTES_MAX (64u << 20)
#define BATCH_MAX 4096    /* 1000 machines' windows drain in a few commits */

struct witem {
	struct witem *next;
	struct run *run;         /* frame: its run; task: NULL */
	struct xcb_hdr h;
	struct in_addr src;      /* frame: where it came from (the run's bound peer) */
	int outcome;             /* frame: store_frame's answer, or -1 if rolled back */
	int created;             /* frame: this batch created the run's row */
	wtask_fn fn;             /* task */
	void *arg;
	int *done;               /* task: 1 committed, -1 rolled back */
	char *why;               /* task: why it was rolled back (WRITER_WHY bytes) */
	uint8_t data[];          /* frame: its payload, in the item's own allocation */
};

static pthread_mutex_t q_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t q_cond = PTHREAD_COND_INITIALIZER;    /* work queued */
static pthread_cond_t done_cond = PTHREAD_COND_INITIALIZER; /* a task finished */
static struct witem *head, *tail;
static size_t qlen, qbytes;   /* q_lock */
static int stopping, running;
static pthread_t thread;
static struct dbi *wdb;
static writer_ack_fn ack_fn; /* set before pthread_create (which orders it), never changed */

/* Health: set by the writer thread, read by HTTP threads (api_health). */
static pthread_mutex_t health_lock = PTHREAD_MUTEX_INITIALIZER; /* pairs: degraded, reason */
static int degraded;
static char reason[256];

int writer_degraded(char *buf, size_t n)
{
	int d;

	pthread_mutex_lock(&health_lock);
	d = degraded;
	if (d)
		snprintf(buf, n, "%s", reason);
	pthread_mutex_unlock(&health_lock);
	return d;
}

/* Logs the transitions only: a full disk must not fill the log as well. */
static void set_health(const char *why)
{
	pthread_mutex_lock(&health_lock);
	if (why && !degraded)
		fprintf(stderr, "xcbenchd: database writes failing (%s): nothing is ACKed until they succeed\n", why);
	else if (!why && degraded)
		fprintf(stderr, "xcbenchd: database writes succeed again\n");
	degraded = why != NULL;
	if (why)
		snprintf(reason, sizeof(reason), "database writes failing: %s", why);
	pthread_mutex_unlock(&health_lock);
}

static void enqueue(struct witem *it)
{
	it->next = NULL;
	if (tail)
		tail->next = it;
	else
		head = it;
	tail = it;
	qlen++;
	pthread_cond_signal(&q_cond);
}

/* One allocation a frame, the item with its payload (was two): the writer
 * frees what the collector allocated, so each pair crosses the threads'
 * arenas (malloc and free, SQLite's with these, were ~6 % of the writer's
 * perf samples). */
int writer_frame(struct run *r, const struct xcb_hdr *h, const uint8_t *payload,
		 struct in_addr src)
{
	struct witem *it = malloc(sizeof(*it) + h->length);

	if (!it)
		return -1;
	memset(it, 0, sizeof(*it));
	it->run = r;
	it->h = *h;
	it->src = src;
	memcpy(it->data, payload, h->length);
	pthread_mutex_lock(&q_lock);
	if (qlen >= QUEUE_MAX || qbytes + h->length > QUEUE_BYTES_MAX || stopping) {
		pthread_mutex_unlock(&q_lock);
		free(it);
		return -1;
	}
	enqueue(it);
	qbytes += h->length;
	atomic_store(&ctr.queued, qlen);
	pthread_mutex_unlock(&q_lock);
	return 0;
}

/* Why this thread's last writer_call failed ("" after a success). */
static __thread char call_why[WRITER_WHY + 40];

const char *writer_call_failure(void)
{
	return call_why;
}

int writer_call(wtask_fn fn, void *arg)
{
	char why[WRITER_WHY] = "";
	struct witem it = { .fn = fn, .arg = arg, .why = why };
	int done = 0;

	it.done = &done;
	call_why[0] = 0;
	pthread_mutex_lock(&q_lock);
	if (!running) {
		pthread_mutex_unlock(&q_lock);
		snprintf(call_why, sizeof(call_why), "the daemon is shutting down");
		return -1;
	}
	enqueue(&it);
	while (!done)
		pthread_cond_wait(&done_cond, &q_lock);
	pthread_mutex_unlock(&q_lock);
	if (done == 1)
		return 0;
	snprintf(call_why, sizeof(call_why), "the database is unavailable: %s", why[0] ? why : "the write failed");
	return -1;
}

/* 0, or -1 with the error logged unless quiet (a failing disk logs once,
 * through set_health). */
static int exec(const char *sql, int quiet)
{
	if (dbi_exec(wdb, sql) != DBI_OK) {
		if (!quiet)
			fprintf(stderr, "xcbenchd: %s: %s\n", sql, dbi_errmsg(wdb));
		return -1;
	}
	return 0;
}

/* The connection's state (writer thread only). */
static int conn_lost;           /* dbi_ping failed: reconnect before a batch */
static double retry_at, backoff; /* now_mono() of the next try, its delay */

/* 1 when a batch may use the connection: it is there, or a reconnection
 * (due by now, or now: a caller waits, an HTTP write, whose answer should
 * not depend on where the backoff stands, which is there against a flood
 * of frames) succeeded. Also tried by the idle writer, so that /health is
 * ok again once the server is back, not at the next write. */
static int connection_ready(int now)
{
	if (!conn_lost)
		return 1;
	if (now_mono() < retry_at && !now)
		return 0;
	if (dbi_ping(wdb)) {
		conn_lost = 0;
		backoff = 0;
		fprintf(stderr, "xcbenchd: reconnected to the database\n");
		set_health(NULL);
		return 1;
	}
	backoff = backoff ? (backoff * 2 > 2.0 ? 2.0 : backoff * 2) : 0.05;
	retry_at = now_mono() + backoff;
	return 0;
}

/* After a failed batch (rolled back), or an idle turn's statement that
 * found the connection gone: is the connection still there? A lost one
 * makes /health degraded at once: an idle writer's dead connection was
 * only said by the next write, which failed (an operator's first `xcbench
 * queue` after a server restart, /health ok until then). */
static void check_connection(void)
{
	if (!conn_lost && !dbi_ping(wdb)) {
		conn_lost = 1;
		backoff = 0.05;
		retry_at = now_mono() + backoff;
		set_health(dbi_errmsg(wdb));
	}
}

/* The batch's BEGIN found the connection dead: the server went away since
 * the writer's last statement (its idle probe is once a second). Nothing
 * of the batch was sent, so nothing of it can have committed: it goes on a
 * new connection (1) instead of failing its callers' writes, as the first
 * `xcbench queue` after a server restart did. A failure later in the batch
 * is not retried: its tasks have run, and a lost COMMIT may have committed. */
static int begin_again(void)
{
	if (!dbi_conn_lost(wdb) || !dbi_ping(wdb))
		return 0;
	fprintf(stderr, "xcbenchd: reconnected to the database (its connection was found closed)\n");
	return exec("BEGIN", 1) == 0;
}

static void rollback(void)
{
	if (!!dbi_in_txn(wdb))
		exec("ROLLBACK", 1);
}

/* The text of a frame's source address for store_frame, formatted again
 * only when it differs from the last frame's: a batch's frames come from
 * few machines, and inet_ntop (glibc formats with sprintf) once a frame was
 * ~2 % of the writer's instructions. Writer thread only. */
static const char *peer_text(struct in_addr a)
{
	static struct in_addr last;
	static char text[INET_ADDRSTRLEN];

	if (!text[0] || a.s_addr != last.s_addr) {
		inet_ntop(AF_INET, &a, text, sizeof(text));
		last = a;
	}
	return text;
}

/* Applies one frame. store.c checks a frame before its first write, so a
 * refused frame has written nothing. Returns 0, or -1 when the batch must
 * be rolled back (the database failed, or SQLite already rolled it back). */
static int apply_frame(struct witem *it)
{
	int64_t id = it->run->id;

	/* r->id is only ever written on this thread (and before threads
	 * start), so it is read here without the registry lock. */
	it->outcome = store_frame(wdb, &it->run->id, it->run->token, &it->h, it->data, peer_text(it->src));
	it->created = id == 0 && it->run->id != 0;
	return it->outcome == -1 || !dbi_in_txn(wdb) ? -1 : 0;
}

/* After a failed batch (failed: 1 the database failed, its message copied
 * into why, or 2 no connection): rolls back and checks the connection, and
 * marks every frame of it not stored (a run row it created is gone too). */
static void batch_failed(struct witem *batch, int failed, char *why, size_t whylen)
{
	/* Copied: the ROLLBACK may replace SQLite's message buffer. */
	if (failed != 2) {
		snprintf(why, whylen, "%s", dbi_errmsg(wdb));
		dbi_sync(wdb); /* what the pipeline held goes with the batch */
		rollback();
		check_connection();
	}
	store_touch_discard(); /* the counters went with the rollback */
	store_runs_forget_all(); /* and what memory knew of the runs */
	for (struct witem *it = batch; it; it = it->next) {
		if (it->fn || !it->run)
			continue;
		it->outcome = -1;
		if (it->created)
			it->run->id = 0; /* its row was rolled back */
	}
}

/* Committed (or not): records each frame's outcome in its run and ACKs
 * each touched run once (cumulative), under the registry lock. */
static void record_and_ack(struct witem *batch)
{
	static unsigned mark;
	struct run *acks[BATCH_MAX];
	int nacks = 0;

	mark++;
	pthread_mutex_lock(&reg_lock);
	for (struct witem *it = batch; it; it = it->next) {
		struct run *r = it->run;

		if (!r)
			continue;
		if (it->outcome < 0) {
			/* Not stored: forget it was seen, so its retransmission (or,
			 * for a refused forgery, the real frame with that seq) is
			 * new again. Frames of r still queued may be queued twice
			 * that way; the frames ledger makes the second a duplicate. */
			seqset_copy(&r->recv, &r->stored);
			atomic_fetch_add(&ctr.rejected[it->outcome == STORE_REFUSED ? REJ_CONFLICT :
						       it->outcome == STORE_LIMIT ? REJ_LIMIT :
						       it->outcome == STORE_NO_CASE ? REJ_NO_CASE : REJ_STORE], 1);
			continue;
		}
		if (it->outcome == 1)
			atomic_fetch_add(&ctr.stored, 1);
		seqset_add(&r->stored, it->h.seq);
		if (it->h.type == XCB_T_DONE) {
			struct xcb_done d;

			if (xcb_dec_done(it->data, it->h.length, &d) == XCB_OK)
				r->expected = d.frames + 1;
		}
		reg_maybe_close(r);
		if (r->ack_mark != mark && nacks < BATCH_MAX) {
			r->ack_mark = mark;
			acks[nacks++] = r;
		}
	}
	for (int i = 0; i < nacks; i++)
		ack_fn(acks[i]);
	pthread_mutex_unlock(&reg_lock);
}

/* The fast path predicted wrong (dbi_sync: a duplicate seq, a RESULT
 * stored already): the batch is rolled back, to be applied again the
 * careful way, as if it had not been tried. */
static void undo_for_careful(struct witem *batch)
{
	rollback();
	store_touch_discard();
	store_runs_forget_all();
	for (struct witem *it = batch; it; it = it->next)
		if (!it->fn && it->run && it->created)
			it->run->id = 0; /* its row was rolled back */
}

/* 1 if the batch may take the store's fast path: it holds no task (a task
 * may read or change any run, behind what the store keeps in memory). */
static int batch_fast(const struct witem *batch)
{
	for (const struct witem *it = batch; it; it = it->next)
		if (it->fn)
			return 0;
	return 1;
}

/* One batch in one transaction: each item applied, COMMIT, then the
 * outcomes recorded and the runs ACKed (an ACK only after its COMMIT).
 * Frames go the store's fast path first (their statements deferred, each
 * with the rows it must change); dbi_sync before the COMMIT checks every
 * one, and a wrong prediction makes the batch go again the careful way,
 * so what is committed, and ACKed, is what the careful way would commit. */
static void process(struct witem *batch)
{
	int failed, fast = batch_fast(batch), tasks = !fast;
	char whybuf[WRITER_WHY];

again:
	store_fast(fast);
	if (!connection_ready(tasks)) {
		snprintf(whybuf, sizeof(whybuf), "reconnecting: %s", dbi_errmsg(wdb));
		failed = 2;
	} else {
		failed = exec("BEGIN", 1) && !begin_again();
	}
	for (struct witem *it = batch; it && !failed; it = it->next) {
		/* A task sees (and may change) the runs as the frames before it
		 * left them: their counters are written first (store_touch.c). */
		if (it->fn && store_flush())
			failed = 1;
		else if (it->fn) {
			store_runs_forget_all(); /* it may change runs */
			it->fn(wdb, it->arg);
		} else
			failed = apply_frame(it);
		if (!dbi_in_txn(wdb))
			failed = 1;
	}
	/* The runs' counters are part of the batch's commit (and so of what
	 * its ACKs promise); so is every deferred statement's answer. */
	if (!failed && store_flush())
		failed = 1;
	if (!failed) {
		int sync = dbi_sync(wdb);

		if (sync == DBI_MISMATCH && fast) {
			undo_for_careful(batch);
			fast = 0;
			goto again;
		}
		failed = sync != DBI_OK;
	}
	if (!failed && exec("COMMIT", 1))
		failed = 1;
	if (!failed)
		runrender_changed(); /* a run it stored to may be finished now */
	store_fast(0);
	if (failed)
		batch_failed(batch, failed, whybuf, sizeof(whybuf));
	set_health(failed ? whybuf : NULL);
	for (struct witem *it = batch; it; it = it->next)
		if (it->fn) {
			it->outcome = failed ? -1 : 1;
			if (failed) /* its caller's answer names the store's failure */
				snprintf(it->why, WRITER_WHY, "%s", whybuf);
		}
	record_and_ack(batch);
}

static void *writer_main(void *unused)
{
	double last_lost = 0, last_ckpt = now_mono();
	int rendering = 0; /* the last idle turn rendered a run's page: more may wait */

	(void)unused;
	pthread_setname_np(pthread_self(), "xcbd-writer"); /* for top -H, perf, ps -L */
	for (;;) {
		struct witem *batch, *cut, *it;
		int n = 1, quit;

		pthread_mutex_lock(&q_lock);
		if (!head && !stopping && !rendering) {
			struct timespec ts;

			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_sec += 1;
			pthread_cond_timedwait(&q_cond, &q_lock, &ts);
		}
		batch = head;
		quit = stopping && !head;
		if (batch) {
			for (cut = batch; cut->next && n < BATCH_MAX; cut = cut->next) {
				qbytes -= cut->fn ? 0 : cut->h.length;
				n++;
			}
			qbytes -= cut->fn ? 0 : cut->h.length;
			head = cut->next;
			if (!head)
				tail = NULL;
			cut->next = NULL;
			qlen -= (size_t)n;
			atomic_store(&ctr.queued, qlen);
		}
		pthread_mutex_unlock(&q_lock);

		if (batch) {
			process(batch);
			pthread_mutex_lock(&q_lock);
			for (it = batch; it;) {
				struct witem *next = it->next;

				if (it->fn) {
					/* it lives on the caller's stack */
					*it->done = it->outcome == 1 ? 1 : -1;
				} else {
					free(it); /* its payload with it */
				}
				it = next;
			}
			pthread_cond_broadcast(&done_cond);
			pthread_mutex_unlock(&q_lock);
		} else if (!quit && conn_lost) {
			connection_ready(0); /* idle: reconnect when it is due */
		} else if (!quit) {
			/* Idle (the queue was empty): one finished run's page
			 * rendered and stored, then the queue is looked at again,
			 * so frames wait at most one rendering. */
			rendering = runrender_idle(wdb);
			if (rendering < 0)
				check_connection();
			rendering = rendering > 0;
		}
		/* Also the idle writer's probe of its connection: its statements
		 * (once a second) find a server that went away, and
		 * check_connection says so in /health. */
		if (now_mono() - last_lost >= 1.0 && !conn_lost) {
			last_lost = now_mono();
			if (exec("BEGIN", 1) == 0) {
				int changed = store_mark_lost(wdb, cfg.lost_after);

				if (exec("COMMIT", 1))
					rollback();
				else if (changed)
					runrender_changed();
			}
			if (dbi_conn_lost(wdb))
				check_connection();
		}
		/* A checkpoint every few seconds besides SQLite's own (every 1000
		 * pages at commit): with readers holding short transactions only
		 * (csvstream.c) it completes, and journal_size_limit then trims the
		 * file. PASSIVE: it never waits for a reader. */
		if (now_mono() - last_ckpt >= 5.0) {
			last_ckpt = now_mono();
			dbi_idle(wdb);
		}
		/* What this turn's commits left for after their answers (the
		 * batch's ACKs are sent and its tasks' callers woken above):
		 * SQLite's WAL catch-up, dbi_sqlite_ckpt.c. */
		dbi_settle(wdb);
		if (quit)
			break;
	}
	return NULL;
}

int writer_start(struct dbi *db, writer_ack_fn ack)
{
	wdb = db;
	ack_fn = ack;
	if (store_open(db))
		return -1;
	running = 1;
	if (pthread_create(&thread, NULL, writer_main, NULL)) {
		running = 0;
		return -1;
	}
	return 0;
}

void writer_stop(void)
{
	pthread_mutex_lock(&q_lock);
	if (!running) {
		pthread_mutex_unlock(&q_lock);
		return;
	}
	stopping = 1;
	pthread_cond_signal(&q_cond);
	pthread_mutex_unlock(&q_lock);
	pthread_join(thread, NULL);
	pthread_mutex_lock(&q_lock);
	running = 0;
	pthread_mutex_unlock(&q_lock);
	store_close();
}
