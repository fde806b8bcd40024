/*
 * lazy.c — lazy TLB invalidation by generation (see lazy.h).
 *
 * Shared state: one generation word (written by the one writer, read by
 * everyone) and, per CPU, a "flush up to" mark the writer raises and a
 * "flushed up to" acknowledgement the CPU itself writes. The two per-CPU
 * words sit on separate cache lines: the writer polls `seen` while waiting,
 * and must not bounce the line the target reads at every entry.
 */
#include "flush/lazy.h"
#include "lib/cpumask.h"
#include "xcall/platform.h"

struct lazy_cpu {
	uint64_t want;			/* generation to flush up to; writer raises it */
	uint8_t pad0[56];
	uint64_t seen;			/* generation flushed up to; owner writes */
	struct lazy_stats st;		/* owner writes; read after the case */
	uint8_t pad1[40];
} __attribute__((aligned(64)));

_Static_assert(sizeof(struct lazy_cpu) == 128, "lazy_cpu: two cache lines");

static struct {
	uint64_t gen;			/* odd while PTEs change */
	uint8_t pad[56];
} g_gen __attribute__((aligned(64)));

static struct lazy_cpu *lc;
static unsigned nlc;

int lazy_init(unsigned ncpus)
{
	if (lc)
		return ncpus == nlc ? 0 : -1;
	lc = plat_alloc_zeroed((unsigned long)ncpus * sizeof(*lc));
	if (!lc)
		return -1;
	nlc = ncpus;
	return 0;
}

void lazy_reset(void)
{
	/* relaxed: the caller guarantees quiescence (no CPU in lazy_*); the
	 * start of the next case (a cross-CPU barrier) orders these stores. */
	__atomic_store_n(&g_gen.gen, 0, __ATOMIC_RELAXED);
	for (unsigned i = 0; i < nlc; i++) {
		__atomic_store_n(&lc[i].want, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&lc[i].seen, 0, __ATOMIC_RELAXED);
		lc[i].st = (struct lazy_stats){ 0, 0 };
	}
}

void lazy_begin(void)
{
	/* One writer (it holds the write lock), so a relaxed load is exact.
	 * The odd value must be visible before any PTE store, so that a reader
	 * that sees a new PTE also finds the generation moved when it re-checks
	 * (lazy_read_quiet). x86 makes stores visible in program order (TSO),
	 * so keeping the compiler from reordering is the whole fence; in the
	 * host model the PTE store is a release that the walker's acquire
	 * pairs with, which carries this store along. */
	uint64_t g = __atomic_load_n(&g_gen.gen, __ATOMIC_RELAXED);
	__atomic_store_n(&g_gen.gen, g + 1, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

uint64_t lazy_publish(const struct cpumask *targets)
{
	uint64_t g = __atomic_load_n(&g_gen.gen, __ATOMIC_RELAXED) + 1;
	unsigned cpu;

	/* release: every PTE store of this change happens before the even
	 * generation; pairs with the acquire in lazy_read_begin(). */
	__atomic_store_n(&g_gen.gen, g, __ATOMIC_RELEASE);
	for_each_cpu(cpu, targets) {
		if (cpu >= nlc)
			break;
		/* release: a target whose acquire load in lazy_entry() sees this
		 * mark also sees the PTE changes, so the TLB refill after its
		 * flush walks the new tables. Only this writer raises `want`
		 * and generations only grow, so a plain store is the maximum. */
		__atomic_store_n(&lc[cpu].want, g, __ATOMIC_RELEASE);
	}
	return g;
}

int lazy_entry(int skip)
{
	unsigned me = plat_cpu_id();
	struct lazy_cpu *c = &lc[me];
	/* acquire: pairs with the release in lazy_publish(). */
	uint64_t w = __atomic_load_n(&c->want, __ATOMIC_ACQUIRE);

	c->st.entries++;
	if (plat_lost_cpu(PLAT_LOST_LAZY) == me)
		return 0;	/* test fault: our entries never acknowledge */
	/* Own field: a relaxed load of it is exact. */
	if (w == __atomic_load_n(&c->seen, __ATOMIC_RELAXED))
		return 0;
	if (!skip)
		plat_tlb_flush(PLAT_TLB_CR3, 0);
	c->st.flushes++;
	/* release: the flush is done before the writer, whose acquire load in
	 * lazy_wait() sees this, counts the invalidation as effective. */
	__atomic_store_n(&c->seen, w, __ATOMIC_RELEASE);
	return 1;
}

uint64_t lazy_seen(void)
{
	return __atomic_load_n(&lc[plat_cpu_id()].seen, __ATOMIC_RELAXED);
}

void lazy_wait(const struct cpumask *targets, uint64_t gen)
{
	unsigned cpu;

	for_each_cpu(cpu, targets) {
		unsigned spins = 0;

		if (cpu >= nlc)
			break;
		/* acquire: pairs with the release in lazy_entry(). No bound of its
		 * own: its one caller, bench/sync.c's write_once, runs it under
		 * the writer's watchdog (its tick, or the boot CPU's poll), which
		 * reports - naming cpu, noted below - and ends the run. */
		while (__atomic_load_n(&lc[cpu].seen, __ATOMIC_ACQUIRE) < gen)
			plat_wait_turn(&spins, cpu, "lazy: entry not acknowledged");
		plat_wait_done(spins);
	}
}

uint64_t lazy_read_begin(void)
{
	/* acquire: pairs with the release in lazy_publish(): at an even g, the
	 * PTEs of g are visible to the reads that follow. */
	return __atomic_load_n(&g_gen.gen, __ATOMIC_ACQUIRE);
}

int lazy_read_quiet(uint64_t g)
{
	/* The reads through the mapping must be done before the re-check. x86
	 * never reorders a load with an older load, so a compiler barrier is
	 * the whole fence; pairs with the one in lazy_begin(). (In the host
	 * model, a walk that saw a new PTE acquired the writer's odd store,
	 * so this load cannot miss it.) */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	return !(g & 1) && __atomic_load_n(&g_gen.gen, __ATOMIC_RELAXED) == g;
}

void lazy_get_stats(unsigned cpu, struct lazy_stats *out)
{
	*out = cpu < nlc ? lc[cpu].st : (struct lazy_stats){ 0, 0 };
}
