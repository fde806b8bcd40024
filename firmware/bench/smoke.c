/*
 * smoke.c — the payload's quick self-test of xcall/ and flush/ (see
 * smoke.h). Runs on CPU 0 and, for the concurrent part, on every CPU
 * (benv_run_all). Interrupts are enabled throughout, as call() requires.
 * It lives in bench/, above both engines it drives (xcall/ depends on
 * nothing above it), and checks exactly-once with the bench's ledger
 * (ledger.h): one slot per initiator CPU, numbers per initiator. Every call
 * and shootdown runs under the bench watchdog (smoke_watch.h): one that never
 * completes (a lost IPI) ends the run with its report, not at QEMU's limit.
 */
#include "bench/smoke.h"
#include "bench/benchenv.h"
#include "bench/faults.h"
#include "bench/ledger.h"
#include "bench/smoke_watch.h"
#include "bench/stats.h"
#include "xcall/xcall.h"
#include "flush/flush.h"
#include "lib/cmdline.h"
#include "lib/cmdline_words.h"
#include "lib/cpumask.h"
#include "lib/printf.h"

#define MAX_SAMPLES 2000
/* The watchdog's bound without watchdog_ms=: far above any healthy call under
 * TCG on a loaded host (the slowest, locked with every CPU calling, takes tens
 * of ms), far below QEMU's limit. watchdog_ms= may lower it to this floor. */
#define SMOKE_BOUND_MS 10000
#define SMOKE_BOUND_MIN_MS CMDLINE_WATCHDOG_MIN_MS

static uint64_t samples[MAX_SAMPLES];
static unsigned fails;

static void fail(const char *what)
{
	fails++;
	kprintf("xcbench: xcall smoke FAIL %s\n", what);
}

static uint64_t ns_of(uint64_t cycles)
{
	return ns_of_cycles(cycles, plat_tsc_khz());
}

/* min / median / mean of samples[0..n) (sorts them). */
static void report(const char *what, unsigned n)
{
	uint64_t sum = 0;

	sort_u64(samples, n);
	for (unsigned i = 0; i < n; i++)
		sum += samples[i];
	uint64_t med = samples[n / 2], mean = n ? sum / n : 0;
	kprintf("xcbench: xcall %-22s n %u min %llu p50 %llu mean %llu cycles (p50 %llu ns)\n",
		what, n, (unsigned long long)samples[0], (unsigned long long)med,
		(unsigned long long)mean, (unsigned long long)ns_of(med));
}

/* dupskip_cpu (faults.h): that CPU books one call (number >= 3) as the
 * previous one, once: the FAIL line it causes is what tests read. */
static int dupskip_done;	/* written only by dupskip_cpu, once */

/* The callee: books its call in this CPU's ledger entry for the initiator
 * (ledger.h; only this CPU writes it). */
static void note_fn(void *arg)
{
	unsigned me = plat_cpu_id();
	struct ledger_ent *e = ledger_entry_of(me, arg);	/* NULL: a wrong arg, counted */

	if (e)
		ledger_note(e, faults_dupskip(me, ledger_arg_seq(arg), &dupskip_done));
}

/* The first (initiator, target) pair misjudged() found wrong, and how many
 * were: what a FAIL line names (an author's questions: which CPU, what). */
struct misjudgement {
	unsigned pairs, init, target;
	struct ledger_verdict v;
};

/* ledger_judge_sent() of slot `slot` (initiator CPU `slot`) at every target: 0
 * when each ran exactly the sent[t] calls numbered at most `last` sent to it,
 * once - and, within the last 64 numbers, exactly those sent to it (win[t],
 * ledger.h; NULL: every number of the window went to every target). Each
 * wrong pair is counted in *mj, the first kept. */
static uint64_t misjudged(unsigned slot, const uint64_t *sent, const uint64_t *win, uint64_t last,
			  unsigned n, struct misjudgement *mj)
{
	uint64_t bad = 0;
	for (unsigned t = 0; t < n; t++) {
		struct ledger_verdict v = { 0 };
		uint64_t all = last >= 64 ? ~0ull : (1ull << last) - 1;
		ledger_judge_sent(ledger_at(t, slot), sent[t], last, win ? win[t] : all, &v);
		uint64_t b = v.lost + v.dup + v.ooo + (v.ran != sent[t]);
		if (b && !mj->pairs++) {
			mj->init = slot;
			mj->target = t;
			mj->v = v;
		}
		bad += b;
	}
	return bad;
}

