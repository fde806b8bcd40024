/*
 * jobs_db.c — the lab's data access (jobs_db.h): every SQL statement on the
 * jobs' lifecycle columns, job_events and the machines' power columns.
 * Reads take the caller's read-only connection; writes are writer tasks, so
 * they commit in the one writer's order with everything else.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind_db.h"
#include "jobs_db.h"
#include "labs_db.h"
#include "machines_db.h"
#include "sqljson.h"
#include "util.h"
#include "writer.h"
#include "xcb_schema.h"
#include "xcbd.h"

#define JOB_NAME(e, s) s,
static const char *const stage_names[JOB_NSTAGES] = { JOB_STAGES(JOB_NAME) };
#undef JOB_NAME

/* Name and parse: proto's one pair over any name table. */
const char *job_stage_name(enum job_stage s)
{
	return xcb_vocab_name(stage_names, JOB_NSTAGES, (unsigned)s);
}

int job_stage_parse(const char *s)
{
	return s ? xcb_vocab_index(stage_names, JOB_NSTAGES, s) : -1;
}

static void copy_col(struct dbi_stmt *st, int col, char *dst, size_t n)
{
	const char *s = dbi_column_text(st, col);

	snprintf(dst, n, "%s", s ? s : "");
}

int jobs_db_open_jobs(struct dbi *ro, struct job_row **rows, size_t *n)
{
	struct dbi_stmt *st;
	/* the query's columns, in its order */
	enum { OJ_ID, OJ_MAC, OJ_STAGE, OJ_STAGE_SINCE, OJ_ATTEMPT, OJ_ATTEMPTS, OJ_BOUND /* three */,
	       OJ_END = OJ_BOUND + 3, OJ_POWERED, OJ_BOOTED, OJ_CONSUMED, OJ_ENDED, OJ_RUN_ID,
	       OJ_RUN_STATUS, OJ_CREATED, OJ_DRIVER };
	size_t cap = 0;
	int step;

	*rows = NULL;
	*n = 0;
	/* Another lab's machine is its lab's daemon's to power and follow
	 * (labs_db.c): every daemon on a shared database used to drive every
	 * job, each switching the machine on in its own pass. */
	if (!ro || dbi_query(ro,
		"SELECT j.id, j.mac, j.stage, j.stage_since, j.attempt, j.attempts, j.bound_power, "
		"j.bound_boot, j.bound_run, j.end_action, j.powered, j.booted, j.consumed, j.ended, "
		"j.run_id, r.status, j.created, j.power_driver FROM jobs j LEFT JOIN runs r ON r.id = j.run_id "
		"WHERE (j.stage IN ('queued', 'powering_on', 'booting', 'running') OR j.ended IS NULL) "
		"AND NOT EXISTS (SELECT 1 FROM machines m WHERE m.mac = j.mac AND m.lab IS NOT NULL "
		"AND m.lab IS DISTINCT FROM CAST(?1 AS TEXT)) "
		"ORDER BY j.id LIMIT 10000", &st, DBI_T(cfg.lab)) != DBI_OK)
		return -1;
	while ((step = dbi_step(st)) == DBI_ROW) {
		struct job_row *r;
		char stage[16], end[8];

		if (*n == cap) {
			struct job_row *grown = realloc(*rows, (cap = cap ? cap * 2 : 16) * sizeof(**rows));

			if (!grown)
				break;	/* step stays DBI_ROW: no pass over part of them */
			*rows = grown;
		}
		r = &(*rows)[(*n)++];
		memset(r, 0, sizeof(*r));
		r->id = dbi_column_i64(st, OJ_ID);
		copy_col(st, OJ_MAC, r->mac, sizeof(r->mac));
		copy_col(st, OJ_STAGE, stage, sizeof(stage));
		r->stage = job_stage_parse(stage) < 0 ? JOB_FAILED : (enum job_stage)job_stage_parse(stage);
		r->stage_since = dbi_column_i64(st, OJ_STAGE_SINCE);
		r->attempt = dbi_column_int(st, OJ_ATTEMPT);
		r->attempts = dbi_column_int(st, OJ_ATTEMPTS);
		for (int i = 0; i < 3; i++)
			r->bound[i] = dbi_column_type(st, OJ_BOUND + i) == DBI_NULL ? -1 : dbi_column_int(st, OJ_BOUND + i);
		copy_col(st, OJ_END, end, sizeof(end));
		r->end_off = strcmp(end, "leave") != 0;
		r->powered = dbi_column_i64(st, OJ_POWERED);
		r->booted = dbi_column_i64(st, OJ_BOOTED);
		r->consumed = dbi_column_i64(st, OJ_CONSUMED);
		r->ended = dbi_column_i64(st, OJ_ENDED);
		r->run_id = dbi_column_i64(st, OJ_RUN_ID);
		copy_col(st, OJ_RUN_STATUS, r->run_status, sizeof(r->run_status));
		r->created = dbi_column_i64(st, OJ_CREATED);
		copy_col(st, OJ_DRIVER, r->driver, sizeof(r->driver));
	}
	dbi_finalize(st);
	if (step != DBI_DONE) {
		/* not the jobs read before the failure: the runner's pass skips */
		free(*rows);
		*rows = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}

/* A machine's power settings, and as the API shows them (POWER_JSON_COLS:
 * what the BMC last said too); PW_* name each one's offset from the first. */
#define POWER_COLS "power_driver, power_host, power_port, power_user, power_password_file, power_command, power_sol"
#define POWER_JSON_COLS POWER_COLS ", power_state, power_error, power_checked"
enum { PW_DRIVER, PW_HOST, PW_PORT, PW_USER, PW_PASSWORD_FILE, PW_COMMAND, PW_SOL,
       PW_STATE, PW_ERROR, PW_CHECKED };

static void power_from_row(struct dbi_stmt *st, int first, struct power_cfg *c)
{
	copy_col(st, first + PW_DRIVER, c->driver, sizeof(c->driver));
	copy_col(st, first + PW_HOST, c->host, sizeof(c->host));
	c->port = dbi_column_int(st, first + PW_PORT);
	copy_col(st, first + PW_USER, c->user, sizeof(c->user));
	copy_col(st, first + PW_PASSWORD_FILE, c->password_file, sizeof(c->password_file));
	copy_col(st, first + PW_COMMAND, c->command, sizeof(c->command));
	c->sol = dbi_column_int(st, first + PW_SOL);
}

int jobs_db_power_cfg(struct dbi *ro, const char *mac, struct power_cfg *c)
{
	struct dbi_stmt *st;
	int rc;

	memset(c, 0, sizeof(*c));
	snprintf(c->mac, sizeof(c->mac), "%s", mac);
	if (!ro)
		return -1;
	rc = dbi_row(ro, "SELECT " POWER_COLS " FROM machines WHERE mac = ?", &st, DBI_T(mac));
	if (rc == DBI_ROW)
		power_from_row(st, 0, c);
	dbi_finalize(st);
	return rc == DBI_ROW || rc == DBI_DONE ? 0 : -1;
}

/* Job id's stage (-1: no such job, or the query failed) and its attempt
 * (left as it is then). */
static int job_stage_of(struct dbi *db, int64_t id, int *attempt)
{
	enum { JS_STAGE, JS_ATTEMPT }; /* the query's columns, in its order */
	struct dbi_stmt *st;
	int stage = -1;

	if (dbi_row(db, "SELECT stage, attempt FROM jobs WHERE id = ?", &st, DBI_I(id)) == DBI_ROW) {
		stage = job_stage_parse(dbi_column_text(st, JS_STAGE));
		*attempt = dbi_column_int(st, JS_ATTEMPT);
	}
	dbi_finalize(st);
	return stage;
}

static void change_fn(struct dbi *db, void *arg)
{
	struct job_change *c = arg;
	int64_t now = now_s();
	int attempt = 0, cur = job_stage_of(db, c->id, &attempt);

	if (cur < 0)
		return;
	if (cur != (int)c->expect) {
		/* A power-on that went out while the job was cancelled (its
		 * machine's worker was in the driver's call, power_worker.c):
		 * the machine is on whatever the stage says now. Stamped, with
		 * its event, so that the end action switches it off rather
		 * than find it "never powered on"; the end action waits for
		 * this worker (it holds the machine). */
		if (c->mark_powered && job_stage_final(cur) &&
		    dbi_run(db, "UPDATE jobs SET powered = ? WHERE id = ? AND ended IS NULL", DBI_I(now),
			    DBI_I(c->id)) == DBI_OK && dbi_changes(db) > 0 && c->reason)
			dbi_run(db, "INSERT INTO job_events(job_id, at, stage, attempt, reason) VALUES (?, ?, ?, ?, ?)",
				DBI_I(c->id), DBI_I(now), DBI_T(job_stage_name((enum job_stage)cur)), DBI_I(attempt),
				DBI_T(c->reason));
		return;
	}
	if (c->attempt >= 0)
		attempt = c->attempt;
	if (c->stage >= 0 &&
	    dbi_run(db, "UPDATE jobs SET stage = ?, stage_since = ?, attempt = ?, reason = ? WHERE id = ?",
		    DBI_T(job_stage_name(c->stage)), DBI_I(now), DBI_I(attempt), DBI_T(c->reason), DBI_I(c->id)))
		return;
	if (c->stage >= 0 && c->driver &&
	    dbi_run(db, "UPDATE jobs SET power_driver = ? WHERE id = ?", DBI_T(c->driver), DBI_I(c->id)))
		return;
	if (c->reset_boot &&
	    dbi_run(db, "UPDATE jobs SET consumed = NULL, run_id = NULL, booted = NULL, powered = NULL "
		    "WHERE id = ?", DBI_I(c->id)))
		return;
	if (c->mark_powered && dbi_run(db, "UPDATE jobs SET powered = ? WHERE id = ?", DBI_I(now), DBI_I(c->id)))
		return;
	if (c->mark_powered && c->boot_until)
		bind_job_to_boot(db, c->id, c->boot_until);
	if (c->mark_ended && dbi_run(db, "UPDATE jobs SET ended = ? WHERE id = ?", DBI_I(now), DBI_I(c->id)))
		return;
	if (c->reason &&
	    dbi_run(db, "INSERT INTO job_events(job_id, at, stage, attempt, reason) VALUES (?, ?, ?, ?, ?)",
		    DBI_I(c->id), DBI_I(now), DBI_T(job_stage_name(c->stage >= 0 ? (enum job_stage)c->stage : c->expect)),
		    DBI_I(attempt), DBI_T(c->reason)))
		return;
	c->applied = 1;
}

int jobs_db_change(struct job_change *c)
{
	c->applied = 0;
	return writer_call(change_fn, c);
}

void jobs_db_booted(struct dbi *db, int64_t job_id, int64_t now)
{
	/* The first boot request of the attempt (iPXE may ask again). */
	dbi_run(db, "UPDATE jobs SET booted = ? WHERE id = ? AND booted IS NULL", DBI_I(now), DBI_I(job_id));
}

struct pstate_task {
	const char *mac, *state, *error;
};

static void pstate_fn(struct dbi *db, void *arg)
{
	struct pstate_task *t = arg;

	dbi_run(db, "UPDATE machines SET power_state = coalesce(?, power_state), power_error = ?, "
		"power_checked = ? WHERE mac = ?", DBI_T(t->state), DBI_T(t->error), DBI_I(now_s()), DBI_T(t->mac));
}

int jobs_db_power_state(const char *mac, const char *state, const char *error)
{
	struct pstate_task t = { mac, state, error };

	return writer_call(pstate_fn, &t);
}

struct setpower_task {
	const struct power_cfg *c;
	int take;
	char *why;
	size_t n;
	int ok;
};

/* Moves machine mac from lab other into this daemon's lab (take: the
 * operator says it is on this lab's network), unless the other lab's
 * runner is working on one of its jobs (powering, booting, running, or
 * its end action): 1 if moved, else 0 with why. Its queued jobs move with
 * it: the lab that now boots it runs them. */
static int take_machine(struct dbi *db, const char *mac, const char *other, char *why, size_t n)
{
	struct dbi_stmt *st;
	int busy = 0;

	if (dbi_row(db, "SELECT id, stage FROM jobs WHERE mac = ? AND stage <> 'queued' AND ended IS NULL "
		    "ORDER BY id LIMIT 1", &st, DBI_T(mac)) == DBI_ROW) {
		snprintf(why, n, "machine %s: lab '%s' is running its job %lld (%s): cancel it there "
			 "(xcbench job cancel %lld), then take the machine", mac, other,
			 (long long)dbi_column_i64(st, 0), dbi_column_text(st, 1), (long long)dbi_column_i64(st, 0));
		busy = 1;
	}
	dbi_finalize(st);
	if (busy)
		return 0;
	if (dbi_run(db, "UPDATE machines SET lab = ? WHERE mac = ?", DBI_T(cfg.lab), DBI_T(mac))) {
		snprintf(why, n, "machine %s: cannot move it now", mac);
		return 0;
	}
	return 1;
}

static void setpower_fn(struct dbi *db, void *arg)
{
	struct setpower_task *t = arg;
	const struct power_cfg *c = t->c;
	int64_t now = now_s(), id;
	char other[64];

	/* Checked in the writer's transaction: no boot adopts it meanwhile. */
	if (lab_machine_elsewhere(db, c->mac, other, sizeof(other))) {
		if (!t->take || !cfg.lab) {
			/* The way out is named: a machine set up on the wrong
			 * lab's daemon (an operator's slip) stayed there, and
			 * the lab whose network it is on refused to boot it. */
			snprintf(t->why, t->n, "machine %s belongs to lab '%s': set its power on that lab's daemon%s%s%s",
				 c->mac, other, cfg.lab ? ", or take it into lab '" : "", cfg.lab ? cfg.lab : "",
				 cfg.lab ? "' if it is on this lab's network (\"take\": true; xcbench machine set --take)"
					 : "");
			t->ok = 2;
			return;
		}
		if (!take_machine(db, c->mac, other, t->why, t->n)) {
			t->ok = 2;
			return;
		}
	}
	if (dbi_run(db, "INSERT INTO machines(mac, first_seen, last_seen) VALUES (?, ?, ?) "
		    "ON CONFLICT(mac) DO NOTHING", DBI_T(c->mac), DBI_I(now), DBI_I(now)))
		return;
	/* A machine this lab powers is this lab's from now on: another lab's
	 * runner must not switch it on for a job queued there. */
	id = dbi_i64(db, "SELECT id FROM machines WHERE mac = ?1", 0, DBI_T(c->mac));
	if (id)
		lab_machine_adopt(db, id);
	if (dbi_run(db, "UPDATE machines SET power_driver = ?, power_host = ?, power_port = ?, power_user = ?, "
		    "power_password_file = ?, power_command = ?, power_sol = ?, power_error = NULL, "
		    "power_state = NULL WHERE mac = ?",
		    DBI_T(c->driver[0] ? c->driver : "manual"), DBI_T(c->host[0] ? c->host : NULL), DBI_I(c->port),
		    DBI_T(c->user[0] ? c->user : NULL), DBI_T(c->password_file[0] ? c->password_file : NULL),
		    DBI_T(c->command[0] ? c->command : NULL), DBI_I(c->sol), DBI_T(c->mac)))
		return;
	t->ok = 1;
}

int jobs_db_set_power(const struct power_cfg *c, int take, char *why, size_t n)
{
	struct setpower_task t = { c, take, why, n, 0 };

	if (writer_call(setpower_fn, &t))
		return -1;
	return t.ok == 2 ? 1 : t.ok ? 0 : -1;
}

/* A writer task on one job with a text (cancel_fn's why, note_fn's
 * reason): what it did comes back in result. */
struct job_text_task {
	int64_t id;
	const char *text;
	int result;
};

static void cancel_fn(struct dbi *db, void *arg)
{
	struct job_text_task *t = arg;
	int attempt = 0, stage = job_stage_of(db, t->id, &attempt);

	t->result = -1;
	if (stage < 0)
		return;
	t->result = 0;
	if (job_stage_final(stage))
		return;
	if (dbi_run(db, "UPDATE jobs SET stage = 'cancelled', stage_since = ?, reason = ? WHERE id = ?",
		    DBI_I(now_s()), DBI_T(t->text), DBI_I(t->id)) ||
	    dbi_run(db, "INSERT INTO job_events(job_id, at, stage, attempt, reason) VALUES (?, ?, 'cancelled', ?, ?)",
		    DBI_I(t->id), DBI_I(now_s()), DBI_I(attempt), DBI_T(t->text)))
		return;
	t->result = 1;
}

int jobs_db_cancel(int64_t id, const char *why)
{
	struct job_text_task t = { id, why, -1 };

	if (writer_call(cancel_fn, &t))
		return -2; /* not "no job": the store did not say (writer_call_failure) */
	return t.result;
}

/* A job's events; NULL when the read failed (never the events read so far). */
static json_t *events_json(struct dbi *ro, int64_t id)
{
	enum { EV_AT, EV_STAGE, EV_ATTEMPT, EV_REASON }; /* the query's columns, in its order */
	json_t *arr;
	struct dbi_stmt *st;
	int step;

	if (dbi_query(ro, "SELECT at, stage, attempt, reason FROM job_events WHERE job_id = ? "
			  "ORDER BY id LIMIT 10000", &st, DBI_I(id)))
		return NULL;
	arr = json_array();
	while ((step = dbi_step(st)) == DBI_ROW)
		json_array_append_new(arr, json_pack("{s:o, s:I, s:o, s:I, s:o}", "at", iso_or_null(st, EV_AT),
			"t", (json_int_t)dbi_column_i64(st, EV_AT), "stage", col_json(st, EV_STAGE),
			"attempt", (json_int_t)dbi_column_i64(st, EV_ATTEMPT), "reason", col_json(st, EV_REASON)));
	dbi_finalize(st);
	if (step != DBI_DONE) {
		json_decref(arr);
		return NULL;
	}
	return arr;
}

/* Stage bounds for a machine the daemon powers itself, when the job gives
 * none: a BMC answers in seconds, iPXE and the payload's download take
 * minutes on a slow lab network, a full suite may take half an hour. A
 * manual machine has none: a person may come back tomorrow. */
static const int default_bound[3] = { 120, 600, 3600 };
/* The bounded stages' names in the API's timeouts objects, bound i's. */
static const char *const bound_names[3] = { "powering_on", "booting", "running" };

int jobs_db_stage_bound(int set, const char *driver, int i)
{
	if (set > 0)
		return set;
	return !driver || !driver[0] || strcmp(driver, "manual") == 0 ? 0 : default_bound[i];
}

void jobs_db_life_add(json_t *obj, struct dbi_stmt *st, int first)
{
	json_t *t = json_object(), *eff = json_object();
	const char *driver = dbi_column_text(st, first + LIFE_DRIVER);

	/* timeouts: as the job set them (null: the default); timeouts_effective:
	 * what the runner bounds each stage by, by the driver the job started
	 * under (queued: its machine's now; null: no bound, a manual machine)
	 * — `null` alone read as "none". */
	for (int i = 0; i < 3; i++) {
		int col = first + LIFE_BOUND_POWER + i;
		int b = jobs_db_stage_bound(dbi_column_type(st, col) == DBI_NULL ? -1 : dbi_column_int(st, col), driver, i);

		json_object_set_new(t, bound_names[i], col_json(st, col));
		json_object_set_new(eff, bound_names[i], b ? json_integer(b) : json_null());
	}
	json_object_set_new(obj, "stage", col_json(st, first + LIFE_STAGE));
	json_object_set_new(obj, "stage_since", iso_or_null(st, first + LIFE_STAGE_SINCE));
	json_object_set_new(obj, "attempt", col_json(st, first + LIFE_ATTEMPT));
	json_object_set_new(obj, "attempts", col_json(st, first + LIFE_ATTEMPTS));
	json_object_set_new(obj, "timeouts", t);
	json_object_set_new(obj, "timeouts_effective", eff);
	json_object_set_new(obj, "end", col_json(st, first + LIFE_END_ACTION));
	json_object_set_new(obj, "reason", col_json(st, first + LIFE_REASON));
	json_object_set_new(obj, "ended", iso_or_null(st, first + LIFE_ENDED));
}

json_t *jobs_db_job_json(struct dbi *ro, int64_t id, int *failed)
{
	/* the query's columns, in its order; the lifecycle's follow */
	enum { JJ_ID, JJ_MAC, JJ_SUITE, JJ_LABEL, JJ_CREATED, JJ_CONSUMED, JJ_RUN_ID, JJ_LIFE };
	struct dbi_stmt *st;
	json_t *o = NULL, *ev;
	int rc;

	*failed = 0;
	if ((rc = dbi_row(ro, "SELECT id, mac, suite, label, created, consumed, run_id, "
			JOBS_DB_LIFE_COLS " FROM jobs WHERE id = ?", &st, DBI_I(id))) == DBI_ROW) {
		o = json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o}", "id", (json_int_t)dbi_column_i64(st, JJ_ID),
			      "mac", col_json(st, JJ_MAC), "suite", col_json(st, JJ_SUITE), "label", col_json(st, JJ_LABEL),
			      "created", iso_or_null(st, JJ_CREATED), "consumed", iso_or_null(st, JJ_CONSUMED),
			      "run_id", col_json(st, JJ_RUN_ID));
		jobs_db_life_add(o, st, JJ_LIFE);
	}
	dbi_finalize(st);
	if (o && !(ev = events_json(ro, id))) {
		json_decref(o);
		o = NULL;
	} else if (o)
		json_object_set_new(o, "events", ev);
	*failed = !o && rc != DBI_DONE;
	return o;
}

