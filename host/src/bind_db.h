/*
 * bind_db.h — the binding rules' data access (bind_db.c): which boot request
 * may be handed a machine's queued job, the power driver's hook that binds
 * a job to the boot it starts, and the admin's requeue. Writer thread only
 * (each takes the writer's connection).
 */
#ifndef XCB_BIND_DB_H
#define XCB_BIND_DB_H

#include "dbi.h"
#include <stdint.h>

/* 1 if a boot request for mac from peer may be handed the MAC's job: from
 * the machine's known boot address, or from an allowed network (allowed:
 * bootnet_allows(peer)) — issue 26's "known boot address or an allowed
 * network": a lab machine whose DHCP lease moved still gets its job, a
 * stranger outside the lab's networks never does. */
int bind_may_take_job(struct dbi *db, const char *mac, const char *peer, int allowed);
/* The hook for a power driver (issue 23's job runner): call it on the writer
 * (writer_call) right before powering the machine on for job_id; the job is
 * then rendered only to a boot request until `until` (unix seconds), and
 * still only to the machine's address or an allowed network. 0, or -1 if
 * the job is not pending. */
int bind_job_to_boot(struct dbi *db, int64_t job_id, int64_t until);
/* POST /api/v1/jobs/{id}/requeue: the consumed job is pending again (its run
 * keeps its results; the job forgets it); forget_addr also forgets the
 * machine's known boot address (a machine that moved). 1 requeued, 0 no
 * consumed job of that id, -1 error. */
int bind_requeue(struct dbi *db, int64_t job_id, int forget_addr);
/* How many job-less runs from boot address peer are still pending. */
int64_t bind_pending_jobless(struct dbi *db, const char *peer);

#endif
