/* labels_db.c — tags and key=value fields of runs (labels_db.h). */
#include <stdlib.h>
#include <string.h>

#include "jsonw.h"
#include "labels_db.h"
#include "util.h"

static int chars_ok(const char *s, size_t max, const char *extra)
{
	size_t n = strlen(s);

	if (n == 0 || n > max)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      strchr(extra, *s)))
			return 0;
	return 1;
}

const char *labels_check(json_t *tags, json_t *meta)
{
	size_t i;
	json_t *v;
	const char *k;

	if (tags && !json_is_array(tags))
		return "tags: expected an array of strings";
	if (json_array_size(tags) > LABEL_MAX_TAGS)
		return "tags: at most 32";
	json_array_foreach(tags, i, v)
		if (!json_is_string(v) || !chars_ok(json_string_value(v), 64, "._:/+-"))
			return "tags: each 1-64 characters of letters, digits and ._:/+-";
	if (meta && !json_is_object(meta))
		return "meta: expected an object of key: string (or null to remove)";
	if (json_object_size(meta) > LABEL_MAX_META)
		return "meta: at most 32 keys";
	json_object_foreach(meta, k, v) {
		if (!chars_ok(k, 32, "._-"))
			return "meta: each key 1-32 characters of letters, digits and ._-";
		if (!(json_is_null(v) || (json_is_string(v) && strlen(json_string_value(v)) <= 200)))
			return "meta: each value a string of at most 200 bytes, or null";
	}
	return NULL;
}

int labels_set(struct dbi *db, int64_t run, json_t *tags, json_t *meta)
{
	size_t i;
	json_t *v;
	const char *k;
	int rc = 0;

	if (tags) {
		rc |= dbi_run(db, "DELETE FROM run_tags WHERE run_id = ?1", DBI_I(run));
		json_array_foreach(tags, i, v)
			rc |= dbi_run(db, "INSERT INTO run_tags(run_id, tag) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
				      DBI_I(run), DBI_T(json_string_value(v)));
	}
	json_object_foreach(meta, k, v) {
		rc |= dbi_run(db, "DELETE FROM run_meta WHERE run_id = ?1 AND key = ?2", DBI_I(run), DBI_T(k));
		if (json_is_string(v))
			rc |= dbi_run(db, "INSERT INTO run_meta(run_id, key, value) VALUES (?1, ?2, ?3)", DBI_I(run),
				      DBI_T(k), DBI_T(json_string_value(v)));
	}
	return rc ? -1 : 0;
}

int labels_from_job(struct dbi *db, int64_t job, int64_t run)
{
	struct dbi_stmt *st;
	json_t *tags = NULL, *meta = NULL;
	int rc = dbi_row(db, "SELECT tags, meta FROM jobs WHERE id = ?", &st, DBI_I(job));

	if (rc == DBI_ROW) {
		const char *t = dbi_column_text(st, 0), *m = dbi_column_text(st, 1);

		tags = t ? json_loads(t, 0, NULL) : NULL;
		meta = m ? json_loads(m, 0, NULL) : NULL;
	}
	dbi_finalize(st);
	if (rc != DBI_ROW && rc != DBI_DONE)
		return -1;
	rc = 0;
	/* stored by POST /api/v1/jobs after labels_check; checked again, as a
	 * row could predate the rule */
	if ((json_array_size(tags) || json_object_size(meta)) && !labels_check(tags, meta))
		rc = labels_set(db, run, json_array_size(tags) ? tags : NULL, meta);
	json_decref(tags);
	json_decref(meta);
	return rc;
}

int labels_each(struct dbi *db, const int64_t *ids, size_t n, label_fn fn, void *ctx)
{
	struct buf in = { 0 }, sql = { 0 };
	struct dbi_stmt *st;
	int rc = -1, step;

	if (n == 0)
		return 0;
	/* One run (a run page, a compare's side): its id bound, one text for
	 * every run, which a PostgreSQL reader prepares once (plan_shared)
	 * instead of parsing and planning a text per run. A page: the ids as
	 * literals (the store's integers: safe; written by jsonw_i64, not
	 * buf_addf: a list page has 1000 of them). */
	if (n == 1)
		jsonw_lit(&in, "?1");
	for (size_t i = 0; n > 1 && i < n; i++)
		if ((i && jsonw_lit(&in, ",")) || jsonw_i64(&in, ids[i]))
			goto out;
	buf_addf(&sql, "SELECT run_id, tag, NULL FROM run_tags WHERE run_id IN (%s) "
		 "UNION ALL SELECT run_id, key, value FROM run_meta WHERE run_id IN (%s) ORDER BY 1, 2", in.p, in.p);
	if (!in.p || !sql.p || dbi_prepare(db, sql.p, &st))
		goto out;
	if (n == 1)
		dbi_bind_i64(st, 1, ids[0]);
	while ((step = dbi_step(st)) == DBI_ROW)
		if (dbi_column_text(st, 1))
			fn(dbi_column_i64(st, 0), dbi_column_text(st, 1), dbi_column_text(st, 2), ctx);
	dbi_finalize(st);
	/* a read that failed part-way has given some runs' labels only:
	 * the caller answers 500, never runs that look unlabelled */
	rc = step == DBI_DONE ? 0 : -1;
out:
	buf_free(&in);
	buf_free(&sql);
	return rc;
}

/* label_fn: one tag or field onto its run's object (ctx: runs by id). */
static void attach_one(int64_t run, const char *name, const char *value, void *byid)
{
	char key[24];
	json_t *r;

	snprintf(key, sizeof(key), "%lld", (long long)run);
	r = json_object_get(byid, key);
	if (!r)
		return;
	if (value)
		json_object_set_new(json_object_get(r, "meta"), name, json_string(value));
	else
		json_array_append_new(json_object_get(r, "tags"), json_string(name));
}

int labels_attach(struct dbi *db, json_t *runs)
{
	json_t *r, *byid = json_object();
	int64_t *ids = calloc(json_array_size(runs) + 1, sizeof(*ids));
	size_t i;
	int rc = -1;

	json_array_foreach(runs, i, r) {
		char key[24];

		ids[i] = json_integer_value(json_object_get(r, "id"));
		json_object_set_new(r, "tags", json_array());
		json_object_set_new(r, "meta", json_object());
		snprintf(key, sizeof(key), "%lld", (long long)ids[i]);
		json_object_set(byid, key, r);
	}
	if (ids)
		rc = labels_each(db, ids, json_array_size(runs), attach_one, byid);
	free(ids);
	json_decref(byid);
	return rc;
}

long runs_labelled(struct dbi *db, const char *label, int64_t *runs, size_t cap)
{
	struct dbi_stmt *st;
	size_t n = 0;
	int step = DBI_DONE;

	if (dbi_query(db, "SELECT id FROM runs r WHERE status = 'complete' AND (label = ?1 OR EXISTS "
		      "(SELECT 1 FROM run_tags t WHERE t.run_id = r.id AND t.tag = ?1)) ORDER BY id LIMIT ?2", &st,
		      DBI_T(label), DBI_I((int64_t)cap)))
		return -1;
	while (n < cap && (step = dbi_step(st)) == DBI_ROW)
		runs[n++] = dbi_column_i64(st, 0);
	dbi_finalize(st);
	/* LIMIT cap: the cap-th row ends it with DBI_ROW; any other end
	 * than DONE is a failed read, whose side would be some boots only */
	return step == DBI_ROW || step == DBI_DONE ? (long)n : -1;
}
