/*
 * registry.c — every run the daemon knows, by token: what has been seen and
 * what is committed, so the collector can dedupe and ACK without touching
 * SQLite. One mutex (reg_lock) guards the table and every struct run in it:
 * the collector (dedupe), the writer (commit → ACK) and HTTP (token creation)
 * all touch runs, and each holds the lock only for a few bit operations.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "registry.h"
#include "xcbd.h"
#include "util.h"

#define NBUCKETS 4096

pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct run *buckets[NBUCKETS];

static unsigned hash(uint64_t t)
{
	t ^= t >> 33;
	t *= 0xff51afd7ed558ccdull;
	t ^= t >> 33;
	return (unsigned)(t % NBUCKETS);
}

struct run *reg_find(uint64_t token)
{
	for (struct run *r = buckets[hash(token)]; r; r = r->next_in_bucket)
		if (r->token == token)
			return r;
	return NULL;
}

struct run *reg_add(uint64_t token, int64_t id)
{
	struct run *r = reg_find(token);
	unsigned h = hash(token);

	if (r)
		return r;
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->token = token;
	r->id = id;
	r->recv.window = r->stored.window = RUN_WINDOW;
	r->next_in_bucket = buckets[h];
	buckets[h] = r;
	return r;
}

void reg_maybe_close(struct run *r)
{
	if (r->closed || !r->expected || r->stored.next < r->expected)
		return;
	r->closed = 1;
	seqset_shrink(&r->recv);
	seqset_shrink(&r->stored);
}

/* Loads every run; for runs still open, the seqs already stored (so a daemon
 * restarted mid-run keeps deduplicating and ACKs correctly). */
int reg_load(struct dbi *db)
{
	enum { RL_ID, RL_TOKEN, RL_STATUS, RL_EXPECTED, RL_PEER }; /* the runs query's columns */
	struct dbi_stmt *runs, *frames;
	int rc = -1;

	/* This lab's runs only: another lab's daemon collects its own. */
	if (dbi_query(db, "SELECT id, token, status, frames_expected, peer FROM runs "
		      "WHERE lab IS NOT DISTINCT FROM CAST(? AS TEXT)", &runs, DBI_T(cfg.lab)))
		return -1;
	/* The ledger: the careful path's frames rows and the fast path's spans
	 * (store.c), each [lo, hi], in seq order (the sets' window moves up). */
	if (dbi_prepare(db, "SELECT seq, seq FROM frames WHERE run_id = ?1 UNION ALL "
			"SELECT lo, hi FROM frame_spans WHERE run_id = ?1 ORDER BY 1", &frames)) {
		dbi_finalize(runs);
		return -1;
	}
	while (dbi_step(runs) == DBI_ROW) {
		uint64_t token = strtoull(dbi_column_text(runs, RL_TOKEN), NULL, 16);
		struct run *r = reg_add(token, dbi_column_i64(runs, RL_ID));
		const char *st = dbi_column_text(runs, RL_STATUS);

		if (!r)
			goto out;
		if (dbi_column_type(runs, RL_PEER) == DBI_TEXT &&
		    inet_pton(AF_INET, dbi_column_text(runs, RL_PEER), &r->bound) == 1)
			r->is_bound = 1;
		if (strcmp(st, "complete") == 0 && dbi_column_type(runs, RL_EXPECTED) != DBI_NULL) {
			/* frames_expected counts DONE too: seqs 0..n-1 are all stored. */
			uint32_t n = (uint32_t)dbi_column_i64(runs, RL_EXPECTED);

			seqset_fill(&r->recv, n);
			seqset_fill(&r->stored, n);
			r->expected = n;
			reg_maybe_close(r);
			continue;
		}
		if (dbi_column_type(runs, RL_EXPECTED) != DBI_NULL)
			r->expected = (uint32_t)dbi_column_i64(runs, RL_EXPECTED);
		dbi_bind_i64(frames, 1, r->id);
		while (dbi_step(frames) == DBI_ROW) {
			uint32_t lo = (uint32_t)dbi_column_i64(frames, 0), hi = (uint32_t)dbi_column_i64(frames, 1);

			/* (a seq outside the sets' window stops the span: no more of
			 * it can go in either) */
			for (uint32_t seq = lo; seq >= lo && seq <= hi; seq++)
				if (seqset_add(&r->recv, seq) < 0 || seqset_add(&r->stored, seq) < 0)
					break;
		}
		dbi_reset(frames);
		reg_maybe_close(r);
	}
	rc = 0;
out:
	dbi_finalize(runs);
	dbi_finalize(frames);
	return rc;
}

void reg_free_all(void)
{
	for (int i = 0; i < NBUCKETS; i++) {
		while (buckets[i]) {
			struct run *r = buckets[i];

			buckets[i] = r->next_in_bucket;
			seqset_free(&r->recv);
			seqset_free(&r->stored);
			free(r);
		}
	}
}

uint64_t fresh_token(void)
{
	uint64_t t = 0;

	while (t == 0)
		if (getrandom(&t, sizeof(t), 0) != sizeof(t))
			t = (uint64_t)now_s() * 0x9e3779b97f4a7c15ull ^ (uint64_t)rand();
	return t;
}
