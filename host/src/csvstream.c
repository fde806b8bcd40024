/*
 * csvstream.c — CSV responses streamed with a libmicrohttpd content-reader
 * callback: rows are pulled from a live SQLite statement only as fast as the
 * client reads, so exporting a run of millions of rows needs constant memory.
 */
#include <stdlib.h>
#include <string.h>

#include "http.h"

struct stream {
	sqlite3_stmt *st;      /* NULL: everything is already in out */
	csv_row_fn fn;
	void *ctx;
	void (*ctx_free)(void *);
	struct buf out;
	size_t off;
	int done;
};

static ssize_t reader(void *cls, uint64_t pos, char *dst, size_t max)
{
	struct stream *s = cls;
	size_t avail;

	(void)pos;
	/* Drop what was already sent before refilling. Without this the buffer
	 * was only reset when a block boundary fell exactly on a row end, so it
	 * grew with the export (bench/csv-export.sh: +32 MiB for 1M rows). */
	if (s->off) {
		memmove(s->out.p, s->out.p + s->off, s->out.len - s->off);
		s->out.len -= s->off;
		s->out.p[s->out.len] = 0;
		s->off = 0;
	}
	/* Refill up to one block: at most one client read ahead is buffered. */
	while (!s->done && s->out.len - s->off < max) {
		int rc = sqlite3_step(s->st);

		if (rc == SQLITE_ROW)
			s->fn(s->st, &s->out, s->ctx);
		else
			s->done = 1;
	}
	avail = s->out.len - s->off;
	if (avail == 0)
		return s->done ? MHD_CONTENT_READER_END_OF_STREAM : 0;
	if (avail > max)
		avail = max;
	memcpy(dst, s->out.p + s->off, avail);
	s->off += avail;
	if (s->off == s->out.len) {
		s->off = 0;
		s->out.len = 0;
	}
	return (ssize_t)avail;
}

static void stream_free(void *cls)
{
	struct stream *s = cls;

	sqlite3_finalize(s->st);
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

struct MHD_Response *csv_stream(sqlite3_stmt *st, const char *header, csv_row_fn fn,
				void *ctx, void (*ctx_free)(void *))
{
	struct stream *s = calloc(1, sizeof(*s));

	if (!s) {
		sqlite3_finalize(st);
		if (ctx_free)
			ctx_free(ctx);
		return NULL;
	}
	s->st = st;
	s->fn = fn;
	s->ctx = ctx;
	s->ctx_free = ctx_free;
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
