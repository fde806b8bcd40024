/*
 * job_runner.c — the lab's job lifecycle (job_runner.h):
 *
 *   queued -> powering_on -> booting -> running -> complete
 *     \--(manual power: its /boot.ipxe)--^
 *                  \            \          \----> failed (the run crashed or was lost)
 *                   \------------\----------\---> timed_out (after the last attempt)
 *   any stage before the end --(cancel)--> cancelled
 *
 * powering_on: the power status, the next boot set to PXE where the driver
 * can, then power on (or cycle, if the machine is already on). booting: its /boot.ipxe came
 * (boot.c stamps jobs.booted). running: its HELLO (store.c consumes the
 * job). complete/failed: its run's status. A stage over its bound starts the
 * next attempt with a power cycle, or ends the job timed out. Every end runs
 * the end action (power off, or leave on) once; every transition and every
 * power action is an event.
 *
 * One pass every TICK_MS, over what jobs_db_open_jobs reads: the runner
 * holds no state between passes. Power actions run on a worker thread for
 * their machine (power_worker.c), which holds that machine's jobs alone
 * while a BMC answers slowly or not at all. A job's stage, its attempt and
 * whether its power-on went out (jobs.powered) are stored before the next
 * step, so a daemon restarted mid-job resumes from the stored stage and
 * never powers a machine on twice for one attempt. A machine runs one job at a time: the
 * oldest job of a MAC that has not ended holds it.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db.h"
#include "job_runner.h"
#include "jobs_db.h"
#include "power_worker.h"
#include "sol.h"
#include "util.h"

#define TICK_MS 500

static pthread_t thr;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER; /* pairs with stop/kicked under mu */
static int stop, kicked, started;

static int is_manual(const struct power_cfg *c)
{
	return !c->driver[0] || strcmp(c->driver, "manual") == 0;
}

/* The power driver job j's bounds follow: the one its machine had when it
 * started (jobs.power_driver), so that an operator editing the machine's
 * power settings mid-job does not change the limits it runs under; c's,
 * the machine's now, for a job not yet started. */
static const char *bound_driver(const struct job_row *j, const struct power_cfg *c)
{
	return j->driver[0] ? j->driver : c->driver;
}

/* Stage s's bound in seconds (0: none), by the one definition the API
 * shows too (jobs_db_stage_bound). */
static int bound_of(const struct job_row *j, const struct power_cfg *c, enum job_stage s)
{
	return jobs_db_stage_bound(j->bound[s - JOB_POWERING_ON], bound_driver(j, c), s - JOB_POWERING_ON);
}

/* Applies a change and its event; 1 if applied. */
static int change(const struct job_row *j, int stage, int attempt, const char *reason)
{
	struct job_change c = { .id = j->id, .expect = j->stage, .stage = stage, .attempt = attempt,
				.reason = reason };

	return jobs_db_change(&c) == 0 && c.applied;
}

/* Starts queued job j: to stage with its attempt 1 and event, its bounds'
 * driver fixed to c's (into next, the job as it is now, when applied); 1 if
 * applied. */
static int start(const struct job_row *j, const struct power_cfg *c, enum job_stage stage, const char *reason,
		 struct job_row *next)
{
	const char *driver = is_manual(c) ? "manual" : c->driver;
	struct job_change ch = { .id = j->id, .expect = j->stage, .stage = stage, .attempt = 1,
				 .reason = reason, .driver = driver };

	if (jobs_db_change(&ch) || !ch.applied)
		return 0;
	*next = *j;
	next->stage = stage;
	next->attempt = 1;
	snprintf(next->driver, sizeof(next->driver), "%s", driver);
	return 1;
}

static int event(const struct job_row *j, const char *reason)
{
	return change(j, -1, -1, reason);
}

/* Runs action a on c, records what it said on the machine, and returns
 * power_do's result with its message in msg. */
static int power(const struct power_cfg *c, enum power_action a, char *msg, size_t msglen)
{
	int rc = power_do(c, a, msg, msglen);

	if (rc < 0)
		jobs_db_power_state(c->mac, NULL, msg);
	else if (rc == 0)
		jobs_db_power_state(c->mac, a == POWER_STATUS ? msg : a == POWER_OFF ? "off" : a == POWER_PXE ? NULL : "on",
				    NULL);
	return rc;
}

/* The attempt's power-on: next boot PXE, then on (or cycle when the machine
 * is already on, so it boots again). Stamps jobs.powered with the event.
 * 0, or -1 with the job failed (a driver error is a setting to fix, not
 * something a retry mends). */