/* FAIL "<algo>/<wait> <what>: not exactly once: initiator cpuI -> cpuT: ...". */
static void fail_once(const struct xcall_ops *ops, enum xcb_wait w, const char *what,
		      const struct misjudgement *mj)
{
	char why[200];
	ksnprintf(why, sizeof(why), "%s/%s %s: not exactly once: initiator cpu%u -> cpu%u: ran %llu of %llu: "
		  "%llu lost, %llu duplicated, %llu out of order (%u initiator-target pairs wrong)",
		  ops->name, XCB_NAME(wait, w), what, mj->init, mj->target, (unsigned long long)mj->v.ran,
		  (unsigned long long)mj->v.expected, (unsigned long long)mj->v.lost,
		  (unsigned long long)mj->v.dup, (unsigned long long)mj->v.ooo, mj->pairs);
	fail(why);
}

/* wait=done returns only once every target ran fn: the first target in m whose
 * ledger entry for `slot` does not show call `seq` the moment call() returned
 * (ledger_shows), or -1. The exactly-once judgement afterwards cannot see an
 * early return: by then the call has landed. The smoke looks after every done
 * call, outside its timed window: its timings are a glance (the bench, whose
 * are not, looks only where no timed call follows: initiator.c done_check). */
static int done_missing(const struct cpumask *m, unsigned slot, uint64_t seq)
{
	unsigned t;
	for_each_cpu(t, m)
		if (!ledger_shows(ledger_at(t, slot), seq))
			return (int)t;
	return -1;
}

/* ---- all CPUs at once ------------------------------------------------- */

static unsigned conc_iters;
static const struct xcall_ops *conc_ops;
static enum xcb_wait conc_wait;
#define SMOKE_CPUS SMOKE_WATCH_CPUS	/* the concurrent part uses CPUs 0..63 */
/* Per initiator (each CPU writes its own row; CPU 0 reads them after
 * benv_run_all() returned): calls sent to each target, cycles in call(). */
static uint64_t sent_to[SMOKE_CPUS][SMOKE_CPUS] __attribute__((aligned(64)));
/* ... and which of the last 64 numbers went to each (bit d: number i - d). */
static uint64_t sent_win[SMOKE_CPUS][SMOKE_CPUS] __attribute__((aligned(64)));
static uint64_t init_cycles[SMOKE_CPUS][8] __attribute__((aligned(64)));
/* wait=done calls that returned before a target ran them, per initiator (each
 * CPU its own row, CPU 0 reads after benv_run_all): how many, and the first -
 * its number and that target. Not padded: written only on a violation. */
static struct { uint64_t n, seq; unsigned cpu; } early[SMOKE_CPUS];

static void conc_cpu(void *arg)
{
	(void)arg;
	unsigned me = plat_cpu_id(), n = plat_num_cpus();
	uint64_t s = 0x9e3779b97f4a7c15ull ^ (me * 0x1000193u + plat_cycles_fast());
	/* The mask of our call in flight, where the watchdog's report reads it. */
	struct cpumask *m = &smoke_targets[me];

	for (unsigned i = 1; i <= conc_iters; i++) {
		cpumask_clear_all(m);
		while (cpumask_empty(m)) {
			s ^= s << 13, s ^= s >> 7, s ^= s << 17;
			for (unsigned c = 0; c < n && c < SMOKE_CPUS; c++)
				if (c != me && (s >> c) & 1)
					cpumask_set(m, c);
		}
		unsigned t;
		for (unsigned c = 0; c < n && c < SMOKE_CPUS; c++)
			sent_win[me][c] <<= 1;
		for_each_cpu(t, m) {
			sent_to[me][t]++;
			sent_win[me][t] |= 1;
		}
		smoke_watch_begin(me, conc_ops->name, NULL, i, WD_CALLING);
		uint64_t t0 = plat_cycles();
		conc_ops->call(m, note_fn, ledger_arg(me, i), conc_wait);
		init_cycles[me][0] += plat_cycles() - t0;
		smoke_watch_end(me);
		int late = conc_wait == XCB_WAIT_DONE ? done_missing(m, me, i) : -1;
		if (late >= 0 && !early[me].n++) {
			early[me].seq = i;
			early[me].cpu = (unsigned)late;
		}
	}
	/* Our last wait=none calls may still be queued: a ping with done
	 * (same algorithm, so FIFO/reuse rules put it behind them). */
	cpumask_clear_all(m);
	for (unsigned c = 0; c < n; c++)
		if (c != me)
			cpumask_set(m, c);
	smoke_watch_begin(me, conc_ops->name, "closing ping", 0, WD_CALLING);
	conc_ops->call(m, NULL, NULL, XCB_WAIT_DONE);
	smoke_watch_end(me);
	wd_state(me, WD_FINISHED, plat_cycles());
}

