/*
 * api_runs.c — the run routes: list (JSON and CSV), one run with its cases
 * and stats, events, a case's histogram, one run's results as CSV, and the
 * write routes PATCH (label/notes) and POST (register a token).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "casestats.h"
#include "csv.h"
#include "http.h"
#include "stats.h"
#include "xcb_histo.h"
#include "xcbd.h"

#define RUN_COLS \
	"r.id, r.token, r.machine_id, m.mac, r.suite, r.params, r.label, r.notes, r.status, " \
	"r.source, r.created, r.started, r.last_frame, r.finished, r.frames_received, " \
	"r.frames_expected, r.done_status, (SELECT count(*) FROM cases c WHERE c.run_id = r.id), " \
	"r.cpus, r.tsc_khz, r.error, r.hello, " \
	"(SELECT count(*) FROM cases c WHERE c.run_id = r.id AND EXISTS " \
	" (SELECT 1 FROM results s WHERE s.run_id = c.run_id AND s.case_id = c.case_id)) "
#define RUN_FROM " FROM runs r LEFT JOIN machines m ON m.id = r.machine_id "

json_t *col_json(sqlite3_stmt *st, int col)
{
	switch (sqlite3_column_type(st, col)) {
	case SQLITE_INTEGER: return json_integer(sqlite3_column_int64(st, col));
	case SQLITE_FLOAT: return json_real(sqlite3_column_double(st, col));
	case SQLITE_TEXT: return json_string((const char *)sqlite3_column_text(st, col));
	default: return json_null();
	}
}

json_t *iso_or_null(sqlite3_stmt *st, int col)
{
	char b[32];

	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		return json_null();
	return json_string(iso_time(sqlite3_column_int64(st, col), b, sizeof(b)));
}

static json_t *json_col_obj(sqlite3_stmt *st, int col)
{
	const char *s = (const char *)sqlite3_column_text(st, col);
	json_t *o = s ? json_loads(s, 0, NULL) : NULL;

	return o ? o : json_object();
}

/* The HELLO keys a run list shows (machine, CPU model, hypervisor, APIC
 * mode, TSC rate, boot firmware and loader), so a list needs no request per
 * run; strings as sent. */
static const char *const summary_facts[] = { "vendor", "brand", "family", "model", "stepping",
	"cpus", "hypervisor", "apic_mode", "tsc_khz", "boot_fw", "uefi", "boot_fw_vendor", "boot_fw_rev", "loader" };

static json_t *run_row(sqlite3_stmt *st)
{
	json_t *machine = sqlite3_column_type(st, 2) == SQLITE_NULL ? json_null()
		: json_pack("{s:I, s:o}", "id", (json_int_t)sqlite3_column_int64(st, 2), "mac", col_json(st, 3));
	json_t *hello = json_col_obj(st, 21), *facts = json_object(), *o;
	const char *planned = json_string_value(json_object_get(hello, "cases_planned"));
	uint64_t np;

	for (size_t i = 0; i < sizeof(summary_facts) / sizeof(*summary_facts); i++) {
		json_t *v = json_object_get(hello, summary_facts[i]);

		if (v)
			json_object_set(facts, summary_facts[i], v);
	}
	/* No "token": it is the run's only credential on the wire (see
	 * with_token), so a run's JSON never carries it by default. */
	o = json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
			 "s:o, s:o, s:I, s:o, s:o, s:o}",
		"id", (json_int_t)sqlite3_column_int64(st, 0),
		"machine", machine, "suite", col_json(st, 4), "params", json_col_obj(st, 5),
		"label", col_json(st, 6), "notes", col_json(st, 7), "status", col_json(st, 8),
		"source", col_json(st, 9), "created", iso_or_null(st, 10),
		"started", iso_or_null(st, 11), "last_frame", iso_or_null(st, 12),
		"finished", iso_or_null(st, 13), "frames_received", col_json(st, 14),
		"frames_expected", col_json(st, 15), "done_status", col_json(st, 16),
		"cases", (json_int_t)sqlite3_column_int64(st, 17), "cpus", col_json(st, 18),
		"tsc_khz", col_json(st, 19), "error", col_json(st, 20));
	json_object_set_new(o, "cases_planned", planned && parse_u64(planned, &np) == 0 && np < (1ull << 53)
			    ? json_integer((json_int_t)np) : json_null());
	json_object_set_new(o, "cases_done", json_integer(sqlite3_column_int64(st, 22)));
	json_object_set_new(o, "facts", facts);
	json_decref(hello);
	return o;
}

/* The token goes to admins only (the token file, or --open on loopback):
 * whoever knows it can send frames for the run. */
