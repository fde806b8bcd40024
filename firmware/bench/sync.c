/*
 * sync.c - kind=sync, seed 002: one writer (any CPU: writer=) changes K PTEs
 * under a reader-writer lock and invalidates them inside the lock, right after
 * it, or lazily (the targets flush at their next "entry", the analogue of
 * VMENTER), while the readers take the read lock in batches of `batch_reads`
 * acquisitions (the toolstack mapping 1024 GFNs) and time their wait for it.
 * The readers are the shootdown targets (readers=0), or CPUs of their own
 * (readers=N: the seed's toolstack is not among the guest's CPUs); targets
 * that do not read run an entry loop with interrupts on. What the seed is
 * about: what the shootdown does to the readers.
 *
 * One repetition: readers start and spin in their loop; the writer makes
 * `warmup` untimed writes, `iters` timed ones, then control writes (CTL_RUNS,
 * more while none saw a stale read: bench/rep.h) that do not invalidate
 * (inside/after: method none; lazy: entries skip the flush), which must leave
 * stale translations behind or the case is unverified. Every write is primed and verified as a TLB case's shootdown
 * (flush_prepare / flush_verify, untimed, outside the lock).
 *
 * Every wait on another CPU is bounded (the watchdog bound, or SYNC_BOUND_MS when
 * watchdog_ms=0): the readers' start and finish, and the start of a writer on a
 * CPU of its own (its kick may be lost), are polled loops with a deadline;
 * the writer's own waits (its write lock, its shootdown, the lazy entries, prime
 * and verify) are watched by an APIC-timer tick on the writer's CPU when that is
 * the boot CPU, else by the boot CPU polling while the writer runs on its own;
 * either ends the run with a report naming the readers waited on.
 *
 * The steps: sync_setup, sync_start (readers to their loop), sync_writes (warm-up,
 * timed, control), sync_collect (readers finish), sync_emit (the frames).
 *
 * RESULT rows: one per reader CPU and XCB_INIT_ALL (all readers): read-lock
 * wait per acquisition; pseudo-initiators (proto: XCB_INIT_W_*) carry the
 * writer's hold, end-to-end and time-to-effective-invalidation, and the
 * readers' wait per batch.
 */
#include "bench/sync.h"
#include "bench/benchenv.h"
#include "bench/emit.h"
#include "bench/faults.h"
#include "bench/histo.h"
#include "bench/rep.h"
#include "bench/report.h"
#include "bench/stats.h"
#include "bench/watchdog.h"
#include "flush/flush.h"
#include "flush/lazy.h"
#include "flush/rwlock.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "xcall/platform.h"

#define BATCH_KEPT 256		/* per-batch waits kept per reader (the batch row's samples) */
#define SYNC_BOUND_MS 5000 	/* the bound of every wait when watchdog_ms=0 */

enum { PH_WARM, PH_TIMED, PH_CTL, PH_STOP };

struct reader {
	struct stats st;		/* wait per acquisition */
	struct histo h;
	uint64_t bs[BATCH_KEPT];
	uint64_t wait;			/* total timed wait */
	uint64_t contended;		/* timed acquisitions that had to wait */
	unsigned nb;
	int reads, enters;		/* set before its start: a reader; a target (lazy entries) */
	int intimed;			/* relaxed: has a timed sample (sync_writes waits for it) */
	/* Lazy: the risky window's reads (window_read): the changed page read
	 * in every read section, seeing the new frame, a stale one before the
	 * entry that flushes it (expected: the window is real), a stale one
	 * after a skipped entry (the control), or after a real one (violation). */
	uint64_t win_new, win_old, win_ctl, win_bad;
	int skipped;			/* our last entry skipped its flush (control) */
	int ready;			/* release: in its loop (the writer's CPU: writer_main runs) */
	int finished;			/* release: stats above are final */
} __attribute__((aligned(64)));	/* each reader writes only its own */

static struct reader *rd;		/* per CPU, allocated on first use */
static struct rwlock lock;
/* Each on its own line: readers load both inside their timed wait, and the
 * writer stores p2m under the write lock - sharing a line with the ops pointer
 * would add a line transfer to every reader's read (seed 002 measures these). */
