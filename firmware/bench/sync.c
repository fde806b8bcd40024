/*
 * sync.c - kind=sync, seed 002: one writer (CPU 0) changes K PTEs under a
 * reader-writer lock and invalidates them inside the lock, right after it, or
 * lazily (the targets flush at their next "entry", the analogue of VMENTER),
 * while the target CPUs, as readers, take the read lock in batches of
 * `batch_reads` acquisitions (the toolstack mapping 1024 GFNs) and time their
 * wait for it. What the seed is about: what the shootdown does to the readers.
 *
 * One repetition: readers start and spin in their loop; the writer makes
 * `warmup` untimed writes, `iters` timed ones, then CTL_RUNS control writes
 * that do not invalidate (inside/after: method none; lazy: entries skip the
 * flush), which must leave stale translations behind or the case is
 * unverified. Every write is primed and verified as a TLB case's shootdown
 * (flush_prepare / flush_verify, untimed, outside the lock).
 *
 * RESULT rows: one per reader CPU and XCB_INIT_ALL (all readers): read-lock
 * wait per acquisition; pseudo-initiators (proto: XCB_INIT_W_*) carry the
 * writer's hold, end-to-end and time-to-effective-invalidation, and the
 * readers' wait per batch.
 */
#include "bench/sync.h"
#include "bench/benchenv.h"
#include "bench/histo.h"
#include "bench/report.h"
#include "bench/stats.h"
#include "flush/flush.h"
#include "flush/lazy.h"
#include "flush/rwlock.h"
#include "lib/string.h"

#define CTL_RUNS 8		/* control writes per repetition */
#define BATCH_KEPT 256		/* per-batch waits kept per reader (the batch row's samples) */

enum { PH_WARM, PH_TIMED, PH_CTL, PH_STOP };

struct reader {
	struct stats st;		/* wait per acquisition */
	struct histo h;
	uint64_t bs[BATCH_KEPT];
	uint64_t wait;			/* total timed wait */
	unsigned nb;
	int finished;			/* release: stats above are final */
} __attribute__((aligned(64)));	/* each reader writes only its own */

static struct reader *rd;		/* per CPU, allocated on first use */
static struct rwlock lock;
static const struct rwlock_ops *lops;
static uint64_t p2m;			/* the data the lock guards */
/* Read-only while readers run (set before they start): */
static int lazy;
static int skip;			/* lazy control: entries skip the flush */
static uint64_t entry_cyc, nreads;
static unsigned phase, ready;		/* writer -> readers; readers -> writer */

enum { W_HOLD, W_E2E, W_EFF, W_BATCH, W_NR };
static struct stats wst[W_NR];
static struct histo wh[W_NR];

static void reader_main(void *p)
{
	struct reader *r = p;
	uint64_t last = plat_cycles();

	/* Interrupts on: the writer's prime/verify calls and (inside/after) its
	 * shootdown target us, also while we wait for the lock it holds. */
	plat_irq_enable();
	/* release: pairs with the writer's acquire count of `ready`. */
	__atomic_fetch_add(&ready, 1, __ATOMIC_RELEASE);
	for (unsigned ph = PH_WARM; ph != PH_STOP;) {
		uint64_t bw = 0;
		int timed = 0;
		for (uint64_t i = 0; i < nreads; i++) {
			/* relaxed: the phase only says whether to keep this sample;
			 * nothing is published with it (the lock orders the data). */
			ph = __atomic_load_n(&phase, __ATOMIC_RELAXED);
			if (ph == PH_STOP)
				break;
			uint64_t t0 = plat_cycles();
			lops->read_lock(&lock);
			uint64_t t1 = plat_cycles();
			/* relaxed: the lock's acquire/release order it against the
			 * writer's increment. */
			(void)__atomic_load_n(&p2m, __ATOMIC_RELAXED);
			lops->read_unlock(&lock);
			bw += t1 - t0;
			if (ph == PH_TIMED) {
				timed = 1;
				stats_add(&r->st, t1 - t0);
				histo_add(&r->h, t1 - t0);
				r->wait += t1 - t0;
			}
			/* The entry boundary, outside the lock as VMENTER is. */
			if (lazy && t1 - last >= entry_cyc) {
				/* relaxed: the writer flips it between phases;
				 * atomic so the load stays in the loop. */
				lazy_entry(__atomic_load_n(&skip, __ATOMIC_RELAXED));
				last = t1;
			}
		}
		/* A batch that overlapped the timed writes counts whole (one the
		 * end of the repetition cut short, as far as it got). */
		if (timed && r->nb < BATCH_KEPT)
			r->bs[r->nb++] = bw;
	}
	/* release: the writer reads our stats after it sees this (acquire). */
	__atomic_store_n(&r->finished, 1, __ATOMIC_RELEASE);
}