/* The power settings as the API shows them: the password file's path is
 * the administrator's to know, its content never leaves the daemon; the
 * answer says only whether one is set. The command template goes to an
 * admin only (null for anyone else, command_set saying whether there is
 * one): it is an administrator's shell line, and a PDU's community string
 * or an `ipmitool -P ...` typed into it is a secret the anonymous machine
 * page served to anyone. */
static json_t *power_json(struct dbi_stmt *st, int first, int admin)
{
	struct power_cfg c;

	power_from_row(st, first, &c);
	return json_pack("{s:s, s:o, s:o, s:o, s:b, s:o, s:b, s:b, s:o, s:o, s:o}",
		"driver", c.driver[0] ? c.driver : "manual",
		"host", col_json(st, first + PW_HOST), "port", col_json(st, first + PW_PORT),
		"user", col_json(st, first + PW_USER), "password_set", c.password_file[0] != 0,
		"command", admin ? col_json(st, first + PW_COMMAND) : json_null(), "command_set", c.command[0] != 0,
		"sol", c.sol, "state", col_json(st, first + PW_STATE),
		"error", col_json(st, first + PW_ERROR), "checked", iso_or_null(st, first + PW_CHECKED));
}

/* The stage limits a job of the machine whose power settings start at
 * column first runs under where it sets none, by its driver now (what a
 * job queued now gets; a started job keeps its own: timeouts_effective):
 * seconds, null for no bound (a manual machine). */
