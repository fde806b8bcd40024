/*
 * lockprof.c — each CPU's switch for the lock profiles (xcall.h
 * xcall_lockprof_count): whether the locks it takes count in them.
 */
#include "xcall/xcall.h"
#include "lib/cpumask.h"
#include "lib/platform.h"

/* Per CPU, its own line: written by its CPU between calls and read by the
 * same CPU at each lock take, so no other CPU's timed call ever loses a line
 * to it. Only that CPU touches its slot, so the accesses pair with nothing.
 * Stored inverted (0 = counting), so the default is the BSS's zero. */
static struct {
	unsigned char off;
} __attribute__((aligned(64))) gate[XCB_MAX_CPUS];

void xcall_lockprof_count(int on)
{
	unsigned me = plat_cpu_id();

	if (me < XCB_MAX_CPUS)
		gate[me].off = !on;
}

int xcall_lockprof_counting(void)
{
	unsigned me = plat_cpu_id();

	return me >= XCB_MAX_CPUS || !gate[me].off;
}
