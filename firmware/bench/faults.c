/*
 * faults.c - the fault-injection keys (faults.h), parsed once at boot.
 */
#include "bench/faults.h"
#include "lib/cmdline.h"
#include "lib/cpumask.h"

struct bench_faults faults = { ~0u, ~0u, ~0u, ~0u };

/* A CPU index key; ~0u when absent or out of range. */
static unsigned cpu_key(const char *key)
{
	uint64_t v;
	return cmdline_u64(key, ~0ull, &v) == 0 && v < XCB_MAX_CPUS ? (unsigned)v : ~0u;
}

void faults_init(void)
{
	faults.hang_cpu = cpu_key("hang_cpu");
	faults.fault_cpu = cpu_key("fault_cpu");
	faults.dupskip_cpu = cpu_key("dupskip_cpu");
	faults.startfail_cpu = cpu_key("startfail_cpu");
}