static const struct rwlock_ops *lops __attribute__((aligned(64)));
static uint64_t p2m __attribute__((aligned(64)));	/* the data the lock guards */
/* Read-only while readers run (set before they start): */
static int lazy __attribute__((aligned(64)));
static int skip;			/* lazy control: entries skip the flush */
static uint64_t entry_cyc, nreads;
static unsigned phase, ready;		/* writer -> readers; readers -> writer */
/* Lazy: the last change, as readers must see it once entered (generation, the
 * first changed page and its new frame). Written by the writer under the
 * write lock, read by readers under the read lock: the lock orders them. Own
 * line: written once per write, read in every read section. */
static struct { uint64_t gen; unsigned page; int frame; } win __attribute__((aligned(64)));

enum { W_HOLD, W_E2E, W_EFF, W_BATCH, W_NR };
static struct stats wst[W_NR];
static struct histo wh[W_NR];

static char text[3072];		/* the reports' text (one at a time, CPU 0) */

/* One repetition's state, CPU 0's (the tick reads it too). */
static struct sync_ctx {
	const struct bcase *c;
	unsigned rep, writer;
	const struct cpumask *t, *readers;
	struct case_summary *sum;
	enum xcb_sync_mode m;
	struct flush_cfg f;
	uint64_t bound;			/* cycles */
	struct cpumask started;		/* readers started */
	unsigned n;
	/* sync_writes' results */
	uint64_t ipis, stale, ctl, nctl, elapsed, hold, wcont;	/* wcont: contended writes; nctl: control writes */
	int s;
	int wdone;			/* release: the writer on another CPU is done */
	unsigned wcont_last;		/* the last write's lock waited */
} sx;

static void reader_fault(unsigned me)
{
	if (me == faults.hang_cpu) {
		(void)plat_irq_save();	/* wedged, interrupts off: no IPI gets in */
		for (;;)
			plat_cpu_relax();
	}
	if (me == faults.fault_cpu)
		__asm__ __volatile__("ud2");
}

/* A target that does not read (readers=N): its entries (lazy) until the end,
 * interrupts on for the shootdowns; its watchdog record moves on each turn. */
static void target_loop(unsigned me, uint64_t last)
{
	/* relaxed: the phase publishes nothing; `skip` as in reader_main. */
	while (__atomic_load_n(&phase, __ATOMIC_RELAXED) != PH_STOP) {
		uint64_t now = plat_cycles();
		wd_state(me, WD_READ_OUT, now);
		if (lazy && now - last >= entry_cyc) {
			lazy_entry(__atomic_load_n(&skip, __ATOMIC_RELAXED));
			last = now;
		}
		plat_cpu_relax();
	}
}

/* Lazy, inside a read section: read the last change's page through our TLB and
 * judge it by whether our entry has flushed since (lazy_seen against its
 * generation). The read is outside the timed lock wait, but inside the read
 * section: a lazy case's writer waits for it (one load through the window and
 * one of our own line per read section - what makes the window checked). */
static void window_read(struct reader *r)
{
	/* relaxed: the read lock's acquire orders these after the writer's
	 * stores under the write lock (its release). */
	uint64_t g = __atomic_load_n(&win.gen, __ATOMIC_RELAXED);
	if (!g)
		return;		/* nothing changed yet this repetition */
	if (flush_page_sees(__atomic_load_n(&win.page, __ATOMIC_RELAXED),
			    __atomic_load_n(&win.frame, __ATOMIC_RELAXED)) > 0)
		r->win_new++;
	else if (lazy_seen() < g)
		r->win_old++;
	else if (r->skipped)
		r->win_ctl++;
	else
		r->win_bad++;
}

