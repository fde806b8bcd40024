/*
 * test_lazy.c — host tests, under ThreadSanitizer, of the `sync` case's two
 * building blocks over the pthread shim (threads are CPUs, each with its own
 * software TLB over one shared page table):
 *
 *  - lazy invalidation by generation (flush/lazy.c): a writer flips K pages
 *    between two frames and publishes each change without an IPI; targets
 *    flush at their "entry" boundary. Checked: no target ever uses an old
 *    translation after the entry that followed a change; a target flushes
 *    exactly once per publication it was marked for and never when it was
 *    not; the no-flush control (entries that skip the flush) DOES read stale
 *    translations, so the check is not vacuous;
 *  - the reader-writer locks (flush/rwlock.h): readers never see a writer's
 *    half-done update, and the fair lock lets a writer through a stream of
 *    readers, also across its counters' carry and wrap.
 * Scale with XCB_LAZY_CHANGES (publications per case; default 20000).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "lib/cpumask.h"
#include "xcall/platform.h"
#include "xcall/platform_host.h"
#include "flush/lazy.h"
#include "flush/rwlock.h"

#define NCPUS	4		/* CPU 0 writes, 1..3 are targets / readers */
#define K	8		/* pages changed per publication */
#define MARKER(f)	(0x4c415a59ull << 32 | (uint64_t)(f))	/* "LAZY" */

static unsigned changes = 20000;

/* Per-target results: each cell written by its own target thread only, read
 * by the main thread after plat_host_run() joined them. */
struct tgt {
	uint64_t judged;	/* quiet reads judged */
	uint64_t stale;		/* judged reads that saw the old frame */
	uint64_t swept;		/* last generation all K pages were judged at
				 * (atomic: the writer polls it) */
	uint8_t pad[40];
} __attribute__((aligned(64)));
static struct tgt tg[NCPUS];
static struct {
	int skip;		/* the control: entries do not flush */
	int wait;		/* the writer waits for every target per change */
	int writer_idle;	/* no changes at all: nothing may be flushed */
} mode;
static int stop;		/* the writer is done (atomic) */

static struct cpumask targets;

/* The frame page p maps at (even) generation g: change n = g/2 maps
 * frame 2p + (n & 1); generation 0 is the initial mapping (frame 2p). */
static int frame_at(unsigned p, uint64_t g)
{
	return (int)(2 * p + ((g / 2) & 1));
}

static void writer(void)
{
	for (unsigned n = 1; !mode.writer_idle && n <= changes; n++) {
		lazy_begin();
		for (unsigned p = 0; p < K; p++)
			plat_tw_map(p, (int)(2 * p + (n & 1)));
		uint64_t g = lazy_publish(&targets);
		if (!mode.wait)
			continue;
		lazy_wait(&targets, g);
		/* Hold the mapping still until every target has judged every
		 * page of it, so the control cannot go unnoticed for lack of
		 * reads. acquire: pairs with the release store in target(). */
		for (unsigned t = 1; t < NCPUS; t++) {
			while (__atomic_load_n(&tg[t].swept, __ATOMIC_ACQUIRE) < g)
				plat_cpu_relax();
		}
	}
	/* Idle: let every target run a good number of entries (and judge
	 * reads of generation 0) before stopping. acquire: the judged count
	 * is a plain field, so poll how far the target's sweeps got instead. */
	for (unsigned t = 1; mode.writer_idle && t < NCPUS; t++) {
		while (__atomic_load_n(&tg[t].swept, __ATOMIC_ACQUIRE) < 1000)
			plat_cpu_relax();
	}
	/* release: the targets' acquire load of stop ends their loops. */
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
}

