/*
 * power_worker.h — a machine's power actions on a thread of their own
 * (power_worker.c), so that a slow or dead BMC holds its own job only and
 * not the job runner's pass over every machine's job.
 */
#ifndef XCB_POWER_WORKER_H
#define XCB_POWER_WORKER_H

#include "jobs_db.h"
#include "power.h"

/* What a worker does with its copies of the job and the machine's power
 * settings (job_runner.c's power_on, end_action, ...). */
typedef void (*power_work_fn)(const struct job_row *j, const struct power_cfg *c);

/* Called at the start of a runner pass, before it reads the jobs: forgets
 * the workers that have ended, whose changes that read will see. */
void power_workers_pass(void);
/* 1 while c->mac's worker runs, or ended after the pass began (its changes
 * may be missing from what the pass read): the pass leaves that machine's
 * jobs alone until its next read. */
int power_worker_held(const char *mac);
/* Starts fn on copies of j and c on a thread for c->mac: 0, or -1 when
 * the machine already has one, POWER_WORKERS_MAX run, or no thread could
 * start (the pass tries again next time; nothing was done). */
int power_worker_start(power_work_fn fn, const struct job_row *j, const struct power_cfg *c);
/* Waits until every worker has ended (the runner's stop), first saying on
 * stderr which machines' power actions it waits for (a daemon told to
 * stop sat silent up to POWER_TIMEOUT_S on a dead BMC). */
void power_workers_drain(void);

/* Machines powered at once: each worker is one driver call at a time
 * (POWER_TIMEOUT_S at most), so a lab this many dead BMCs wide still
 * powers the rest within a pass or two. */
#define POWER_WORKERS_MAX 32

#endif
