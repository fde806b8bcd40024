/*
 * xcb-copy-jobs.c — xcb-copy's second pass, once the runs are across: the
 * lab's ended jobs (with their stage events and their machines, under the
 * lab) and its machines' baselines.
 * Both name source ids (a job its run, a baseline its machine and runs),
 * which are mapped to the destination's through what is global: a run's
 * token, a machine's MAC.
 *
 * Idempotent like the runs: a job is the same job when the destination has
 * one with its MAC, suite and creation time; a baseline when the machine
 * has one for that suite (the destination's stays). A job that has not
 * ended is left behind (counted): in a shared store the daemon of the
 * MAC's lab would serve it, booting a machine nobody asked it to.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobs_db.h"
#include "xcb-copy.h"

/* The destination's id for source id: src_sql reads the source row's
 * global key (a run's token, a machine's MAC), dst_sql finds the row with
 * it. 0 if either has none. */
static int64_t map_id(struct dbi *src, struct dbi *dst, const char *src_sql, const char *dst_sql, int64_t id)
{
	struct dbi_stmt *s, *d;
	int64_t out = 0;

	if (dbi_prepare(src, src_sql, &s))
		return 0;
	dbi_bind_i64(s, 1, id);
	if (dbi_step(s) == DBI_ROW && dbi_prepare(dst, dst_sql, &d) == DBI_OK) {
		dbi_bind_text(d, 1, dbi_column_text(s, 0), -1);
		if (dbi_step(d) == DBI_ROW)
			out = dbi_column_i64(d, 0);
		dbi_finalize(d);
	}
	dbi_finalize(s);
	return out;
}

/* The destination's id of source run id (by its token), 0 if none. */
static int64_t map_run(struct dbi *src, struct dbi *dst, int64_t id)
{
	return map_id(src, dst, "SELECT token FROM runs WHERE id = ?", "SELECT id FROM runs WHERE token = ?", id);
}

/* The destination's id of source machine id (by its MAC), 0 if none. */
int64_t copy_map_machine(struct dbi *src, struct dbi *dst, int64_t id)
{
	return map_id(src, dst, "SELECT mac FROM machines WHERE id = ?", "SELECT id FROM machines WHERE mac = ?", id);
}

/* 1 if the destination has the job: the same MAC, suite and creation time. */
static int have_job(struct dbi *dst, struct dbi_stmt *job)
{
	struct dbi_stmt *st;
	int found = 0;

	if (dbi_prepare(dst, "SELECT 1 FROM jobs WHERE mac = ? AND suite = ? AND created = ?", &st))
		return -1;
	dbi_bind_text(st, 1, dbi_column_text(job, 2), -1);
	dbi_bind_text(st, 2, dbi_column_text(job, 3), -1);
	dbi_bind_i64(st, 3, dbi_column_i64(job, 4));
	found = dbi_step(st) == DBI_ROW;
	dbi_finalize(st);
	return found;
}

/* Inserts source job row `job` (id, run_id, then cols) in one transaction
 * with its events, linked to its copied run: 0 or -1. */
static int copy_job(struct dbi *src, struct dbi *dst, struct dbi_stmt *job, const char *cols, int ncols,
		    struct copy_jobs_counts *n)
{
	int64_t run = dbi_column_type(job, 1) == DBI_NULL ? 0 : map_run(src, dst, dbi_column_i64(job, 1));
	struct buf ins = { 0 };
	struct dbi_stmt *d = NULL;
	int64_t to, ev;

	if (dbi_exec(dst, "BEGIN"))
		return -1;
	buf_addf(&ins, "INSERT INTO jobs(run_id, %s) VALUES (?, ", cols);
	params(&ins, ncols);
	buf_addf(&ins, ")");
	if (!ins.p || dbi_prepare(dst, ins.p, &d))
		goto fail;
	if (run)
		dbi_bind_i64(d, 1, run);
	for (int c = 0; c < ncols; c++) {
		struct dbval v;

		dbval_read(job, c + 2, &v);
		dbi_bind_value(d, c + 2, &v);
		dbval_free(&v);
	}
	if (dbi_step(d) != DBI_DONE)
		goto fail;
	to = dbi_last_id(dst);
	dbi_finalize(d);
	d = NULL;
	/* the run names its job too (runs.job_id, not copied with the run) */
	if (run && dbi_prepare(dst, "UPDATE runs SET job_id = ? WHERE id = ? AND job_id IS NULL", &d) == DBI_OK) {
		dbi_bind_i64(d, 1, to);
		dbi_bind_i64(d, 2, run);
		if (dbi_step(d) != DBI_DONE)
			goto fail;
	}
	ev = copy_rows(src, dst, "job_events", "job_id", dbi_column_i64(job, 0), to);
	if (ev < 0 || dbi_exec(dst, "COMMIT"))
		goto fail;
	dbi_finalize(d);
	buf_free(&ins);
	n->jobs++;
	n->job_events += ev;
	return 0;
fail:
	fprintf(stderr, "xcb-copy: job %lld: %s\n", (long long)dbi_column_i64(job, 0), dbi_errmsg(dst));
	dbi_finalize(d);
	dbi_exec(dst, "ROLLBACK");
	buf_free(&ins);
	return -1;
}