static json_t *with_token(struct req *rq, json_t *o, const char *token)
{
	if (o && token && is_admin(rq))
		json_object_set_new(o, "token", json_string(token));
	return o;
}

static json_t *run_json_for(struct req *rq, sqlite3 *db, int64_t id)
{
	json_t *o = run_json(db, id);
	sqlite3_stmt *st;

	if (!o || !is_admin(rq) || sqlite3_prepare_v2(db, "SELECT token FROM runs WHERE id = ?", -1, &st, NULL))
		return o;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW)
		with_token(rq, o, (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return o;
}

json_t *run_json(sqlite3 *db, int64_t id)
{
	sqlite3_stmt *st;
	json_t *o = NULL;

	if (sqlite3_prepare_v2(db, "SELECT " RUN_COLS RUN_FROM "WHERE r.id = ?", -1, &st, NULL))
		return NULL;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW)
		o = run_row(st);
	sqlite3_finalize(st);
	return o;
}

int run_found(struct req *rq, sqlite3 *db, int64_t id, enum MHD_Result *res)
{
	json_t *run;

	if (!db) {
		*res = reply_error(rq, 503, "database unavailable");
		return 0;
	}
	run = run_json(db, id);
	if (!run) {
		*res = reply_error(rq, 404, "run %lld not found", (long long)id);
		return 0;
	}
	json_decref(run);
	return 1;
}

/* Builds the WHERE clause of the run filters; binds with bind_filters. */
struct filters {
	const char *status, *suite, *label;
	char mac[18], token[17];
	int64_t machine, since;
	int64_t limit, offset;
};

static const char *parse_filters(struct req *rq, struct filters *f)
{
	const char *m = qarg(rq, "machine"), *s = qarg(rq, "since"), *l = qarg(rq, "limit"),
		   *o = qarg(rq, "offset");
	uint64_t v;

	memset(f, 0, sizeof(*f));
	f->status = qarg(rq, "status");
	f->suite = qarg(rq, "suite");
	f->label = qarg(rq, "label");
	f->limit = 100;
	if (qarg(rq, "token")) {
		uint64_t t;

		/* Otherwise anyone could test guesses against the list. */
		if (!is_admin(rq))
			return "token: the token filter is for admins (Authorization: Bearer)";

		if (parse_hex64(qarg(rq, "token"), &t))
			return "token: expected 1 to 16 hex digits";
		snprintf(f->token, sizeof(f->token), "%016llx", (unsigned long long)t);
	}
	if (m && parse_id(m, &f->machine) && norm_mac(m, f->mac))
		return "machine: expected a machine id or a MAC address";
	if (s && (f->since = parse_time(s)) < 0)
		return "since: expected an ISO time (2026-11-29T23:55:00Z) or unix seconds";
	if (l) {
		if (parse_u64(l, &v) || v < 1 || v > 1000)
			return "limit: expected 1..1000";
		f->limit = (int64_t)v;
	}
	if (o) {
		if (parse_u64(o, &v) || v > INT32_MAX)
			return "offset: expected a non-negative number";
		f->offset = (int64_t)v;
	}
	if (f->status && strcmp(f->status, "pending") && strcmp(f->status, "running") &&
	    strcmp(f->status, "complete") && strcmp(f->status, "lost") && strcmp(f->status, "crashed"))
		return "status: expected pending, running, complete, lost or crashed";
	return NULL;
}

static void where(const struct filters *f, struct buf *b)
{
	buf_addf(b, " WHERE 1");
	if (f->machine)
		buf_addf(b, " AND r.machine_id = :machine");
	if (f->mac[0])
		buf_addf(b, " AND m.mac = :mac");
	if (f->status)
		buf_addf(b, " AND r.status = :status");
	if (f->suite)
		buf_addf(b, " AND r.suite = :suite");
	if (f->label)
		buf_addf(b, " AND r.label = :label");
	if (f->since)
		buf_addf(b, " AND r.created >= :since");
	if (f->token[0])
		buf_addf(b, " AND r.token = :token");
}

static void bind_filters(sqlite3_stmt *st, const struct filters *f)
{
	int i;

#define BT(name, val) if ((i = sqlite3_bind_parameter_index(st, name))) sqlite3_bind_text(st, i, val, -1, SQLITE_TRANSIENT)
#define BI(name, val) if ((i = sqlite3_bind_parameter_index(st, name))) sqlite3_bind_int64(st, i, val)
	BI(":machine", f->machine);
	BT(":mac", f->mac);
	BT(":status", f->status);
	BT(":suite", f->suite);
	BT(":label", f->label);
	BI(":since", f->since);
	BT(":token", f->token);
	BI(":limit", f->limit);
	BI(":offset", f->offset);
#undef BT
#undef BI
}

