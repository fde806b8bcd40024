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
void table_print(void);

#endif
