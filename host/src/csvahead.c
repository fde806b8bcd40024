/*
 * csvahead.c — blocks of integer rows read ahead on a thread of their own
 * (csvahead.h). A streamed export on one thread read a block, then
 * formatted it, then read the next: the database's work (SQLite's steps,
 * ~8k instructions a row of the run CSV; on PostgreSQL the server's) and
 * ours (~3k) took turns on one core. Here a thread with its own read
 * connection fills block k+1 while the HTTP thread formats block k.
 *
 * Memory stays two blocks whatever the export's size: the thread fills a
 * block only once the HTTP thread is done with the one it held two blocks
 * before. Each fill is a whole block's read (dbi_fetch_ints: its read
 * transaction over when it returns), so a client that stalls leaves the
 * thread waiting with no snapshot held, as csvstream.c's blocks require.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "csvahead.h"
#include "db.h"

/* At most this many exports read ahead at once: each holds a thread and a
 * read connection (on PostgreSQL a server backend) for its duration, so
 * many slow clients must not exhaust the server's connections or the
 * daemon's threads. An export past the cap is read on its HTTP thread, as
 * before read-ahead: slower, never refused. */
#define AHEAD_MAX 4

/* Exports reading ahead now: counted up in ahead_start, down in ahead_free
 * (relaxed: a counter with no data published through it). */
static atomic_int ahead_running;

/* Read connections of ended threads, idle (no statement, no transaction),
 * for the next threads. Why kept: on PostgreSQL a connection is a server
 * backend, and a new backend maps the server's shared buffers page by page
 * as it first touches them: a 1M-row export through 128 MiB of them cost
 * a new backend ~32k page faults, and on the bench's VM ~1 s of the 2.6-2.9
 * s of server CPU it took, which a backend that has read before does not
 * pay again (bench/LIMITS.md, CSV export). At most AHEAD_MAX open at once,
 * kept or in use: a thread opens one only when none is kept, and at most
 * AHEAD_MAX threads run. spare_mu guards spare and nspare (taken by a
 * starting thread, given back by an ending one, emptied at shutdown). */
static pthread_mutex_t spare_mu = PTHREAD_MUTEX_INITIALIZER;
static struct dbi *spare[AHEAD_MAX];
static int nspare;

/* A spare read connection, else a new one (NULL if it cannot open). A
 * spare whose server restarted meanwhile reconnects on its first failed
 * statement, as every reader does (dbi_pg.c). */
static struct dbi *spare_take(void)
{
	struct dbi *db = NULL;

	pthread_mutex_lock(&spare_mu);
	if (nspare > 0)
		db = spare[--nspare];
	pthread_mutex_unlock(&spare_mu);
	return db ? db : db_ro_open();
}

/* Keeps db (idle: its statements finalized) for the next thread, or
 * closes it when AHEAD_MAX are kept already. */
static void spare_keep(struct dbi *db)
{
	pthread_mutex_lock(&spare_mu);
	if (nspare < AHEAD_MAX) {
		spare[nspare++] = db;
		db = NULL;
	}
	pthread_mutex_unlock(&spare_mu);
	if (db)
		dbi_close(db);
}

void ahead_close_spares(void)
{
	pthread_mutex_lock(&spare_mu);
	while (nspare > 0)
		dbi_close(spare[--nspare]);
	pthread_mutex_unlock(&spare_mu);
}

struct ahead {
	pthread_t thread;
	ahead_fill_fn fill;
	ahead_end_fn end;
	void *arg;
	int64_t *v[2];          /* block k is filled into v[k % 2] */
	uint64_t *nulls[2];
	int n[2];               /* its rows (-1: the fill failed) */
	size_t rows;
	int ncols;
	/* mu guards the counters below; cv is broadcast on each change and
	 * waited on by both sides: the thread for a free block (consumed) or
	 * stop, ahead_take for a filled one (produced, finished). */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int64_t produced;       /* blocks filled */
	int64_t consumed;       /* blocks ahead_done gave back */
	int finished;           /* no block comes after the produced ones */
	int stop;               /* ahead_stop: fill nothing more */
};

