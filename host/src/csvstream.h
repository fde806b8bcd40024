/*
 * csvstream.h — streamed CSV responses (csvstream.c). A row callback appends
 * one record per statement row; the response pulls rows as the client
 * reads, each block of rows in its own short read transaction (keyset
 * paging).
 */
#ifndef XCB_CSVSTREAM_H
#define XCB_CSVSTREAM_H

#include <microhttpd.h>
#include "dbi.h"
#include <stdint.h>

#include "util.h"

typedef void (*csv_row_fn)(struct dbi_stmt *st, struct buf *out, void *ctx);
#define CSV_KEYS_MAX 4
struct csv_query {
	struct dbi *db;            /* this thread's read-only connection */
	const char *sql;        /* one %s: where the resume predicate goes ("1" at first) */
	const char *resume;     /* rows after the last one sent, over :k1..:kN */
	int nkeys, keycol[CSV_KEYS_MAX]; /* result columns holding the unique ORDER BY key */
	void (*bind)(struct dbi_stmt *st, void *bind_ctx); /* the query's own parameters */
	void *bind_ctx;
	void (*bind_free)(void *);
	int64_t limit, offset;  /* the export's :limit (-1 all) and :offset */
	/* Rows a block asks for, when fewer than the default (0: the
	 * default): a query whose row is many CSV records (a chunk of
	 * samples: up to 358) keeps a block's CSV near the default's size. */
	int block_rows;
};
/* NULL if the query does not prepare (q's and ctx's free functions are
 * called in every case once the stream is done with them). */
struct MHD_Response *csv_stream(const struct csv_query *q, const char *header, csv_row_fn fn,
				void *ctx, void (*ctx_free)(void *));
/* The same for a query whose first ncols (<= 64) columns are all
 * integers, the keys among them: each block is read at once
 * (dbi_fetch_ints: on PostgreSQL a COPY, no PGresult), then fn formats
 * its rows (v[0..ncols), a NULL read as 0 with its bit set in nulls). */
typedef void (*csv_ints_fn)(const int64_t *v, uint64_t nulls, struct buf *out, void *ctx);
struct MHD_Response *csv_stream_ints(const struct csv_query *q, int ncols, const char *header,
				     csv_ints_fn fn, void *ctx, void (*ctx_free)(void *));
struct MHD_Response *csv_buffer(struct buf *all); /* takes ownership of all */

#endif
