/*
 * xcb-copy.h — what xcb-copy.c (the runs) and xcb-copy-jobs.c (the jobs and
 * baselines that name them) share.
 */
#ifndef XCB_COPY_H
#define XCB_COPY_H

#include <stdint.h>

#include "dbi.h"
#include "util.h"

/* The column names of table t in the SQLite source, as "a, b, c" (no
 * columns named in skip, a comma-separated list such as ",id,run_id,"),
 * and their number (-1: no such table). */
int columns(struct dbi *src, const char *t, const char *skip, struct buf *out);
/* Appends n parameters "?, ?, ...". */
void params(struct buf *b, int n);
/* Copies the rows of table t whose column key is `from` as rows with key
 * `to` (their own id column, if any, left to the destination): rows
 * copied, or -1. */
int64_t copy_rows(struct dbi *src, struct dbi *dst, const char *t, const char *key, int64_t from,
		  int64_t to);

/* The destination's id of source machine id (the machine with its MAC),
 * 0 if it has none. */
int64_t copy_map_machine(struct dbi *src, struct dbi *dst, int64_t id);

/* The destination's machine of MAC (its id; 0 if it has none): the
 * source's record copied if the destination has none, under the source's
 * lab or else lab; with no source record (a MAC only jobs name) one never
 * seen (MACHINE_NEVER_SEEN). One the destination has without a lab gets
 * that lab; one of another lab keeps it, said once on stderr. */
int64_t copy_machine(struct dbi *src, struct dbi *dst, const char *mac, const char *lab);

/* What the second pass did: copied, already there, left behind. */
struct copy_jobs_counts {
	int64_t jobs, jobs_there, jobs_pending, job_events, baselines, baselines_there;
};
/* Copies the source's ended jobs (complete, failed, timed_out, cancelled)
 * with their events, each linked to its copied run, and their machines
 * (copy_machine, under lab), and its machines' baselines with their run
 * ids mapped. 0, or -1 on an error (said on
 * stderr). */
int copy_jobs(struct dbi *src, struct dbi *dst, const char *lab, struct copy_jobs_counts *n);
int copy_baselines(struct dbi *src, struct dbi *dst, struct copy_jobs_counts *n);

#endif