enum MHD_Result api_runs(struct req *rq)
{
	sqlite3 *db = rdb();
	struct filters f;
	struct buf q = { 0 }, c = { 0 };
	sqlite3_stmt *st, *cnt;
	const char *bad = parse_filters(rq, &f);
	json_t *arr;
	int64_t total = 0;

	if (bad)
		return reply_error(rq, 400, "%s", bad);
	if (!db)
		return reply_error(rq, 503, "database unavailable");
	buf_addf(&q, "SELECT " RUN_COLS RUN_FROM);
	where(&f, &q);
	buf_addf(&q, " ORDER BY r.created DESC, r.id DESC LIMIT :limit OFFSET :offset");
	buf_addf(&c, "SELECT count(*)" RUN_FROM);
	where(&f, &c);
	if (sqlite3_prepare_v2(db, q.p, -1, &st, NULL) || sqlite3_prepare_v2(db, c.p, -1, &cnt, NULL)) {
		buf_free(&q);
		buf_free(&c);
		return reply_error(rq, 500, "query failed: %s", sqlite3_errmsg(db));
	}
	buf_free(&q);
	buf_free(&c);
	bind_filters(st, &f);
	bind_filters(cnt, &f);
	if (sqlite3_step(cnt) == SQLITE_ROW)
		total = sqlite3_column_int64(cnt, 0);
	sqlite3_finalize(cnt);
	arr = json_array();
	while (sqlite3_step(st) == SQLITE_ROW)
		json_array_append_new(arr, with_token(rq, run_row(st), (const char *)sqlite3_column_text(st, 1)));
	sqlite3_finalize(st);
	return reply_json(rq, 200, json_pack("{s:o, s:I, s:I, s:I}", "runs", arr, "total", (json_int_t)total,
					     "limit", (json_int_t)f.limit, "offset", (json_int_t)f.offset));
}

static void runs_csv_row(sqlite3_stmt *st, struct buf *o, void *ctx)
{
	char t[32];
	const int *admin = ctx;

	csv_i64(o, sqlite3_column_int64(st, 0));
	csv_str(o, *admin ? (const char *)sqlite3_column_text(st, 1) : NULL); /* admins only */
	csv_str(o, (const char *)sqlite3_column_text(st, 3));
	csv_str(o, (const char *)sqlite3_column_text(st, 4));
	csv_str(o, (const char *)sqlite3_column_text(st, 6));
	csv_str(o, (const char *)sqlite3_column_text(st, 8));
	csv_str(o, iso_time(sqlite3_column_int64(st, 10), t, sizeof(t)));
	csv_str(o, sqlite3_column_type(st, 13) == SQLITE_NULL ? NULL : iso_time(sqlite3_column_int64(st, 13), t, sizeof(t)));
	csv_i64(o, sqlite3_column_int64(st, 14));
	if (sqlite3_column_type(st, 15) == SQLITE_NULL)
		csv_empty(o);
	else
		csv_i64(o, sqlite3_column_int64(st, 15));
	csv_i64(o, sqlite3_column_int64(st, 17));
	csv_end(o);
}

/* The filters of a runs.csv export, owned by its stream (the request's
 * query strings are not guaranteed to outlive the handler). */
struct runs_csv_bind {
	struct filters f;
	char *status, *suite, *label;
};

static void runs_csv_bind(sqlite3_stmt *st, void *ctx)
{
	bind_filters(st, &((struct runs_csv_bind *)ctx)->f);
}

