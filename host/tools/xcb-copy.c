/*
 * xcb-copy.c — moving a lab's history: copies the runs of a SQLite database
 * (an xcbenchd's --db file) into another store (a PostgreSQL server, or
 * another SQLite file), under a lab name, through the daemon's own storage
 * seam and migrations (host/src/dbi.h, db.c).
 *
 * A run is known by its token, which is global: a run whose token the
 * destination has is skipped, so a second copy adds nothing. Each run is
 * copied in one transaction (its row, its machine if new, and its frames,
 * cases, results, histogram and sample chunks and events), so a copy stopped
 * half-way leaves whole runs only and the next copy finishes it. Ids are
 * the destination's: a run's id and its machine's are mapped. The counts of
 * every table are checked per run after its commit. Then the lab's ended
 * jobs and its machines' baselines follow (xcb-copy-jobs.c).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmdopt.h"
#include "db.h"
#include "machines_db.h"
#include "util.h"
#include "xcb-copy.h"
#include "xcbd.h"

/* db.c reads the daemon's configuration (its readers' --db). */
struct xcbd_config cfg;

/* SIGINT or SIGTERM seen (the signal): the copy stops between two runs,
 * each of which is one transaction, and says what it did and how to go
 * on. Killed at once, it printed nothing (its data as safe, but the
 * operator not told so). SA_RESETHAND: a second Ctrl-C ends it now. */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

extern const int xcb_nmigrations;

/* The tables keyed by run, copied row by row with run_id mapped. */
static const char *const child_tables[] = { "frames", "frame_spans", "cases", "results", "histogram_chunks",
					    "sample_chunks", "events", "run_tags", "run_meta" };
#define NCHILD (sizeof(child_tables) / sizeof(child_tables[0]))

/* Seconds between two progress lines at most (while runs are left). */
#define PROGRESS_S 2.0

static const char usage[] =
"usage: xcb-copy --from FILE.db --db URL|FILE --lab NAME [--quiet]\n"
"Copies every run of the SQLite database FILE.db (with its machine, frames,\n"
"cases, results, histograms, samples, events, tags and meta), then its ended\n"
"jobs (with their events; a job not ended stays: requeue it) and its machines'\n"
"baselines, into the store --db names\n"
"(postgresql://user@host/dbname: its password from PGPASSFILE, ~/.pgpass or\n"
"PGPASSWORD), migrated first. Runs without a lab get NAME (" LAB_NAME_RULE ",\n"
"as xcbenchd --lab takes), and so do the machines of the runs and ended jobs\n"
"(one only a job names gets a record); a machine the store has in another lab\n"
"stays there (said; xcbench machine set MAC --take moves it). A run whose token\n"
"is there already is skipped: copying again adds nothing. Prints (stderr) how\n"
"many runs it copies, then progress every 50 runs or 2 s, and, last, one line: runs copied, runs skipped, rows copied, then the jobs\n"
"and baselines copied and skipped. A job is already there when one has its\n"
"MAC, suite and creation time; a baseline when its machine has one for the suite.\n"
"Interrupted (Ctrl-C, SIGTERM), it stops between two runs, says so and exits\n"
"128 + the signal: every run copied is whole, and the same command again\n"
"copies the rest.\n";

/* columns, params: see xcb-copy.h. */
int columns(struct dbi *src, const char *t, const char *skip, struct buf *out)
{
	struct dbi_stmt *st;
	char sql[160];
	int n = 0;

	snprintf(sql, sizeof(sql), "SELECT name FROM pragma_table_info('%s') ORDER BY cid", t);
	if (dbi_prepare(src, sql, &st))
		return -1;
	while (dbi_step(st) == DBI_ROW) {
		const char *c = dbi_column_text(st, 0);
		char pat[80];

		snprintf(pat, sizeof(pat), ",%s,", c);
		if (skip && strstr(skip, pat))
			continue;
		buf_addf(out, "%s%s", n ? ", " : "", c);
		n++;
	}
	dbi_finalize(st);
	return n;
}

/* A text of n parameters "?, ?, ...". */
void params(struct buf *b, int n)
{
	for (int i = 0; i < n; i++)
		buf_addf(b, "%s?", i ? ", " : "");
}