static void reader_main(void *p)
{
	struct reader *r = p;
	unsigned me = plat_cpu_id();
	uint64_t last = plat_cycles(), t1 = last;

	/* Interrupts on: the writer's prime/verify calls and (inside/after) its
	 * shootdown target us, also while we wait for the lock it holds. */
	plat_irq_enable();
	/* Every repetition starts each CPU's TLB empty, whatever earlier cases
	 * and the boot left in it (untimed: before `ready`). Without it the
	 * no-flush control missed a stale read now and then in the first
	 * repetitions of a boot (0 of 8 once in CI, 7 of 8 often), where QEMU's
	 * TCG still runs its boot-time TLB (direct-mapped, 8-entry victim
	 * buffer; a full flush is also where it resizes it): with the flush,
	 * 8 of 8 in every repetition of 4 boots. */
	plat_tlb_flush(PLAT_TLB_CR3, 0);
	wd_state(me, WD_READ_OUT, last);
	/* release: pairs with the writer's acquire of `ready` (sync_start). */
	__atomic_store_n(&r->ready, 1, __ATOMIC_RELEASE);
	if (!r->reads)
		target_loop(me, last);
	for (unsigned ph = r->reads ? PH_WARM : PH_STOP; ph != PH_STOP;) {
		uint64_t bw = 0;
		int timed = 0;
		for (uint64_t i = 0; i < nreads; i++) {
			/* relaxed: the phase only says whether to keep this sample;
			 * nothing is published with it (the lock orders the data). */
			ph = __atomic_load_n(&phase, __ATOMIC_RELAXED);
			if (ph == PH_STOP)
				break;
			/* Our watchdog record (our own line, read only by the writer's
			 * tick after the bound): outside the timed wait. */
			wd_state(me, WD_READ_WAIT, t1);
			uint64_t t0 = plat_cycles();
			int waited = lops->read_lock(&lock);
			t1 = plat_cycles();
			wd_state(me, WD_READ_IN, t1);
			/* relaxed: the lock's acquire/release order it against the
			 * writer's increment. */
			(void)__atomic_load_n(&p2m, __ATOMIC_RELAXED);
			if (lazy && r->enters && ph != PH_WARM)	/* a target's TLB */
				window_read(r);
			lops->read_unlock(&lock);
			wd_state(me, WD_READ_OUT, t1);
			bw += t1 - t0;
			if (ph == PH_TIMED) {
				timed = 1;
				if (!r->intimed)	/* relaxed: only a start signal */
					__atomic_store_n(&r->intimed, 1, __ATOMIC_RELAXED);
				stats_add(&r->st, t1 - t0);
				histo_add(&r->h, t1 - t0);
				r->wait += t1 - t0;
				r->contended += (unsigned)waited;
				reader_fault(me);
			}
			/* The entry boundary, outside the lock as VMENTER is. */
			if (r->enters && lazy && t1 - last >= entry_cyc) {
				/* relaxed: the writer flips it between phases;
				 * atomic so the load stays in the loop. */
				int sk = __atomic_load_n(&skip, __ATOMIC_RELAXED);
				if (lazy_entry(sk))
					r->skipped = sk;
				last = t1;
			}
		}
		/* A batch that overlapped the timed writes counts whole (one the
		 * end of the repetition cut short, as far as it got). */
		if (timed && r->nb < BATCH_KEPT)
			r->bs[r->nb++] = bw;
	}
	wd_state(me, WD_FINISHED, plat_cycles());
	/* release: the writer reads our stats after it sees this (acquire). */
	__atomic_store_n(&r->finished, 1, __ATOMIC_RELEASE);
}

/* ---- the report: who the writer waits on ---- */

/* Appends " cpuN" for every started reader the writer waits on: crashed ones, and
 * those whose state has not changed for half the bound (a live reader changes it
 * on every read) - not counting readers that only wait for the lock, unless
 * nobody else is stuck. */
static int waits_on(char *b, int n, int cap, uint64_t now)
{
	unsigned cpu, named = 0;
	for (int pass = 0; pass < 2 && !named; pass++)
		for_each_cpu(cpu, &sx.started) {
			uint32_t st = __atomic_load_n(&wd_cpus[cpu].state, __ATOMIC_RELAXED);
			uint64_t since = __atomic_load_n(&wd_cpus[cpu].since, __ATOMIC_RELAXED);
			int stuck = st != WD_FINISHED && now > since && now - since > sx.bound / 2 &&
				    (pass || st != WD_READ_WAIT);
			if ((benv_cpu_crashed(cpu) || stuck) && n < cap - 64) {
				n += ksnprintf(b + n, (size_t)(cap - n), " cpu%u(%s)", cpu,
					       benv_cpu_crashed(cpu) ? "crashed" : wd_state_name(st));
				named++;
			}
		}
	return n;
}

/* ERROR frame + console: what the writer was doing, whom it waits on, and what
 * every CPU is doing. `what` says which wait ran out. */