static void runs_csv_bind_free(void *ctx)
{
	struct runs_csv_bind *b = ctx;

	free(b->status);
	free(b->suite);
	free(b->label);
	free(b);
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

enum MHD_Result api_runs_csv(struct req *rq)
{
	sqlite3 *db = rdb();
	struct filters f;
	struct buf sql = { 0 };
	const char *bad = parse_filters(rq, &f);
	struct csv_query q = { .db = db, .resume = "(r.created, r.id) < (:k1, :k2)", .nkeys = 2,
			       .keycol = { 10, 0 }, .bind = runs_csv_bind, .bind_free = runs_csv_bind_free };
	struct runs_csv_bind *b;
	struct MHD_Response *r;
	int *admin;

	if (bad)
		return reply_error(rq, 400, "%s", bad);
	if (!db)
		return reply_error(rq, 503, "database unavailable");
	if (!qarg(rq, "limit"))
		f.limit = -1; /* CSV: everything unless asked otherwise */
	buf_addf(&sql, "SELECT " RUN_COLS RUN_FROM);
	where(&f, &sql);
	buf_addf(&sql, " AND %%s ORDER BY r.created DESC, r.id DESC LIMIT :limit OFFSET :offset");
	b = calloc(1, sizeof(*b));
	admin = malloc(sizeof(*admin));
	if (!b || !admin) {
		free(b);
		free(admin);
		buf_free(&sql);
		return MHD_NO;
	}
	b->f = f;
	b->f.status = b->status = dup_or_null(f.status);
	b->f.suite = b->suite = dup_or_null(f.suite);
	b->f.label = b->label = dup_or_null(f.label);
	q.sql = sql.p;
	q.bind_ctx = b;
	q.limit = f.limit;
	q.offset = f.offset;
	*admin = is_admin(rq);
	r = csv_stream(&q, "id,token,machine_mac,suite,label,status,created,finished,frames_received,"
		       "frames_expected,cases\r\n", runs_csv_row, admin, free);
	buf_free(&sql); /* prepared by now */
	if (!r)
		return reply_error(rq, 500, "query failed: %s", sqlite3_errmsg(db));
	return reply_response(rq, 200, r);
}

static double run_tsc_khz(sqlite3 *db, int64_t id)
{
	sqlite3_stmt *st;
	double v = 0;

	if (sqlite3_prepare_v2(db, "SELECT tsc_khz FROM runs WHERE id = ?", -1, &st, NULL))
		return 0;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	return v;
}

static json_t *case_json(sqlite3 *db, sqlite3_stmt *st, int64_t run, double tsc_khz)
{
	static const char *const cols[] = { "kind", "algo", "delivery", "wait", "inits", "mask",
		"placement", "overlap", "work_us", "iters", "reps" };
	int64_t cid = sqlite3_column_int64(st, 0);
	json_t *o = json_pack("{s:I}", "case_id", (json_int_t)cid), *ns, *fair;
	struct resrow *rows;
	size_t n, k;
	double *p50;

	for (int i = 0; i < 11; i++)
		json_object_set_new(o, cols[i], col_json(st, 1 + i));
	json_t *cfg = json_col_obj(st, 12), *used = json_object_get(cfg, "x_delivery_used");
	/* The delivery the payload resolved (never `auto`); `delivery` is what was asked. */
	json_object_set_new(o, "delivery_used", used ? json_incref(used) : col_json(st, 3));
	json_object_set_new(o, "config", cfg);
	load_results(db, run, cid, &rows, &n);
	attach_p10(db, run, cid, rows, n);
	json_object_set_new(o, "initiators", initiators_json(rows, n, &fair));
	json_object_set_new(o, "fairness", fair);
	json_object_set_new(o, "pseudo", pseudo_json(rows, n));
	k = pick_aggregate(rows, n);
	json_object_set_new(o, "stats", agg_json(rows, k, tsc_khz, &ns));
	json_object_set_new(o, "ns", ns);
	p50 = malloc((k + 1) * sizeof(double));
	json_t *arr = json_array();
	for (size_t i = 0; i < k; i++)
		json_array_append_new(arr, json_integer((json_int_t)rows[i].v[F_P50]));
	json_object_set_new(o, "rep_p50", arr);
	free(p50);
	free(rows);
	return o;
}

enum MHD_Result api_run(struct req *rq, int64_t id)
{
	sqlite3 *db = rdb();
	sqlite3_stmt *st;
	json_t *run, *o, *cases, *errors, *facts = NULL;
	double tsc;
	int64_t logs = 0;

	if (!db)
		return reply_error(rq, 503, "database unavailable");
	run = run_json_for(rq, db, id);
	if (!run)
		return reply_error(rq, 404, "run %lld not found", (long long)id);
	tsc = run_tsc_khz(db, id);
	if (sqlite3_prepare_v2(db, "SELECT hello FROM runs WHERE id = ?", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, id);
		if (sqlite3_step(st) == SQLITE_ROW)
			facts = json_col_obj(st, 0);
		sqlite3_finalize(st);
	}
	cases = json_array();
	if (sqlite3_prepare_v2(db, "SELECT case_id, kind, algo, delivery, wait, inits, mask, placement, "
			       "overlap, work_us, iters, reps, config FROM cases WHERE run_id = ? ORDER BY case_id",
			       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, id);
		while (sqlite3_step(st) == SQLITE_ROW)
			json_array_append_new(cases, case_json(db, st, id, tsc));
		sqlite3_finalize(st);
	}
	errors = json_array();
	if (sqlite3_prepare_v2(db, "SELECT seq, text, received FROM events WHERE run_id = ? AND kind = 'error' "
			       "ORDER BY seq LIMIT 100", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, id);
		while (sqlite3_step(st) == SQLITE_ROW)
			json_array_append_new(errors, json_pack("{s:o, s:o, s:o}", "seq", col_json(st, 0),
				"text", col_json(st, 1), "received", iso_or_null(st, 2)));
		sqlite3_finalize(st);
	}
	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM events WHERE run_id = ? AND kind = 'log'",
			       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, id);
		if (sqlite3_step(st) == SQLITE_ROW)
			logs = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	o = json_pack("{s:o, s:o, s:o, s:o, s:I}", "run", run, "facts", facts ? facts : json_object(),
		      "cases", cases, "errors", errors, "logs", (json_int_t)logs);
	return reply_json(rq, 200, o);
}

