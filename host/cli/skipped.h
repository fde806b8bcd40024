/*
 * skipped.h — the cases a run's payload skipped, in one sentence, for the
 * commands that report a run (show, vm): they are left out of the plan and
 * send no CASE, so "6 of 6 cases done" read as the whole suite while the
 * payload skipped 10 of its 16 (the API's `skipped`, host/API.md).
 */
#ifndef XCB_CLI_SKIPPED_H
#define XCB_CLI_SKIPPED_H

#include <jansson.h>
#include <stddef.h>

/* "10 of the suite's 16 cases skipped: 4 invpcid not supported by this CPU,
 * 6 delivery x2apic_cluster not available" from a run's answer o (GET
 * /api/v1/runs/{id}) into out; 0 with out set, -1 when none was skipped
 * (or a daemon from before `skipped`: out ""). */
int skipped_sentence(json_t *o, char *out, size_t len);

#endif