static void sync_report(const char *what, uint64_t now)
{
	uint64_t khz = plat_tsc_khz() ? plat_tsc_khz() : 1;
	const struct wd_cpu *w = &wd_cpus[sx.writer];
	int n = 0, cap = (int)sizeof(text);
	uint64_t start = __atomic_load_n(&w->call_start, __ATOMIC_RELAXED);

	n += ksnprintf(text + n, (size_t)(cap - n),
		       "watchdog: sync case %u rep %u: %s (cpu%u write #%llu, %llu ms)\n"
		       "cpu%u waits on:", sx.c->id, sx.rep, what, sx.writer,
		       (unsigned long long)w->call_no,
		       (unsigned long long)(start && now > start ? (now - start) / khz : 0), sx.writer);
	int n0 = n;
	n = waits_on(text, n, cap, now);
	/* The target the writer's own wait spins on (a shootdown's or the lazy
	 * wait's: xcall/platform.h plat_wait_note): the readers' states cannot
	 * show a target whose IPI or entry went missing while it runs on. */
	const char *spin = "?";
	int on = plat_waiting_on(sx.writer, &spin);
	if (on >= 0)
		n += ksnprintf(text + n, (size_t)(cap - n), "%s spinning on cpu%d(%s)",
			       n > n0 ? "," : "", on, spin);
	n += ksnprintf(text + n, (size_t)(cap - n), "\n");
	n = wd_describe(text, n, cap, now);
	report_error(text);
}

/* Bounded: give a crashed reader's exception report time to go out first. */
static void wait_crash_reports(void)
{
	uint64_t t = plat_cycles();
	while (report_emergencies() < benv_crash_count() && plat_cycles() - t < plat_tsc_khz() * 2000)
		plat_cpu_relax();
}

/* The checks of the writer's watchdog (its tick, or the boot CPU's poll while
 * the writer runs elsewhere): a write that outlived the bound, or a crashed
 * reader, ends the run here (report, DONE aborted, exit). 0 otherwise. */
static int sync_check(void)
{
	uint64_t now = plat_cycles();
	uint64_t start = __atomic_load_n(&wd_cpus[sx.writer].call_start, __ATOMIC_RELAXED);
	unsigned cpu;
	int crashed = 0;

	for_each_cpu(cpu, &sx.started)
		crashed |= benv_cpu_crashed(cpu);
	int wcrashed = benv_cpu_crashed(sx.writer);	/* a writer of its own (writer=) */
	if (crashed || wcrashed) {
		wait_crash_reports();
		sync_report(wcrashed ? "the writer crashed" : "a reader crashed", plat_cycles());
		crashed = 1;
	} else if (start && now > start && now - start > sx.bound) {
		sync_report(wd_state_name(__atomic_load_n(&wd_cpus[sx.writer].state, __ATOMIC_RELAXED)),
			    now);
	} else {
		return 0;
	}
	report_done(XCB_DONE_ABORTED);
	benv_exit(crashed ? BENV_EXIT_CRASH : BENV_EXIT_FAIL);
}

/* The writer's watchdog tick (interrupt context, on the writer's CPU, which holds
 * no report lock here: its write loop sends no frames). A write that outlived the
 * bound, or a crashed reader, may never let the writer return: end the run here. */
static void sync_tick(void)
{
	(void)sync_check();
}

/* Polls until the flag (ready or finished) of every CPU in m is set, within the
 * bound; a crashed CPU ends the wait at once. m: the started readers, or the
 * writer on a CPU of its own (its start only: rd[] of the writer's CPU is no
 * reader's, place_sync keeps it out of the readers and targets). 0, or <0
 * after a report naming the CPUs that never got there. */
static int wait_cpus(const struct cpumask *m, int finished, const char *what)
{
	uint64_t t = plat_cycles();
	unsigned cpu;

	for (;;) {
		unsigned late = 0, crashed = 0;
		for_each_cpu(cpu, m) {
			/* acquire: pairs with the reader's release of the flag
			 * (its setup, or its final stats), or writer_main's. */
			const int *f = finished ? &rd[cpu].finished : &rd[cpu].ready;
			if (!__atomic_load_n(f, __ATOMIC_ACQUIRE)) {
				late++;
				crashed += benv_cpu_crashed(cpu) != 0;
			}
		}
		if (!late)
			return 0;
		if (crashed || plat_cycles() - t > sx.bound) {
			if (crashed)
				wait_crash_reports();
			int n = ksnprintf(text, sizeof(text), "watchdog: sync case %u rep %u: %s:",
					  sx.c->id, sx.rep, what);
			for_each_cpu(cpu, m) {
				const int *f = finished ? &rd[cpu].finished : &rd[cpu].ready;
				if (!__atomic_load_n(f, __ATOMIC_ACQUIRE) && n < (int)sizeof(text) - 64)
					n += ksnprintf(text + n, sizeof(text) - (size_t)n, " cpu%u%s", cpu,
						       benv_cpu_crashed(cpu) ? "(crashed)" : "");
			}
			report_error(text);
			return -1;
		}
		plat_cpu_relax();
	}
}