static int power_on(const struct job_row *j, const struct power_cfg *c, int cycle)
{
	/* st holds the status answer, "on"/"off" or the driver's whole error
	 * (which the failed event and the machine page show: cut at 63
	 * characters it lost what to do about it). */
	char msg[400], st[400], ev[1024];
	enum power_action a = cycle ? POWER_CYCLE : POWER_ON;
	struct job_change ch = { .id = j->id, .expect = j->stage, .stage = -1, .attempt = -1,
				 .mark_powered = 1, .reason = ev };
	int rc;

	if (is_manual(c)) {
		power_do(c, cycle ? POWER_CYCLE : POWER_ON, msg, sizeof(msg));
		snprintf(ev, sizeof(ev), "%s (and boot it from the network)", msg);
		jobs_db_change(&ch);
		return 0;
	}
	/* The status first: a BMC that refuses the password or does not
	 * answer fails the job on one event naming why. Asked after the
	 * boot device, its error followed "next boot PXE: not set (the same
	 * error); booting anyway", which read as if the job went on. */
	if (power(c, POWER_STATUS, st, sizeof(st)) < 0) {
		snprintf(ev, sizeof(ev), "power status: %s", st);
		change(j, JOB_FAILED, -1, ev);
		return -1;
	}
	if (power(c, POWER_PXE, msg, sizeof(msg)) < 0)
		rc = event(j, (snprintf(ev, sizeof(ev), "next boot PXE: not set (%s); powering on anyway, "
					"the machine boots from its first boot device", msg), ev));
	else
		rc = event(j, "next boot PXE: set");
	/* Not recorded: the job left its stage meanwhile (cancelled while
	 * this worker set the boot device), and nothing is switched on for it. */
	if (!rc)
		return -1;
	if (strcmp(st, "on") == 0)
		a = POWER_CYCLE;
	else if (a == POWER_CYCLE)
		a = POWER_ON; /* cycling a machine that is off only switches it on */
	/* The job goes to the boot this power-on starts, and to no later
	 * one: its two stages' bounds from now (issue 26's bind_db.h). */
	ch.boot_until = now_s() + bound_of(j, c, JOB_POWERING_ON) + bound_of(j, c, JOB_BOOTING);
	rc = power(c, a, msg, sizeof(msg));
	if (rc < 0) {
		snprintf(ev, sizeof(ev), "power %s: %s", power_action_name(a), msg);
		change(j, JOB_FAILED, -1, ev);
		return -1;
	}
	snprintf(ev, sizeof(ev), "power %s (was %s): %s", power_action_name(a), st, msg);
	jobs_db_change(&ch);
	return 0;
}

/* The attempt's power-on, on its machine's worker (power_work_fn): a
 * cycle from attempt 2 on. */
static void power_on_work(const struct job_row *j, const struct power_cfg *c)
{
	power_on(j, c, j->attempt > 1);
}

/* Starts j's power-on on its machine's worker; when none can start now the
 * job stays in powering_on, not powered, and a later pass starts it. */
static void power_on_start(const struct job_row *j, const struct power_cfg *c)
{
	power_worker_start(power_on_work, j, c);
}

/* The job's end action, once (a power_work_fn: on its machine's worker). */
static void end_action(const struct job_row *j, const struct power_cfg *c)
{
	char msg[400], ev[600];
	struct job_change ch = { .id = j->id, .expect = j->stage, .stage = -1, .attempt = -1,
				 .mark_ended = 1, .reason = ev };

	sol_stop(j->id);
	if (!j->end_off)
		snprintf(ev, sizeof(ev), "end: left on (end action 'leave')");
	else if (is_manual(c) || !j->powered)
		snprintf(ev, sizeof(ev), "end: %s", is_manual(c) ? "manual driver, left as it is"
							 : "never powered on, nothing to switch off");
	else if (power(c, POWER_OFF, msg, sizeof(msg)) < 0)
		snprintf(ev, sizeof(ev), "end: power off failed: %s", msg);
	else
		snprintf(ev, sizeof(ev), "end: powered off: %s", msg);
	jobs_db_change(&ch);
}

/* What stage s waited for and did not see within bound seconds, in the
 * words of what the machine should have done ("no progress in
 * powering_on" left the operator to work out that the machine never asked
 * for its boot script, and from when the time ran). */
static void overdue(enum job_stage s, int bound, char *dst, size_t n)
{
	if (s == JOB_POWERING_ON)
		snprintf(dst, n, "powering_on: no boot script request (/boot.ipxe) within %d s of the power-on", bound);
	else if (s == JOB_BOOTING)
		snprintf(dst, n, "booting: no HELLO from the payload within %d s of its boot script", bound);
	else
		snprintf(dst, n, "running: the run did not end within %d s of its HELLO", bound);
}