static json_t *defaults_json(struct dbi_stmt *st, int first)
{
	const char *driver = dbi_column_text(st, first + PW_DRIVER);
	json_t *o = json_object();

	for (int i = 0; i < 3; i++) {
		int b = jobs_db_stage_bound(-1, driver, i);

		json_object_set_new(o, bound_names[i], b ? json_integer(b) : json_null());
	}
	return o;
}

json_t *jobs_db_machine_json(struct dbi *ro, const char *mac, int admin, int *failed)
{
	/* the query's columns, in its order; the power settings follow */
	enum { JM_ID, JM_MAC, JM_FIRST_SEEN, JM_LAST_SEEN, JM_LAB, JM_POWER };
	struct dbi_stmt *st;
	json_t *o = NULL, *jobs;
	int rc, step = DBI_ERROR;

	/* lab: which daemon boots and powers it (labs_db.h); the machine list
	 * said it, the one machine did not, so an operator refused with
	 * "belongs to lab X" could not see it where the machine is shown.
	 * A MAC that only jobs name (queued, never booted, no power set) is
	 * one too, as GET /api/v1/lab lists it: its record's fields are
	 * null (id null: not booted yet), its power the manual default. It
	 * was a 404 where the lab list and `job --help` sent the user. */
	if ((rc = dbi_row(ro, "SELECT m.id, k.mac, " MACHINE_SEEN_SQL("m.first_seen") ", " MACHINE_SEEN_SQL("m.last_seen")
			  ", m.lab, " POWER_JSON_COLS
			  " FROM (SELECT mac FROM machines WHERE mac = ?1 UNION SELECT mac FROM jobs WHERE mac = ?1) k"
			  " LEFT JOIN machines m ON m.mac = k.mac", &st, DBI_T(mac))) == DBI_ROW)
		o = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "id", col_json(st, JM_ID),
			      "mac", col_json(st, JM_MAC), "first_seen", iso_or_null(st, JM_FIRST_SEEN),
			      "last_seen", iso_or_null(st, JM_LAST_SEEN), "lab", col_json(st, JM_LAB),
			      "power", power_json(st, JM_POWER, admin), "timeouts_default", defaults_json(st, JM_POWER),
			      "sol_wait", dbi_column_int(st, JM_POWER + PW_SOL) ? json_integer(JOB_SOL_WAIT_S) : json_null());
	dbi_finalize(st);
	*failed = rc != DBI_ROW && rc != DBI_DONE;
	if (!o)
		return NULL;
	jobs = json_array();
	if (dbi_query(ro, "SELECT id FROM jobs WHERE mac = ? ORDER BY id DESC LIMIT 50", &st, DBI_T(mac)) == DBI_OK) {
		while ((step = dbi_step(st)) == DBI_ROW) {
			json_t *j = jobs_db_job_json(ro, dbi_column_i64(st, 0), failed);

			if (*failed)
				break;	/* step stays DBI_ROW: a failed read, below */
			if (j)
				json_array_append_new(jobs, j);
		}
		dbi_finalize(st);
	}
	if (step != DBI_DONE) {
		/* not the jobs read before the failure: the caller's 500 */
		*failed = 1;
		json_decref(jobs);
		json_decref(o);
		return NULL;
	}
	json_object_set_new(o, "jobs", jobs);
	return o;
}