/* Every started reader out of its loop (relaxed: readers poll the phase;
 * nothing is published with it), waited for within the bound. */
static void stop_readers(void)
{
	__atomic_store_n(&phase, PH_STOP, __ATOMIC_RELAXED);
	(void)wait_cpus(&sx.started, 1, "started readers did not stop");
}

/* ---- the steps ---- */

/* setup: the lock, the lazy and flush layers, the phases and every statistic
 * (quiescent: nobody else runs, so plain resets are safe; the readers' start
 * publishes them). <0: no memory. */
static int sync_setup(struct sync_ctx *s)
{
	unsigned ncpu = plat_num_cpus();
	if (!rd && (lazy_init(ncpu) < 0 || !(rd = plat_alloc_zeroed(ncpu * (unsigned long)sizeof(*rd)))))
		return -1;
	lops = s->c->rwlock ? &rwlock_unfair_ops : &rwlock_fair_ops;
	memset(&lock, 0, sizeof(lock));
	lazy_reset();
	flush_reset();
	win.gen = 0;		/* quiescent, as above */
	flush_assign_slices(&s->writer, 1);
	lazy = s->m == XCB_SYNC_LAZY;
	skip = 0;
	if (lazy)
		s->f.method = XCB_METHOD_CR3;	/* lazy_entry() flushes the whole TLB */
	entry_cyc = plat_tsc_khz() * s->c->entry_us / 1000;
	nreads = s->c->batch_reads ? s->c->batch_reads : 1;
	phase = PH_WARM;
	ready = 0;
	for (unsigned k = 0; k < W_NR; k++) {
		stats_init(&wst[k]);
		histo_init(&wh[k]);
	}
	wd_reset();
	wd_state(s->writer, WD_SYNC_VERIFY, plat_cycles());
	/* The writer's start flag (sync_run_writer): it may have been a reader. */
	rd[s->writer].ready = 0;
	return 0;
}

/* start: every reader into its loop. A reader that cannot start stops the ones
 * already started (they would spin forever); one that never reaches its loop
 * is named. <0 on either. */
static int sync_start(struct sync_ctx *s)
{
	struct cpumask all;
	unsigned cpu;
	cpumask_clear_all(&s->started);
	cpumask_or(&all, s->t, s->readers);
	for_each_cpu(cpu, &all) {
		struct reader *r = &rd[cpu];
		memset(r, 0, sizeof(*r));
		stats_init(&r->st);
		histo_init(&r->h);
		r->reads = cpumask_test(s->readers, cpu);
		r->enters = cpumask_test(s->t, cpu);
		if (cpu == faults.startfail_cpu || benv_start_on(cpu, reader_main, r) < 0) {
			ksnprintf(text, sizeof(text), "sync case %u rep %u: cannot start reader cpu%u; "
				  "stopping the %u started",
				  s->c->id, s->rep, cpu, s->n);
			report_error(text);
			stop_readers();
			return -1;
		}
		cpumask_set(&s->started, cpu);
		s->n++;
	}
	return wait_cpus(&s->started, 0, "readers not started");
}

/* One write: stale reads seen after it (<0: refused); d[W_*] its times. The
 * writer's record says which step it is in (the tick names it). */
