/*
 * table.h - the short human-readable summary printed on the console at the end of a
 * run: one line per case, the seed-shaped comparison (rows = CPUs in mask, columns =
 * initiators, % change of the median call time vs `locked`: the
 * median, not the mean, because one descheduled vCPU can move a mean by 10x), and the raw IPI floor against
 * each algorithm at one initiator and one target.
 */
#ifndef XCB_BENCH_TABLE_H
#define XCB_BENCH_TABLE_H

#include "bench/runner.h"

void table_add(const struct case_summary *s);
/* The tables; a run that skipped cases ends with how many: the runner's
 * (rows that did not run) and plan_skipped, those the suite's expansion
 * left out (bench.c run_suite's "plan:" line: they have no row). */
void table_print(unsigned plan_skipped);

#endif