static void concurrent(unsigned n, unsigned iters)
{
	if (n > SMOKE_CPUS) {
		kprintf("xcbench: xcall concurrent: skipped above %u cpus\n", SMOKE_CPUS);
		return;
	}
	for (unsigned a = 0; xcall_algos[a]; a++)
		for (unsigned w = 0; w < XCB_N_wait; w++) {
			for (unsigned i = 0; i < n; i++) {
				init_cycles[i][0] = 0;
				early[i].n = 0;
				for (unsigned j = 0; j < n; j++)
					sent_to[i][j] = sent_win[i][j] = 0;
			}
			ledger_reset();
			conc_ops = xcall_algos[a];
			conc_wait = (enum xcb_wait)w;
			conc_iters = iters;
			uint64_t t0 = plat_cycles();
			if (benv_run_all(conc_cpu, NULL) < 0) {
				fail("a CPU crashed in the concurrent test");
				return;
			}
			uint64_t t1 = plat_cycles();
			/* Every target ran each numbered call sent to it exactly
			 * once (the closing pings are not booked). */
			uint64_t bad = 0, total = 0;
			struct misjudgement mj = { 0 };
			for (unsigned i = 0; i < n; i++) {
				bad += misjudged(i, sent_to[i], sent_win[i], iters, n, &mj);
				for (unsigned t = 0; t < n; t++)
					total += sent_to[i][t];
			}
			kprintf("xcbench: xcall concurrent %s/%s: %u cpus x %u calls, %llu runs, %llu ms, %s\n",
				conc_ops->name, XCB_NAME(wait, conc_wait), n, iters,
				(unsigned long long)total,
				(unsigned long long)(ns_of(t1 - t0) / 1000000),
				bad ? "COUNT MISMATCH" : "exactly once");
			if (bad) {
				char what[24];
				ksnprintf(what, sizeof(what), "all %u CPUs", n);
				fail_once(conc_ops, conc_wait, what, &mj);
			}
			for (unsigned i = 0; i < n; i++) {
				char why[128];
				if (!early[i].n)
					continue;
				ksnprintf(why, sizeof(why), "%s/%s all %u CPUs: wait=done returned before cpu%u ran "
					  "call %llu of initiator cpu%u (%llu of %u calls)", conc_ops->name,
					  XCB_NAME(wait, conc_wait), n, early[i].cpu,
					  (unsigned long long)early[i].seq, i, (unsigned long long)early[i].n, iters);
				fail(why);
			}
			/* Fairness at a glance: mean call time per initiator
			 * (lockless serves low CPU numbers first). */
			char line[160];
			unsigned len = 0;
			for (unsigned i = 0; i < n && len < sizeof(line) - 24; i++)
				len += (unsigned)ksnprintf(line + len, sizeof(line) - len, " %llu",
					(unsigned long long)(ns_of(init_cycles[i][0] / iters) / 1000));
			kprintf("xcbench: xcall concurrent %s/%s: mean us per initiator cpu0..:%s\n",
				conc_ops->name, XCB_NAME(wait, conc_wait), line);
		}
}

/* ---- shootdowns -------------------------------------------------------- */

/* flush_run under the watchdog: a shootdown keeps no ledger, so its record
 * says what it is ("shootdown", the path) rather than a call number. */
static int watched_flush(const struct flush_cfg *c, const struct cpumask *targets, uint64_t *d)
{
	smoke_watch_begin(0, XCB_NAME(flush, c->flush), "shootdown", 0, WD_FLUSHING);
	int r = flush_run(c, targets, d);
	smoke_watch_end(0);
	return r;
}