json_t *jobs_db_lifecycle_json(struct dbi *ro, int64_t id)
{
	struct dbi_stmt *st;
	json_t *o = json_object();

	if (dbi_row(ro, "SELECT " JOBS_DB_LIFE_COLS " FROM jobs WHERE id = ?", &st, DBI_I(id)) == DBI_ROW)
		jobs_db_life_add(o, st, 0);
	dbi_finalize(st);
	return o;
}

/* How many of mac's latest ended jobs failed (timed out, failed) in a row;
 * -1 when the read failed (a partial count would be a shorter streak). */
static int fail_streak(struct dbi *ro, const char *mac)
{
	struct dbi_stmt *st;
	int n = 0, step;

	if (dbi_query(ro, "SELECT stage FROM jobs WHERE mac = ? AND stage IN "
			  "('complete', 'failed', 'timed_out') ORDER BY id DESC LIMIT 100", &st, DBI_T(mac)))
		return -1;
	while ((step = dbi_step(st)) == DBI_ROW && strcmp(dbi_column_text(st, 0), "complete"))
		n++;
	dbi_finalize(st);
	return step == DBI_ROW || step == DBI_DONE ? n : -1;
}

json_t *jobs_db_lab_json(struct dbi *ro, int streak_mark)
{
	/* the query's columns, in its order */
	enum { LB_MAC, LB_DRIVER, LB_POWER_STATE, LB_POWER_ERROR, LB_LAST_SEEN, LB_JOB_ID, LB_STAGE,
	       LB_STAGE_SINCE, LB_ATTEMPT, LB_ATTEMPTS, LB_SUITE, LB_REASON, LB_RUN_ID, LB_RUN_STATUS,
	       LB_RUN_AT, LB_LAST_ENDED, LB_LAB, LB_LAST_ID, LB_LAST_STAGE, LB_LAST_REASON, LB_LAST_AT, LB_RUN_DONE };
	json_t *arr = json_array();
	struct dbi_stmt *st;
	int64_t now = now_s();
	int step;

	/* Every machine the daemon knows, and every MAC a job names. */
	if (dbi_prepare(ro,
		"WITH macs AS (SELECT mac FROM machines UNION SELECT mac FROM jobs) "
		"SELECT k.mac, m.power_driver, m.power_state, m.power_error, m.last_seen, "
		" j.id, j.stage, j.stage_since, j.attempt, j.attempts, j.suite, j.reason, "
		" r.id, r.status, coalesce(r.finished, r.last_frame, r.created), "
		" (SELECT max(coalesce(ended, stage_since)) FROM jobs e WHERE e.mac = k.mac), m.lab, "
		" l.id, l.stage, l.reason, coalesce(l.ended, l.stage_since), r.done_status "
		"FROM macs k LEFT JOIN machines m ON m.mac = k.mac "
		"LEFT JOIN jobs j ON j.id = (SELECT id FROM jobs a WHERE a.mac = k.mac AND a.stage IN "
		"  ('queued', 'powering_on', 'booting', 'running') ORDER BY (a.stage = 'queued'), a.id LIMIT 1) "
		"LEFT JOIN runs r ON r.id = (SELECT max(id) FROM runs x WHERE x.machine_id = m.id) "
		/* the last job that ended: a failed one is what the row must
		 * say once the machine is idle again */
		"LEFT JOIN jobs l ON l.id = (SELECT max(id) FROM jobs b WHERE b.mac = k.mac AND b.stage NOT IN "
		"  ('queued', 'powering_on', 'booting', 'running')) "
		"ORDER BY k.mac LIMIT 5000", &st)) {
		json_decref(arr);
		return NULL;
	}
	while ((step = dbi_step(st)) == DBI_ROW) {
		const char *mac = dbi_column_text(st, LB_MAC);
		const char *stage = dbi_column_text(st, LB_STAGE);
		const char *err = dbi_column_text(st, LB_POWER_ERROR);
		const char *run_status = dbi_column_text(st, LB_RUN_STATUS);
		const char *state = "idle";
		int64_t since = dbi_column_i64(st, LB_LAST_SEEN);
		int streak = fail_streak(ro, mac);
		json_t *m, *job = json_null(), *run = json_null(), *last = json_null();

		if (streak < 0)
			break;	/* step stays DBI_ROW: a failed read, below */

		if (dbi_column_i64(st, LB_LAST_ENDED) > since)
			since = dbi_column_i64(st, LB_LAST_ENDED);
		if (stage && strcmp(stage, "queued")) {
			state = stage;
			since = dbi_column_i64(st, LB_STAGE_SINCE);
		} else if (err) {
			/* what to fix: power.h's faults, one table */
			state = power_fault_name(power_fault_of(err));
		} else if (run_status && strcmp(run_status, "running") == 0) {
			state = "running";
		}
		if (dbi_column_type(st, LB_JOB_ID) != DBI_NULL)
			job = json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o}", "id",
					(json_int_t)dbi_column_i64(st, LB_JOB_ID), "stage", col_json(st, LB_STAGE),
					"since", iso_or_null(st, LB_STAGE_SINCE), "attempt", col_json(st, LB_ATTEMPT),
					"attempts", col_json(st, LB_ATTEMPTS), "suite", col_json(st, LB_SUITE),
					"reason", col_json(st, LB_REASON));
		if (dbi_column_type(st, LB_LAST_ID) != DBI_NULL)
			last = json_pack("{s:I, s:o, s:o, s:o}", "id", (json_int_t)dbi_column_i64(st, LB_LAST_ID),
					 "stage", col_json(st, LB_LAST_STAGE), "reason", col_json(st, LB_LAST_REASON),
					 "at", iso_or_null(st, LB_LAST_AT));
		if (dbi_column_type(st, LB_RUN_ID) != DBI_NULL)
			/* done_status: the payload's verdict, so that a complete
			 * run whose checks FAILED is not shown as a pass */
			run = json_pack("{s:I, s:o, s:o, s:o}", "id", (json_int_t)dbi_column_i64(st, LB_RUN_ID),
					"status", col_json(st, LB_RUN_STATUS), "done_status", col_json(st, LB_RUN_DONE),
					"at", iso_or_null(st, LB_RUN_AT));
		/* lab: every daemon lists every lab's machines; which daemon
		 * powers and boots one (labs_db.h) was not said. */
		m = json_pack("{s:s, s:o, s:s, s:o, s:o, s:o, s:I, s:o, s:o, s:o, s:i, s:b}", "mac", mac,
			      "lab", col_json(st, LB_LAB), "state", state,
			      "driver", dbi_column_type(st, LB_DRIVER) == DBI_NULL ? json_string("manual")
									   : col_json(st, LB_DRIVER),
			      "power_state", col_json(st, LB_POWER_STATE), "power_error", col_json(st, LB_POWER_ERROR),
			      "in_state_s", (json_int_t)(since && now > since ? now - since : 0),
			      "job", job, "last_job", last, "last_run", run, "failed_streak", streak,
			      "failing", streak_mark > 0 && streak >= streak_mark);
		json_array_append_new(arr, m);
	}
	dbi_finalize(st);
	if (step != DBI_DONE) {
		/* not the machines read before the failure: the caller's 500 */
		json_decref(arr);
		return NULL;
	}
	return arr;
}

