/*
 * store_ledger.c — the fast path's frame ledger of one batch as spans:
 * each run's consecutive seqs kept in memory as [lo, hi] and written as
 * one row of table frame_spans a span (migration 017) at the flush, not a
 * row of frames a frame.
 *
 * Why: a run was ~2.0 rows a frame, the ledger's half of them, and on
 * PostgreSQL that row was the biggest cost left on the server (a build
 * with no ledger rows took its CPU from 11.6 to 6.9 us a frame,
 * bench/LIMITS.md). A payload sends a run's frames in seq order, so a
 * batch holds a few long spans a run (a 49,056-frame send: ~440-610
 * spans); a seq that does not extend its run's current span starts a new
 * one. Each span is one statement, on both engines (on PostgreSQL queued
 * in the pipeline): one statement over arrays for all the batch's spans,
 * as store_data.c writes chunks, cost the server more (bench/ingest.sh,
 * its CPU a frame: median ~9.1 us against 7.35 a statement a span), as
 * the server planned it again each batch (a custom plan, costed with the
 * arrays' lengths, looks cheaper than the generic one; a span's scalar
 * parameters leave the generic plan).
 *
 * Insert-once stays the database's: a span goes in only where no stored
 * span of its run meets it (the last span starting at or before its hi,
 * one index probe: stored spans never overlap, so no earlier one can
 * reach it without that one doing too) and no frames row of its run lies
 * in it (the careful path's rows, whose S_FRAME probes the spans in turn,
 * store_sql.c). The statement is deferred asking for all its rows
 * (store_block.h), so a span meeting a stored seq inserts fewer: a wrong
 * prediction dbi_sync reports, and the writer redoes the batch the
 * careful way, which stores each frame of it once (as frames rows).
 * A seq already in a kept span of its run (store_ledger_kept: sent twice
 * in one batch) is left to the careful path at once, which store.c runs
 * after writing the kept spans, so that S_FRAME sees them: a duplicate,
 * not a span meeting another and the whole batch redone. A span's received time is
 * its first frame's; frames.type has no reader and spans keep none.
 *
 * The spans are written by store_flush (store_touch.c), which the writer
 * calls before every task and before COMMIT, so every ACKed frame's seq is
 * in the commit; a rolled-back batch discards them with the runs' sums.
 * Reading the ledger (registry.c reg_load, the tests' ledger counts):
 * frames rows plus the spans' seqs.
 *
 * Writer thread only, like every store_* call.
 */
#include <string.h>

#include "store_block.h"
#include "store_sql.h"

/* Spans kept before the batch's are written (a batch is at most 4096
 * frames, writer.c, so this is a flush only in a scattered batch). */
#define SPANS_MAX 4096
/* Slots of the run -> current span index: a power of two, twice the most
 * runs the spans can be of, so probing always ends. */
#define SLOTS (2 * SPANS_MAX)

/* The span insert's checks on a span (R its run, L and H its seqs): no
 * stored span of R meets [L, H], and no frames row of R is in it. */
#define SPAN_FREE(R, L, H) "NOT EXISTS " STORE_SPAN_MEETS(R, L, H) " AND NOT EXISTS " STORE_FRAME_IN(R, L, H)

/* The INSERT of one span (its four parameters CAST: a SELECT list gives
 * them no type on PostgreSQL). */
static void span_sql(struct buf *q, int rows)
{
	(void)rows; /* 1: the block writes a statement a span */
	buf_addf(q, "INSERT INTO frame_spans(run_id, lo, hi, received) SELECT CAST(?1 AS BIGINT), "
		 "CAST(?2 AS BIGINT), CAST(?3 AS BIGINT), CAST(?4 AS BIGINT) WHERE " SPAN_FREE("?1", "?2", "?3"));
}

/* The spans' statements (a block of one row: each deferred asking for
 * its span, store_block.h). */
static struct store_block block = { .ncols = 4, .sql = span_sql };

/* The batch's spans, in the order they were started; prev links a run's. */
static struct span {
	int64_t id, received;
	uint32_t lo, hi;
	int prev; /* the run's span before this one, or -1 */
} spans[SPANS_MAX];
static int nspans;

/* Run id's current (last) span, valid while gen is the ledger's. */
static struct slot {
	int64_t id;
	unsigned gen;
	int at;
} slots[SLOTS];
static unsigned gen = 1;

/* Forgets the kept spans (written or discarded). */
static void spans_reset(void)
{
	nspans = 0;
	if (++gen == 0) { /* wrapped: no slot may look current */
		memset(slots, 0, sizeof(slots));
		gen = 1;
	}
}

/* Run id's slot: its current span's, or the empty one it would take. */
static struct slot *slot_of(int64_t id)
{
	uint64_t h = (uint64_t)id * 0x9e3779b97f4a7c15ull;
	unsigned i = (unsigned)(h >> 40) & (SLOTS - 1);

	while (slots[i].gen == gen && slots[i].id != id)
		i = (i + 1) & (SLOTS - 1);
	return &slots[i];
}

int store_ledger_kept(int64_t id, uint32_t seq)
{
	struct slot *s = slot_of(id);

	if (s->gen != gen)
		return 0;
	for (int i = s->at; i >= 0; i = spans[i].prev)
		if (spans[i].lo <= seq && seq <= spans[i].hi)
			return 1;
	return 0;
}

int store_ledger_add(int64_t id, uint32_t seq, int64_t now)
{
	struct slot *s = slot_of(id);

	if (s->gen == gen && spans[s->at].hi != UINT32_MAX && seq == spans[s->at].hi + 1) {
		spans[s->at].hi = seq;
		return 0;
	}
	if (nspans == SPANS_MAX) {
		if (store_ledger_flush())
			return -1;
		s = slot_of(id);
	}
	spans[nspans] = (struct span){ id, now, seq, seq, s->gen == gen ? s->at : -1 };
	*s = (struct slot){ id, gen, nspans++ };
	return 0;
}

int store_ledger_flush(void)
{
	int rc = 0;

	for (int i = 0; i < nspans && rc == 0; i++) {
		store_block_int(&block, spans[i].id);
		store_block_int(&block, spans[i].lo);
		store_block_int(&block, spans[i].hi);
		store_block_int(&block, spans[i].received);
		rc = store_block_row(&block);
	}
	if (rc == 0)
		rc = store_block_flush(&block);
	/* written, or failed: then the batch is rolled back */
	store_block_discard(&block);
	spans_reset();
	return rc;
}

void store_ledger_discard(void)
{
	store_block_discard(&block);
	spans_reset();
}

int store_ledger_open(struct dbi *db)
{
	spans_reset();
	return store_block_open(&block, db, 1);
}

void store_ledger_close(void)
{
	store_block_close(&block);
	spans_reset();
}