static void shootdowns(unsigned n, unsigned iters)
{
	struct cpumask *others = &smoke_targets[0];	/* for the watchdog's report */
	cpumask_clear_all(others);
	for (unsigned c = 1; c < n; c++)
		cpumask_set(others, c);

	for (unsigned p = 0; p < XCB_N_flush; p++)
		for (unsigned m = 0; m < XCB_N_method; m++)
			for (unsigned ch = 0; ch < 2; ch++) {
				struct flush_cfg c = {
					.method = (enum xcb_method)m,
					.flush = (enum xcb_flush)p,
					.change = (enum flush_change)ch,
					.xops = xcall_find("queued"),
					.batch = 4,
				};
				if (!flush_method_supported(c.method)) {
					kprintf("xcbench: xcall flush %s/%s: not supported here\n",
						XCB_NAME(flush, c.flush), XCB_NAME(method, c.method));
					continue;
				}
				struct flush_stats fs;
				unsigned k = iters < MAX_SAMPLES ? iters : MAX_SAMPLES;
				for (unsigned i = 0; i < 5; i++)	/* warm-up */
					(void)watched_flush(&c, others, NULL);
				flush_reset();
				for (unsigned i = 0; i < k; i++)
					if (watched_flush(&c, others, &samples[i]) < 0) {
						fail("flush_run refused its cfg");
						return;
					}
				flush_get_stats(&fs);
				char what[40];
				ksnprintf(what, sizeof(what), "flush %s/%s/%s", XCB_NAME(flush, c.flush),
					  XCB_NAME(method, c.method), ch ? "unmap" : "remap");
				report(what, k);
				kprintf("xcbench: xcall %s: %llu shootdowns, %llu reads verified, %llu faults, "
					"stale %llu, stale (noflush control) %llu\n", what,
					(unsigned long long)fs.shootdowns, (unsigned long long)fs.verified,
					(unsigned long long)fs.faults, (unsigned long long)fs.stale,
					(unsigned long long)fs.stale_expected);
				/* early_ack_reader is the unsafe case: its window
				 * reader MUST be caught (unless nothing was flushed). */
				if (c.flush == XCB_FLUSH_EARLY_ACK_READER ? !fs.stale && c.method != XCB_METHOD_NONE
									   : fs.stale != 0)
					fail(c.flush == XCB_FLUSH_EARLY_ACK_READER
						     ? "early ack's window reader was not caught"
						     : "stale translation after a shootdown");
			}
}

/* The ledger (one slot per initiator CPU of the concurrent part; CPU 0 is
 * slot 0 of the 1:1 part; its memory is part of "init"), the algorithms and
 * the flush layer; then the registry's names, so the test checks each
 * algorithm without a list. 0, or <0 after saying why. */
static int smoke_init(unsigned n)
{
	unsigned slots = n < SMOKE_CPUS ? n : SMOKE_CPUS;
	void *book = plat_alloc_zeroed(ledger_bytes(n, slots));
	if (book)
		ledger_setup(book, n, slots);
	if (!book || xcall_init_all(n) < 0 || flush_init(n) < 0) {
		kprintf("xcbench: xcall smoke: %s\n", xcall_init_error());
		fail("init");
		return -1;
	}
	kprintf("xcbench: xcall algos:");
	for (unsigned a = 0; xcall_algos[a]; a++)
		kprintf(" %s", xcall_algos[a]->name);
	kprintf("\n");
	return 0;
}

/* The floor: bare IPI ping-pong CPU 0 <-> CPU 1. Warm-up rounds here and
 * below: under TCG the first runs of a code path include translating it. */
static void raw_floor(unsigned iters)
{
	/* raw.c gives up on an unanswered probe (xcall_raw_bound_ms()): the
	 * first such fails the floor, naming CPU 1 (the rest would wait as
	 * long each). */
	for (unsigned i = 0; i < 20 + iters; i++) {
		uint64_t c = xcall_raw_roundtrip(1);
		if (xcall_raw_lost() >= 0) {
			fail("raw roundtrip 0<->1: cpu1 never answered a raw IPI");
			return;
		}
		if (i >= 20)
			samples[i - 20] = c;
	}
	report("raw roundtrip 0<->1", iters);
}

/* An unnumbered (unbooked) call of CPU 0 under the watchdog: its record says
 * what it is (`op`), since the ledger has no verdict on it. */
static void watched_ping(const struct xcall_ops *ops, const struct cpumask *m, enum xcb_wait w,
			 const char *op)
{
	smoke_watch_begin(0, ops->name, op, 0, WD_CALLING);
	ops->call(m, NULL, NULL, w);
	smoke_watch_end(0);
}

