/*
 * store_ledger.c — the fast path's frame-ledger rows (table frames: run,
 * seq, type, received) of one batch, kept in memory and inserted by
 * multi-row statements, LEDGER_BLOCK rows each, instead of one INSERT per
 * frame.
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
 * Same promises as a statement a frame: each block is deferred (dbi_defer)
 * asking for all its rows, ON CONFLICT DO NOTHING, so a duplicate seq (a
 * stored one, or two in one batch) changes fewer rows: a wrong prediction
 * dbi_sync reports, and the writer redoes the batch the careful way. The
 * rows are written by store_flush (store_touch.c), which the writer calls
 * before every task and before COMMIT, so every ACKed frame's ledger row
 * is in the commit; a rolled-back batch discards them with the runs' sums.
 * Writer thread only, like every store_* call.
 */
#include <stdio.h>

#include "store_sql.h"
#include "util.h"

/* 4 parameters a row: 1024 a full block, under both engines' limits
 * (SQLite 32766, PostgreSQL 65535). A partial block at the flush goes as
 * power-of-two pieces, so at most LEDGER_SIZES statements are prepared. */
#define LEDGER_BLOCK 256
#define LEDGER_SIZES 9 /* 1, 2, 4, ... 256 rows */

static int64_t rows[LEDGER_BLOCK][4];
static int nrows, block = LEDGER_BLOCK; /* rows a flush waits for: the engine's */
static struct dbi_stmt *ledger_st[LEDGER_SIZES];
static struct dbi *ledger_db;

/* The INSERT of 2^k rows, prepared on first use on the writer's
 * connection; NULL if it cannot be. */
static struct dbi_stmt *ledger_stmt(int k)
{
	struct buf q = { 0 };

	if (ledger_st[k])
		return ledger_st[k];
	buf_addf(&q, "INSERT INTO frames(run_id, seq, type, received) VALUES ");
	for (int i = 0; i < 1 << k; i++)
		buf_addf(&q, "%s(?, ?, ?, ?)", i ? ", " : "");
	buf_addf(&q, " ON CONFLICT DO NOTHING");
	if (!q.p || dbi_prepare(ledger_db, q.p, &ledger_st[k])) {
		fprintf(stderr, "xcbenchd: prepare: %s\n", dbi_errmsg(ledger_db));
		ledger_st[k] = NULL;
	}
	buf_free(&q);
	return ledger_st[k];
}

/* Defers the INSERT of rows first .. first+2^k-1, all required: 0 or -1. */
static int put(int first, int k)
{
	struct dbi_stmt *s = ledger_stmt(k);

	if (!s)
		return -1;
	for (int i = 0; i < 1 << k; i++)
		for (int c = 0; c < 4; c++)
			dbi_bind_i64(s, i * 4 + c + 1, rows[first + i][c]);
	return store_write(s, 1, 1 << k);
}

int store_ledger_add(int64_t id, uint32_t seq, unsigned type, int64_t now)
{
	rows[nrows][0] = id;
	rows[nrows][1] = seq;
	rows[nrows][2] = type;
	rows[nrows][3] = now;
	if (++nrows < block)
		return 0;
	return store_ledger_flush();
}

int store_ledger_flush(void)
{
	int at = 0, rc = 0;

	/* The largest power-of-two pieces first: 300 rows are 256 + 32 + 8 + 4. */
	for (int k = LEDGER_SIZES - 1; k >= 0 && rc == 0; k--)
		if (nrows - at >= 1 << k) {
			rc = put(at, k);
			at += 1 << k;
		}
	nrows = 0; /* written, or failed: then the batch is rolled back */
	return rc;
}

void store_ledger_discard(void)
{
	nrows = 0;
}

void store_ledger_open(struct dbi *db)
{
	ledger_db = db;
	block = dbi_engine(db) == DBI_PG ? LEDGER_BLOCK : 1;
}

void store_ledger_close(void)
{
	for (int k = 0; k < LEDGER_SIZES; k++) {
		dbi_finalize(ledger_st[k]);
		ledger_st[k] = NULL;
	}
	nrows = 0;
}
