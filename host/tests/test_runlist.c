/*
 * test_runlist.c — the run list written straight into a buffer
 * (runlist_json.c) against the jansson tree it replaced (run_row_json, the
 * token for admins, labels_attach, dumped as reply_json does), on a real
 * SQLite database with the daemon's schema: the same bytes for runs whose
 * text needs escapes, is not ASCII, is not UTF-8 (jansson leaves such a run
 * or label out), holds a real where an integer is expected, or whose HELLO
 * is not what the store writes; for admins and not, and per page. And the
 * runs' case counts (runcounts.c): a page counts its uncached runs in one
 * statement whatever its size, the cache serves every thread, and a run
 * that stores a case is counted again on every thread.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "labels_db.h"
#include "runlist_json.h"
#include "runs_json.h"

extern const char *const xcb_migrations[];
extern const int xcb_nmigrations;

static void exec(struct dbi *db, const char *sql)
{
	if (dbi_exec(db, sql) != DBI_OK)
		fail_msg("%s: %s", sql, dbi_errmsg(db));
}

/* The runs: one per way a value can need jansson's care. */
static const char *const fill =
	"INSERT INTO machines(id, mac, first_seen, last_seen) VALUES (7, '52:54:00:12:34:56', 1, 2);"
	"INSERT INTO runs(id, token, machine_id, suite, label, notes, status, created, started, hello, cpus, tsc_khz) VALUES"
	" (1, '00c0ffee00000001', 7, 'default', 'plain', NULL, 'complete', 100, 101,"
	"  '{\"vendor\":\"GenuineIntel\",\"cpus\":\"4\",\"cases_planned\":\"24\",\"fw\":\"0.1\"}', 4, 2400000),"
	" (2, '00c0ffee00000002', NULL, 'a\\b', 'say \"hi\"\tnow' || char(1), 'héllo ☃ /', 'running', 200, NULL,"
	"  '{ \"vendor\" : \"spaced\", \"cpus\": 4, \"brand\":\"caf\\u00e9\", \"cases_planned\":\"99999999999999999999\"}', NULL, 2.5),"
	" (3, '00c0ffee00000003', NULL, NULL, CAST(X'61ff62' AS TEXT), NULL, 'lost', 300, NULL, '{}', NULL, NULL),"
	" (4, '00c0ffee00000004', NULL, NULL, NULL, NULL, 'pending', 400, NULL,"
	"  '{\"vendor\":\"A\",\"vendor\":\"B\",\"cases_planned\":\"7\",\"\":\"empty key\"}', NULL, NULL),"
	" (5, '00c0ffee00000005', NULL, NULL, NULL, NULL, 'crashed', 500, NULL, 'not json', NULL, NULL),"
	" (6, '00c0ffee00000006', NULL, NULL, NULL, NULL, 'complete', 600, NULL, '[1, 2]', NULL, NULL);"
	"UPDATE runs SET params = '{\"reps\":\"5\",\"x\":[1,2.5,\"\\u0007\"]}' WHERE id = 2;"
	"INSERT INTO run_tags(run_id, tag) VALUES (1, 'zeta'), (1, 'alpha'), (2, 'x/y'), (2, CAST(X'62ff' AS TEXT));"
	"INSERT INTO run_meta(run_id, key, value) VALUES (1, 'kernel', '6.1 \"rc\"'), (1, 'series', 'ü'),"
	" (4, 'bad', CAST(X'ff' AS TEXT)), (4, 'ok', 'yes');";

/* Runs next to each other in the list (created DESC: 11, 10, ..., 7) whose
 * HELLO is the text of the run before (10 -> 9, flat; 8 -> 7, not flat:
 * runlist_json.c keeps the facts read) or differs from it only in
 * cases_planned (11 -> 10: read again). */
static const char *const same_hello =
	"INSERT INTO runs(id, token, status, created, hello) VALUES"
	" (11, '00c0ffee00000011', 'complete', 1100, '{\"vendor\":\"V\",\"cases_planned\":\"3\"}'),"
	" (10, '00c0ffee00000010', 'complete', 1000, '{\"vendor\":\"V\",\"cases_planned\":\"4\"}'),"
	" (9, '00c0ffee00000009', 'complete', 900, '{\"vendor\":\"V\",\"cases_planned\":\"4\"}'),"
	" (8, '00c0ffee00000008', 'complete', 800, '{ \"brand\": \"caf\\u00e9\", \"cases_planned\": \"5\"}'),"
	" (7, '00c0ffee00000007', 'complete', 700, '{ \"brand\": \"caf\\u00e9\", \"cases_planned\": \"5\"}');";

/* run_fn of the reference: the run as the jansson list built it. */
static void ref_one(const struct run_row *r, void *vctx)
{
	json_t **c = vctx, *o = run_row_json(r);

	if (o && c[1] && r->token)
		json_object_set_new(o, "token", json_string(r->token));
	json_array_append_new(c[0], o);
}