/* One write: stale reads seen after it (<0: refused); d[W_*] its times. */
static __attribute__((noinline)) int write_once(enum xcb_sync_mode m, const struct flush_cfg *f,
						const struct cpumask *t, uint64_t *d, uint64_t *ipis)
{
	uint64_t g = 0, te = 0;
	if (flush_prepare(f, t) < 0)	/* targets load the old translations */
		return -1;
	uint64_t i0 = benv_ipis_sent(plat_cpu_id()), t0 = plat_cycles();
	lops->write_lock(&lock);
	uint64_t t1 = plat_cycles();
	if (m == XCB_SYNC_LAZY)
		lazy_begin();
	flush_change(f);		/* the PTEs, and our own TLB */
	/* relaxed: published to readers by write_unlock's release. */
	__atomic_store_n(&p2m, p2m + 1, __ATOMIC_RELAXED);
	uint64_t tc = plat_cycles();
	if (m == XCB_SYNC_INSIDE) {
		flush_remote(f, t);
		te = plat_cycles();
	}
	if (m == XCB_SYNC_LAZY)
		g = lazy_publish(t);	/* marks the targets; no IPI */
	uint64_t t2 = plat_cycles();
	lops->write_unlock(&lock);
	if (m == XCB_SYNC_AFTER)
		flush_remote(f, t);
	if (m == XCB_SYNC_LAZY)		/* the last target's entry has flushed */
		lazy_wait(t, g);
	uint64_t t3 = plat_cycles();
	*ipis += benv_ipis_sent(plat_cpu_id()) - i0;
	d[W_HOLD] = t2 - t1;
	d[W_E2E] = t3 - t0;
	d[W_EFF] = (te ? te : t3) - tc;
	return flush_verify(f, t);
}

/* One RESULT and its HISTO: r has the fields besides the statistics, which
 * this fills in (the caller may read them afterwards). */
static __attribute__((noinline)) void emit(const struct bcase *c, unsigned rep, unsigned init,
					   const struct stats *st, const struct histo *h,
					   struct xcb_result *r)
{
	runner_fill_result(r, c, rep, init, st, h, 0);
	report_result(r);
	report_histo(c->id, (uint16_t)rep, (uint16_t)init, h);
	report_poll();
}

int sync_rep(const struct bcase *c, unsigned rep, const struct cpumask *t,
	     struct case_summary *sum, uint64_t *p50, uint64_t *mean)
{
	static struct histo all;
	unsigned n = 0, cpu;
	enum xcb_sync_mode m = c->mode;
	struct flush_cfg f = { c->method, c->flush, FLUSH_REMAP, c->algo, c->batch };