int jobs_db_policy_parse(json_t *body, struct job_policy *p, char *why, size_t whylen)
{
	json_t *a = json_object_get(body, "attempts"), *t = json_object_get(body, "timeouts"),
	       *e = json_object_get(body, "end");

	memset(p, 0, sizeof(*p));
	p->attempts = 1;
	p->end_off = 1;
	for (int i = 0; i < 3; i++)
		p->bound[i] = -1;
	if (a) {
		if (!json_is_integer(a) || json_integer_value(a) < 1 || json_integer_value(a) > 10) {
			snprintf(why, whylen, "attempts: expected 1..10 boots");
			return -1;
		}
		p->attempts = (int)json_integer_value(a);
	}
	if (t && !json_is_object(t)) {
		snprintf(why, whylen, "timeouts: expected {\"powering_on\": s, \"booting\": s, \"running\": s}");
		return -1;
	}
	for (int i = 0; t && i < 3; i++) {
		json_t *v = json_object_get(t, bound_names[i]);

		if (!v)
			continue;
		if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 7 * 86400) {
			snprintf(why, whylen, "timeouts.%s: expected 1..604800 seconds", bound_names[i]);
			return -1;
		}
		p->bound[i] = (int)json_integer_value(v);
	}
	if (t) {
		const char *k;
		json_t *v;

		json_object_foreach(t, k, v)
			if (strcmp(k, bound_names[0]) && strcmp(k, bound_names[1]) && strcmp(k, bound_names[2])) {
				snprintf(why, whylen, "timeouts.%s: not a stage (powering_on, booting, running)", k);
				return -1;
			}
	}
	if (e) {
		const char *s = json_string_value(e);

		if (!s || (strcmp(s, "off") && strcmp(s, "leave"))) {
			snprintf(why, whylen, "end: expected \"off\" or \"leave\"");
			return -1;
		}
		p->end_off = strcmp(s, "off") == 0;
	}
	return 0;
}