/* The list as api_runs built it before runlist_json: its reply_json bytes. */
static char *reference(struct dbi *db, const struct run_filters *f, int admin)
{
	json_t *c[2] = { json_array(), admin ? json_true() : NULL }, *o;
	int64_t total;
	char *s;

	assert_int_equal(runs_list(db, f, ref_one, c, &total), 0);
	labels_attach(db, c[0]);
	o = json_pack("{s:o, s:I, s:I, s:I}", "runs", c[0], "total", (json_int_t)total, "limit", (json_int_t)f->limit,
		      "offset", (json_int_t)f->offset);
	s = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	json_decref(c[1]);
	return s;
}

static void same_bytes(void **st)
{
	char err[256];
	struct dbi *db = dbi_open(":memory:", DBI_RW, err, sizeof(err));
	static const struct { int64_t limit, offset; const char *q; } pages[] = {
		{ 100, 0, NULL }, { 2, 1, NULL }, { 1, 5, NULL }, { 100, 0, "hi" }, { 10, 0, "nothing matches" },
	};

	(void)st;
	assert_non_null(db);
	for (int i = 0; i < xcb_nmigrations; i++)
		exec(db, xcb_migrations[i]);
	exec(db, fill);
	exec(db, same_hello);
	for (size_t p = 0; p < sizeof(pages) / sizeof(*pages); p++)
		for (int admin = 0; admin < 2; admin++) {
			struct run_filters f = { .limit = pages[p].limit, .offset = pages[p].offset, .q = pages[p].q };
			struct buf out = { 0 };
			char *want = reference(db, &f, admin);

			assert_non_null(want);
			assert_int_equal(runlist_json(db, &f, admin, &out), 0);
			if (strcmp(out.p, want))
				fail_msg("page %zu admin %d:\n got  %s\n want %s", p, admin, out.p, want);
			free(want);
			buf_free(&out);
		}
	dbi_close(db);
}

/* The reference is no straw man: it has the runs, escapes and labels the
 * cases above are about (and leaves out run 3, whose label is not UTF-8). */
static void reference_has_them(void **st)
{
	char err[256];
	struct dbi *db = dbi_open(":memory:", DBI_RW, err, sizeof(err));
	struct run_filters f = { .limit = 100 };
	char *s;

	(void)st;
	for (int i = 0; i < xcb_nmigrations; i++)
		exec(db, xcb_migrations[i]);
	exec(db, fill);
	s = reference(db, &f, 1);
	assert_non_null(strstr(s, "\"label\":\"say \\\"hi\\\"\\tnow\\u0001\""));
	assert_non_null(strstr(s, "\"tags\":[\"alpha\",\"zeta\"]"));
	assert_non_null(strstr(s, "\"meta\":{\"ok\":\"yes\"}"));
	assert_non_null(strstr(s, "\"tsc_khz\":2.5"));
	assert_non_null(strstr(s, "\"facts\":{\"vendor\":\"B\"}"));
	assert_null(strstr(s, "\"id\":3,"));
	assert_non_null(strstr(s, "\"total\":6"));
	free(s);
	dbi_close(db);
}

/* 40 runs (ids 101..140) with 3 cases each, 2 of them with a RESULT. */
static const char *const counted =
	"WITH RECURSIVE g(i) AS (SELECT 101 UNION ALL SELECT i + 1 FROM g WHERE i < 140)"
	" INSERT INTO runs(id, token, status, created, frames_received)"
	" SELECT i, printf('00c0ffee%08x', i), 'complete', i, 10 FROM g;"
	"INSERT INTO cases(run_id, case_id, config, match_key) SELECT r.id, c.i, '{}', '' FROM runs r,"
	" (SELECT 0 AS i UNION ALL SELECT 1 UNION ALL SELECT 2) c;"
	"INSERT INTO results(run_id, case_id, rep, initiator) SELECT run_id, case_id, 0, 65535 FROM cases"
	" WHERE case_id < 2;";

/* A listing and what it cost: the statements it ran, and the counts it
 * gave run 105 (id, cases, cases_done; id 0 when the page lacks it). */
struct listed {
	struct dbi *db;
	int64_t limit, offset, stmts, got[3];
};

/* run_fn: keeps run 105's counts. */
static void keep_105(const struct run_row *r, void *vctx)
{
	struct listed *l = vctx;

	if (r->id == 105) {
		l->got[0] = r->id;
		l->got[1] = r->cases;
		l->got[2] = r->cases_done;
	}
}

/* Lists l's page (a pthread start routine, so a page can be listed on
 * another thread than the one that filled the cache). */
static void *list_page(void *vl)
{
	struct listed *l = vl;
	struct run_filters f = { .limit = l->limit, .offset = l->offset };
	int64_t before = dbi_executions(l->db), total;

	memset(l->got, 0, sizeof(l->got));
	if (runs_list(l->db, &f, keep_105, l, &total))
		l->got[0] = -1;
	l->stmts = dbi_executions(l->db) - before;
	return NULL;
}

