/*
 * run_limits.h — the per-run limits (--run-limit KIND=N, run_limits.c): how much one
 * run may store, whoever sends it. Past a limit the frame is refused (not
 * stored, not ACKed), counted (/health rejected.run_limit, runs.limited) and
 * the run's events say which limit once (store_limits.c). Defaults are far
 * above what a real run stores (the reasons are in limits.c).
 */
#ifndef XCB_LIMITS_H
#define XCB_LIMITS_H

#include <stddef.h>
#include <stdint.h>

enum run_limit_kind { LIM_CASES, LIM_FRAMES, LIM_HISTO, LIM_SAMPLES, LIM_EVENTS, LIM_FACTS, LIM_CONSOLE, LIM_N };

struct run_limit {
	const char *name;  /* KIND of --run-limit */
	const char *what;  /* what is counted, for the event and --help */
	int64_t max;       /* the limit in force: the default until --run-limit */
};
/* Written by main.c's options only, before the threads; read-only after. */
extern struct run_limit run_limits[LIM_N];

/* Pending runs without a job that one address's boot requests may hold
 * (boot.c): a lab machine has one pending run per MAC, a boot burst is 30
 * (boot.c's rate limit), and an <img> on a foreign page made one per GET. */
#define RUNS_PER_ADDR 16
/* Live (pending or running) runs one address may start with a HELLO alone
 * under --open (store.c). --open is loopback-only: the load tests run 1000
 * machines from 127.0.0.1 at once (t-load-1000); unbounded it was not. */
#define OPEN_RUNS_PER_ADDR 1024

/* Applies "KIND=N" (N >= 1): 0, or -1 with why in err. */
int run_limit_set(const char *spec, char *err, size_t errlen);

#endif
