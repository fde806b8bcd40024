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
 * A block is CSV_BLOCK_ROWS rows (fewer where the query says: a row of
 * sample chunks is hundreds of records), asked for with the query's LIMIT: the
 * PostgreSQL engine fetches a statement's whole result at its first step,
 * so a block that stopped after so many bytes used to fetch (and drop)
 * every remaining row of the export each time (quadratic); SQLite pays one
 * index seek per block. The block's CSV is buffered whole and handed out
 * as the client reads: memory is one block, whatever the export's size.
 *
 * A query of numbers only (csv_stream_ints: the run CSV) reads each block
 * at once (dbi_fetch_ints; on PostgreSQL a COPY) and formats it after; its
 * blocks after the first are read ahead on a thread with its own read
 * connection (csvahead.c), so the database's work and the formatting run
 * on two cores: memory is then two blocks of numbers and one of CSV.
 *
 * A block whose read fails (the store's error, mid-export) ends the
 * response with an error, never as a complete one: libmicrohttpd then
 * closes the connection without chunked encoding's last chunk, so a client
 * (curl, pandas, xcbench) sees an export cut short. It ended as if the
 * rows sent so far were all of them: a well-formed, shorter CSV.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvahead.h"
#include "csvstream.h"

/* Rows per block (one short read transaction, one buffer: ~0.5 MiB of a
 * run's CSV). */
#define CSV_BLOCK_ROWS 2048

struct stream {
	struct csv_query q;
	char *sql;                   /* q.sql's own copy */
	struct dbi_stmt *first, *next; /* prepared once each; reset between blocks */
	struct dbval key[CSV_KEYS_MAX]; /* the last row's keys */
	int64_t rows;                /* rows sent so far */
	int64_t want;                /* rows the current block asked for */
	int64_t block;               /* rows a block asks for: q.block_rows or CSV_BLOCK_ROWS */
	csv_row_fn fn;
	csv_ints_fn ifn;             /* instead of fn: rows of numbers (csv_stream_ints) */
	int ncols;                   /* ifn's columns */
	int64_t *v;                  /* ifn's block: CSV_BLOCK_ROWS rows of ncols */
	uint64_t *nulls;             /* and each row's NULLs */
	struct ahead *ahead;         /* ifn's blocks after the first, read ahead (csvahead.c) */
	struct dbi_stmt *anext;      /* next, prepared on the ahead's own connection */
	void *ctx;
	void (*ctx_free)(void *);
	struct buf out;
	size_t off;
	int done;
	int failed;                  /* a block's read failed: the end is an error */
};

/* The query with its predicate pred, prepared on db (NULL on failure). */
static struct dbi_stmt *prepare(struct stream *s, struct dbi *db, const char *pred)
{
	struct dbi_stmt *st = NULL;
	char *sql = NULL;

	if (asprintf(&sql, s->q.sql, pred) < 0)
		return NULL;
	if (dbi_prepare(db, sql, &st) != DBI_OK)
		st = NULL;
	free(sql);
	return st;
}

/* Binds st (first or next) for the next block: its parameters, the
 * block's :limit (s->want), the first's :offset, next's keys. */
static void bind_block(struct stream *s, struct dbi_stmt *st)
{
	int resumed = s->rows > 0;
	char name[16];

	dbi_reset(st);
	dbi_clear(st);
	if (s->q.bind)
		s->q.bind(st, s->q.bind_ctx);
	/* The query's own LIMIT/OFFSET apply to the whole export: a block
	 * asks for its block (s->block) of what is left. */
	s->want = s->q.limit < 0 || s->q.limit - s->rows > s->block
		? s->block : s->q.limit - s->rows;
	dbi_bind_named_i64(st, ":limit", s->want);
	dbi_bind_named_i64(st, ":offset", resumed ? 0 : s->q.offset);
	for (int k = 0; resumed && k < s->q.nkeys; k++) {
		snprintf(name, sizeof(name), ":k%d", k + 1);
		if (dbi_param_index(st, name))
			dbi_bind_value(st, dbi_param_index(st, name), &s->key[k]);
	}
}

/* The statement for the next block on the stream's connection, bound. */
static struct dbi_stmt *block(struct stream *s)
{
	struct dbi_stmt *st = s->rows > 0 ? s->next : s->first;

	if (st)
		bind_block(s, st);
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

/* The block's rows through fn, one step each: 1 if more may follow. */
static int rows_block(struct stream *s, struct dbi_stmt *st)
{
	int64_t n = 0;
	int rc = DBI_DONE;

	while (n < s->want && (rc = dbi_step(st)) == DBI_ROW) {
		s->fn(st, &s->out, s->ctx);
		if (++n == s->want) /* the block's last row: the next resumes after it */
			keep_key(s, st);
	}
	if (rc != DBI_ROW && rc != DBI_DONE)
		s->failed = 1;
	dbi_reset(st); /* ends this block's read transaction */
	s->rows += n;
	return !s->failed && n == s->want;
}

/* The block's rows of numbers (st bound) read at once into v and nulls
 * (dbi_fetch_ints: its read transaction is over when it returns), the
 * last one's keys kept: its count, or -1 on a failure. */
static int fetch_block(struct stream *s, struct dbi_stmt *st, int64_t *v, uint64_t *nulls)
{
	int n = 0;

	if (dbi_fetch_ints(st, s->ncols, (int)s->want, v, nulls, &n) != DBI_OK)
		return -1;
	for (int k = 0; n == s->want && k < s->q.nkeys; k++) {
		dbval_free(&s->key[k]);
		s->key[k].type = DBI_INT;
		s->key[k].i = v[(size_t)(n - 1) * (size_t)s->ncols + (size_t)s->q.keycol[k]];
	}
	s->rows += n;
	return n;
}

/* n rows of numbers through ifn into s->out. */
static void format_block(struct stream *s, const int64_t *v, const uint64_t *nulls, int n)
{
	for (int r = 0; r < n; r++)
		s->ifn(v + (size_t)r * (size_t)s->ncols, nulls[r], &s->out, s->ctx);
}

/* ahead_fill_fn: the next block on the ahead's thread, over its own
 * connection (the stream's keys, rows and want are that thread's alone
 * once it runs). */
static int ahead_fill(void *arg, struct dbi *db, int64_t *v, uint64_t *nulls, int *more)
{
	struct stream *s = arg;
	int n;

	*more = 0;
	if (!s->anext && !(s->anext = prepare(s, db, s->q.resume)))
		return -1;
	bind_block(s, s->anext);
	if (s->want <= 0) /* the export's limit reached */
		return 0;
	n = fetch_block(s, s->anext, v, nulls);
	*more = n == s->want;
	return n;
}

/* ahead_end_fn: the statement on the ahead's connection, before it closes. */
static void ahead_end(void *arg, struct dbi *db)
{
	struct stream *s = arg;

	(void)db;
	dbi_finalize(s->anext);
	s->anext = NULL;
}

/* The block of numbers the ahead read next, into s->out: 1 if more may
 * follow. */
static int ahead_block(struct stream *s)
{
	const int64_t *v;
	const uint64_t *nulls;
	int n = ahead_take(s->ahead, &v, &nulls);

	if (n < 0)
		s->failed = 1;
	if (n <= 0)
		return 0; /* the end, or a failure */
	format_block(s, v, nulls, n);
	ahead_done(s->ahead);
	return 1;
}

/* A block of numbers read here, on the HTTP thread's connection, into
 * s->out: 1 if more may follow. After a full first block the rest are
 * read ahead, on a thread of their own, while this one formats (an
 * export of one block starts no thread; one that cannot start reads on
 * here); from then on only that thread touches the stream's keys, rows
 * and want. */
static int ints_block(struct stream *s, struct dbi_stmt *st)
{
	int n = fetch_block(s, st, s->v, s->nulls), more = n == s->want;

	if (n < 0)
		s->failed = 1;

	format_block(s, s->v, s->nulls, n > 0 ? n : 0);
	if (more && (s->ahead = ahead_start(ahead_fill, ahead_end, s, CSV_BLOCK_ROWS, s->ncols))) {
		free(s->v); /* the ahead's two blocks from now on */
		free(s->nulls);
		s->v = NULL;
		s->nulls = NULL;
	}
	return more;
}

/* Runs the next block into s->out (empty on entry). A block shorter than
 * it asked for is the last one. */
static void refill(struct stream *s)
{
	struct dbi_stmt *st;

	if (s->done)
		return;
	if (s->ahead) {
		s->done = !ahead_block(s);
		return;
	}
	st = block(s);
	if (!st || s->want <= 0) { /* no query, or the export's limit reached */
		s->done = 1;
		return;
	}
	s->done = !(s->ifn ? ints_block(s, st) : rows_block(s, st));
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
	if (avail == 0 && s->failed) {
		/* the read-ahead's connection, and its message, are gone by now */
		fprintf(stderr, "xcbenchd: a CSV export failed after %lld rows, cut short: %s\n",
			(long long)s->rows, s->ahead ? "its read-ahead's read failed" : dbi_errmsg(s->q.db));
		return MHD_CONTENT_READER_END_WITH_ERROR;
	}
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

	ahead_stop(s->ahead); /* first: its thread uses the stream */
	dbi_finalize(s->first);
	dbi_finalize(s->next);
	for (int k = 0; k < CSV_KEYS_MAX; k++)
		dbval_free(&s->key[k]);
	if (s->q.bind_free)
		s->q.bind_free(s->q.bind_ctx);
	if (s->ctx_free)
		s->ctx_free(s->ctx);
	buf_free(&s->out);
	free(s->v);
	free(s->nulls);
	free(s->sql);
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

/* A stream of q (its statements prepared) owning ctx, or NULL with q's
 * and ctx's free functions called. */
static struct stream *stream_new(const struct csv_query *q, void *ctx, void (*ctx_free)(void *))
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
	/* never more than CSV_BLOCK_ROWS: csv_stream_ints's blocks hold that many */
	s->block = q->block_rows > 0 && q->block_rows < CSV_BLOCK_ROWS ? q->block_rows : CSV_BLOCK_ROWS;
	/* Kept: the caller's text is freed once the statements are prepared,
	 * and the ahead prepares its own (only csv_stream_ints's use it). */
	s->q.sql = s->sql = strdup(q->sql);
	s->ctx = ctx;
	s->ctx_free = ctx_free;
	/* Prepared now: a query that cannot run is a 500, not an empty CSV. */
	s->first = s->sql ? prepare(s, q->db, "TRUE") : NULL;
	s->next = s->sql ? prepare(s, q->db, q->resume) : NULL;
	if (!s->first || !s->next) {
		stream_free(s);
		return NULL;
	}
	return s;
}

struct MHD_Response *csv_stream(const struct csv_query *q, const char *header, csv_row_fn fn,
				void *ctx, void (*ctx_free)(void *))
{
	struct stream *s = stream_new(q, ctx, ctx_free);

	if (!s)
		return NULL;
	s->fn = fn;
	buf_add(&s->out, header, strlen(header));
	return make(s);
}

struct MHD_Response *csv_stream_ints(const struct csv_query *q, int ncols, const char *header,
				     csv_ints_fn fn, void *ctx, void (*ctx_free)(void *))
{
	struct stream *s = stream_new(q, ctx, ctx_free);

	if (!s)
		return NULL;
	s->ifn = fn;
	s->ncols = ncols;
	s->v = malloc(CSV_BLOCK_ROWS * (size_t)ncols * sizeof(*s->v));
	s->nulls = malloc(CSV_BLOCK_ROWS * sizeof(*s->nulls));
	if (!s->v || !s->nulls || ncols > 64) {
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