/* A stage over its bound: the next attempt with a power cycle, or the end. */
static void timed_out(const struct job_row *j, const struct power_cfg *c, int bound)
{
	char ev[400], what[200];
	struct job_row next = *j;

	overdue(j->stage, bound, what, sizeof(what));
	if (j->attempt >= j->attempts) {
		snprintf(ev, sizeof(ev), "%s; attempt %d of %d: timed out", what, j->attempt, j->attempts);
		change(j, JOB_TIMED_OUT, -1, ev);
		return;
	}
	snprintf(ev, sizeof(ev), "%s; power cycle for attempt %d of %d", what, j->attempt + 1, j->attempts);
	{
		struct job_change ch = { .id = j->id, .expect = j->stage, .stage = JOB_POWERING_ON,
					 .attempt = j->attempt + 1, .reason = ev, .reset_boot = 1 };

		if (jobs_db_change(&ch) || !ch.applied)
			return;
	}
	next.stage = JOB_POWERING_ON;
	next.attempt++;
	power_on_start(&next, c);
}

/* 1 while job j, in powering_on and not yet powered, should wait for its
 * serial-over-LAN session before its first power-on, so that its console
 * starts with the firmware's first line; at most JOB_SOL_WAIT_S from the
 * stage's start (its own bound: a BMC takes seconds to open a session,
 * sol.c's deactivate and activate each a lanplus login, and the 5 s it
 * had lost a slow BMC's first lines), then it is powered on without one
 * (and the session is tried again every second: sol.c). The wait is not
 * the stage's bound's: that one runs from the power-on (step). Asked once
 * a pass and never waited for: one pass serves every machine's job, and a
 * wait inside it held every other machine's job too. */
static int sol_waiting(const struct job_row *j, const struct power_cfg *c, int64_t now)
{
	char ev[200];

	if (!c->sol || j->attempt != 1)
		return 0;
	sol_ensure(j->id, c); /* after a restart, the capture starts here */
	if (sol_active(j->id) != 0)
		return 0; /* up, or no capture for this driver */
	if (now - j->stage_since < JOB_SOL_WAIT_S)
		return 1;
	snprintf(ev, sizeof(ev), "serial-over-LAN: no session within %d s; powering on, "
		 "its session tried again every second", JOB_SOL_WAIT_S);
	event(j, ev);
	return 0;
}

static void step(const struct job_row *j, const struct power_cfg *c, int64_t now)
{
	char ev[300];
	struct job_row next;
	int64_t since;
	int b;

	switch (j->stage) {
	case JOB_QUEUED:
		if (is_manual(c)) {
			/* Nobody to ask: the job waits, without a bound, for a
			 * person to boot the machine; its /boot.ipxe starts it. */
			if (!j->booted)
				return;
			snprintf(ev, sizeof(ev), "attempt 1 of %d: the machine asked for its boot script "
				 "(manual power)", j->attempts);
			start(j, c, JOB_BOOTING, ev, &next);
			return;
		}
		snprintf(ev, sizeof(ev), "attempt 1 of %d: powering on", j->attempts);
		if (start(j, c, JOB_POWERING_ON, ev, &next)) {
			if (c->sol) {
				/* Its session first; the passes that follow power
				 * it on (JOB_POWERING_ON, sol_waiting). */
				sol_ensure(j->id, c);
				return;
			}
			power_on_start(&next, c);
		}
		return;
	case JOB_POWERING_ON:
		if (!j->powered) {
			/* Waiting for its SOL session, or stopped between the
			 * stage and the power-on (a restart). */
			if (sol_waiting(j, c, now))
				return;
			power_on_start(j, c);
			return;
		}
		if (j->booted) {
			change(j, JOB_BOOTING, -1, "boot script requested (/boot.ipxe)");
			return;
		}
		break;
	case JOB_BOOTING:
		if (j->consumed) {
			snprintf(ev, sizeof(ev), "payload running (HELLO), run %lld", (long long)j->run_id);
			change(j, JOB_RUNNING, -1, ev);
			return;
		}
		break;
	case JOB_RUNNING:
		if (strcmp(j->run_status, "complete") == 0) {
			snprintf(ev, sizeof(ev), "run %lld complete", (long long)j->run_id);
			change(j, JOB_COMPLETE, -1, ev);
			return;
		}
		if (strcmp(j->run_status, "crashed") == 0 || strcmp(j->run_status, "lost") == 0) {
			snprintf(ev, sizeof(ev), "run %lld %s", (long long)j->run_id, j->run_status);
			change(j, JOB_FAILED, -1, ev);
			return;
		}
		break;
	default:
		return;
	}
	if (c->sol)
		sol_ensure(j->id, c);
	/* powering_on's bound runs from the power-on (jobs.powered): the wait
	 * for a SOL session before it has its own (sol_waiting), and a slow
	 * BMC's calls are not the machine's time to reach its boot script. */
	since = j->stage == JOB_POWERING_ON ? j->powered : j->stage_since;
	b = bound_of(j, c, j->stage);
	if (b > 0 && since && now - since > b)
		timed_out(j, c, b);
}

