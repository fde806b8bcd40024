/*
 * flush_internal.h — what flush.c shares with the shootdown paths in
 * flush/paths.c (not for users of flush.h): one shootdown's request, the
 * markers, local invalidation and the violation counter.
 */
#ifndef XCB_FLUSH_INTERNAL_H
#define XCB_FLUSH_INTERNAL_H

#include <stdint.h>
#include "flush/flush.h"
#include "xcall/amask.h"

#define MARKER(frame)	(0x58434246ull << 32 | (uint64_t)(frame))	/* "XCBF" */

/* One shootdown's description, owned by its initiator; targets read it
 * (through the call's arg) only while the call is in flight. */
struct flush_req {
	unsigned first, n;			/* pages [first, first+n) */
	enum flush_method method;
	int old_frame[FLUSH_MAX_BATCH];		/* before the change */
	int new_frame[FLUSH_MAX_BATCH];		/* after (-1: unmapped) */
	uint64_t stale;				/* this shootdown's violations (atomic) */
} __attribute__((aligned(64)));

/* Invalidate this CPU's translations of r's pages by r's method. */
void flush_invalidate(const struct flush_req *r);
/* n stale-translation violations seen for r (a window reader, paths.c). */
void flush_count_violation(struct flush_req *r, uint64_t n);

/* paths.c: the direct-IPI paths (concurrent, early_ack, early_ack_reader,
 * consolidated). init once after flush.c's own (ncpus, after
 * xcall_init_all: it takes a vector from the pool); 0 or <0. */
int flush_paths_init(unsigned ncpus);
/* Whether `path` is one of paths.c's, and whether it can run here. */
int flush_path_is_direct(enum flush_path p);
int flush_paths_supported(enum flush_path p);
/* The remote half of a shootdown on a direct path (targets: the caller's
 * snapshot, never the caller). For `concurrent` the local invalidation
 * runs here too, overlapped with the targets'. */
void flush_paths_remote(enum flush_path p, const struct amask *targets, struct flush_req *r);
/* Before verifying: the window readers of the last early_ack_reader
 * shootdown have finished (bounded). */
void flush_paths_settle(struct flush_req *r);

#endif