enum MHD_Result api_run_events(struct req *rq, int64_t id)
{
	const char *kind = qarg(rq, "kind"), *after = qarg(rq, "after"), *lim = qarg(rq, "limit");
	sqlite3 *db = rdb();
	uint64_t a = 0, l = 1000;
	sqlite3_stmt *st;
	enum MHD_Result res;
	json_t *arr;

	if (kind && strcmp(kind, "log") && strcmp(kind, "error") && strcmp(kind, "console"))
		return reply_error(rq, 400, "kind: expected log, error or console, not '%s'", kind);
	if (after && parse_u64(after, &a))
		return reply_error(rq, 400, "after: expected a sequence number, not '%s'", after);
	if (lim && (parse_u64(lim, &l) || l < 1 || l > 10000))
		return reply_error(rq, 400, "limit: expected 1..10000");
	if (!run_found(rq, db, id, &res))
		return res;
	if (sqlite3_prepare_v2(db, "SELECT seq, kind, text, received FROM events WHERE run_id = ?1 "
			       "AND (?2 IS NULL OR kind = ?2) AND (?3 IS NULL OR seq > ?3) ORDER BY seq LIMIT ?4",
			       -1, &st, NULL))
		return reply_error(rq, 500, "query failed: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, id);
	if (kind)
		sqlite3_bind_text(st, 2, kind, -1, SQLITE_TRANSIENT);
	if (after)
		sqlite3_bind_int64(st, 3, (sqlite3_int64)a);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)l);
	arr = json_array();
	while (sqlite3_step(st) == SQLITE_ROW)
		json_array_append_new(arr, json_pack("{s:o, s:o, s:o, s:o}", "seq", col_json(st, 0),
			"kind", col_json(st, 1), "text", col_json(st, 2), "received", iso_or_null(st, 3)));
	sqlite3_finalize(st);
	return reply_json(rq, 200, json_pack("{s:o}", "events", arr));
}

/* Loads a case's histogram (merged as API.md says) into parallel arrays. */
int load_histogram(sqlite3 *db, int64_t run, int64_t cid, int rep, int init,
		   uint32_t **idx, uint64_t **cnt, size_t *n)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	/* rep/init -1 = "all": prefer the payload's own merged rows (65535),
	 * else sum the individual ones. */
	const char *sql =
		"WITH h AS (SELECT * FROM histograms WHERE run_id = ?1 AND case_id = ?2), "
		"r AS (SELECT * FROM h WHERE CASE WHEN ?3 >= 0 THEN rep = ?3 "
		"  WHEN EXISTS (SELECT 1 FROM h WHERE rep = 65535) THEN rep = 65535 ELSE rep != 65535 END), "
		"i AS (SELECT * FROM r WHERE CASE WHEN ?4 >= 0 THEN initiator = ?4 "
		"  WHEN EXISTS (SELECT 1 FROM r WHERE initiator = 65535) THEN initiator = 65535 "
		"  ELSE initiator != 65535 END) "
		"SELECT bucket, sum(count) FROM i GROUP BY bucket ORDER BY bucket";

	*idx = NULL;
	*cnt = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL))
		return -1;
	sqlite3_bind_int64(st, 1, run);
	sqlite3_bind_int64(st, 2, cid);
	sqlite3_bind_int(st, 3, rep);
	sqlite3_bind_int(st, 4, init);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 64;
			uint32_t *a = realloc(*idx, cap * sizeof(**idx));
			uint64_t *b = a ? realloc(*cnt, cap * sizeof(**cnt)) : NULL;

			if (a)
				*idx = a;
			if (!a || !b)
				break;
			*cnt = b;
		}
		(*idx)[*n] = (uint32_t)sqlite3_column_int64(st, 0);
		(*cnt)[*n] = (uint64_t)sqlite3_column_int64(st, 1);
		(*n)++;
	}
	sqlite3_finalize(st);
	return 0;
}

