/*
 * smoke.h — a quick on-hardware self-test of the cross-call and shootdown
 * engines (payload only): raw IPI round trip, each algorithm x wait at one
 * initiator and one target, all CPUs initiating random masks at once with
 * exactly-once checks, and every flush path x method with stale counts.
 * Prints "xcbench: xcall ..." lines and ends with
 *   xcbench: xcall smoke PASS   (or FAIL <reason>)
 * Returns 0 on pass, XCALL_SMOKE_BAD_CMDLINE after a bad value of one of its
 * keys (watchdog_ms=, the test faults: said on the console, nothing run),
 * other non-zero on a failure. `iters` scales every loop (0: default 200;
 * the all-CPUs part uses at most 50).
 */
#define XCALL_SMOKE_BAD_CMDLINE (-2)
#ifndef XCB_BENCH_SMOKE_H
#define XCB_BENCH_SMOKE_H

int xcall_smoke(unsigned iters);

#endif
