/*
 * store_block.h — a block of rows for one multi-row INSERT: the fast
 * path's rows of one batch kept in memory and written by few statements,
 * each deferred (dbi_defer) asking for all its rows, instead of one
 * statement a row (store_block.c). The frame ledger's spans
 * (store_ledger.c, a statement a span) and, on PostgreSQL, the RESULT,
 * HISTO and SAMPLES rows (store_data.c) are blocks; on PostgreSQL the
 * RESULT rows go by COPY (dbi_copy_in), the chunks' as one statement over
 * arrays (unnest). Writer thread only, like every store_* call.
 */
#ifndef XCB_STORE_BLOCK_H
#define XCB_STORE_BLOCK_H

#include <stdint.h>

#include "dbi.h"
#include "util.h"

/* Rows a statement holds at most; a flush writes what is kept as pieces
 * of 2^k rows (the largest first: 300 rows are 256 + 32 + 8 + 4), so at
 * most STORE_BLOCK_SIZES statements of a block are ever prepared. */
#define STORE_BLOCK_ROWS 256
#define STORE_BLOCK_SIZES 9 /* 1, 2, 4, ... 256 rows */
/* Text a block keeps before it writes itself, however few its rows. */
#define STORE_BLOCK_TEXT_MAX (1u << 20)

/* One parameter of a kept row. */
struct store_cell {
	int64_t v;  /* the integer, or the text's offset in the block's text */
	int len;    /* STORE_CELL_INT, STORE_CELL_NULL, or the text's length */
};
#define STORE_CELL_INT (-1)
#define STORE_CELL_NULL (-2)

struct store_block {
	/* Set by the owner: parameters a row, and the INSERT of rows rows
	 * written into q (ncols parameters a row, in order). */
	int ncols;
	void (*sql)(struct buf *q, int rows);
	/* Or "table(column, ...)" when a row needs no check but the table's
	 * unique keys: on PostgreSQL the rows are then COPY's text and go
	 * with one dbi_copy_in at the flush (sql unused), however many. */
	const char *copy;
	/* Or 1 when sql(q, 0) is one statement for any number of rows: ncols
	 * parameters, each a column's values as an array literal ("{1,2}",
	 * for unnest): the rows are kept so, and go with one statement at
	 * the flush. PostgreSQL only: store_block_open fails elsewhere. */
	int arrays;
	/* Kept by store_block.c. */
	int max;                  /* rows a write waits for (store_block_open) */
	int copying;              /* copy, on this connection: rows in text */
	int arraying;             /* arrays, on this connection: rows in cols */
	struct buf *cols;         /* arraying: a column's array literal so far */
	size_t colbytes;          /* arraying: their bytes */
	int nrows, ncells, failed;
	unsigned flushes;         /* writes and discards so far: what owners of
				   * facts about the kept rows compare */
	struct store_cell *cells; /* STORE_BLOCK_ROWS * ncols */
	struct buf text;
	struct dbi_stmt *st[STORE_BLOCK_SIZES];
	struct dbi *db;
};

/* Readies b on the writer's connection db, written every max rows
 * (1 .. STORE_BLOCK_ROWS, fewer where ncols parameters a row would pass
 * DBI_PARAMS_MAX; a COPY or arrays block only at the flush, or past
 * STORE_BLOCK_TEXT_MAX): 0, or -1 out of memory. */
int store_block_open(struct store_block *b, struct dbi *db, int max);
/* Lets its statements and memory go, its rows forgotten. */
void store_block_close(struct store_block *b);
/* The next parameter of the row being kept: an integer, a NULL, a text
 * (copied). */
void store_block_int(struct store_block *b, int64_t v);
void store_block_null(struct store_block *b);
void store_block_text(struct store_block *b, const char *s, int len);
/* The row is complete: kept, and the block written when it is full. 0 or
 * -1 (the batch must be rolled back). */
int store_block_row(struct store_block *b);
/* Writes the kept rows (deferred, all required): 0 or -1. */
int store_block_flush(struct store_block *b);
/* Forgets them (a rolled-back batch). */
void store_block_discard(struct store_block *b);

#endif
