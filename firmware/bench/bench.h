/*
 * bench.h - the benchmark appliance's entry point, called by main.c once every CPU
 * is up: reads suite= and its overrides, sends HELLO, runs the cases (or stress),
 * prints the console table and sends DONE.
 */
#ifndef XCB_BENCH_BENCH_H
#define XCB_BENCH_BENCH_H

/* Returns the payload's exit code (arch/exit.h XCB_EXIT_*); main.c exits with it. */
int bench_main(void);

#endif