static void target(unsigned me)
{
	uint64_t sweeps = 0;

	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		lazy_entry(mode.skip);
		/* One "quantum": a read of every page through the mapping. */
		unsigned judged = 0;
		uint64_t g0 = lazy_read_begin();
		for (unsigned i = 0; i < K; i++) {
			unsigned p = (me + i) % K;	/* each from its own start */
			uint64_t v, g = lazy_read_begin();
			if (plat_tw_read(p, &v) != 0)
				fail_msg("cpu %u: page %u faulted", me, p);
			if (!lazy_read_quiet(g) || lazy_seen() != g)
				continue;	/* changing, or not entered since */
			if (v != MARKER(frame_at(p, g)))
				tg[me].stale++;
			tg[me].judged++;
			judged += g == g0;
		}
		if (judged == K) {
			/* Idle runs count sweeps; others name the generation.
			 * release: the writer's acquire poll sees the reads done. */
			sweeps++;
			__atomic_store_n(&tg[me].swept, mode.writer_idle ? sweeps : g0,
					 __ATOMIC_RELEASE);
		}
		plat_cpu_relax();
	}
}

static void lazy_cpu(unsigned me, void *unused)
{
	(void)unused;
	if (me == 0)
		writer();
	else
		target(me);
}

static void cold_tlb(unsigned me, void *unused)
{
	(void)me, (void)unused;
	plat_tlb_flush(PLAT_TLB_CR3, 0);
}

/* A fresh mapping (generation 0 = frame A everywhere), cold TLBs, zeroed
 * books; then one run of every CPU. */
static void run_case(int skip, int wait, int idle)
{
	lazy_reset();
	for (unsigned p = 0; p < K; p++)
		plat_tw_map(p, (int)(2 * p));
	for (unsigned t = 0; t < NCPUS; t++)
		tg[t] = (struct tgt){ 0, 0, 0, { 0 } };
	mode.skip = skip;
	mode.wait = wait;
	mode.writer_idle = idle;
	__atomic_store_n(&stop, 0, __ATOMIC_RELAXED);	/* before the threads start */
	/* The shim's flush acts on the calling CPU: each CPU empties its own. */
	plat_host_run(cold_tlb, NULL);
	plat_host_run(lazy_cpu, NULL);
}

static int setup(void **state)
{
	(void)state;
	cpumask_clear_all(&targets);
	for (unsigned t = 1; t < NCPUS; t++)
		cpumask_set(&targets, t);
	if (plat_host_init(NCPUS) || plat_tw_init(K) != K || lazy_init(NCPUS))
		return -1;
	for (unsigned f = 0; f < 2 * K; f++)
		*plat_tw_frame(f) = MARKER(f);
	return 0;
}

/* run_case(), then every target's counters into st[1..NCPUS-1]; no target may
 * have read a stale translation, whatever the case. */
static void run_checked(int skip, int wait, int idle, struct lazy_stats *st)
{
	run_case(skip, wait, idle);
	for (unsigned t = 1; t < NCPUS; t++) {
		lazy_get_stats(t, &st[t]);
		assert_int_equal(tg[t].stale, 0);
	}
}

static void test_lazy_never_stale_after_entry(void **state)
{
	(void)state;
	struct lazy_stats s[NCPUS];
	run_checked(0, 1, 0, s);
	for (unsigned t = 1; t < NCPUS; t++) {
		/* The writer waited for every target at every change: each
		 * target was marked, and flushed, exactly once per change. */
		assert_int_equal(s[t].flushes, changes);
		assert_true(s[t].entries >= s[t].flushes);
		assert_true(tg[t].judged >= (uint64_t)changes * K);
	}
}

static void test_lazy_free_running_writer(void **state)
{
	(void)state;
	struct lazy_stats s[NCPUS];
	run_checked(0, 0, 0, s);	/* targets skip generations: still never stale */
	for (unsigned t = 1; t < NCPUS; t++)
		assert_true(s[t].flushes <= changes);
}

static void test_lazy_no_mark_no_flush(void **state)
{
	(void)state;
	struct lazy_stats s[NCPUS];
	run_checked(0, 0, 1, s);
	for (unsigned t = 1; t < NCPUS; t++) {
		assert_true(s[t].entries > 0);
		assert_int_equal(s[t].flushes, 0);
	}
}

static void test_lazy_control_sees_stale(void **state)
{
	(void)state;
	run_case(1, 1, 0);
	for (unsigned t = 1; t < NCPUS; t++) {
		/* Its TLB keeps each page's first translation for ever, and the
		 * writer held every change until the target had judged all K
		 * pages of it: each page is stale at every other change. */
		assert_true(tg[t].stale >= (uint64_t)(changes - 2) * K / 2);
	}
}

