/*
 * jobs_db.h — data access for the lab: the jobs' lifecycle columns, their
 * events, and the machines' power settings and state (migration 007). All
 * of the lab's SQL is in jobs_db.c; writes go through the writer thread.
 */
#ifndef XCB_JOBS_DB_H
#define XCB_JOBS_DB_H

#include <jansson.h>
#include "dbi.h"
#include <stdint.h>

#include "power.h"

/* The stages, in order; the last four are the ends. */
#define JOB_STAGES(X) X(QUEUED, "queued") X(POWERING_ON, "powering_on") X(BOOTING, "booting") \
	X(RUNNING, "running") X(COMPLETE, "complete") X(FAILED, "failed") X(TIMED_OUT, "timed_out") \
	X(CANCELLED, "cancelled")
#define JOB_ENUM(e, s) JOB_##e,
enum job_stage { JOB_STAGES(JOB_ENUM) JOB_NSTAGES };
#undef JOB_ENUM
const char *job_stage_name(enum job_stage s);
/* The stage named s, or -1. */
int job_stage_parse(const char *s);
/* 1 for complete, failed, timed_out and cancelled (inline: xcb-copy, which
 * copies only ended jobs, links no daemon code). */
static inline int job_stage_final(enum job_stage s)
{
	return s >= JOB_COMPLETE;
}

/* One job as the runner sees it, with its run's status. */
struct job_row {
	int64_t id, stage_since, powered, booted, consumed, ended, run_id, created;
	char mac[18];
	enum job_stage stage;
	int attempt, attempts;
	int bound[3];            /* seconds in powering_on, booting, running; 0: none */
	int end_off;             /* end action: power off (else leave on) */
	char run_status[16];     /* "" without a run */
	char driver[16];         /* its machine's power driver when it started ("manual"
				  * for none; "" while queued): its bounds' defaults */
};

/* The jobs the runner still has work on: not final, or final with the end
 * action not yet run; oldest first; none of another lab's machine (its
 * lab's daemon runs them). *rows is malloc'ed. 0, or -1 when the read
 * failed (no row then, never the jobs read before the failure). */
int jobs_db_open_jobs(struct dbi *ro, struct job_row **rows, size_t *n);
/* The power settings of mac (machines row); an unknown machine or one
 * without a driver is manual. 0, or -1 on a database error. */
int jobs_db_power_cfg(struct dbi *ro, const char *mac, struct power_cfg *c);

/* A change to one job, applied by the writer in one transaction with its
 * event (reason non-NULL). Only if the job's stage is still `expect` (so a
 * cancel and the runner never both win). */
struct job_change {
	int64_t id;
	enum job_stage expect;
	int stage;               /* the new stage, or -1 to keep it */
	int attempt;             /* the new attempt, or -1 */
	const char *reason;      /* the event's text (and the job's reason on a stage change) */
	int reset_boot;          /* a new attempt: forget its boot, HELLO, run and power-on */
	int mark_powered, mark_ended;
	int64_t boot_until;      /* with mark_powered: the job goes only to a boot before
				  * this time (bind_db.h's hook, issue 26); 0: any time */
	const char *driver;      /* with the stage change that starts it (out of queued):
				  * the machine's power driver, fixed for the job's bounds */
	int applied;             /* out: 1 if it was applied */
};
int jobs_db_change(struct job_change *c);

/* An event on job id in whatever stage it is (sol.c: the console of a
 * machine that never made a run). 0 or -1. */
int jobs_db_note(int64_t id, const char *reason);

/* boot.c, in the writer: the job's /boot.ipxe for this attempt. */
void jobs_db_booted(struct dbi *db, int64_t job_id, int64_t now);

/* Stores what the last driver call on mac said (state "on"/"off" or NULL,
 * error NULL on success). */
int jobs_db_power_state(const char *mac, const char *state, const char *error);

/* Stores power settings for mac (creating the machine if it is new, in
 * this daemon's lab). A machine of another lab is refused unless take
 * (then moved into this daemon's lab, if that lab is not working on one
 * of its jobs). 0, -1 when not stored now, or 1 when refused (why, n
 * bytes, says so for a 409): nothing stored. */
