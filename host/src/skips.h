/*
 * skips.h — the cases a run's payload skipped or refused, read back from
 * its LOG lines (firmware/bench/runner.c prepare(): "case I/N skipped: WHY"
 * and "case I/N refused: WHY", proto/README.md "Skipped cases"). The plan
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
 * reason counts under one. *suite_cases: the line's N (the suite's cases).
 * 1 when text is such a line, else 0. */
int skips_reason(const char *text, char *out, size_t len, int64_t *suite_cases);

/* {"cases": N, "suite_cases": M, "reasons": [{"reason": R, "cases": K}, …]}
 * over run's LOG lines (reasons in the order first logged; suite_cases the
 * lines' N, null without one); NULL when the read failed. */
json_t *skips_json(struct dbi *db, int64_t run);

#endif
