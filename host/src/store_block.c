/*
 * store_block.c — rows kept in memory and inserted by multi-row
 * statements (store_block.h): the one way the fast path writes many rows
 * of a table with few statements.
 *
 * Why: on PostgreSQL the server's per-statement work (bind, executor
 * start, plan-cache lookups, snapshot) is the ingest bound, and a row
 * costs a fraction of it; so rows that need no answer of their own go
 * together. Each statement is deferred asking for ALL its rows: its own
 * checks (ON CONFLICT DO NOTHING, a NOT EXISTS) make a row that the
 * careful path would refuse change nothing, so the count comes up short,
 * dbi_sync reports a wrong prediction, and the writer redoes the batch
 * the careful way. The owner's store_flush writes every block before any
 * task and before COMMIT, so every ACKed frame's rows are in the commit;
 * a rolled-back batch discards them.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "store_block.h"
#include "store_sql.h"

/* Empties the array literals (each "{" again). */
static void cols_reset(struct store_block *b)
{
	for (int c = 0; b->cols && c < b->ncols; c++) {
		b->cols[c].len = 0;
		if (buf_add(&b->cols[c], "{", 1))
			b->failed = 1;
	}
	b->colbytes = 0;
}

int store_block_open(struct store_block *b, struct dbi *db, int max)
{
	int most = STORE_BLOCK_ROWS;

	/* A statement's parameters stay within DBI_PARAMS_MAX: a RESULT row's
	 * 31 make its full block 128 rows. */
	while (most > 1 && most * b->ncols > DBI_PARAMS_MAX)
		most /= 2;
	b->db = db;
	b->max = max < 1 ? 1 : max > most ? most : max;
	b->nrows = b->ncells = b->failed = 0;
	b->text.len = 0;
	/* A COPY, or a statement over arrays, takes any number of rows:
	 * they wait for the flush. */
	b->copying = b->copy && dbi_engine(db) == DBI_PG;
	b->arraying = b->arrays && dbi_engine(db) == DBI_PG;
	if (b->arrays && !b->arraying)
		return -1; /* its statement is PostgreSQL's (unnest) */
	if (b->copying || b->arraying)
		b->max = INT_MAX;
	if (b->arraying && !b->cols)
		b->cols = calloc((size_t)b->ncols, sizeof(*b->cols));
	cols_reset(b);
	if (!b->cells)
		b->cells = calloc((size_t)STORE_BLOCK_ROWS * (size_t)b->ncols, sizeof(*b->cells));
	return b->cells && (b->cols || !b->arraying) && !b->failed ? 0 : -1;
}

void store_block_close(struct store_block *b)
{
	for (int k = 0; k < STORE_BLOCK_SIZES; k++) {
		dbi_finalize(b->st[k]);
		b->st[k] = NULL;
	}
	free(b->cells);
	b->cells = NULL;
	for (int c = 0; b->cols && c < b->ncols; c++)
		buf_free(&b->cols[c]);
	free(b->cols);
	b->cols = NULL;
	buf_free(&b->text);
	b->nrows = b->ncells = b->failed = 0;
	b->flushes++;
}

/* The next cell of the row being kept (the block holds nrows complete
 * rows and at most one partial one, so it never overflows). */
static struct store_cell *next_cell(struct store_block *b)
{
	return &b->cells[b->ncells++];
}

/* How a field is written into a text block. */
enum { AS_IS, COPY_TEXT, ARRAY_TEXT };

/* A text block's next field: the n bytes at s, as they are (a number,
 * COPY's \N), or a text escaped where COPY's text format would read a
 * delimiter, a line's end or an escape (COPY_TEXT), or quoted as an array
 * element (ARRAY_TEXT); then the separator after it (a tab in a COPY row,
 * whose last store_block_row makes the line's end; a comma in an array,
 * which the flush makes its "}"). */
static void put_field(struct store_block *b, const char *s, size_t n, int how)
{
	struct buf *out = b->arraying ? &b->cols[b->ncells++ % b->ncols] : &b->text;
	size_t was = out->len;
	char *o = buf_room(out, 2 * n + 3);

	/* (out of memory: the block's write fails, the batch rolls back) */
	if (!o) {
		b->failed = 1;
		return;
	}
	if (how == ARRAY_TEXT)
		*o++ = '"';
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];

		if (how == COPY_TEXT && (ch == '\\' || ch == '\t' || ch == '\n' || ch == '\r')) {
			*o++ = '\\';
			ch = ch == '\t' ? 't' : ch == '\n' ? 'n' : ch == '\r' ? 'r' : ch;
		} else if (how == ARRAY_TEXT && (ch == '\\' || ch == '"')) {
			*o++ = '\\';
		}
		*o++ = ch;
	}
	if (how == ARRAY_TEXT)
		*o++ = '"';
	*o++ = b->arraying ? ',' : '\t';
	buf_wrote(out, o);
	if (b->arraying)
		b->colbytes += out->len - was;
}

