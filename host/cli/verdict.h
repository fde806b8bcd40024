/*
 * verdict.h — the payload's own verdict on a run (its DONE frame's status,
 * the API's `done_status`), in words, for the commands that report a run
 * (vm, ingest, show): a run whose checks failed is still `complete`, and
 * its status alone read as a pass.
 */
#ifndef XCB_CLI_VERDICT_H
#define XCB_CLI_VERDICT_H

#include <jansson.h>

/* What the payload said went wrong in `run` (the API's RUN object), or NULL
 * when it passed or has not said yet (no DONE). */
const char *run_verdict(json_t *run);

/* Prints the LOG lines of the run's failed cases (those whose `case N `
 * prefix names a case of `cases` flagged invariant or watchdog), at most
 * `per_case` a case, each after `indent`, then the payload's `done:` line;
 * `heading` (a line, or NULL) before the first of them only, so that a run
 * with none (a watchdog's: no case's line, no done:) shows no empty one.
 * Returns how many lines it printed. */
int print_failed_logs(long long run_id, json_t *cases, int per_case, const char *heading, const char *indent,
		      FILE *out);

/* print_failed_logs() of run `run_id`, its cases fetched from the API. */
int print_run_failures(long long run_id, int per_case, const char *heading, const char *indent, FILE *out);

/* Prints the payload's ERROR reports of run `run_id` whole (a watchdog's
 * names the CPU each one waits on and what it spins on, on the lines after
 * the first, which the RUN object's `error` keeps alone): the first line
 * after "ERROR: ", the others under it. Falls back to `error` (the RUN
 * object's) when the events cannot be read. At most `max_lines` lines. */
void print_run_errors(long long run_id, const char *error, int max_lines, const char *indent, FILE *out);

#endif