enum MHD_Result api_histogram(struct req *rq, int64_t id, int64_t cid)
{
	const char *reps = qarg(rq, "rep"), *inits = qarg(rq, "initiator");
	sqlite3 *db = rdb();
	uint64_t v, *cnt;
	uint32_t *idx;
	int rep = -1, init = -1;
	size_t n;
	json_t *b, *o, *run;

	if (reps && strcmp(reps, "all")) {
		if (parse_u64(reps, &v) || v > 65535)
			return reply_error(rq, 400, "rep: expected a repetition number, not '%s'", reps);
		rep = (int)v;
	}
	if (inits && strcmp(inits, "all")) {
		if (parse_u64(inits, &v) || v > 65535)
			return reply_error(rq, 400, "initiator: expected a CPU number or 'all', not '%s'", inits);
		init = (int)v;
	}
	if (!db)
		return reply_error(rq, 503, "database unavailable");
	run = run_json(db, id);
	if (!run)
		return reply_error(rq, 404, "run %lld not found", (long long)id);
	load_histogram(db, id, cid, rep, init, &idx, &cnt, &n);
	if (n == 0) {
		json_decref(run);
		free(idx);
		free(cnt);
		return reply_error(rq, 404, "run %lld case %lld has no histogram%s", (long long)id,
				   (long long)cid, rep >= 0 || init >= 0 ? " for that rep/initiator" : "");
	}
	b = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(b, json_pack("{s:I, s:I, s:I, s:I}", "i", (json_int_t)idx[i],
			"low", (json_int_t)xcb_histo_low(idx[i]), "high", (json_int_t)xcb_histo_high(idx[i]),
			"count", (json_int_t)cnt[i]));
	o = json_pack("{s:I, s:I, s:o, s:o, s:O, s:I, s:o, s:{s:f, s:f, s:f, s:f, s:f}}",
		"run", (json_int_t)id, "case_id", (json_int_t)cid,
		"rep", rep >= 0 ? json_integer(rep) : json_null(),
		"initiator", init >= 0 ? json_integer(init) : json_string("all"),
		"tsc_khz", json_object_get(run, "tsc_khz"),
		"total", (json_int_t)stats_histo_total(cnt, n), "buckets", b,
		"percentiles",
		"p10", stats_histo_quantile(idx, cnt, n, 0.1), "p50", stats_histo_quantile(idx, cnt, n, 0.5), "p90", stats_histo_quantile(idx, cnt, n, 0.9),
		"p99", stats_histo_quantile(idx, cnt, n, 0.99), "p999", stats_histo_quantile(idx, cnt, n, 0.999));
	json_decref(run);
	free(idx);
	free(cnt);
	return reply_json(rq, 200, o);
}

struct run_csv_ctx {
	double tsc_khz;
};

static void run_csv_row(sqlite3_stmt *st, struct buf *o, void *vctx)
{
	struct run_csv_ctx *c = vctx;

	/* run_id, case_id, 9 case axes */
	csv_i64(o, sqlite3_column_int64(st, 0));
	csv_i64(o, sqlite3_column_int64(st, 1));
	for (int i = 2; i <= 10; i++)
		csv_str(o, (const char *)sqlite3_column_text(st, i));
	csv_i64(o, sqlite3_column_int64(st, 11)); /* rep */
	/* all (65535), a pseudo-initiator by its proto name, or a CPU */
	if (xcb_initiator_name((unsigned)sqlite3_column_int64(st, 12)))
		csv_str(o, xcb_initiator_name((unsigned)sqlite3_column_int64(st, 12)));
	else
		csv_i64(o, sqlite3_column_int64(st, 12));
	for (int i = 13; i <= 19; i++) /* count … max */
		csv_i64(o, sqlite3_column_int64(st, i));
	csv_f(o, sqlite3_column_int64(st, 20) / 1000.0, 3);
	csv_f(o, sqlite3_column_int64(st, 21) / 1000.0, 3);
	for (int i = 22; i <= 30; i++) /* ipis … flags */
		csv_i64(o, sqlite3_column_int64(st, i));
	if (c->tsc_khz > 0) {
		csv_f(o, c->tsc_khz, 0);
		csv_f(o, sqlite3_column_int64(st, 15) * 1e6 / c->tsc_khz, 1);
		csv_f(o, sqlite3_column_int64(st, 17) * 1e6 / c->tsc_khz, 1);
	} else {
		csv_empty(o);
		csv_empty(o);
		csv_empty(o);
	}
	/* migration 003: ipi_floor … control_stale (empty when not reported) */
	for (int i = 31; i <= 37; i++) {
		if (sqlite3_column_type(st, i) == SQLITE_NULL)
			csv_empty(o);
		else
			csv_i64(o, sqlite3_column_int64(st, i));
	}
	if (sqlite3_column_int64(st, 31) > 0) /* ipi_ratio = p50 / ipi_floor */
		csv_f(o, (double)sqlite3_column_int64(st, 15) / (double)sqlite3_column_int64(st, 31), 3);
	else
		csv_empty(o);
	/* verified: TLB cases whose no-flush control saw nothing are "unverified" */
	if (sqlite3_column_type(st, 36) == SQLITE_NULL || sqlite3_column_int64(st, 36) == 0)
		csv_empty(o);
	else
		csv_str(o, sqlite3_column_int64(st, 37) > 0 ? "verified" : "unverified");
	csv_str(o, (const char *)sqlite3_column_text(st, 38)); /* delivery_requested */
	csv_end(o);
}

