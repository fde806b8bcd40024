/*
 * runcounts.c — the run case counts' cache and their grouped count
 * (runcounts.h). One cache for the process, behind a mutex: a per-thread
 * cache started empty on every HTTP thread, so each thread paid the whole
 * count once. Direct-mapped by run id: a bounded size whatever the number
 * of runs, a page of 1000 runs fits without evicting itself.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "runcounts.h"

#define SLOTS 4096

struct slot {
	int64_t id, frames, cases, done;
	uint64_t token; /* FNV-1a of the token: a deleted run's id reused is another run */
};
/* lock guards every slot of cache: a slot is 5 words written by one
 * thread's put while another's get may read it (runcounts_fill takes it
 * once per lookup pass and once per chunk's stores, never across SQL). */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct slot cache[SLOTS];

/* The counts of the runs of an IN list (its placeholders follow): one row
 * per run with cases; a run without any is absent, its counts are 0. */
#define COUNTS_SQL \
	"SELECT c.run_id, count(*), count(CASE WHEN EXISTS (SELECT 1 FROM results s " \
	"WHERE s.run_id = c.run_id AND s.case_id = c.case_id) THEN 1 END) FROM cases c WHERE c.run_id IN ("

/* FNV-1a, 0 never (an empty slot). */
static uint64_t hash(const char *s)
{
	uint64_t h = 14695981039346656037ULL;

	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h ? h : 1;
}

/* 1 with r's counts set from the cache, else 0. Caller holds lock. */
static int get_locked(struct run_row *r)
{
	const struct slot *s = &cache[(uint64_t)r->id % SLOTS];

	if (s->token == 0 || s->id != r->id || s->frames != r->frames_received.i || s->token != hash(r->token))
		return 0;
	r->cases = s->cases;
	r->cases_done = s->done;
	return 1;
}

/* Caches r's counts under its id, token and frames. Caller holds lock. */
static void put_locked(const struct run_row *r)
{
	struct slot *s = &cache[(uint64_t)r->id % SLOTS];

	s->id = r->id;
	s->frames = r->frames_received.i;
	s->cases = r->cases;
	s->done = r->cases_done;
	s->token = hash(r->token);
}

/* Counts the k runs miss[0..k) in one statement and caches them. 0, or -1
 * if the statement failed (their counts stay 0, uncached). The IN list
 * has a power of two of places, the last id repeated into the spare ones:
 * a few texts, so that a PostgreSQL reader plans each once (dbi_pg.c's
 * plan_shared) instead of a text per number of misses. */
static int count_chunk(struct dbi *db, struct run_row **miss, size_t k)
{
	struct buf sql = { 0 };
	struct dbi_stmt *st = NULL;
	size_t places = 1;
	int rc = -1;

	while (places < k)
		places *= 2;
	buf_addf(&sql, COUNTS_SQL);
	for (size_t i = 0; i < places; i++)
		buf_addf(&sql, i ? ", ?" : "?");
	buf_addf(&sql, ") GROUP BY c.run_id");
	if (!sql.p || dbi_prepare(db, sql.p, &st) != DBI_OK)
		goto out;
	for (size_t i = 0; i < places; i++)
		dbi_bind_i64(st, (int)i + 1, miss[i < k ? i : k - 1]->id);
	/* Rows come in any order: each finds its run among the chunk's. */
	while ((rc = dbi_step(st)) == DBI_ROW) {
		int64_t id = dbi_column_i64(st, 0);

		for (size_t i = 0; i < k; i++)
			if (miss[i]->id == id) {
				miss[i]->cases = dbi_column_i64(st, 1);
				miss[i]->cases_done = dbi_column_i64(st, 2);
				break;
			}
	}
	if (rc != DBI_DONE) {
		for (size_t i = 0; i < k; i++)
			miss[i]->cases = miss[i]->cases_done = 0;
		rc = -1;
		goto out;
	}
	rc = 0;
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < k; i++)
		put_locked(miss[i]);
	pthread_mutex_unlock(&lock);
out:
	dbi_finalize(st);
	buf_free(&sql);
	return rc;
}

void runcounts_fill(struct dbi *db, struct run_row *rows, size_t n)
{
	struct run_row **miss = malloc((n ? n : 1) * sizeof(*miss));
	size_t k = 0;

	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < n; i++) {
		rows[i].cases = rows[i].cases_done = 0;
		if (!get_locked(&rows[i]) && miss)
			miss[k++] = &rows[i];
	}
	pthread_mutex_unlock(&lock);
	for (size_t i = 0; i < k; i += RUNCOUNTS_CHUNK)
		count_chunk(db, miss + i, k - i < RUNCOUNTS_CHUNK ? k - i : RUNCOUNTS_CHUNK);
	free(miss);
}
