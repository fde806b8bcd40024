/*
 * job_runner.h — the thread that drives queued jobs through their stored
 * lifecycle (job_runner.c): power on with the next boot set to PXE, watch
 * the boot and the run, bound every stage, retry with a power cycle, run
 * the end action. It keeps no state of its own: everything is in the jobs
 * table, so a restarted daemon carries on where the last one stopped.
 */
#ifndef XCB_JOB_RUNNER_H
#define XCB_JOB_RUNNER_H

/* Starts the runner (after the writer): 0 or -1. */
int job_runner_start(void);
/* Stops it (before the writer stops): returns once the thread has ended. */
void job_runner_stop(void);
/* Asks for a pass now (a job was queued or cancelled). */
void job_runner_kick(void);

#endif
