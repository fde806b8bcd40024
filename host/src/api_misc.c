/*
 * api_misc.c — GET /api/v1/health (counters, rejected frames by reason, run
 * counts), GET /api/v1/machines and GET /api/v1/labs.
 */
#include <stdlib.h>
#include <string.h>

#include "labs_db.h"
#include "machines_db.h"
#include "routes.h"
#include "sqljson.h"
#include "writer.h"
#include "xcbd.h"

enum MHD_Result api_health(struct req *rq)
{
	static const char *const extra[] = REJ_NAMES;
	char why[256], db_shown[512];
	int degraded = writer_degraded(why, sizeof(why));
	json_t *rej = json_object(), *runs = json_object(), *o;
	unsigned long long total = 0;
	struct dbi *db = rdb();
	struct dbi_stmt *st;
	int counted = 0;
	char counts_why[300] = "";

	for (int i = 1; i < REJ_NREASONS; i++) {
		unsigned long long v = atomic_load(&ctr.rejected[i]);

		json_object_set_new(rej, i < XCB_E_NREASONS ? xcb_err_name(-i) : extra[i - XCB_E_NREASONS],
				    json_integer((json_int_t)v));
		total += v;
	}
	json_object_set_new(rej, "total", json_integer((json_int_t)total));
	dbi_url_redact(cfg.db_path, db_shown, sizeof(db_shown));
	for (const char *const *s = (const char *const[]){ "pending", "running", "complete", "lost", "crashed", NULL }; *s; s++)
		json_object_set_new(runs, *s, json_integer(0));
	if (db && dbi_prepare(db, "SELECT status, count(*) FROM runs GROUP BY status", &st) == DBI_OK) {
		enum { RS_STATUS, RS_COUNT }; /* the query's columns, in its order */
		int step;

		while ((step = dbi_step(st)) == DBI_ROW)
			json_object_set_new(runs, dbi_column_text(st, RS_STATUS),
					    json_integer(dbi_column_i64(st, RS_COUNT)));
		dbi_finalize(st);
		counted = step == DBI_DONE;
	}
	if (!counted) {
		/* Health answers 200 whatever it finds (it is what says
		 * degraded), but a count it could not read is null: zeros or
		 * the statuses read before the failure would be counts. So
		 * also without a connection at all (the store unreachable
		 * when this thread first needed one). */
		if (db)
			snprintf(counts_why, sizeof(counts_why), "run counts: query failed: %s", dbi_errmsg(db));
		json_decref(runs);
		runs = json_null();
	}
	o = json_pack("{s:s, s:s, s:I, s:b, s:i, s:s, s:{s:I, s:I, s:I, s:I, s:I}, s:o, s:o}",
		      "status", db && !degraded && !counts_why[0] ? "ok" : "degraded", "version", XCBENCH_RELEASE,
		      "uptime_s", (json_int_t)(now_s() - start_time), "open", cfg.open,
		      "udp_port", ntohs(cfg.udp.sin_port), "db", db_shown,
		      "frames",
		      "received", (json_int_t)atomic_load(&ctr.received),
		      "stored", (json_int_t)atomic_load(&ctr.stored),
		      "duplicate", (json_int_t)atomic_load(&ctr.duplicate),
		      "acks_sent", (json_int_t)atomic_load(&ctr.acks_sent),
		      "queued", (json_int_t)atomic_load(&ctr.queued),
		      "rejected", rej, "runs", runs);
	json_object_set_new(o, "lab", cfg.lab ? json_string(cfg.lab) : json_null());
	/* The tree this daemon was built from: two daemons of one release
	 * sharing a store (several labs) can still differ. */
	json_object_set_new(o, "build", json_string(xcb_build_rev));
	if (degraded || !db || counts_why[0])
		json_object_set_new(o, "reason", json_string(degraded ? why : !db ? "database unavailable" : counts_why));
	return reply_json(rq, 200, o);
}

enum MHD_Result api_machines(struct req *rq)
{
	/* the query's columns, in its order */
	enum { MC_ID, MC_MAC, MC_UUID, MC_SERIAL, MC_FIRST_SEEN, MC_LAST_SEEN, MC_RUNS, MC_LAST_RUN, MC_HELLO,
	       MC_LAB };
	struct dbi *db = rdb();
	struct dbi_stmt *st;
	json_t *arr;
	int step;

	if (!db)
		return reply_error(rq, 503, "database unavailable");
	if (dbi_prepare(db,
		"SELECT m.id, m.mac, m.uuid, m.serial, " MACHINE_SEEN_SQL("m.first_seen") ", "
		MACHINE_SEEN_SQL("m.last_seen") ", "
		"(SELECT count(*) FROM runs r WHERE r.machine_id = m.id), "
		"(SELECT max(r.id) FROM runs r WHERE r.machine_id = m.id), "
		"(SELECT r.hello FROM runs r WHERE r.machine_id = m.id AND r.hello != '{}' "
		" ORDER BY r.id DESC LIMIT 1), m.lab "
		"FROM machines m ORDER BY m.last_seen DESC, m.id DESC", &st))
		return reply_db_failed(rq, db, NULL);
	arr = json_array();
	while ((step = dbi_step(st)) == DBI_ROW) {
		const char *facts = dbi_column_text(st, MC_HELLO);
		json_t *f = facts ? json_loads(facts, 0, NULL) : NULL;

		json_array_append_new(arr, json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:I, s:o, s:o}",
			"id", (json_int_t)dbi_column_i64(st, MC_ID), "lab", col_json(st, MC_LAB),
			"mac", col_json(st, MC_MAC), "uuid", col_json(st, MC_UUID), "serial", col_json(st, MC_SERIAL),
			"first_seen", iso_or_null(st, MC_FIRST_SEEN), "last_seen", iso_or_null(st, MC_LAST_SEEN),
			"runs", (json_int_t)dbi_column_i64(st, MC_RUNS),
			"last_run", col_json(st, MC_LAST_RUN), "facts", f ? f : json_object()));
	}
	dbi_finalize(st);
	return reply_list(rq, db, step, "machines", arr);
}

/* GET /api/v1/labs: the labs' names, for a client to say which there are
 * when a ?lab= filter names none of them (xcbench runs --lab). */
enum MHD_Result api_labs(struct req *rq)
{
	struct dbi *db = rdb();
	json_t *names;

	if (!db)
		return reply_error(rq, 503, "database unavailable");
	names = json_array();
	if (labs_names(db, names)) {
		json_decref(names);
		return reply_db_failed(rq, db, NULL);
	}
	return reply_json(rq, 200, json_pack("{s:o}", "labs", names));
}