/* l's page on a new thread. */
static void list_on_thread(struct listed *l)
{
	pthread_t t;

	assert_int_equal(pthread_create(&t, NULL, list_page, l), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
}

static void counts_per_page(void **st)
{
	char err[256];
	struct dbi *db = dbi_open(":memory:", DBI_RW, err, sizeof(err));
	struct listed one = { db, 1, 39, 0, { 0 } }, rest = { db, 39, 0, 0, { 0 } }, all = { db, 40, 0, 0, { 0 } };

	(void)st;
	assert_non_null(db);
	for (int i = 0; i < xcb_nmigrations; i++)
		exec(db, xcb_migrations[i]);
	exec(db, counted);
	/* Cold: a page of 1 run and one of 39 cost the same statements */
	list_page(&one);
	list_page(&rest);
	assert_int_equal(rest.got[0], 105);
	assert_int_equal(rest.got[1], 3);
	assert_int_equal(rest.got[2], 2);
	assert_int_equal(rest.stmts, one.stmts);
	/* Warm, on another thread: cached for it too, so fewer statements
	 * than cold, and the same counts */
	list_on_thread(&all);
	assert_true(all.stmts < one.stmts);
	assert_int_equal(all.got[1], 3);
	assert_int_equal(all.got[2], 2);
	/* Run 105 stores a frame with a new case and its RESULT, and one
	 * more case without: both threads see it */
	exec(db, "INSERT INTO cases(run_id, case_id, config, match_key) VALUES (105, 3, '{}', ''), (105, 4, '{}', '');"
		 "INSERT INTO results(run_id, case_id, rep, initiator) VALUES (105, 3, 0, 65535);"
		 "UPDATE runs SET frames_received = 11 WHERE id = 105;");
	list_on_thread(&all);
	assert_int_equal(all.got[1], 5);
	assert_int_equal(all.got[2], 3);
	list_page(&all);
	assert_int_equal(all.got[1], 5);
	assert_int_equal(all.got[2], 3);
	dbi_close(db);
}

/* run_fn: appends the run's id to the int64_t list ctx (ctx[0]: count). */
static void ids_one(const struct run_row *r, void *ctx)
{
	int64_t *ids = ctx;

	if (ids[0] < 15)
		ids[++ids[0]] = r->id;
}

/* The ids (created DESC) that q finds, as "a,b,c". */
static char *found(struct dbi *db, const char *q)
{
	struct run_filters f = { .limit = 100, .q = q };
	int64_t ids[16] = { 0 }, total;
	struct buf b = { 0 };

	assert_int_equal(runs_list(db, &f, ids_one, ids, &total), 0);
	assert_int_equal(total, ids[0]);
	buf_addf(&b, "%s", "");
	for (int64_t i = 1; i <= ids[0]; i++)
		buf_addf(&b, "%s%lld", i > 1 ? "," : "", (long long)ids[i]);
	return b.p;
}

/* q finds a hypervisor by the name every view shows (XCB_HYPERVISORS), not
 * only by the signature the HELLO stores; bare metal by its name; a name
 * word no run has finds nothing; the signature still works. */
static void q_finds_hypervisor_names(void **st)
{
	static const struct { const char *q, *want; } cases[] = {
		{ "QEMU TCG", "3,1" }, { "qemu tcg", "3,1" }, { "tcg", "3,1" }, { "TCGTCG", "3,1" },
		{ "KVM", "2" }, { "bare metal", "4" }, { "Hyper-V", "" }, { "virtualbox", "5" },
	};
	char err[256];
	struct dbi *db = dbi_open(":memory:", DBI_RW, err, sizeof(err));

	(void)st;
	assert_non_null(db);
	for (int i = 0; i < xcb_nmigrations; i++)
		exec(db, xcb_migrations[i]);
	exec(db, "INSERT INTO runs(id, token, status, created, hello) VALUES"
		 " (1, '00c0ffee00000001', 'complete', 100, '{\"brand\":\"QEMU Virtual CPU\",\"hypervisor\":\"TCGTCGTCGTCG\"}'),"
		 " (2, '00c0ffee00000002', 'complete', 200, '{\"brand\":\"AMD EPYC\",\"hypervisor\":\"KVMKVMKVM\"}'),"
		 " (3, '00c0ffee00000003', 'complete', 300, '{\"brand\":\"Intel Xeon\",\"hypervisor\":\"TCGTCGTCGTCG\"}'),"
		 " (4, '00c0ffee00000004', 'complete', 400, '{\"brand\":\"Intel Xeon\",\"hypervisor\":\"\"}'),"
		 " (5, '00c0ffee00000005', 'complete', 500, '{\"hypervisor\":\" VBoxVBoxVBox\"}');");
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char *got = found(db, cases[i].q);

		if (strcmp(got, cases[i].want))
			fail_msg("q=%s: runs %s, want %s", cases[i].q, got, cases[i].want);
		free(got);
	}
	dbi_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_bytes),
		cmocka_unit_test(q_finds_hypervisor_names),
		cmocka_unit_test(reference_has_them),
		cmocka_unit_test(counts_per_page),
	};
	return cmocka_run_group_tests_name("runlist", tests, NULL, NULL);
}