/* Passes in a row whose read of the jobs failed (the runner's thread's). */
static unsigned long failed_reads;
/* Passes in a row in which some machine's power settings could not be
 * read (the runner's thread's). */
static unsigned long failed_power_reads;

/* After a pass that failed to read `failed` jobs' power settings (the
 * first: job j's, the store's error `why`): the log says so once when such
 * passes start and once when a pass reads them all again, not twice a
 * second while the store stays broken. */
static void power_reads_note(unsigned failed, const struct job_row *j, const char *why)
{
	if (failed && !failed_power_reads++)
		fprintf(stderr, "xcbenchd: job runner: cannot read the power settings of machine %s (%s); "
			"job %lld and any other job of it wait, tried again every pass\n",
			j->mac, why, (long long)j->id);
	if (!failed && failed_power_reads) {
		fprintf(stderr, "xcbenchd: job runner: reads the machines' power settings again after %lu "
			"failed passes\n", failed_power_reads);
		failed_power_reads = 0;
	}
}

/* One pass over every job with work left. A failed read of the jobs is
 * no "no jobs": the pass does nothing and the next one reads again; the
 * log says so once when the reads start failing and once when they read
 * again (not twice a second while a store stays broken). A machine whose
 * power settings cannot be read is no manual machine: its jobs wait for a
 * pass that reads them (its first job holds it, so no newer job of it moves
 * first), and every other machine's go on. */
static void pass(void)
{
	struct dbi *db = db_ro();
	struct job_row *rows;
	size_t n;
	char (*held)[18];
	size_t nheld = 0;
	int64_t now = now_s();
	unsigned power_failed = 0;
	const struct job_row *first_failed = NULL;
	char why[200] = "";

	/* Before the read: a worker that ended since is in it. */
	power_workers_pass();
	if (jobs_db_open_jobs(db, &rows, &n)) {
		if (!failed_reads++)
			fprintf(stderr, "xcbenchd: job runner: cannot read the jobs (%s); no job moves until a read "
				"succeeds, tried again every pass\n", db ? dbi_errmsg(db) : "no database connection");
		return;
	}
	if (failed_reads) {
		fprintf(stderr, "xcbenchd: job runner: reads the jobs again after %lu failed passes\n", failed_reads);
		failed_reads = 0;
	}
	held = calloc(n ? n : 1, sizeof(*held));
	for (size_t i = 0; held && i < n; i++) {
		struct job_row *j = &rows[i];
		struct power_cfg c;
		int busy = 0;

		for (size_t k = 0; k < nheld; k++)
			busy |= strcmp(held[k], j->mac) == 0;
		if (jobs_db_power_cfg(db, j->mac, &c)) {
			if (!power_failed++) {
				first_failed = j;
				snprintf(why, sizeof(why), "%s", db ? dbi_errmsg(db) : "no database connection");
			}
			if (!busy)
				memcpy(held[nheld++], j->mac, sizeof(j->mac));
			continue;
		}
		/* Its worker holds the machine: this read may predate what
		 * the worker did (power_worker.c). Its end action also holds
		 * it, so a newer job powers it on once it is off. */
		if (power_worker_held(j->mac))
			continue;
		if (job_stage_final(j->stage)) {
			power_worker_start(end_action, j, &c);
			continue;
		}
		if (busy)
			continue; /* an older job holds the machine */
		memcpy(held[nheld++], j->mac, sizeof(j->mac));
		step(j, &c, now);
	}
	if (held)
		power_reads_note(power_failed, first_failed, why);
	free(held);
	free(rows);
}

static void *runner(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&mu);
	while (!stop) {
		struct timespec ts;

		pthread_mutex_unlock(&mu);
		pass();
		pthread_mutex_lock(&mu);
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += TICK_MS * 1000000L;
		ts.tv_sec += ts.tv_nsec / 1000000000L;
		ts.tv_nsec %= 1000000000L;
		while (!stop && !kicked)
			if (pthread_cond_timedwait(&cv, &mu, &ts))
				break;
		kicked = 0;
	}
	pthread_mutex_unlock(&mu);
	db_ro_close();
	return NULL;
}

int job_runner_start(void)
{
	if (pthread_create(&thr, NULL, runner, NULL))
		return -1;
	started = 1;
	return 0;
}

void job_runner_kick(void)
{
	pthread_mutex_lock(&mu);
	kicked = 1;
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&mu);
}

void job_runner_stop(void)
{
	if (!started)
		return;
	pthread_mutex_lock(&mu);
	stop = 1;
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&mu);
	pthread_join(thr, NULL);
	/* The power actions under way end first: a power-on's event and
	 * stamp are what keep a restarted daemon from a second one. */
	power_workers_drain();
	sol_stop_all();
	started = 0;
}
