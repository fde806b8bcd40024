/*
 * renders_db.c — the SQL of the stored run pages (renders_db.h). Everything
 * that knows table run_renders is here; runrender.c decides when to render.
 */
#include <stdlib.h>
#include <string.h>

#include "renders_db.h"

/* The finished runs whose stored rendering is missing or of the run before
 * its last stored frame (the same columns as casecache.h's key), of any lab
 * (every daemon reads every lab's runs; a run copied in by xcb-copy may
 * have no daemon at all), or, of lab ?2's runs, of another format than ?1:
 * daemons of two versions sharing a store would otherwise render each
 * other's runs again and again. */
#define PENDING_FROM " FROM runs r LEFT JOIN run_renders d ON d.run_id = r.id " \
	"WHERE r.status IN ('complete', 'lost', 'crashed') AND (d.run_id IS NULL OR d.token <> r.token " \
	"OR d.frames_received <> r.frames_received OR d.last_frame IS DISTINCT FROM r.last_frame " \
	"OR (d.format <> ?1 AND r.lab IS NOT DISTINCT FROM CAST(?2 AS TEXT)))"

char *renders_get(struct dbi *db, const struct casecache_key *k, int format, size_t *len)
{
	enum { RR_FORMAT, RR_TOKEN, RR_FRAMES, RR_LAST, RR_CASES }; /* the query's columns, in its order */
	struct dbi_stmt *st;
	char *text = NULL;

	if (dbi_row(db, "SELECT format, token, frames_received, last_frame, cases FROM run_renders WHERE run_id = ?",
		    &st, DBI_I(k->id)) == DBI_ROW) {
		const char *token = dbi_column_text(st, RR_TOKEN), *cases = dbi_column_text(st, RR_CASES);
		int64_t last = dbi_column_type(st, RR_LAST) == DBI_NULL ? -1 : dbi_column_i64(st, RR_LAST);

		if (dbi_column_i64(st, RR_FORMAT) == format && token && k->token && strcmp(token, k->token) == 0 &&
		    dbi_column_i64(st, RR_FRAMES) == k->frames && last == k->last_frame && cases) {
			*len = strlen(cases);
			text = malloc(*len + 1);
			if (text)
				memcpy(text, cases, *len + 1);
		}
	}
	dbi_finalize(st);
	return text;
}

int renders_put(struct dbi *db, const struct casecache_key *k, int format, const char *cases)
{
	return dbi_run(db, "INSERT INTO run_renders(run_id, format, token, frames_received, last_frame, cases) "
		       "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (run_id) DO UPDATE SET format = excluded.format, "
		       "token = excluded.token, frames_received = excluded.frames_received, "
		       "last_frame = excluded.last_frame, cases = excluded.cases",
		       DBI_I(k->id), DBI_I(format), DBI_T(k->token), DBI_I(k->frames),
		       k->last_frame < 0 ? DBI_NUL : DBI_I(k->last_frame), DBI_T(cases));
}

int renders_too_big(struct dbi *db, int64_t id, int64_t max)
{
	int64_t n = dbi_i64(db, "SELECT count(*) FROM (SELECT 1 FROM results WHERE run_id = ? LIMIT ?) t", -1,
			    DBI_I(id), DBI_I(max + 1));

	return n < 0 ? -1 : n > max;
}

int renders_pending(struct dbi *db, int format, const char *lab, int64_t *ids, int max, int64_t *total)
{
	struct dbi_stmt *st;
	int n = 0;

	*total = dbi_i64(db, "SELECT count(*)" PENDING_FROM, -1, DBI_I(format), DBI_T(lab));
	if (*total < 0 || dbi_query(db, "SELECT r.id" PENDING_FROM " ORDER BY r.id DESC LIMIT ?3", &st,
				    DBI_I(format), DBI_T(lab), DBI_I(max)))
		return -1;
	while (n < max && dbi_step(st) == DBI_ROW)
		ids[n++] = dbi_column_i64(st, 0);
	dbi_finalize(st);
	return n;
}