/* One initiator (CPU 0), one target (CPU 1), nothing else running: every
 * algorithm x wait, each call numbered and judged exactly-once. */
static void one_to_one(unsigned iters)
{
	struct cpumask *one = &smoke_targets[0];	/* for the watchdog's report */
	cpumask_clear_all(one);
	cpumask_set(one, 1);
	for (unsigned a = 0; xcall_algos[a]; a++)
		for (unsigned w = 0; w < XCB_N_wait; w++) {
			const struct xcall_ops *ops = xcall_algos[a];
			char what[40];
			for (unsigned i = 0; i < 20; i++)
				watched_ping(ops, one, (enum xcb_wait)w, "warm-up call");
			watched_ping(ops, one, XCB_WAIT_DONE, "warm-up call");
			ledger_reset();
			uint64_t late = 0, late_seq = 0;
			for (unsigned i = 1; i <= iters; i++) {
				/* the record outside the timed window */
				smoke_watch_begin(0, ops->name, NULL, i, WD_CALLING);
				uint64_t t0 = plat_cycles();
				ops->call(one, note_fn, ledger_arg(0, i), (enum xcb_wait)w);
				samples[i - 1] = plat_cycles() - t0;
				smoke_watch_end(0);
				if (w == XCB_WAIT_DONE && done_missing(one, 0, i) >= 0 && !late++)
					late_seq = i;
			}
			watched_ping(ops, one, XCB_WAIT_DONE, "drain call");
			if (late) {
				char why[128];
				ksnprintf(why, sizeof(why), "%s/done 1->1: wait=done returned before cpu1 ran call "
					  "%llu (%llu of %u calls)", ops->name, (unsigned long long)late_seq,
					  (unsigned long long)late, iters);
				fail(why);
			}
			uint64_t sent[2] = { 0, iters };	/* to CPU 0, CPU 1 */
			struct misjudgement mj = { 0 };
			if (misjudged(0, sent, NULL, iters, 2, &mj))
				fail_once(ops, (enum xcb_wait)w, "1->1", &mj);
			ksnprintf(what, sizeof(what), "%s/%s 1->1", ops->name,
				  XCB_NAME(wait, (enum xcb_wait)w));
			report(what, iters);
		}
}

int xcall_smoke(unsigned iters)
{
	unsigned n = plat_num_cpus();
	uint64_t bound_ms;
	unsigned long flags = plat_irq_save();

	plat_irq_enable();	/* call() spins with interrupts on: it must serve IPIs */
	if (!iters)
		iters = 200;
	if (iters > MAX_SAMPLES)
		iters = MAX_SAMPLES;
	fails = 0;
	/* A bad value ends the test as a bad command line: a typo'd fault key
	 * would otherwise pass a test of the fault it never injected. */
	if ((cmdline_u64("watchdog_ms", SMOKE_BOUND_MS, &bound_ms) | faults_init(n)) < 0) {
		plat_irq_restore(flags);
		return XCALL_SMOKE_BAD_CMDLINE;
	}
	if (!bound_ms)
		bound_ms = SMOKE_BOUND_MS;
	if (bound_ms < SMOKE_BOUND_MIN_MS)
		bound_ms = SMOKE_BOUND_MIN_MS;
	kprintf("xcbench: xcall smoke: %u cpus, %u iterations, watchdog %llu ms\n", n, iters,
		(unsigned long long)bound_ms);
	if (n < 2) {
		kprintf("xcbench: xcall smoke SKIP (needs 2 CPUs)\n");
		plat_irq_restore(flags);
		return 0;
	}
	if (smoke_init(n) < 0) {
		plat_irq_restore(flags);
		return -1;
	}
	/* The raw floor bounds itself (raw.c xcall_raw_bound_ms()); everything
	 * after it runs under the watchdog (smoke_watch.h). */
	raw_floor(iters);
	smoke_watch_start(n, bound_ms);
	one_to_one(iters);
	/* All CPUs spinning at once crawls under TCG on an oversubscribed host
	 * (each call waits for its target's vCPU thread to be scheduled), so the
	 * concurrent part is capped: it checks correctness, not speed. */
	concurrent(n, iters < 50 ? iters : 50);
	shootdowns(n, iters / 4 + 1);
	smoke_watch_stop();

	if (!fails)
		kprintf("xcbench: xcall smoke PASS\n");
	plat_irq_restore(flags);
	return fails ? -1 : 0;
}