static __attribute__((noinline)) int write_once(struct sync_ctx *s, uint64_t k, uint64_t *d)
{
	const struct flush_cfg *f = &s->f;
	const struct cpumask *t = s->t;
	enum xcb_sync_mode m = s->m;
	struct wd_cpu *w = &wd_cpus[s->writer];
	uint64_t g = 0, te = 0, ts = plat_cycles();

	/* relaxed: diagnostics for our own tick (same CPU). */
	__atomic_store_n(&w->call_no, k + 1, __ATOMIC_RELAXED);
	__atomic_store_n(&w->call_start, ts, __ATOMIC_RELAXED);
	wd_state(s->writer, WD_SYNC_VERIFY, ts);
	if (flush_prepare(f, t) < 0)	/* targets load the old translations */
		return -1;
	wd_state(s->writer, WD_SYNC_LOCK, ts);
	uint64_t i0 = benv_ipis_sent(s->writer), t0 = plat_cycles();
	int waited = lops->write_lock(&lock);
	uint64_t t1 = plat_cycles();
	if (m == XCB_SYNC_LAZY)
		lazy_begin();
	flush_change(f);		/* the PTEs, and our own TLB */
	/* relaxed: published to readers by write_unlock's release. */
	__atomic_store_n(&p2m, p2m + 1, __ATOMIC_RELAXED);
	uint64_t tc = plat_cycles();
	if (m == XCB_SYNC_INSIDE) {
		wd_state(s->writer, WD_SYNC_SHOOT, ts);
		flush_remote(f, t);
		te = plat_cycles();
	}
	if (m == XCB_SYNC_LAZY) {
		g = lazy_publish(t);	/* marks the targets; no IPI */
		/* relaxed: published by write_unlock's release (window_read). */
		unsigned pg;
		int fr = flush_last_change(&pg);
		__atomic_store_n(&win.page, pg, __ATOMIC_RELAXED);
		__atomic_store_n(&win.frame, fr, __ATOMIC_RELAXED);
		__atomic_store_n(&win.gen, g, __ATOMIC_RELAXED);
	}
	uint64_t t2 = plat_cycles();
	lops->write_unlock(&lock);
	if (m == XCB_SYNC_AFTER) {
		wd_state(s->writer, WD_SYNC_SHOOT, ts);
		flush_remote(f, t);
	}
	if (m == XCB_SYNC_LAZY) {		/* the last target's entry has flushed */
		wd_state(s->writer, WD_SYNC_LAZY, ts);
		lazy_wait(t, g);
	}
	uint64_t t3 = plat_cycles();
	s->ipis += benv_ipis_sent(s->writer) - i0;
	s->wcont_last = (unsigned)waited;
	d[W_HOLD] = t2 - t1;
	d[W_E2E] = t3 - t0;
	d[W_EFF] = (te ? te : t3) - tc;
	wd_state(s->writer, WD_SYNC_VERIFY, ts);
	int r = flush_verify(f, t);
	__atomic_store_n(&w->call_start, 0, __ATOMIC_RELAXED);
	return r;
}

/* The timed writes start once every reader has read in the timed phase (or the
 * bound ran out): readers apart from the targets get no IPI that makes them run,
 * and under TCG a reader's vCPU may sit out a whole repetition of short writes -
 * its row would count nothing. Nothing is timed while this waits. */
static void wait_timed_readers(const struct sync_ctx *s)
{
	uint64_t t = plat_cycles();
	unsigned cpu, late = 1;

	while (late && plat_cycles() - t < s->bound / 2) {
		late = 0;
		for_each_cpu(cpu, s->readers)
			late += !__atomic_load_n(&rd[cpu].intimed, __ATOMIC_RELAXED) && !benv_cpu_crashed(cpu);
		plat_cpu_relax();
	}
}

/* writes: `warmup` untimed, `iters` timed, then control writes without
 * invalidation (CTL_RUNS, then until one saw a stale read, at most CTL_MAX), under the writer's watchdog: its own tick when `own` (the
 * writer is the boot CPU), else the boot CPU's poll of sync_check
 * (sync_run_writer). Never both: two checks that both saw the bound passed
 * would both report, into the one `text`, and the console lines interleave
 * ("ERROR: ERROR: watchdog: ..."; seen in t-wait-faults' paths-sync, writer=1,
 * when `own` was "the writer runs here", true on every writer). */