static int64_t count_of(struct dbi *db, const char *t, int64_t run)
{
	struct dbi_stmt *st;
	char sql[128];
	int64_t n = -1;

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s WHERE run_id = ?", t);
	if (dbi_prepare(db, sql, &st))
		return -1;
	dbi_bind_i64(st, 1, run);
	if (dbi_step(st) == DBI_ROW)
		n = dbi_column_i64(st, 0);
	dbi_finalize(st);
	return n;
}

/* MACs said to stay in another lab (copy_machine), ",a,b,": said once. */
static struct buf said_elsewhere;

/* copy_machine: see xcb-copy.h. A machine the destination has with no lab
 * is adopted (as a lab's daemon adopts one it powers, lab_machine_adopt):
 * it kept none, and the copied lab's daemon would have to boot it first to
 * own it; one of another lab stays there, said once: which lab boots it
 * is that store's decision (xcbench machine set --take), not a copy's. */
int64_t copy_machine(struct dbi *src, struct dbi *dst, const char *mac, const char *lab)
{
	struct dbi_stmt *s, *d;
	const char *want = lab;
	char *have;
	int found;

	if (!mac || dbi_prepare(src, "SELECT uuid, serial, first_seen, last_seen, lab FROM machines WHERE mac = ?", &s))
		return 0;
	dbi_bind_text(s, 1, mac, -1);
	found = dbi_step(s) == DBI_ROW;
	if (found && dbi_column_text(s, 4))
		want = dbi_column_text(s, 4); /* the source's own lab, as a run's */
	if (dbi_prepare(dst, "INSERT INTO machines(mac, uuid, serial, first_seen, last_seen, lab) "
			"VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (mac) DO NOTHING", &d) == DBI_OK) {
		dbi_bind_text(d, 1, mac, -1);
		for (int c = 0; found && c < 4; c++) {
			struct dbval v;

			dbval_read(s, c, &v);
			dbi_bind_value(d, c + 2, &v);
			dbval_free(&v);
		}
		/* a MAC only jobs name: never seen (machines_db.h), not seen
		 * when a job was made (no boot said so) */
		if (!found) {
			dbi_bind_i64(d, 4, MACHINE_NEVER_SEEN);
			dbi_bind_i64(d, 5, MACHINE_NEVER_SEEN);
		}
		dbi_bind_text(d, 6, want, -1);
		dbi_step(d);
		dbi_finalize(d);
	}
	if (dbi_prepare(dst, "UPDATE machines SET lab = ? WHERE mac = ? AND lab IS NULL", &d) == DBI_OK) {
		dbi_bind_text(d, 1, want, -1);
		dbi_bind_text(d, 2, mac, -1);
		dbi_step(d);
		dbi_finalize(d);
	}
	have = NULL;
	if (dbi_prepare(dst, "SELECT lab FROM machines WHERE mac = ?", &d) == DBI_OK) {
		dbi_bind_text(d, 1, mac, -1);
		if (dbi_step(d) == DBI_ROW && dbi_column_text(d, 0))
			have = strdup(dbi_column_text(d, 0));
		dbi_finalize(d);
	}
	if (have && strcmp(have, want) && !(said_elsewhere.p && strstr(said_elsewhere.p, mac))) {
		fprintf(stderr, "xcb-copy: machine %s is in lab '%s' in --db: it stays there (the copied runs and "
			"jobs are of lab '%s'; xcbench machine set %s --take on that lab's daemon moves it)\n",
			mac, have, want, mac);
		buf_addf(&said_elsewhere, ",%s", mac);
	}
	free(have);
	dbi_finalize(s);
	return dbi_i64(dst, "SELECT id FROM machines WHERE mac = ?1", 0, DBI_T(mac));
}

/* The destination's machine for the source's machine id (copy_machine),
 * or 0 for none. */
static int64_t map_machine(struct dbi *src, struct dbi *dst, int64_t id, const char *lab)
{
	char *mac = NULL;
	int64_t to;
	struct dbi_stmt *s;

	if (dbi_prepare(src, "SELECT mac FROM machines WHERE id = ?", &s))
		return 0;
	dbi_bind_i64(s, 1, id);
	if (dbi_step(s) == DBI_ROW && dbi_column_text(s, 0))
		mac = strdup(dbi_column_text(s, 0));
	dbi_finalize(s);
	to = mac ? copy_machine(src, dst, mac, lab) : 0;
	free(mac);
	return to;
}

