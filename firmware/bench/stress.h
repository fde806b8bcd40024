/*
 * stress.h - randomised invariant checking (`suite=stress duration=S`).
 */
#ifndef XCB_BENCH_STRESS_H
#define XCB_BENCH_STRESS_H

#include <stdint.h>
#include "bench/suite.h"

struct stress_result {
	uint64_t rounds, calls;
	uint64_t stale;		/* violations: stale translations, */
	uint64_t not_once;	/* and calls lost, duplicated or out of order (one count: the
				 * summary line says "not run exactly once"; the LOG and
				 * RESULT of a round tell them apart) */
	uint64_t early;		/* wait=done calls that returned before a target ran them */
	int watchdog;		/* a call outlived the bound (reported as ERROR) */
	int refused;		/* a round's CASE did not fit a frame (reported as ERROR) */
	uint32_t next_id;
};

/* Runs for s->duration_s; case ids from first_id. Returns 0 when every invariant
 * held, 1 on any violation. */
int stress_run(const struct suite *s, uint32_t first_id, struct stress_result *out);

#endif
