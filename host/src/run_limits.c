/*
 * run_limits.c — the per-run limits (run_limits.h): names, defaults, the
 * --run-limit parser. A real run (the quick suite: 18 cases, 2,203 frames, a few thousand histogram rows, ~40 facts, a few dozen log lines)
 * stays orders of magnitude below each default; a flood stops at them.
 */
#include <stdio.h>
#include <string.h>

#include "run_limits.h"
#include "util.h"

struct run_limit run_limits[LIM_N] = {
	/* The payload's own table holds 4096 cases (firmware/bench/bench.c). */
	[LIM_CASES] = { "cases", "cases", 4096 },
	/* Every stored frame (it bounds RESULT rows too, one a frame): the
	 * quick suite is 2,203 frames, a 4096-case run ~100 a case. */
	[LIM_FRAMES] = { "frames", "frames", 524288 },
	/* Non-empty buckets: ~50 per (case, rep, initiator) in practice; 2^20
	 * rows is ~20 MB of database. */
	[LIM_HISTO] = { "histo", "histogram rows", 1048576 },
	[LIM_SAMPLES] = { "samples", "sample rows", 1048576 },
	/* LOG and ERROR lines: a few per case; 16384 x 1.4 KB is ~23 MB. */
	[LIM_EVENTS] = { "events", "log and error lines", 16384 },
	/* HELLO keys: ~40 in a real HELLO; /machines returns them all. */
	[LIM_FACTS] = { "facts", "HELLO facts", 256 },
	/* Console text attached by POST .../console: a long serial capture
	 * (frames included) is ~1 MB. */
	[LIM_CONSOLE] = { "console", "console bytes", 4 << 20 },
};

int run_limit_set(const char *spec, char *err, size_t errlen)
{
	const char *eq = strchr(spec, '=');
	uint64_t v;

	for (int i = 0; eq && i < LIM_N; i++) {
		if (strlen(run_limits[i].name) != (size_t)(eq - spec) ||
		    strncmp(spec, run_limits[i].name, (size_t)(eq - spec)))
			continue;
		if (parse_u64(eq + 1, &v) || v < 1 || v > INT64_MAX / 2) {
			snprintf(err, errlen, "--run-limit: '%s': expected %s=N, N >= 1", spec, run_limits[i].name);
			return -1;
		}
		run_limits[i].max = (int64_t)v;
		return 0;
	}
	snprintf(err, errlen, "--run-limit: '%s': expected KIND=N, KIND one of cases, frames, histo, "
		 "samples, events, facts, console", spec);
	return -1;
}