/* The thread: fills block after block on its own read connection (a
 * spare, or a new one; kept as a spare when the thread ends) until the
 * last one, a failure, or stop. */
static void *ahead_run(void *p)
{
	struct ahead *a = p;
	struct dbi *db = spare_take();
	int more = 1;

	for (int64_t k = 0; more; k++) {
		int i = (int)(k % 2), n, stop;

		pthread_mutex_lock(&a->mu);
		while (k - a->consumed >= 2 && !a->stop)
			pthread_cond_wait(&a->cv, &a->mu);
		stop = a->stop;
		pthread_mutex_unlock(&a->mu);
		if (stop)
			break;
		n = db ? a->fill(a->arg, db, a->v[i], a->nulls[i], &more) : -1;
		pthread_mutex_lock(&a->mu);
		a->n[i] = n;
		a->produced = k + 1;
		a->finished = n < 0 || !more;
		pthread_cond_broadcast(&a->cv);
		pthread_mutex_unlock(&a->mu);
		more = more && n >= 0;
	}
	if (db) {
		a->end(a->arg, db);
		spare_keep(db);
	}
	return NULL;
}

/* Frees a's blocks and a, and gives back its place under AHEAD_MAX. */
static void ahead_free(struct ahead *a)
{
	atomic_fetch_sub_explicit(&ahead_running, 1, memory_order_relaxed);
	for (int i = 0; i < 2; i++) {
		free(a->v[i]);
		free(a->nulls[i]);
	}
	pthread_mutex_destroy(&a->mu);
	pthread_cond_destroy(&a->cv);
	free(a);
}

struct ahead *ahead_start(ahead_fill_fn fill, ahead_end_fn end, void *arg, size_t rows, int ncols)
{
	struct ahead *a;

	if (atomic_fetch_add_explicit(&ahead_running, 1, memory_order_relaxed) >= AHEAD_MAX) {
		atomic_fetch_sub_explicit(&ahead_running, 1, memory_order_relaxed);
		return NULL;
	}
	if (!(a = calloc(1, sizeof(*a)))) {
		atomic_fetch_sub_explicit(&ahead_running, 1, memory_order_relaxed);
		return NULL;
	}
	a->fill = fill;
	a->end = end;
	a->arg = arg;
	a->rows = rows;
	a->ncols = ncols;
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->cv, NULL);
	for (int i = 0; i < 2; i++) {
		a->v[i] = malloc(rows * (size_t)ncols * sizeof(*a->v[i]));
		a->nulls[i] = malloc(rows * sizeof(*a->nulls[i]));
		if (!a->v[i] || !a->nulls[i]) {
			ahead_free(a);
			return NULL;
		}
	}
	if (pthread_create(&a->thread, NULL, ahead_run, a)) {
		ahead_free(a);
		return NULL;
	}
	return a;
}

int ahead_take(struct ahead *a, const int64_t **v, const uint64_t **nulls)
{
	int64_t k;
	int n = 0;

	pthread_mutex_lock(&a->mu);
	k = a->consumed; /* only this side moves it */
	while (a->produced <= k && !a->finished)
		pthread_cond_wait(&a->cv, &a->mu);
	if (a->produced > k) {
		n = a->n[k % 2];
		*v = a->v[k % 2];
		*nulls = a->nulls[k % 2];
	}
	pthread_mutex_unlock(&a->mu);
	return n;
}

void ahead_done(struct ahead *a)
{
	pthread_mutex_lock(&a->mu);
	a->consumed++;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
}

void ahead_stop(struct ahead *a)
{
	if (!a)
		return;
	pthread_mutex_lock(&a->mu);
	a->stop = 1;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
	pthread_join(a->thread, NULL);
	ahead_free(a);
}