int jobs_db_set_power(const struct power_cfg *c, int take, char *why, size_t n);

/* Cancels job id: 1 if it was cancelled, 0 if it had already ended, -1 if
 * there is no such job, -2 when the store could not say (the write failed,
 * or the daemon is stopping: writer_call_failure says which). */
int jobs_db_cancel(int64_t id, const char *why);

/* Stage i's time limit in seconds (0: none), i 0 powering_on, 1 booting,
 * 2 running: the job's own (set > 0; -1 or 0: none set), else the default
 * for a machine of power driver `driver` (NULL or "" is manual). The
 * runner bounds stages by it and the API shows it (timeouts_effective):
 * one definition of the defaults. */
int jobs_db_stage_bound(int set, const char *driver, int i);
/* How long a job of a machine with serial-over-LAN waits, from its start,
 * for the session before its first power-on (job_runner.c sol_waiting):
 * its own bound, not powering_on's, which runs from the power-on. The API
 * shows it (a machine's power.sol_wait). */
#define JOB_SOL_WAIT_S 15

/* JSON for the API (HTTP threads' read-only connections). */
/* with its events; NULL if none, or (*failed 1) when a read failed */
json_t *jobs_db_job_json(struct dbi *ro, int64_t id, int *failed);
/* A machine: power settings (never the password; the command template
 * only for an admin, see power_json), jobs; NULL if none, or (*failed 1)
 * when a read failed (never the jobs read so far). */
json_t *jobs_db_machine_json(struct dbi *ro, const char *mac, int admin, int *failed);
/* the overview; NULL when the read failed (never the machines read so far) */
json_t *jobs_db_lab_json(struct dbi *ro, int fail_streak);
/* The lifecycle fields of a job row (api_jobs.c adds them to its JSON). */
json_t *jobs_db_lifecycle_json(struct dbi *ro, int64_t id);
/* The SQL columns of the lifecycle fields and their JSON (api_jobs.c's
 * list reads them with the rest of the row, from column `first` on). */
/* (The last, the power driver its bounds follow, gives the stages'
 * effective bounds: the driver fixed when the job started, else, queued,
 * its machine's now; every query of them reads FROM jobs, unaliased.) */
#define JOBS_DB_LIFE_COLS "stage, stage_since, attempt, attempts, bound_power, bound_boot, bound_run, end_action, reason, ended, " \
	"coalesce(jobs.power_driver, (SELECT m.power_driver FROM machines m WHERE m.mac = jobs.mac))"
/* Each one's offset from `first`, in JOBS_DB_LIFE_COLS's order. */
enum { LIFE_STAGE, LIFE_STAGE_SINCE, LIFE_ATTEMPT, LIFE_ATTEMPTS, LIFE_BOUND_POWER, LIFE_BOUND_BOOT,
       LIFE_BOUND_RUN, LIFE_END_ACTION, LIFE_REASON, LIFE_ENDED, LIFE_DRIVER, LIFE_NCOLS };
void jobs_db_life_add(json_t *obj, struct dbi_stmt *st, int first);

/* In the writer: a deleted job's events go with it, and its id is never
 * given again (id_floors, migration 014). 0, or -1 when either write failed
 * (the caller keeps the job: deleted, its id could be given again). */
int jobs_db_forget(struct dbi *db, int64_t id);
/* In the writer, right after a job's INSERT gave it id: its id, moved above
 * every deleted job's (SQLite gives a deleted newest job's id again); 0 when
 * the move failed (the row is deleted then). */
int64_t jobs_db_new_id(struct dbi *db, int64_t id);

/* Options a job may carry (api_jobs.c stores them at creation). */
struct job_policy {
	int attempts;            /* 1..10 */
	int bound[3];            /* seconds, 0: none */
	int end_off;
};
/* Parses body's "attempts", "timeouts" {powering_on, booting, running} and
 * "end" ("off"|"leave") into p (defaults first): 0, or -1 with why. */
int jobs_db_policy_parse(json_t *body, struct job_policy *p, char *why, size_t whylen);
/* In the writer, right after the job's INSERT. */
void jobs_db_policy_store(struct dbi *db, int64_t id, const struct job_policy *p);

#endif