void store_block_int(struct store_block *b, int64_t v)
{
	if (b->copying || b->arraying) {
		char d[24], *e = d + sizeof(d), *q = e;
		uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

		do
			*--q = (char)('0' + u % 10);
		while (u /= 10);
		if (v < 0)
			*--q = '-';
		put_field(b, q, (size_t)(e - q), AS_IS);
		return;
	}
	*next_cell(b) = (struct store_cell){ v, STORE_CELL_INT };
}

void store_block_null(struct store_block *b)
{
	if (b->copying || b->arraying) {
		put_field(b, b->copying ? "\\N" : "NULL", b->copying ? 2 : 4, AS_IS);
		return;
	}
	*next_cell(b) = (struct store_cell){ 0, STORE_CELL_NULL };
}

void store_block_text(struct store_block *b, const char *s, int len)
{
	struct store_cell *c;

	if (b->copying || b->arraying) {
		put_field(b, s, (size_t)len, b->copying ? COPY_TEXT : ARRAY_TEXT);
		return;
	}
	c = next_cell(b);

	*c = (struct store_cell){ (int64_t)b->text.len, len };
	/* (out of memory: the block's write fails, the batch rolls back) */
	if (buf_add(&b->text, s, (size_t)len))
		b->failed = 1;
}

/* The INSERT of 2^k rows, prepared on first use on the writer's
 * connection; NULL if it cannot be. */
static struct dbi_stmt *piece_stmt(struct store_block *b, int k)
{
	struct buf q = { 0 };

	if (b->st[k])
		return b->st[k];
	b->sql(&q, b->arraying ? 0 : 1 << k);
	if (!q.p || dbi_prepare(b->db, q.p, &b->st[k])) {
		fprintf(stderr, "xcbenchd: prepare: %s\n", dbi_errmsg(b->db));
		b->st[k] = NULL;
	}
	buf_free(&q);
	return b->st[k];
}

/* Defers the INSERT of rows first .. first+2^k-1, all required: 0 or -1. */
static int put(struct store_block *b, int first, int k)
{
	struct dbi_stmt *s = piece_stmt(b, k);
	const struct store_cell *c = &b->cells[first * b->ncols];

	if (!s)
		return -1;
	for (int i = 0; i < (1 << k) * b->ncols; i++) {
		if (c[i].len == STORE_CELL_INT)
			dbi_bind_i64(s, i + 1, c[i].v);
		else if (c[i].len >= 0)
			dbi_bind_text(s, i + 1, b->text.p + c[i].v, c[i].len);
		/* (a NULL: every parameter is one after dbi_defer's clear) */
	}
	return store_write(s, 1, 1 << k);
}

int store_block_row(struct store_block *b)
{
	if (b->copying && b->text.len)
		b->text.p[b->text.len - 1] = '\n'; /* the row's last field's tab */
	if (++b->nrows < b->max && b->text.len + b->colbytes < STORE_BLOCK_TEXT_MAX)
		return 0;
	return store_block_flush(b);
}

/* Writes a COPY block's rows, all required: 0 or -1. */
static int copy_rows(struct store_block *b)
{
	int rc = dbi_copy_in(b->db, b->copy, b->text.p, b->text.len, b->nrows);

	if (rc != DBI_OK && rc != DBI_IOERR)
		fprintf(stderr, "xcbenchd: COPY %s: %s\n", b->copy, dbi_errmsg(b->db));
	return rc == DBI_OK ? 0 : -1;
}

/* Writes an arrays block's rows, one statement asking for all of them: 0
 * or -1. */
static int array_rows(struct store_block *b)
{
	struct dbi_stmt *s = piece_stmt(b, 0);

	if (!s)
		return -1;
	for (int c = 0; c < b->ncols; c++) {
		b->cols[c].p[b->cols[c].len - 1] = '}'; /* its last element's comma */
		dbi_bind_text(s, c + 1, b->cols[c].p, (int)b->cols[c].len);
	}
	return store_write(s, 1, b->nrows);
}

int store_block_flush(struct store_block *b)
{
	int at = 0, rc = b->failed ? -1 : 0;

	if (b->copying && b->nrows && rc == 0)
		rc = copy_rows(b);
	if (b->arraying && b->nrows && rc == 0)
		rc = array_rows(b);
	for (int k = STORE_BLOCK_SIZES - 1; k >= 0 && rc == 0 && !b->copying && !b->arraying; k--)
		if (b->nrows - at >= 1 << k) {
			rc = put(b, at, k);
			at += 1 << k;
		}
	/* written, or failed: then the batch is rolled back */
	store_block_discard(b);
	return rc;
}

void store_block_discard(struct store_block *b)
{
	b->nrows = b->ncells = b->failed = 0;
	b->text.len = 0;
	if (b->arraying)
		cols_reset(b);
	b->flushes++;
}