int64_t copy_rows(struct dbi *src, struct dbi *dst, const char *t, const char *key, int64_t from,
		  int64_t to)
{
	struct buf cols = { 0 }, q = { 0 }, ins = { 0 }, skip = { 0 };
	struct dbi_stmt *s = NULL, *d = NULL;
	int n;
	int64_t rows = -1;

	buf_addf(&skip, ",id,%s,", key); /* a row's own id is the destination's */
	n = skip.p ? columns(src, t, skip.p, &cols) : -1;
	if (n <= 0)
		goto out;
	buf_addf(&q, "SELECT %s FROM %s WHERE %s = ?", cols.p, t, key);
	buf_addf(&ins, "INSERT INTO %s(%s, %s) VALUES (?, ", t, key, cols.p);
	params(&ins, n);
	buf_addf(&ins, ")");
	if (dbi_prepare(src, q.p, &s) || dbi_prepare(dst, ins.p, &d))
		goto out;
	dbi_bind_i64(s, 1, from);
	rows = 0;
	while (dbi_step(s) == DBI_ROW) {
		dbi_reset(d);
		dbi_clear(d);
		dbi_bind_i64(d, 1, to);
		for (int c = 0; c < n; c++) {
			struct dbval v;

			dbval_read(s, c, &v);
			dbi_bind_value(d, c + 2, &v);
			dbval_free(&v);
		}
		if (dbi_step(d) != DBI_DONE) {
			fprintf(stderr, "xcb-copy: %s: %s\n", t, dbi_errmsg(dst));
			rows = -1;
			break;
		}
		rows++;
	}
out:
	dbi_finalize(s);
	dbi_finalize(d);
	buf_free(&skip);
	buf_free(&cols);
	buf_free(&q);
	buf_free(&ins);
	return rows;
}

/* 1 if the destination has a run with this token. */
static int have_token(struct dbi *dst, const char *token)
{
	struct dbi_stmt *st;
	int found = 0;

	if (dbi_prepare(dst, "SELECT 1 FROM runs WHERE token = ?", &st))
		return -1;
	dbi_bind_text(st, 1, token, -1);
	found = dbi_step(st) == DBI_ROW;
	dbi_finalize(st);
	return found;
}

/* Copies source run `id` (its row read by `run`, columns cols): the new
 * id, 0 if skipped (token there), -1 on error. *rows += rows copied. */
static int64_t copy_run(struct dbi *src, struct dbi *dst, struct dbi_stmt *run, const struct buf *cols,
			int ncols, const char *lab, int64_t *rows)
{
	int64_t id = dbi_column_i64(run, 0), machine = 0, to;
	const char *token = dbi_column_text(run, 1);
	struct buf ins = { 0 };
	struct dbi_stmt *d;
	int64_t r = 0;

	if (have_token(dst, token))
		return 0;
	if (dbi_exec(dst, "BEGIN")) {
		fprintf(stderr, "xcb-copy: BEGIN: %s\n", dbi_errmsg(dst));
		return -1;
	}
	if (dbi_column_type(run, 2) != DBI_NULL)
		machine = map_machine(src, dst, dbi_column_i64(run, 2), lab);
	/* Columns 0..3 are id, token, machine_id, lab; the others as they are. */
	buf_addf(&ins, "INSERT INTO runs(token, machine_id, lab, %s) VALUES (?, ?, ?, ", cols->p);
	params(&ins, ncols);
	buf_addf(&ins, ")");
	if (dbi_prepare(dst, ins.p, &d))
		goto fail;
	dbi_bind_text(d, 1, token, -1);
	if (machine)
		dbi_bind_i64(d, 2, machine);
	dbi_bind_text(d, 3, dbi_column_text(run, 3) ? dbi_column_text(run, 3) : lab, -1);
	for (int c = 0; c < ncols; c++) {
		struct dbval v;

		dbval_read(run, c + 4, &v);
		dbi_bind_value(d, c + 4, &v);
		dbval_free(&v);
	}
	if (dbi_step(d) != DBI_DONE) {
		fprintf(stderr, "xcb-copy: run %s: %s\n", token, dbi_errmsg(dst));
		dbi_finalize(d);
		goto fail;
	}
	dbi_finalize(d);
	to = dbi_last_id(dst);
	for (size_t t = 0; t < NCHILD; t++) {
		int64_t n = copy_rows(src, dst, child_tables[t], "run_id", id, to);

		if (n < 0)
			goto fail;
		r += n;
	}
	if (dbi_exec(dst, "COMMIT")) {
		fprintf(stderr, "xcb-copy: COMMIT: %s\n", dbi_errmsg(dst));
		goto fail;
	}
	/* Checked against the source once committed: every table's rows. */
	for (size_t t = 0; t < NCHILD; t++)
		if (count_of(src, child_tables[t], id) != count_of(dst, child_tables[t], to)) {
			fprintf(stderr, "xcb-copy: run %s: %s counts differ after the copy\n", token,
				child_tables[t]);
			buf_free(&ins);
			return -1;
		}
	*rows += r + 1;
	buf_free(&ins);
	return to;
fail:
	dbi_exec(dst, "ROLLBACK");
	buf_free(&ins);
	return -1;
}

