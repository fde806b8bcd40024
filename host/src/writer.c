/*
 * writer.c — the one thread that writes SQLite. The collector queues frames,
 * HTTP queues small tasks; this thread takes whatever is queued (up to a
 * batch), applies it in ONE transaction, commits, and only then ACKs the
 * frames: an ACK promises the frame is on disk, so the payload may forget it.
 * Batching turns thousands of frames/s into a few commits/s.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util.h"
#include "xcbd.h"

#define QUEUE_MAX 50000   /* frames (~75 MB at most); beyond, the collector drops (no ACK) */
#define BATCH_MAX 2048

struct witem {
	struct witem *next;
	struct run *run;         /* frame: its run; task: NULL */
	struct xcb_hdr h;
	uint8_t *payload;
	wtask_fn fn;             /* task */
	void *arg;
	int *done;
};

static pthread_mutex_t q_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t q_cond = PTHREAD_COND_INITIALIZER;    /* work queued */
static pthread_cond_t done_cond = PTHREAD_COND_INITIALIZER; /* a task finished */
static struct witem *head, *tail;
static size_t qlen;
static int stopping, running;
static pthread_t thread;
static sqlite3 *wdb;

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

int writer_frame(struct run *r, const struct xcb_hdr *h, const uint8_t *payload)
{
	struct witem *it = malloc(sizeof(*it));

	if (!it)
		return -1;
	memset(it, 0, sizeof(*it));
	it->run = r;
	it->h = *h;
	it->payload = malloc(h->length ? h->length : 1);
	if (!it->payload) {
		free(it);
		return -1;
	}
	memcpy(it->payload, payload, h->length);
	pthread_mutex_lock(&q_lock);
	if (qlen >= QUEUE_MAX || stopping) {
		pthread_mutex_unlock(&q_lock);
		free(it->payload);
		free(it);
		return -1;
	}
	enqueue(it);
	atomic_store(&ctr.queued, qlen);
	pthread_mutex_unlock(&q_lock);
	return 0;
}

int writer_call(wtask_fn fn, void *arg)
{
	struct witem it = { .fn = fn, .arg = arg };
	int done = 0;

	it.done = &done;
	pthread_mutex_lock(&q_lock);
	if (!running) {
		pthread_mutex_unlock(&q_lock);
		return -1;
	}
	enqueue(&it);
	while (!done)
		pthread_cond_wait(&done_cond, &q_lock);
	pthread_mutex_unlock(&q_lock);
	return 0;
}

size_t writer_queued(void)
{
	size_t n;

	pthread_mutex_lock(&q_lock);
	n = qlen;
	pthread_mutex_unlock(&q_lock);
	return n;
}

static void exec(const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(wdb, sql, NULL, NULL, &msg) != SQLITE_OK) {
		fprintf(stderr, "xcbenchd: %s: %s\n", sql, msg ? msg : "?");
		sqlite3_free(msg);
	}
}

static void process(struct witem *batch)
{
	static unsigned mark;
	struct run *acks[BATCH_MAX];
	int nacks = 0;

	exec("BEGIN");
	for (struct witem *it = batch; it; it = it->next) {
		if (it->fn) {
			it->fn(wdb, it->arg);
			continue;
		}
		/* r->id is only ever written on this thread (and before threads
		 * start), so it is read here without the registry lock. */
		if (store_frame(wdb, &it->run->id, it->run->token, &it->h, it->payload) == 1)
			atomic_fetch_add(&ctr.stored, 1);
	}
	exec("COMMIT");

	/* Committed: record it and ACK each touched run once (cumulative). */
	mark++;
	pthread_mutex_lock(&reg_lock);
	for (struct witem *it = batch; it; it = it->next) {
		struct run *r = it->run;

		if (!r)
			continue;
		seqset_add(&r->stored, it->h.seq);
		if (it->h.type == XCB_T_DONE) {
			struct xcb_done d;

			if (xcb_dec_done(it->payload, it->h.length, &d) == XCB_OK)
				r->expected = d.frames + 1;
		}
		if (r->ack_mark != mark && nacks < BATCH_MAX) {
			r->ack_mark = mark;
			acks[nacks++] = r;
		}
	}
	for (int i = 0; i < nacks; i++)
		send_ack(acks[i]);
	pthread_mutex_unlock(&reg_lock);
}

static void *writer_main(void *unused)
{
	double last_lost = 0;

	(void)unused;
	for (;;) {
		struct witem *batch, *cut, *it;
		int n = 1, quit;

		pthread_mutex_lock(&q_lock);
		if (!head && !stopping) {
			struct timespec ts;

			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_sec += 1;
			pthread_cond_timedwait(&q_cond, &q_lock, &ts);
		}
		batch = head;
		quit = stopping && !head;
		if (batch) {
			for (cut = batch; cut->next && n < BATCH_MAX; cut = cut->next)
				n++;
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
					*it->done = 1; /* it lives on the caller's stack */
				} else {
					free(it->payload);
					free(it);
				}
				it = next;
			}
			pthread_cond_broadcast(&done_cond);
			pthread_mutex_unlock(&q_lock);
		}
		if (now_mono() - last_lost >= 1.0) {
			last_lost = now_mono();
			exec("BEGIN");
			store_mark_lost(wdb, cfg.lost_after);
			exec("COMMIT");
		}
		if (quit)
			break;
	}
	return NULL;
}

int writer_start(sqlite3 *db)
{
	wdb = db;
	if (store_prepare(db))
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
	store_finalize();
}
