/*
 * store_ledger.c — the fast path's frame-ledger rows (table frames: run,
 * seq, type, received) of one batch, kept in memory and inserted by
 * multi-row statements, LEDGER_BLOCK rows each, instead of one INSERT per
 * frame (a store_block.h block).
 *
 * Why: after raw samples became one row a frame (migration 011), a batch
 * of frames was two statements a frame, the ledger's and the data's, and
 * on PostgreSQL the server's per-statement work (bind, executor start,
 * snapshot) is the ingest bound; the ledger's rows need no per-row check
 * but the primary key, so they go together. Portable SQL (a VALUES list,
 * the engine-typed parameters of dbi_bind_i64), so both engines run it,
 * but only PostgreSQL gains: on SQLite a row costs the same instructions
 * either way (callgrind: -3 % for the writer), and a 1024-parameter
 * statement run again and again made the writer's malloc arena trim and
 * grow (madvise: 1.6k -> 31k calls, its system time 7x, xcb-load's 200
 * machines 2.5x slower), so SQLite keeps a statement a row (block 1).
 *
 * On PostgreSQL the batch's rows go as one COPY (dbi_copy_in) at the
 * flush, not 256 a statement: COPY has no speculative insertion (ON
 * CONFLICT's index probe, token and second WAL record a row) and no
 * parameters to parse; the primary key is the check.
 *
 * Same promises as a statement a frame: each block is deferred (dbi_defer,
 * dbi_copy_in) asking for all its rows, ON CONFLICT DO NOTHING or the
 * COPY's primary key, so a duplicate seq (a stored one, or two in one
 * batch) changes fewer rows or fails the COPY in its savepoint: a wrong
 * prediction dbi_sync reports, and the writer redoes the batch the
 * careful way. The
 * rows are written by store_flush (store_touch.c), which the writer calls
 * before every task and before COMMIT, so every ACKed frame's ledger row
 * is in the commit; a rolled-back batch discards them with the runs' sums.
 * (store_block.c keeps the rows and writes the pieces.)
 * Writer thread only, like every store_* call.
 */
#include "store_block.h"
#include "store_sql.h"

/* The INSERT of rows ledger rows (4 parameters each: 1024 in a full
 * block, under both engines' limits, SQLite 32766, PostgreSQL 65535). */
static void ledger_sql(struct buf *q, int rows)
{
	buf_addf(q, "INSERT INTO frames(run_id, seq, type, received) VALUES ");
	for (int i = 0; i < rows; i++)
		buf_addf(q, "%s(?, ?, ?, ?)", i ? ", " : "");
	buf_addf(q, " ON CONFLICT DO NOTHING");
}

static struct store_block ledger = { .ncols = 4, .sql = ledger_sql, .copy = "frames(run_id, seq, type, received)" };

int store_ledger_add(int64_t id, uint32_t seq, unsigned type, int64_t now)
{
	store_block_int(&ledger, id);
	store_block_int(&ledger, seq);
	store_block_int(&ledger, type);
	store_block_int(&ledger, now);
	return store_block_row(&ledger);
}

int store_ledger_flush(void)
{
	return store_block_flush(&ledger);
}

void store_ledger_discard(void)
{
	store_block_discard(&ledger);
}

int store_ledger_open(struct dbi *db)
{
	return store_block_open(&ledger, db, dbi_engine(db) == DBI_PG ? STORE_BLOCK_ROWS : 1);
}

void store_ledger_close(void)
{
	store_block_close(&ledger);
}
