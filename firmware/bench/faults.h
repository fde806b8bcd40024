/*
 * faults.h - the fault-injection keys of the tests, read once at boot and then
 * read-only: the harness's own checks (watchdog, ledger, bounded waits) are
 * tested by making a CPU misbehave on purpose. Every test key of the payload
 * is parsed here, the xcall layer's too (handed down with plat_faults_set),
 * so that each is refused the same way when its value is bad.
 *
 *   hang_cpu=N       that CPU wedges, interrupts off: in its first callee (xcall),
 *                    its first shootdown (tlb initiator), or its first timed
 *                    read (sync reader)
 *   fault_cpu=N      that CPU takes an invalid-opcode exception at the same place
 *   dupskip_cpu=N    that CPU runs one call (sequence number >= 3) as the previous
 *                    one again: one call skipped, one duplicated (in the bench's
 *                    callee, and, once more, in the xcall_smoke self-test's:
 *                    faults_dupskip)
 *   startfail_cpu=N  CPU 0 treats starting work on that CPU as failed (a sync
 *                    reader that cannot start: the readers already started must
 *                    be stopped, not left spinning)
 *   ipidrop=SITE ipidrop_cpu=N [ipidrop_after=M], fwddrop_cpu=N: lost IPIs
 *                    (xcall/platform.h plat_lost_cpu, platform_hw.c); parsed
 *                    here, used there
 *   rawwait_ms=N     xcall/raw.c's probe gives up after N ms (at least 100),
 *                    not 10 s (platform.h plat_raw_wait_ms): a test that
 *                    loses a raw ping waits less
 * ~0u = not set.
 */
#ifndef XCB_BENCH_FAULTS_H
#define XCB_BENCH_FAULTS_H

#include <stdint.h>

struct bench_faults {
	unsigned hang_cpu, fault_cpu, dupskip_cpu, startfail_cpu;
};

extern struct bench_faults faults;

/* Once, before the first IPI (the floors): parse the keys and hand the
 * xcall layer's down. 0; or -1 when a value is bad — a number that is not
 * one, a CPU that is not online (0..ncpus-1), an ipidrop site that is not
 * one, ipidrop_cpu/ipidrop_after without ipidrop or the other way round —
 * each said on the console naming the key; every fault is then off, and
 * the caller ends the run as a bad command line (exit 2). */
int faults_init(unsigned ncpus);

/* dupskip_cpu: the sequence number CPU cpu books for its call seq. Its
 * first call numbered 3 or more is booked as the one before (one skipped,
 * one duplicated), once per *done: each callee that books calls (the
 * bench's, the smoke test's) keeps its own, written only by that CPU. */
static inline uint64_t faults_dupskip(unsigned cpu, uint64_t seq, int *done)
{
	if (cpu != faults.dupskip_cpu || seq < 3 || *done)
		return seq;
	*done = 1;
	return seq - 1;
}

#endif
