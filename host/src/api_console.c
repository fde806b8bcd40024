/*
 * api_console.c — POST /api/v1/runs/{id}/console?line=N: attaches a
 * machine's console text (the serial capture `xcbench vm` keeps) to the run's
 * log, one event of kind "console" per line. The payload's own LOG frames
 * cover the run once the network is up; the console also holds what came
 * before (boot, a crash before the NIC worked), which is what one wants to
 * read when a run failed.
 *
 * Console lines live in the events table beside the frames' LOG/ERROR events,
 * in a sequence range of their own (CONSOLE_SEQ0 + line number) that frame
 * sequence numbers (32 bits) never reach, so the two never collide, and the
 * upload is idempotent: sending the same lines again (a retry, or a later
 * upload of the whole file) replaces them and changes nothing. A body is at
 * most BODY_MAX bytes; longer consoles go in several requests, each saying
 * with ?line= which line it starts at.
 */
#include <stdlib.h>
#include <string.h>

#include "casekey.h"
#include "api_runs.h"
#include "console.h"
#include "routes.h"
#include "run_limits.h"
#include "store.h"
#include "writer.h"


struct console_task {
	int64_t run, first;
	const char *text;
	size_t len;
	int64_t stored;
	int64_t refused;       /* lines past the run's console limit */
};

/* The console bytes run holds below line first (the lines from first on
 * are being replaced by this upload). */
static int64_t console_used(struct dbi *db, int64_t run, int64_t first)
{
	return dbi_i64(db, "SELECT coalesce(sum(length(text)), 0) FROM events WHERE run_id = ?1 "
		       "AND seq >= ?2 AND seq < ?3", 0, DBI_I(run), DBI_I(CONSOLE_SEQ0), DBI_I(CONSOLE_SEQ0 + first));
}

int64_t console_store(struct dbi *db, int64_t run, int64_t first, const char *text, size_t len,
		      int64_t *refused)
{
	const char *p = text, *end = text + len;
	int64_t now = now_s(), line = first, stored = 0, nrefused = 0, used = console_used(db, run, first);
	struct dbi_stmt *st;

	if (dbi_prepare(db, "INSERT INTO events(run_id, seq, kind, text, received) "
			       "VALUES (?1, ?2, 'console', ?3, ?4) ON CONFLICT (run_id, seq) DO UPDATE SET "
			       "kind = excluded.kind, text = excluded.text, received = excluded.received", &st) != DBI_OK)
		return 0;
	while (p < end && line < CONSOLE_LINES_MAX) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *s;

		if (n && p[n - 1] == '\r')
			n--;
		s = sanitize_text(p, n);
		if (s && used + (int64_t)strlen(s) > run_limits[LIM_CONSOLE].max) {
			/* Past the run's console limit: the rest is refused. */
			nrefused++;
			free(s);
		} else if (s) {
			used += (int64_t)strlen(s);
			dbi_bind_i64(st, 1, run);
			dbi_bind_i64(st, 2, CONSOLE_SEQ0 + line);
			dbi_bind_text(st, 3, s, -1);
			dbi_bind_i64(st, 4, now);
			if (dbi_step(st) == DBI_DONE)
				stored++;
			dbi_reset(st);
			free(s);
		}
		line++;
		p = nl ? nl + 1 : end;
	}
	dbi_finalize(st);
	if (nrefused)
		store_note_limit(db, run, LIM_CONSOLE);
	if (refused)
		*refused = nrefused;
	return stored;
}

static void console_fn(struct dbi *db, void *arg)
{
	struct console_task *t = arg;

	t->stored = console_store(db, t->run, t->first, t->text, t->len, &t->refused);
}

enum MHD_Result api_run_console(struct req *rq, int64_t id)
{
	struct console_task t = { .run = id };
	const char *first = qarg(rq, "line");
	struct dbi *db = rdb();
	uint64_t v = 0;
	enum MHD_Result res;

	if (!is_admin(rq))
		return reply_error(rq, 401, "write routes need 'Authorization: Bearer <admin token>'");
	if (first && (parse_u64(first, &v) || v >= CONSOLE_LINES_MAX))
		return reply_error(rq, 400, "line: '%s' is not a line number below %d", first, CONSOLE_LINES_MAX);
	if (!run_found(rq, db, id, &res))
		return res;
	t.first = (int64_t)v;
	t.text = rq->body.p ? rq->body.p : "";
	t.len = rq->body.len;
	if (writer_call(console_fn, &t))
		return reply_error(rq, 503, "shutting down");
	if (t.refused)
		return reply_error(rq, 413, "run %lld: %lld console lines refused past the limit of %lld bytes "
				   "(--run-limit console=N); %lld stored", (long long)id, (long long)t.refused,
				   (long long)run_limits[LIM_CONSOLE].max, (long long)t.stored);
	return reply_json(rq, 200, json_pack("{s:I, s:I, s:I}", "run", (json_int_t)id, "first_line",
					     (json_int_t)t.first, "lines", (json_int_t)t.stored));
}