static void run_csv_bind(sqlite3_stmt *st, void *ctx)
{
	sqlite3_bind_int64(st, sqlite3_bind_parameter_index(st, ":run"), *(int64_t *)ctx);
}

enum MHD_Result api_run_csv(struct req *rq, int64_t id)
{
	sqlite3 *db = rdb();
	struct run_csv_ctx *c;
	struct MHD_Response *r;
	enum MHD_Result res;
	int64_t *run;
	struct csv_query q = {
		.db = db, .limit = -1, .bind = run_csv_bind, .bind_free = free,
		/* delivery: the mode the payload actually used (CASE key
		 * x_delivery_used), never `auto`; what was asked is the last column. */
		.sql = "SELECT r.run_id, r.case_id, c.kind, c.algo, "
		"COALESCE(json_extract(c.config, '$.x_delivery_used'), c.delivery), c.wait, c.inits, c.mask, "
		"c.placement, c.overlap, c.work_us, r.rep, r.initiator, r.count, r.min, r.p50, r.p90, "
		"r.p99, r.p999, r.max, r.mean_x1000, r.stddev_x1000, r.ipis, r.lock_acq, "
		"r.lock_contended, r.lock_hold_cycles, r.lock_wait_cycles, r.stale, r.calls_executed, "
		"r.calls_expected, r.flags, "
		"r.ipi_floor, r.lost, r.dup, r.ooo, r.elapsed_cycles, r.control_runs, r.control_stale, "
		"c.delivery "
		"FROM results r LEFT JOIN cases c ON c.run_id = r.run_id AND c.case_id = r.case_id "
		"WHERE r.run_id = :run AND %s ORDER BY r.case_id, r.rep, r.initiator LIMIT :limit",
		.resume = "(r.case_id, r.rep, r.initiator) > (:k1, :k2, :k3)",
		.nkeys = 3, .keycol = { 1, 11, 12 },
	};

	if (!run_found(rq, db, id, &res))
		return res;
	c = calloc(1, sizeof(*c));
	run = malloc(sizeof(*run));
	if (!c || !run) {
		free(c);
		free(run);
		return MHD_NO;
	}
	*run = id;
	q.bind_ctx = run;
	c->tsc_khz = run_tsc_khz(db, id);
	r = csv_stream(&q,
		"run_id,case_id,kind,algo,delivery,wait,inits,mask,placement,overlap,work_us,rep,initiator,"
		"count,min,p50,p90,p99,p999,max,mean,stddev,ipis,lock_acq,lock_contended,lock_hold_cycles,"
		"lock_wait_cycles,stale,calls_executed,calls_expected,flags,tsc_khz,p50_ns,p99_ns,"
		"ipi_floor,lost,dup,ooo,elapsed_cycles,control_runs,control_stale,ipi_ratio,verified,"
		"delivery_requested\r\n",
		run_csv_row, c, free);
	if (!r)
		return reply_error(rq, 500, "query failed: %s", sqlite3_errmsg(db));
	return reply_response(rq, 200, r);
}

/* ---- writes (through the writer thread) ---- */

struct patch_task {
	int64_t id;
	json_t *body;
	int found;
};

static void patch_fn(sqlite3 *db, void *arg)
{
	struct patch_task *t = arg;
	static const char *const fields[] = { "label", "notes" };
	sqlite3_stmt *st;

	for (int i = 0; i < 2; i++) {
		json_t *v = json_object_get(t->body, fields[i]);
		char sql[64];

		if (!v)
			continue;
		snprintf(sql, sizeof(sql), "UPDATE runs SET %s = ? WHERE id = ?", fields[i]);
		if (sqlite3_prepare_v2(db, sql, -1, &st, NULL))
			continue;
		if (json_is_string(v))
			sqlite3_bind_text(st, 1, json_string_value(v), -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 2, t->id);
		sqlite3_step(st);
		t->found |= sqlite3_changes(db) > 0;
		sqlite3_finalize(st);
	}
}