/* A stage's bound as stored: NULL when none is set (0). */
static struct dbi_arg bound_arg(int64_t v)
{
	return v > 0 ? DBI_I(v) : DBI_NUL;
}

void jobs_db_policy_store(struct dbi *db, int64_t id, const struct job_policy *p)
{
	dbi_run(db, "UPDATE jobs SET attempts = ?, bound_power = ?, bound_boot = ?, bound_run = ?, "
		"end_action = ?, stage_since = created WHERE id = ?", DBI_I(p->attempts), bound_arg(p->bound[0]),
		bound_arg(p->bound[1]), bound_arg(p->bound[2]), DBI_T(p->end_off ? "off" : "leave"), DBI_I(id));
}

int jobs_db_forget(struct dbi *db, int64_t id)
{
	if (dbi_run(db, "DELETE FROM job_events WHERE job_id = ?", DBI_I(id)) != DBI_OK)
		return -1;
	/* Its id is never given again (jobs_db_new_id): the floor only rises. */
	return dbi_run(db, "INSERT INTO id_floors(name, floor) VALUES ('jobs', ?) ON CONFLICT(name) DO UPDATE "
		       "SET floor = excluded.floor WHERE excluded.floor > id_floors.floor", DBI_I(id)) == DBI_OK
		? 0 : -1;
}