	if (!rd && (lazy_init(plat_num_cpus()) < 0 ||
		    !(rd = plat_alloc_zeroed(plat_num_cpus() * (unsigned long)sizeof(*rd)))))
		return -1;
	/* Quiescent: nobody else runs, so plain resets are safe; the readers'
	 * start (smp_start_on) publishes them. */
	lops = c->rwlock ? &rwlock_unfair_ops : &rwlock_fair_ops;
	memset(&lock, 0, sizeof(lock));
	lazy_reset();
	flush_reset();
	flush_assign_slices(&(unsigned){ plat_cpu_id() }, 1);
	lazy = m == XCB_SYNC_LAZY;
	skip = 0;
	if (lazy)
		f.method = XCB_METHOD_CR3;	/* lazy_entry() flushes the whole TLB */
	entry_cyc = plat_tsc_khz() * c->entry_us / 1000;
	nreads = c->batch_reads ? c->batch_reads : 1;
	phase = PH_WARM;
	ready = 0;
	for (unsigned k = 0; k < W_NR; k++) {
		stats_init(&wst[k]);
		histo_init(&wh[k]);
	}
	histo_init(&all);
	for_each_cpu(cpu, t) {
		struct reader *r = &rd[cpu];
		memset(r, 0, sizeof(*r));
		stats_init(&r->st);
		histo_init(&r->h);
		if (benv_start_on(cpu, reader_main, r) < 0)
			return -1;
		n++;
	}
	/* acquire: pairs with each reader's release increment. */
	while (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) < n)
		plat_cpu_relax();

	uint64_t d[W_NR], ipis = 0, stale = 0, ctl = 0, t0 = 0, hold = 0, wait = 0;
	int s = 0;
	for (uint64_t k = 0; k < c->warmup + c->iters + CTL_RUNS && s >= 0; k++) {
		if (k == c->warmup) {
			/* relaxed, like every phase store: it publishes nothing
			 * (readers only decide whether to keep a sample by it; their
			 * results come back through `finished`). */
			__atomic_store_n(&phase, PH_TIMED, __ATOMIC_RELAXED);
			ipis = 0;
			t0 = plat_cycles();
		}
		if (k == c->warmup + c->iters) {
			/* The control: the same writes without invalidation. */
			t0 = plat_cycles() - t0;
			__atomic_store_n(&phase, PH_CTL, __ATOMIC_RELAXED);
			f.method = XCB_METHOD_NONE;
			/* relaxed: a reader that still sees 0 flushes once more,
			 * harmlessly (the control then detects a little less). */
			__atomic_store_n(&skip, 1, __ATOMIC_RELAXED);
		}
		uint64_t x = ipis;
		s = write_once(m, &f, t, d, &ipis);
		if (k < c->warmup)
			continue;
		if (f.method == XCB_METHOD_NONE) {
			ctl += s > 0;
			ipis = x;
			continue;
		}
		stale += s > 0 ? (uint64_t)s : 0;
		hold += d[W_HOLD];
		for (unsigned w = 0; w < W_BATCH; w++) {
			stats_add(&wst[w], d[w]);
			histo_add(&wh[w], d[w]);
		}
	}
	__atomic_store_n(&phase, PH_STOP, __ATOMIC_RELAXED);

	/* Per reader, then all readers (with the case's verdicts and the rw-lock
	 * profile: acquisitions = reads + writes, the writer's total hold, the
	 * readers' total wait), then the writer's pseudo-initiators. */
	struct stats ra;
	struct xcb_result b = { .elapsed_cycles = t0 };
	stats_init(&ra);
	for_each_cpu(cpu, t) {
		struct reader *r = &rd[cpu];
		/* acquire: pairs with the reader's release of `finished`. */
		while (!__atomic_load_n(&r->finished, __ATOMIC_ACQUIRE))
			plat_cpu_relax();
		benv_wait_idle(cpu);
		emit(c, rep, cpu, &r->st, &r->h, &b);
		wait += r->wait;
		stats_merge(&ra, &r->st);
		histo_merge(&all, &r->h);
		for (unsigned k = 0; k < r->nb; k++) {
			stats_add(&wst[W_BATCH], r->bs[k]);
			histo_add(&wh[W_BATCH], r->bs[k]);
		}
	}
	b.lock_wait_cycles = wait;
	b.ipis = ipis;
	b.stale = stale;
	b.control_runs = s < 0 ? 0 : CTL_RUNS;
	b.control_stale = ctl;
	b.lock_acq = ra.n + wst[W_HOLD].n;
	b.lock_hold_cycles = hold;
	b.flags = stale ? XCB_RF_INVARIANT : 0;
	emit(c, rep, XCB_INIT_ALL, &ra, &all, &b);
	*p50 = b.p50;
	*mean = b.mean_x1000;
	sum->count += ra.n;
	sum->stale += stale;
	sum->ipis += ipis;
	sum->ctl_runs += b.control_runs;
	sum->ctl_stale += ctl;
	if (b.p99 > sum->p99)
		sum->p99 = b.p99;
	b = (struct xcb_result){ .elapsed_cycles = t0, .ipis = ipis };
	for (unsigned w = 0; w < W_NR; w++)
		emit(c, rep, XCB_INIT_W_HOLD + w, &wst[w], &wh[w], &b);
	return s < 0 ? -1 : 0;
}