int main(int argc, char **argv)
{
	const char *from = NULL, *to = NULL, *lab = NULL;
	int rc = 0, quiet = 0, ncols, have;
	const struct cmdopt opts[] = {
		OPT_STR("from", &from), OPT_STR("db", &to), OPT_STR("lab", &lab), OPT_FLAG("quiet", &quiet), OPT_END,
	};
	const struct cmd cmd = { "xcb-copy", usage, opts };
	int64_t copied = 0, skipped = 0, rows = 0, total = 0, nruns;
	double last;
	char err[1024];
	struct dbi *src, *dst;
	struct dbi_stmt *runs;
	struct buf cols = { 0 }, q = { 0 };
	struct copy_jobs_counts jn = { 0 };
	struct stat st = { 0 };

	if (cmd_parse(&cmd, argc, argv, &rc))
		return rc;
	/* One line each, as every other mistake here: the usage alone, which
	 * this said, did not say what was wrong. */
	if (optind < argc) {
		fprintf(stderr, "xcb-copy: unexpected argument '%s' (see --help)\n", argv[optind]);
		return 2;
	}
	if (!from || !to || !lab) {
		fprintf(stderr, "xcb-copy: %s is required (see --help)\n", !from ? "--from" : !to ? "--db" : "--lab");
		return 2;
	}
	/* Checked before anything is opened: runs copied under a name no
	 * daemon's --lab takes ('', "lab a") could not be listed by lab, and a
	 * second copy under the right name would skip them as already there. */
	if (!lab_name_ok(lab)) {
		fprintf(stderr, "xcb-copy: --lab: '%s' is not " LAB_NAME_RULE
			" (the name the lab's xcbenchd --lab gives)\n", lab);
		return 2;
	}
	if (dbi_url_is_pg(from)) {
		fprintf(stderr, "xcb-copy: --from: a SQLite file, not '%s'\n", from);
		return 2;
	}
	/* SQLite says "unable to open database file" or "disk I/O error" for
	 * a path that is missing or a directory: the path's own reason. */
	if (stat(from, &st) != 0 || S_ISDIR(st.st_mode)) {
		fprintf(stderr, "xcb-copy: --from '%s': %s: name the lab daemon's --db file\n", from,
			S_ISDIR(st.st_mode) ? "a directory" : strerror(errno));
		return 1;
	}
	/* The lab's file as the store too: every run 'already there', exit 0,
	 * nothing copied anywhere. */
	{
		struct stat dst_st;

		if (!dbi_url_is_pg(to) && stat(to, &dst_st) == 0 && dst_st.st_dev == st.st_dev &&
		    dst_st.st_ino == st.st_ino) {
			fprintf(stderr, "xcb-copy: --from and --db name the same file ('%s'): --db is the "
				"central store\n", to);
			return 2;
		}
	}
	src = dbi_open(from, DBI_RO, err, sizeof(err));
	if (!src) {
		fprintf(stderr, "xcb-copy: %s\n", err);
		return 1;
	}
	/* What to do depends on what FILE.db is: "start xcbenchd on it" is the
	 * answer for an older xcbench database only (a text file, another
	 * program's database or a newer xcbench's it would not help). */
	have = dbi_user_version(src);
	if (have < 0)
		fprintf(stderr, "xcb-copy: --from '%s' is not a SQLite database (%s): name the lab "
			"daemon's --db file\n", from, dbi_errmsg(src));
	else if (have == 0)
		fprintf(stderr, "xcb-copy: --from '%s' is not an xcbench database (no schema version): "
			"name the lab daemon's --db file\n", from);
	else if (have > xcb_nmigrations)
		fprintf(stderr, "xcb-copy: '%s' has schema version %d, newer than this xcb-copy's %d: "
			"copy with the xcb-copy of the xcbench that wrote it\n", from, have, xcb_nmigrations);
	else if (have < xcb_nmigrations)
		fprintf(stderr, "xcb-copy: '%s' has schema version %d, this xcb-copy %d: start this "
			"version's xcbenchd on it once (it migrates), then copy\n", from, have, xcb_nmigrations);
	if (have != xcb_nmigrations) {
		dbi_close(src);
		return 1;
	}
	dst = db_open_rw(to, err, sizeof(err));
	if (!dst) {
		fprintf(stderr, "xcb-copy: %s\n", err);
		dbi_close(src);
		return 1;
	}
	ncols = columns(src, "runs", ",id,token,machine_id,lab,job_id,", &cols);
	buf_addf(&q, "SELECT id, token, machine_id, lab, %s FROM runs ORDER BY id", cols.p);
	if (ncols <= 0 || dbi_prepare(src, q.p, &runs)) {
		fprintf(stderr, "xcb-copy: cannot read runs: %s\n", dbi_errmsg(src));
		return 1;
	}
	{
		struct sigaction sa = { .sa_handler = on_stop, .sa_flags = SA_RESETHAND };

		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
	}
	/* A lab's history is hundreds of runs of up to a million sample and
	 * histogram rows each: the count first, then a line every 50 runs or
	 * every PROGRESS_S seconds, whichever comes first, so a long copy
	 * never sits silent (it said nothing for 50 runs, minutes on a big
	 * one, and never how many there were). */
	nruns = dbi_i64_args(src, "SELECT count(*) FROM runs", 0, NULL, 0);
	if (!quiet)
		fprintf(stderr, "xcb-copy: %lld runs in %s, copying into lab %s (a run already there is skipped)\n",
			(long long)nruns, from, lab);
	last = now_mono();
	while (!stop_signal && dbi_step(runs) == DBI_ROW) {
		int64_t id = copy_run(src, dst, runs, &cols, ncols, lab, &rows);

		total++;
		if (id < 0) {
			rc = 1;
			break;
		}
		id ? copied++ : skipped++;
		if (!quiet && (total % 50 == 0 || now_mono() - last >= PROGRESS_S) && total < nruns) {
			fprintf(stderr, "xcb-copy: %lld of %lld runs read, %lld copied\n", (long long)total,
				(long long)nruns, (long long)copied);
			last = now_mono();
		}
	}
	dbi_finalize(runs);
	/* then what names the runs: ended jobs, baselines (xcb-copy-jobs.c) */
	if (rc == 0 && !stop_signal && (copy_jobs(src, dst, lab, &jn) || copy_baselines(src, dst, &jn)))
		rc = 1;
	printf("%lld runs copied, %lld already there, %lld rows copied; %lld jobs copied (%lld events), "
	       "%lld already there, %lld not ended (left in the source); %lld baselines copied, %lld already there%s\n",
	       (long long)copied, (long long)skipped, (long long)rows, (long long)jn.jobs, (long long)jn.job_events,
	       (long long)jn.jobs_there, (long long)jn.jobs_pending, (long long)jn.baselines,
	       (long long)jn.baselines_there, rc ? " (stopped by an error)" : stop_signal ? " (interrupted)" : "");
	if (stop_signal && rc == 0) {
		fprintf(stderr, "xcb-copy: interrupted (%s) after %lld runs: each run copied is whole; the same command "
			"again copies the rest (and the jobs and baselines, not copied yet)\n",
			stop_signal == SIGINT ? "SIGINT" : "SIGTERM", (long long)total);
		rc = 128 + stop_signal;
	}
	buf_free(&cols);
	buf_free(&q);
	dbi_close(src);
	dbi_close(dst);
	return rc;
}