/* 1 if the stage named name is an end (jobs_db.h's stages and rule). */
static int stage_final(const char *name)
{
#define STAGE_FINAL(e, s) if (name && !strcmp(name, s)) return job_stage_final(JOB_##e);
	JOB_STAGES(STAGE_FINAL)
#undef STAGE_FINAL
	return 0;
}

int copy_jobs(struct dbi *src, struct dbi *dst, const char *lab, struct copy_jobs_counts *n)
{
	struct buf cols = { 0 }, q = { 0 };
	struct dbi_stmt *st = NULL;
	int ncols = columns(src, "jobs", ",id,run_id,mac,suite,created,stage,", &cols), rc = -1;

	/* Columns 2, 3, 4 and 5 are mac, suite, created and stage (have_job). */
	if (ncols > 0)
		buf_addf(&q, "SELECT id, run_id, mac, suite, created, stage, %s FROM jobs ORDER BY id", cols.p);
	if (ncols <= 0 || !q.p || dbi_prepare(src, q.p, &st)) {
		fprintf(stderr, "xcb-copy: cannot read jobs: %s\n", dbi_errmsg(src));
		goto out;
	}
	/* The insert lists mac, suite, created and stage again among cols. */
	buf_free(&q);
	buf_addf(&q, "mac, suite, created, stage, %s", cols.p);
	rc = 0;
	while (rc == 0 && dbi_step(st) == DBI_ROW) {
		if (!stage_final(dbi_column_text(st, 5))) {
			n->jobs_pending++;
			continue;
		}
		if (have_job(dst, st))
			n->jobs_there++;
		else
			rc = copy_job(src, dst, st, q.p, ncols + 4, n);
		/* Its machine is the lab's too (its record only came with a
		 * run, and without the lab: the lab page said "No lab"); for a
		 * job already there as well, so that a copy again mends it. */
		if (rc == 0 && !copy_machine(src, dst, dbi_column_text(st, 2), lab)) {
			fprintf(stderr, "xcb-copy: job %lld: its machine %s: %s\n", (long long)dbi_column_i64(st, 0),
				dbi_column_text(st, 2), dbi_errmsg(dst));
			rc = -1;
		}
	}
out:
	dbi_finalize(st);
	buf_free(&cols);
	buf_free(&q);
	return rc;
}

/* Appends the destination's ids of the source run ids in JSON array list
 * ("[1, 2]") as a JSON array; the number of ids that have none. */
static int map_run_list(struct dbi *src, struct dbi *dst, const char *list, struct buf *out)
{
	const char *p = list ? strchr(list, '[') : NULL;
	int missing = 0, k = 0;

	buf_addf(out, "[");
	while (p && *p && *p != ']') {
		char *end;
		long long id = strtoll(p + 1, &end, 10);
		int64_t to;

		if (end == p + 1)
			break;
		to = map_run(src, dst, id);
		if (to)
			buf_addf(out, "%s%lld", k++ ? ", " : "", (long long)to);
		else
			missing++;
		p = end + strspn(end, " ");
	}
	buf_addf(out, "]");
	return missing + (k == 0);
}

int copy_baselines(struct dbi *src, struct dbi *dst, struct copy_jobs_counts *n)
{
	struct dbi_stmt *st, *d = NULL;
	int rc = 0;

	if (dbi_prepare(src, "SELECT machine_id, suite, runs, set_at FROM baselines ORDER BY machine_id, suite", &st)) {
		fprintf(stderr, "xcb-copy: cannot read baselines: %s\n", dbi_errmsg(src));
		return -1;
	}
	if (dbi_prepare(dst, "INSERT INTO baselines(machine_id, suite, runs, set_at) VALUES (?, ?, ?, ?) "
			"ON CONFLICT (machine_id, suite) DO NOTHING", &d)) {
		fprintf(stderr, "xcb-copy: baselines: %s\n", dbi_errmsg(dst));
		dbi_finalize(st);
		return -1;
	}
	while (rc == 0 && dbi_step(st) == DBI_ROW) {
		int64_t machine = copy_map_machine(src, dst, dbi_column_i64(st, 0));
		struct buf runs = { 0 };

		/* a baseline whose machine or runs did not come along is not one */
		if (!machine || map_run_list(src, dst, dbi_column_text(st, 2), &runs) || !runs.p) {
			fprintf(stderr, "xcb-copy: baseline of machine %lld suite %s: its runs are not all "
				"copied, left out\n", (long long)dbi_column_i64(st, 0), dbi_column_text(st, 1));
			buf_free(&runs);
			continue;
		}
		dbi_reset(d);
		dbi_clear(d);
		dbi_bind_i64(d, 1, machine);
		dbi_bind_text(d, 2, dbi_column_text(st, 1), -1);
		dbi_bind_text(d, 3, runs.p, -1);
		dbi_bind_i64(d, 4, dbi_column_i64(st, 3));
		if (dbi_step(d) != DBI_DONE) {
			fprintf(stderr, "xcb-copy: baselines: %s\n", dbi_errmsg(dst));
			rc = -1;
		} else if (dbi_changes(dst) > 0)
			n->baselines++;
		else
			n->baselines_there++;
		buf_free(&runs);
	}
	dbi_finalize(d);
	dbi_finalize(st);
	return rc;
}