static void sync_writes(struct sync_ctx *s, int own)
{
	const struct bcase *c = s->c;
	uint64_t d[W_NR], t0 = 0, khz = plat_tsc_khz() ? plat_tsc_khz() : 1;
	unsigned period = (unsigned)(s->bound / khz / 4);

	if (own)
		benv_tick_start(period ? period : 1, sync_tick);
	s->s = 0;
	for (uint64_t k = 0; s->s >= 0; k++) {
		if (k >= c->warmup + c->iters &&
		    (s->nctl >= CTL_MAX || (s->nctl >= CTL_RUNS && s->ctl)))
			break;
		if (k == c->warmup) {
			/* relaxed, like every phase store: it publishes nothing
			 * (readers only decide whether to keep a sample by it; their
			 * results come back through `finished`). */
			__atomic_store_n(&phase, PH_TIMED, __ATOMIC_RELAXED);
			wait_timed_readers(s);
			s->ipis = 0;
			t0 = plat_cycles();
		}
		if (k == c->warmup + c->iters) {
			/* The control: the same writes without invalidation. */
			s->elapsed = plat_cycles() - t0;
			t0 = 0;
			__atomic_store_n(&phase, PH_CTL, __ATOMIC_RELAXED);
			s->f.method = XCB_METHOD_NONE;
			/* relaxed: a reader that still sees 0 flushes once more,
			 * harmlessly (the control then detects a little less). */
			__atomic_store_n(&skip, 1, __ATOMIC_RELAXED);
		}
		uint64_t x = s->ipis;
		s->s = write_once(s, k, d);
		if (k < c->warmup)
			continue;
		if (s->f.method == XCB_METHOD_NONE) {
			s->nctl += s->s >= 0;
			s->ctl += s->s > 0;
			s->ipis = x;
			continue;
		}
		s->stale += s->s > 0 ? (uint64_t)s->s : 0;
		s->hold += d[W_HOLD];
		s->wcont += s->wcont_last;
		for (unsigned w = 0; w < W_BATCH; w++) {
			stats_add(&wst[w], d[w]);
			histo_add(&wh[w], d[w]);
		}
	}
	/* Refused mid-way: the timed writes' span so far (never an absolute TSC). */
	if (t0)
		s->elapsed = plat_cycles() - t0;
	if (own)
		benv_tick_stop();
	__atomic_store_n(&phase, PH_STOP, __ATOMIC_RELAXED);
}

/* The writer on a CPU of its own (writer=N): the writes, then `wdone`. */
static void writer_main(void *p)
{
	struct sync_ctx *s = p;
	/* release: pairs with sync_run_writer's acquire (wait_cpus): started. */
	__atomic_store_n(&rd[s->writer].ready, 1, __ATOMIC_RELEASE);
	/* Interrupts on, as on the boot CPU: an algorithm may serve IPIs while it
	 * waits (initiator.c does the same). */
	plat_irq_enable();
	sync_writes(s, 0);	/* watched by the boot CPU's poll */
	/* release: the boot CPU reads the writer's statistics after its acquire. */
	__atomic_store_n(&s->wdone, 1, __ATOMIC_RELEASE);
}

/* The writes on the writer's CPU: here, or started there and watched from here
 * (sync_check, every turn) until done. That watch sees a write in flight
 * only: a writer whose kick was lost never writes, and the loop waited for
 * it with no report (tests/t-sync-writer-kick.sh). So its start is waited
 * for first, bounded as the readers' is. <0: the writer could not start or
 * never did (the readers are stopped, the CPU named). */
static int sync_run_writer(struct sync_ctx *s)
{
	if (s->writer == plat_cpu_id()) {
		sync_writes(s, 1);
		return 0;
	}
	struct cpumask w;
	cpumask_clear_all(&w);
	cpumask_set(&w, s->writer);
	if (benv_start_on(s->writer, writer_main, s) < 0) {
		ksnprintf(text, sizeof(text), "sync case %u rep %u: cannot start the writer on cpu%u",
			  s->c->id, s->rep, s->writer);
		report_error(text);
		stop_readers();
		return -1;
	}
	if (wait_cpus(&w, 0, "writer not started") < 0) {
		stop_readers();
		return -1;
	}
	/* acquire: pairs with writer_main's release of wdone. */
	while (!__atomic_load_n(&s->wdone, __ATOMIC_ACQUIRE)) {
		(void)sync_check();
		plat_cpu_relax();
	}
	return benv_wait_idle(s->writer);
}

/* One RESULT and its HISTO: r has the fields besides the statistics, which
 * this fills in (the caller may read them afterwards). */
static __attribute__((noinline)) void emit(const struct bcase *c, unsigned rep, unsigned init,
					   const struct stats *st, const struct histo *h,
					   struct xcb_result *r)
{
	emit_fill_result(r, c, rep, init, st, h, 0);
	report_result(r);
	report_histo(c->id, (uint16_t)rep, (uint16_t)init, h);
	report_poll();
}