enum MHD_Result api_run_patch(struct req *rq, int64_t id)
{
	struct patch_task t = { .id = id };
	const char *why, *k;
	enum MHD_Result res;
	json_t *body, *v;
	sqlite3 *db = rdb();

	if (!is_admin(rq))
		return reply_error(rq, 401, "write routes need 'Authorization: Bearer <admin token>'");
	body = body_json(rq, &why);
	if (!body)
		return reply_error(rq, 400, "%s", why);
	json_object_foreach(body, k, v) {
		if ((strcmp(k, "label") && strcmp(k, "notes")) || !(json_is_string(v) || json_is_null(v))) {
			/* k belongs to body: reply before freeing it (fuzz_http). */
			enum MHD_Result ret = reply_error(rq, 400, "field '%s': only \"label\" and \"notes\" (strings or null) may be changed", k);

			json_decref(body);
			return ret;
		}
		if (json_is_string(v) && strlen(json_string_value(v)) > 4096) {
			enum MHD_Result ret = reply_error(rq, 400, "field '%s' longer than 4096 bytes", k);

			json_decref(body);
			return ret;
		}
	}
	if (!run_found(rq, db, id, &res)) {
		json_decref(body);
		return res;
	}
	t.body = body;
	if (writer_call(patch_fn, &t)) {
		json_decref(body);
		return reply_error(rq, 503, "shutting down");
	}
	json_decref(body);
	return reply_json(rq, 200, json_pack("{s:o}", "run", run_json_for(rq, db, id)));
}

struct create_task {
	uint64_t token;
	const char *suite, *label;
	int64_t id;
	int exists;
};

static void create_fn(sqlite3 *db, void *arg)
{
	struct create_task *t = arg;
	struct run *r;

	pthread_mutex_lock(&reg_lock);
	r = reg_find(t->token);
	pthread_mutex_unlock(&reg_lock);
	if (r) {
		t->exists = 1;
		return;
	}
	/* Registered by the caller once committed (a failed commit must
	 * leave the registry as it was). */
	t->id = store_create_run(db, t->token, 0, 0, t->suite, NULL, t->label);
}

uint64_t fresh_token(void)
{
	uint64_t t = 0;

	while (t == 0)
		if (getrandom(&t, sizeof(t), 0) != sizeof(t))
			t = (uint64_t)now_s() * 0x9e3779b97f4a7c15ull ^ (uint64_t)rand();
	return t;
}

enum MHD_Result api_run_create(struct req *rq)
{
	struct create_task t = { 0 };
	const char *why, *tok;
	json_t *body;
	sqlite3 *db = rdb();

	if (!is_admin(rq))
		return reply_error(rq, 401, "write routes need 'Authorization: Bearer <admin token>'");
	body = rq->body.len ? body_json(rq, &why) : json_object();
	if (!body)
		return reply_error(rq, 400, "%s", why);
	/* Known fields must be strings (or null): a silently ignored {"label": 1}
	 * would create a run without the label its caller thinks it gave. */
	{
		static const char *const fields[] = { "token", "suite", "label" };
		for (unsigned i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
			json_t *v = json_object_get(body, fields[i]);
			if (v && !json_is_string(v) && !json_is_null(v)) {
				json_decref(body);
				return reply_error(rq, 400, "field '%s': expected a string", fields[i]);
			}
		}
	}
	tok = json_string_value(json_object_get(body, "token"));
	t.suite = json_string_value(json_object_get(body, "suite"));
	t.label = json_string_value(json_object_get(body, "label"));
	if (tok && (parse_hex64(tok, &t.token) || t.token == 0)) {
		/* tok belongs to body: reply before freeing it (fuzz_http). */
		enum MHD_Result ret = reply_error(rq, 400, "token: expected 1 to 16 hex digits (not all zero), not '%s'", tok);

		json_decref(body);
		return ret;
	}
	if (!tok)
		t.token = fresh_token();
	if (writer_call(create_fn, &t)) {
		json_decref(body);
		return reply_error(rq, 503, "cannot store the run now (see /api/v1/health)");
	}
	json_decref(body);
	if (t.id) {
		pthread_mutex_lock(&reg_lock);
		reg_add(t.token, t.id);
		pthread_mutex_unlock(&reg_lock);
	}
	if (t.exists)
		return reply_error(rq, 409, "a run with token %016llx exists", (unsigned long long)t.token);
	if (!t.id || !db)
		return reply_error(rq, 500, "cannot create the run");
	return reply_json(rq, 201, json_pack("{s:o}", "run", run_json_for(rq, db, t.id)));
}