int64_t jobs_db_new_id(struct dbi *db, int64_t id)
{
	int64_t floor = dbi_i64(db, "SELECT floor FROM id_floors WHERE name = ?", 0, DBI_T("jobs"));

	/* SQLite gave max(id) + 1, so every id in the table is below id, and
	 * so below floor + 1: that id is free. PostgreSQL's identity never
	 * goes back, so there id is above the floor already. */
	if (id > floor)
		return id;
	if (dbi_run(db, "UPDATE jobs SET id = ? WHERE id = ?", DBI_I(floor + 1), DBI_I(id)) == DBI_OK)
		return floor + 1;
	/* Not queued under a reused id: the caller answers that it could not
	 * queue the job, and so no row may stay behind it. */
	dbi_run(db, "DELETE FROM jobs WHERE id = ?", DBI_I(id));
	return 0;
}

/* The note's event, on the writer's connection (jobs_db_note). */
static void note_fn(struct dbi *db, void *arg)
{
	struct job_text_task *t = arg;

	t->result = dbi_run(db, "INSERT INTO job_events(job_id, at, stage, attempt, reason) "
			    "SELECT id, ?, stage, attempt, ? FROM jobs WHERE id = ?", DBI_I(now_s()), DBI_T(t->text),
			    DBI_I(t->id));
}

int jobs_db_note(int64_t id, const char *reason)
{
	struct job_text_task t = { id, reason, -1 };

	return writer_call(note_fn, &t) || t.result != DBI_OK ? -1 : 0;
}