/* emit: per reader, then all readers (with the case's verdicts and the rw-lock
 * profile: acquisitions = reads + writes, the writer's total hold, the readers'
 * total wait), then the writer's pseudo-initiators. Readers have finished. */
static void sync_emit(struct sync_ctx *s, uint64_t *p50, uint64_t *mean)
{
	static struct histo all;
	const struct bcase *c = s->c;
	struct case_summary *sum = s->sum;
	struct stats ra;
	struct xcb_result b = { .elapsed_cycles = s->elapsed };
	uint64_t wait = 0, contended = s->wcont, wn = 0, wo = 0, wc = 0, wb = 0;
	unsigned cpu;

	stats_init(&ra);
	histo_init(&all);
	struct cpumask used;
	cpumask_or(&used, s->t, s->readers);
	for_each_cpu(cpu, &used)
		benv_wait_idle(cpu);
	for_each_cpu(cpu, s->readers) {
		struct reader *r = &rd[cpu];
		emit(c, s->rep, cpu, &r->st, &r->h, &b);
		wait += r->wait;
		contended += r->contended;
		wn += r->win_new, wo += r->win_old, wc += r->win_ctl, wb += r->win_bad;
		stats_merge(&ra, &r->st);
		histo_merge(&all, &r->h);
		for (unsigned k = 0; k < r->nb; k++) {
			stats_add(&wst[W_BATCH], r->bs[k]);
			histo_add(&wh[W_BATCH], r->bs[k]);
		}
	}
	if (lazy) {
		/* A stale read after a flushing entry is a violation like the
		 * verify step's; the others say the window was read at all. */
		s->stale += wb;
		emit_logf("case %u rep %u: lazy window reads: %llu new, %llu stale before the entry, "
			  "%llu after a skipped one (control), %llu after a flush (violations)",
			  c->id, s->rep, (unsigned long long)wn, (unsigned long long)wo,
			  (unsigned long long)wc, (unsigned long long)wb);
	}
	b.lock_wait_cycles = wait;
	b.ipis = s->ipis;
	b.stale = s->stale;
	b.control_runs = s->s < 0 ? 0 : s->nctl;
	b.control_stale = s->ctl;
	b.lock_acq = ra.n + wst[W_HOLD].n;
	b.lock_hold_cycles = s->hold;
	b.lock_contended = contended;	/* reads and timed writes that waited */
	b.flags = s->stale ? XCB_RF_INVARIANT : 0;
	emit(c, s->rep, XCB_INIT_ALL, &ra, &all, &b);
	*p50 = b.p50;
	*mean = b.mean_x1000;
	sum->count += ra.n;
	sum->stale += s->stale;
	sum->ipis += s->ipis;
	sum->ctl_runs += b.control_runs;
	sum->ctl_stale += s->ctl;
	if (sum->kept < REPS_KEPT)	/* the case's p99: their median (runner.c) */
		sum->rep_p99[sum->kept] = b.p99;
	b = (struct xcb_result){ .elapsed_cycles = s->elapsed, .ipis = s->ipis };
	for (unsigned w = 0; w < W_NR; w++)
		emit(c, s->rep, XCB_INIT_W_HOLD + w, &wst[w], &wh[w], &b);
}

int sync_rep(const struct bcase *c, unsigned rep, unsigned writer, const struct cpumask *t,
	     const struct cpumask *readers, uint64_t wd_cycles, struct case_summary *sum,
	     uint64_t *p50, uint64_t *mean)
{
	struct sync_ctx *s = &sx;

	*s = (struct sync_ctx){ .c = c, .rep = rep, .writer = writer, .t = t, .readers = readers,
				.sum = sum,
				.m = c->mode,
				.f = { c->method, c->flush, FLUSH_REMAP, c->algo, c->batch },
				.bound = wd_cycles ? wd_cycles : plat_tsc_khz() * SYNC_BOUND_MS };
	if (sync_setup(s) < 0)
		return -1;
	if (sync_start(s) < 0)
		return -1;
	if (sync_run_writer(s) < 0)
		return -1;
	if (wait_cpus(&s->started, 1, "readers never finished") < 0)
		return -1;
	sync_emit(s, p50, mean);
	return s->s < 0 ? -1 : 0;
}
