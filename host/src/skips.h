/*
 * skips.h — the cases a run's payload skipped or refused, read back from
 * its LOG lines (firmware/bench/runner.c prepare(): "case I/N skipped: WHY"
 * and "case I/N refused: WHY"; bench.c's "plan: K cases skipped: WHY" for
 * those the expansion leaves out; proto/README.md "Skipped cases"). The plan
 * (HELLO cases_planned) leaves them out and they send no CASE, so without
 * this only the log said a suite's case never ran. Counted per reason for
 * the run's JSON (host/API.md GET /api/v1/runs/{id} `skipped`).
 */
#ifndef XCB_SKIPS_H
#define XCB_SKIPS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "dbi.h"

/* A skip line's reason into out (len bytes): the text after "skipped: " or
 * "refused: " without a trailing " (...)" (the skipped case's own axes and
 * CPU count, or a constant aside), so that every case skipped for one
 * reason counts under one. The runner's lines, "case I/N skipped: WHY",
 * are one case each, N the expanded suite's cases (*suite_n); the plan's,
 * "plan: K cases skipped: WHY", K cases the expansion left out (*suite_n
 * -1: no case id, not among the N). *cases: how many. 1 when text is such
 * a line, else 0. */
int skips_reason(const char *text, char *out, size_t len, int64_t *cases, int64_t *suite_n);

/* {"cases": N, "suite_cases": M, "reasons": [{"reason": R, "cases": K}, …]}
 * over run's LOG lines (reasons in the order first logged). suite_cases:
 * the suite's cases with those left out, the larger of the runner's lines'
 * N plus the plan's K and `planned` (the run's cases_planned, -1 unknown)
 * plus every skip; null with neither. NULL when the read failed. */
json_t *skips_json(struct dbi *db, int64_t run, int64_t planned);

#endif
