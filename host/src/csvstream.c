/*
 * csvstream.c — CSV responses streamed with a libmicrohttpd content-reader
 * callback: rows are pulled from the store only as fast as the client reads, so
 * exporting a run of millions of rows needs constant memory.
 *
 * Each refill is its own short read transaction: the statement is reset
 * after one block of rows (which ends the transaction) and the next block
 * resumes after the last row's key (keyset paging over the query's unique
 * ORDER BY). A client that stalls mid-download used to hold one snapshot
 * for as long as it liked: the WAL could not be checkpointed (5.6 → 156
 * MiB) and every other request on that HTTP thread read the stale snapshot.
 *
 * A block is CSV_BLOCK_ROWS rows, asked for with the query's LIMIT: the
 * PostgreSQL engine fetches a statement's whole result at its first step,
 * so a block that stopped after so many bytes used to fetch (and drop)
 * every remaining row of the export each time (quadratic); SQLite pays one
 * index seek per block. The block's CSV is buffered whole and handed out
 * as the client reads: memory is one block, whatever the export's size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvstream.h"

/* Rows per block (one short read transaction, one buffer: ~0.5 MiB of a
 * run's CSV). */
#define CSV_BLOCK_ROWS 2048

struct stream {
	struct csv_query q;
	struct dbi_stmt *first, *next; /* prepared once each; reset between blocks */
	struct dbval key[CSV_KEYS_MAX]; /* the last row's keys */
	int64_t rows;                /* rows sent so far */
	int64_t want;                /* rows the current block asked for */
	csv_row_fn fn;
	void *ctx;
	void (*ctx_free)(void *);
	struct buf out;
	size_t off;
	int done;
};

static struct dbi_stmt *prepare(struct stream *s, const char *pred)
{
	struct dbi_stmt *st = NULL;
	char *sql = NULL;

	if (asprintf(&sql, s->q.sql, pred) < 0)
		return NULL;
	if (dbi_prepare(s->q.db, sql, &st) != DBI_OK)
		st = NULL;
	free(sql);
	return st;
}

static void bind_int(struct dbi_stmt *st, const char *name, int64_t v)
{
	int i = dbi_param_index(st, name);

	if (i)
		dbi_bind_i64(st, i, v);
}

/* The statement for the next block, bound and positioned. */
static struct dbi_stmt *block(struct stream *s)
{
	int resumed = s->rows > 0;
	struct dbi_stmt *st;
	char name[16];

	if (!resumed)
		st = s->first ? s->first : (s->first = prepare(s, "TRUE"));
	else
		st = s->next ? s->next : (s->next = prepare(s, s->q.resume));
	if (!st)
		return NULL;
	dbi_reset(st);
	dbi_clear(st);
	if (s->q.bind)
		s->q.bind(st, s->q.bind_ctx);
	/* The query's own LIMIT/OFFSET apply to the whole export: a block
	 * asks for CSV_BLOCK_ROWS of what is left. */
	s->want = s->q.limit < 0 || s->q.limit - s->rows > CSV_BLOCK_ROWS
		? CSV_BLOCK_ROWS : s->q.limit - s->rows;
	bind_int(st, ":limit", s->want);
	bind_int(st, ":offset", resumed ? 0 : s->q.offset);
	for (int k = 0; resumed && k < s->q.nkeys; k++) {
		snprintf(name, sizeof(name), ":k%d", k + 1);
		if (dbi_param_index(st, name))
			dbi_bind_value(st, dbi_param_index(st, name), &s->key[k]);
	}
	return st;
}

/* Keeps the row's keys: where the next block resumes. */
static void keep_key(struct stream *s, struct dbi_stmt *st)
{
	for (int k = 0; k < s->q.nkeys; k++) {
		dbval_free(&s->key[k]);
		dbval_read(st, s->q.keycol[k], &s->key[k]);
	}
}

/* Runs the next block into s->out (empty on entry). A block shorter than
 * it asked for is the last one. */
static void refill(struct stream *s)
{
	struct dbi_stmt *st;
	int64_t n = 0;

	if (s->done)
		return;
	st = block(s);
	if (!st || s->want <= 0) { /* no query, or the export's limit reached */
		s->done = 1;
		return;
	}
	while (n < s->want && dbi_step(st) == DBI_ROW) {
		s->fn(st, &s->out, s->ctx);
		if (++n == s->want) /* the block's last row: the next resumes after it */
			keep_key(s, st);
	}
	s->rows += n;
	if (n < s->want)
		s->done = 1;
	dbi_reset(st); /* ends this block's read transaction */
}

static ssize_t reader(void *cls, uint64_t pos, char *dst, size_t max)
{
	struct stream *s = cls;
	size_t avail;

	(void)pos;
	/* The next block only once the client has read all of this one: the
	 * buffer never holds more than one block (bench/csv-export.sh checks
	 * the daemon's peak memory does not grow with the export). */
	if (s->off == s->out.len) {
		s->off = 0;
		s->out.len = 0;
		refill(s);
	}
	avail = s->out.len - s->off;
	if (avail == 0)
		return s->done ? MHD_CONTENT_READER_END_OF_STREAM : 0;
	if (avail > max)
		avail = max;
	memcpy(dst, s->out.p + s->off, avail);
	s->off += avail;
	return (ssize_t)avail;
}

static void stream_free(void *cls)
{
	struct stream *s = cls;

	dbi_finalize(s->first);
	dbi_finalize(s->next);
	for (int k = 0; k < CSV_KEYS_MAX; k++)
		dbval_free(&s->key[k]);
	if (s->q.bind_free)
		s->q.bind_free(s->q.bind_ctx);
	if (s->ctx_free)
		s->ctx_free(s->ctx);
	buf_free(&s->out);
	free(s);
}

static struct MHD_Response *make(struct stream *s)
{
	struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 32 * 1024,
								    reader, s, stream_free);

	if (!r) {
		stream_free(s);
		return NULL;
	}
	MHD_add_response_header(r, "Content-Type", "text/csv; charset=utf-8");
	return r;
}

struct MHD_Response *csv_stream(const struct csv_query *q, const char *header, csv_row_fn fn,
				void *ctx, void (*ctx_free)(void *))
{
	struct stream *s = calloc(1, sizeof(*s));

	if (!s || q->nkeys > CSV_KEYS_MAX) {
		free(s);
		if (q->bind_free)
			q->bind_free(q->bind_ctx);
		if (ctx_free)
			ctx_free(ctx);
		return NULL;
	}
	s->q = *q;
	s->fn = fn;
	s->ctx = ctx;
	s->ctx_free = ctx_free;
	/* Prepared now: a query that cannot run is a 500, not an empty CSV. */
	s->first = prepare(s, "TRUE");
	s->next = prepare(s, q->resume);
	if (!s->first || !s->next) {
		stream_free(s);
		return NULL;
	}
	buf_add(&s->out, header, strlen(header));
	return make(s);
}

struct MHD_Response *csv_buffer(struct buf *all)
{
	struct stream *s = calloc(1, sizeof(*s));

	if (!s) {
		buf_free(all);
		return NULL;
	}
	s->out = *all;
	s->done = 1;
	memset(all, 0, sizeof(*all));
	return make(s);
}