/* ---- reader-writer locks ------------------------------------------------ */

static const struct rwlock_ops *rwops;
static struct rwlock rwl;
static uint64_t data[8];	/* written by the writer under the write lock */
static uint64_t torn[NCPUS];	/* by reader */
static uint64_t reads[NCPUS];
static int writer_done;		/* atomic */

static void rw_cpu(unsigned me, void *unused)
{
	(void)unused;
	if (me == 0) {
		for (uint64_t n = 1; n <= changes; n++) {
			rwops->write_lock(&rwl);
			for (int i = 0; i < 8; i++)
				data[i] = n;
			rwops->write_unlock(&rwl);
		}
		/* release: pairs with the readers' acquire below. */
		__atomic_store_n(&writer_done, 1, __ATOMIC_RELEASE);
		return;
	}
	/* Readers hammer the lock in batches (the seed's toolstack pattern)
	 * until the writer is through — the fair lock must let it through. One
	 * batch at least: the wrap test's reads must reach the readers' carry. */
	do {
		for (int b = 0; b < 64; b++) {
			rwops->read_lock(&rwl);
			uint64_t v = data[0];
			for (int i = 1; i < 8; i++)
				if (data[i] != v)
					torn[me]++;
			rwops->read_unlock(&rwl);
			reads[me]++;
		}
		plat_cpu_relax();
	} while (!__atomic_load_n(&writer_done, __ATOMIC_ACQUIRE));
}

/* The lock as if `start` acquisitions had gone before (the fair lock's words;
 * the unfair lock's is left empty). */
static void run_rw(const char *name, uint64_t start)
{
	rwops = rwlock_ops_by_name(name);
	assert_non_null(rwops);
	assert_string_equal(rwops->name, name);
	rwl = (struct rwlock){ .req = start, .done = start };
	for (unsigned i = 0; i < NCPUS; i++)
		torn[i] = reads[i] = 0;
	__atomic_store_n(&writer_done, 0, __ATOMIC_RELAXED);
	plat_host_run(rw_cpu, NULL);
	for (unsigned i = 1; i < NCPUS; i++)
		assert_int_equal(torn[i], 0);
	assert_int_equal(data[7], changes);
}

static void test_rwlock_fair(void **state)
{
	(void)state;
	run_rw("fair", 0);
}

/* rwlock.h: the readers' half carries into the writers' half (at the 101st
 * read), and the word wraps (at that carry or the first write): nobody sees a
 * torn write, nobody waits for ever (a reader behind a carry that `done` lacks
 * would: the suite's timeout), everyone leaves. */
static void test_rwlock_fair_wrap(void **state)
{
	(void)state;
	uint64_t start = ~0ull - 100, n = 0;
	run_rw("fair", start);
	for (unsigned i = 1; i < NCPUS; i++)
		n += reads[i];
	assert_true(n > 100);				/* the carry was crossed */
	assert_true(rwl.req < start);			/* the word wrapped */
	assert_true(rwl.done == rwl.req);		/* everyone left */
}

static void test_rwlock_unfair(void **state)
{
	(void)state;
	run_rw("unfair", 0);
}

static void test_rwlock_names(void **state)
{
	(void)state;
	assert_null(rwlock_ops_by_name("fai"));
	assert_null(rwlock_ops_by_name("fairer"));
	assert_null(rwlock_ops_by_name(""));
}

int main(void)
{
	const char *e = getenv("XCB_LAZY_CHANGES");
	if (e && atoi(e) > 0)
		changes = (unsigned)atoi(e);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lazy_never_stale_after_entry),
		cmocka_unit_test(test_lazy_free_running_writer),
		cmocka_unit_test(test_lazy_no_mark_no_flush),
		cmocka_unit_test(test_lazy_control_sees_stale),
		cmocka_unit_test(test_rwlock_fair),
		cmocka_unit_test(test_rwlock_fair_wrap),
		cmocka_unit_test(test_rwlock_unfair),
		cmocka_unit_test(test_rwlock_names),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
