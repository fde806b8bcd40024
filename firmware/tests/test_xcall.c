/*
 * test_xcall.c — host tests of the cross-call algorithms and the TLB
 * shootdown logic, run under ThreadSanitizer over the pthread shim
 * (xcall/platform_host.c): threads are CPUs, IPIs are polled counters.
 *
 * The free checks: EVERY algorithm in the registry (xcall_algos: whatever
 * the files of xcall/ declare with XCALL_ALGO, no list here) x every wait it
 * supports x each mask shape (one target, all but self, random), and for
 * hierarchical ones each group size of group_sizes[]:
 *  - stress: 8 CPUs all initiating at once: each call runs exactly once on
 *    each target, in order per (initiator, target) — the ledger
 *    (bench/ledger.h) — and wait=done means fn finished (its writes visible:
 *    TSan flags it otherwise) on every target when call() returns;
 *  - quiet: one initiator at a time, nothing else in flight, so no other
 *    IPI can cover for a target the algorithm forgot; each call is
 *    time-bounded and, past the bound, the report names exactly the CPUs
 *    that have not run it;
 *  - held (waits ack and done): one target at a time holds its interrupts
 *    off, so it cannot read fn/arg; the call must not return meanwhile
 *    (an ack that returns as none does passes every other check);
 *  - every algorithm and wait mixed at once (each on its own IPI vectors),
 *    and an IPI of one algorithm never runs another's handler.
 * A failure names algorithm, wait, shape, initiator, target, call number
 * and what was expected. Every wait of the test is bounded (XCB_XCALL_BOUND_S,
 * default 300 s per step): past it the test prints what it was waiting for
 * and exits, instead of sitting until run-all's limit.
 * Then the algorithm-specific ones: queued is FCFS across initiators,
 * lockless serves in CPU order (pinned), locked's lock profile, raw
 * ping-pong, shootdowns (0 stale; the noflush control does see stale;
 * a batch larger than the slice is refused), lockless reset().
 *
 * XCB_XCALL_ITERS scales it (calls per CPU per stress case, default 4000);
 * XCB_XCALL_ONLY=name checks one algorithm alone and XCB_XCALL_PHASES=
 * stress|quiet|held the phases named (the template and fault tests, tests/t-xcall-*.sh;
 * faulty builds in tests/faults/).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "lib/cpumask.h"
#include "xcb_schema.h"
#include "xcall/xcall.h"
#include "xcall/platform.h"
#include "xcall/platform_host.h"
#include "flush/flush.h"
#include "xcall/xcall_internal.h"
#include "bench/ledger.h"

#define NCPUS 8

static unsigned iters = 4000;
static unsigned bound_s = 300;
static const char *only;		/* XCB_XCALL_ONLY */
static int no_stress, no_quiet, no_held;	/* XCB_XCALL_PHASES=stress|quiet|held (default all) */

/* ---- the time bound ------------------------------------------------
 * One watcher thread. A step arms it with what it waits for; past the
 * bound it prints that (plus, for a quiet call, which CPUs have not run
 * it) and exits the process: a hung algorithm cannot be unwound, and
 * silence until run-all's limit tells nobody anything. */
static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static char g_what[256];
static time_t g_deadline;		/* 0: disarmed; under g_mu */
static void (*g_detail)(char *buf, size_t n);

static void guard_arm(void (*detail)(char *, size_t), const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&g_mu);
	va_start(ap, fmt);
	vsnprintf(g_what, sizeof(g_what), fmt, ap);
	va_end(ap);
	g_detail = detail;
	g_deadline = time(NULL) + bound_s;
	pthread_mutex_unlock(&g_mu);
}

static void guard_disarm(void)
{
	pthread_mutex_lock(&g_mu);
	g_deadline = 0;
	pthread_mutex_unlock(&g_mu);
}

/* plat_host_run() under the time bound, saying what it waits for. */
static void run_bounded(void (*fn)(unsigned, void *), const char *what)
{
	guard_arm(NULL, "%s", what);
	plat_host_run(fn, NULL);
	guard_disarm();
}

/* run_from_cpu0(): fn on CPU 0 alone, the other CPUs only serving its IPIs. */
static void (*cpu0_fn)(void);
static void cpu0_only(unsigned me, void *unused)
{
	(void)unused;
	if (me == 0)
		cpu0_fn();
}

/* fn on CPU 0 while the others serve the IPIs it sends, under the time bound
 * that names `what`. */
static void run_from_cpu0(void (*fn)(void), const char *what)
{
	cpu0_fn = fn;
	run_bounded(cpu0_only, what);
}

static void *guard_thread(void *unused)
{
	(void)unused;
	for (;;) {
		struct timespec ts = { 0, 200 * 1000 * 1000 };
		nanosleep(&ts, NULL);
		pthread_mutex_lock(&g_mu);
		if (g_deadline && time(NULL) > g_deadline) {
			char d[512] = "";
			if (g_detail)
				g_detail(d, sizeof(d));
			fprintf(stderr, "test_xcall: TIME BOUND (%u s) passed waiting for: %s%s\n", bound_s, g_what, d);
			printf("not ok - time bound passed waiting for: %s%s\n", g_what, d);
			fflush(NULL);
			_exit(3);
		}
		pthread_mutex_unlock(&g_mu);
	}
	return NULL;
}

/* ---- per-test bookkeeping ------------------------------------------
 * Exactly once is the tree's one ledger's (bench/ledger.h): the callee
 * notes (slot, number) in its own entry, the main thread judges after
 * pthread_join. Order is only promised per algorithm (mixed mode may have an
 * async call of one algorithm still queued while a later one of another
 * completes), so a slot is (algorithm, initiator); numbers rise per
 * initiator, and each target sees a subset of them (random masks). */
#define NALGO XCALL_MAX_ALGOS
#define SLOT(a, from) ((a) * NCPUS + (from))
static uint64_t sent[NALGO * NCPUS][NCPUS];	/* [slot][target], by the initiator */
static uint64_t last_sent[NALGO * NCPUS];	/* highest number of the slot, likewise */
/* wait=done probe, PLAIN on purpose: the target writes the number it ran,
 * the initiator reads it once call() returned, and TSan reports the pair
 * unless the algorithm ordered the target's fn before that return. */
static uint64_t done_seen[NALGO][NCPUS][NCPUS];	/* [algo][target][initiator] */
static void *ledger_mem;

/* The first wait=done miss of each initiator, for the failure message. */
struct miss {
	uint64_t n, seq, got;
	unsigned target, algo;
	enum xcb_wait wait;
};
static struct miss missed[NCPUS];		/* [initiator], written by it */

/* SELF (every CPU, the caller too) only for algorithms with .runs_self. */
enum shape { SHAPE_ONE, SHAPE_ALL, SHAPE_RANDOM, SHAPE_SELF, SHAPE_NR };
static const char *const shape_names[SHAPE_NR] = { "one", "all", "random", "self" };

static const struct xcall_ops *algo;	/* NULL: mixed */
static enum xcb_wait wait_mode;
static enum shape shape = SHAPE_RANDOM;
static unsigned cur_group;		/* G of a hierarchical algorithm (0: none) */

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void reset_book(void)
{
	memset(sent, 0, sizeof(sent));
	memset(last_sent, 0, sizeof(last_sent));
	memset(done_seen, 0, sizeof(done_seen));
	memset(missed, 0, sizeof(missed));
	if (!ledger_mem) {
		assert_int_equal(posix_memalign(&ledger_mem, 64, ledger_bytes(NCPUS, NALGO * NCPUS)), 0);
		ledger_setup(ledger_mem, NCPUS, NALGO * NCPUS);
	}
	ledger_reset();
}

static unsigned algo_index(const struct xcall_ops *ops)
{
	unsigned i = 0;
	while (xcall_algos[i] != ops)
		i++;
	return i;
}

/* "tree wait=done shape=random G=3" */
static const char *label(const struct xcall_ops *ops, enum xcb_wait w)
{
	static char b[96];
	if (!ops)
		snprintf(b, sizeof(b), "mixed (every algorithm and wait)");
	else
		snprintf(b, sizeof(b), "%s wait=%s shape=%s%s%.0u", ops->name, XCB_NAME(wait, w),
			 shape_names[shape], cur_group ? " G=" : "", cur_group);
	return b;
}

/* arg = ledger_arg(slot, seq): valid after the initiator moved on. */
static void record(void *arg)
{
	unsigned slot = ledger_arg_slot(arg), me = plat_cpu_id();
	uint64_t seq = ledger_arg_seq(arg);
	struct ledger_ent *e = ledger_entry_of(me, arg);

	if (!e)
		return;		/* an arg no call passed: counted, check_book says so */
	ledger_note(e, seq);
	done_seen[slot / NCPUS][me][slot % NCPUS] = seq;
}

static void make_mask(struct cpumask *m, unsigned me, uint64_t *s)
{
	cpumask_clear_all(m);
	if (shape == SHAPE_ONE) {
		unsigned t = (unsigned)(rnd(s) % (NCPUS - 1));
		cpumask_set(m, t >= me ? t + 1 : t);
		return;
	}
	if (shape == SHAPE_ALL || shape == SHAPE_SELF) {
		for (unsigned c = 0; c < NCPUS; c++)
			if (c != me || shape == SHAPE_SELF)
				cpumask_set(m, c);
		return;
	}
	do {
		uint64_t r = rnd(s);
		for (unsigned c = 0; c < NCPUS; c++)
			if (c != me && (r >> c) & 1)
				cpumask_set(m, c);
	} while (cpumask_empty(m));
}

/* A wait this algorithm supports, at random (mixed mode). */
static enum xcb_wait any_wait(const struct xcall_ops *ops, uint64_t *s)
{
	for (;;) {
		enum xcb_wait w = (enum xcb_wait)(rnd(s) % XCB_N_wait);
		if (ops->waits & XCALL_WAIT_BIT(w))
			return w;
	}
}

/* One call, booked, and for wait=done its completion checked at once. */
static void one_call(const struct xcall_ops *ops, enum xcb_wait w, unsigned me, uint64_t seq,
		     const struct cpumask *m)
{
	unsigned t, a = algo_index(ops);

	for_each_cpu(t, m)
		sent[SLOT(a, me)][t]++;
	last_sent[SLOT(a, me)] = seq;
	ops->call(m, record, ledger_arg(SLOT(a, me), seq), w);
	if (w != XCB_WAIT_DONE)
		return;
	/* done: every target ran it, and TSan checks that the algorithm made
	 * the target's write visible to us. */
	for_each_cpu(t, m)
		if (done_seen[a][t][me] != seq && !missed[me].n++)
			missed[me] = (struct miss){ 1, seq, done_seen[a][t][me], t, a, w };
}

/* Each CPU's first calls whose lock takes the lock profile leaves out
 * (xcall_lockprof_count 0: the bench's warm-up), for the profile's test. */
static uint64_t uncounted;

static void stress_cpu(unsigned me, void *unused)
{
	(void)unused;
	uint64_t s = 0x9e3779b97f4a7c15ull * (me + 1);
	struct cpumask m;
	unsigned na = xcall_algo_count();

	for (uint64_t seq = 1; seq <= iters; seq++) {
		const struct xcall_ops *ops = algo ? algo : xcall_algos[rnd(&s) % na];
		enum xcb_wait w = algo ? wait_mode : any_wait(ops, &s);

		xcall_lockprof_count(seq > uncounted);
		make_mask(&m, me, &s);
		one_call(ops, w, me, seq, &m);
	}
	xcall_lockprof_count(1);
}

static uint64_t total_calls, total_runs;	/* reported at the end */

/* Judge the ledger: the first bad (slot, target) named, with what was
 * expected. */
static void check_book(const char *what)
{
	uint64_t total = 0;

	/* First: a wrong arg explains the lost calls and early returns below. */
	const void *wild_arg;
	uint64_t wild = ledger_wild(&wild_arg);
	if (wild)
		fail_msg("%s: fn ran %llu times with an argument no call passed (the first %p): the algorithm "
			 "handed fn a wrong arg (their calls never ran: lost, or wait=done returned early)",
			 what, (unsigned long long)wild, wild_arg);
	for (unsigned i = 0; i < NCPUS; i++)
		if (missed[i].n)
			fail_msg("%s: initiator %u target %u call %llu: wait=%s returned before the target ran it "
				 "(expected its ledger to show %llu, it shows %llu; %llu such calls)",
				 what, i, missed[i].target, (unsigned long long)missed[i].seq,
				 XCB_NAME(wait, missed[i].wait), (unsigned long long)missed[i].seq,
				 (unsigned long long)missed[i].got, (unsigned long long)missed[i].n);
	for (unsigned k = 0; k < NALGO * NCPUS; k++)
		for (unsigned t = 0; t < NCPUS; t++) {
			struct ledger_verdict v = { 0 };
			const struct ledger_ent *e = ledger_at(t, k);
			ledger_judge(e, sent[k][t], last_sent[k], &v);
			if (v.lost || v.dup || v.ooo || v.ran != sent[k][t] || e->runs != sent[k][t])
				fail_msg("%s: %s, initiator %u -> target %u: expected %llu calls (numbers up to %llu) "
					 "each run once in order; ran %llu distinct in %llu runs: lost %llu, dup %llu, "
					 "out of order %llu (highest run %llu)",
					 what, xcall_algos[k / NCPUS]->name, k % NCPUS, t,
					 (unsigned long long)sent[k][t], (unsigned long long)last_sent[k],
					 (unsigned long long)v.ran, (unsigned long long)e->runs,
					 (unsigned long long)v.lost, (unsigned long long)v.dup,
					 (unsigned long long)v.ooo, (unsigned long long)e->hi);
			total += sent[k][t];
		}
	assert_true(total > 0);
	total_runs += total;
}

static void run_stress(const struct xcall_ops *ops, enum xcb_wait w)
{
	const char *what = label(ops, w);

	reset_book();
	algo = ops;
	wait_mode = w;
	guard_arm(NULL, "stress %s: %u CPUs x %u calls", what, NCPUS, iters);
	plat_host_run(stress_cpu, NULL);
	guard_disarm();
	check_book(what);
	total_calls += (uint64_t)NCPUS * iters;
}

/* ---- quiet: one initiator, nothing else in flight --------------------
 * The call in flight, for the time bound's report: the initiator stores
 * it (release) before calling; the watcher reads it (acquire) and the
 * targets' ledger entries to name who has not run it. */
static struct { unsigned slot, initiator; uint64_t seq; struct cpumask mask; } inflight;
static uint64_t inflight_seq;		/* atomic: 0 = none */

static void quiet_detail(char *buf, size_t n)
{
	uint64_t seq = __atomic_load_n(&inflight_seq, __ATOMIC_ACQUIRE);
	size_t len = 0;
	unsigned t, behind = 0;
	const char *what;
	int on;

	if (!seq)
		return;
	len += (size_t)snprintf(buf + len, n - len, ": initiator %u call %llu", inflight.initiator,
				(unsigned long long)seq);
	for_each_cpu(t, &inflight.mask)
		if (ledger_hi(t, inflight.slot) < seq && len < n)
			len += (size_t)snprintf(buf + len, n - len, "%s %u", behind++ ? "" : " not run by CPU", t);
	/* Every target ran fn and the call has not returned: the initiator
	 * waits for an answer nobody sends (a check-in or ack never written);
	 * its wait's note says on which CPU (plat_wait_note). */
	if (len < n)
		len += (size_t)snprintf(buf + len, n - len, "%s",
					behind ? " (its other targets ran it)" : " ran on every target, never returned");
	on = plat_waiting_on(inflight.initiator, &what);
	if (on >= 0 && len < n)
		len += (size_t)snprintf(buf + len, n - len, "; the initiator waits on CPU %d (%s)", on, what);
}

static unsigned quiet_calls = 60;

static unsigned quiet_turn;		/* whose turn to initiate (atomic) */
static char quiet_what[160];		/* the phase, for the bound (set before the run) */

static void quiet_cpu(unsigned me, void *unused)
{
	(void)unused;
	uint64_t s = 0x51ed2705ull * (me + 7);
	unsigned a = algo_index(algo);

	/* CPU i initiates in turn i; the others serve (plat_host_run: a CPU
	 * whose fn returned keeps serving). Turn order by `turn`. */
	while (__atomic_load_n(&quiet_turn, __ATOMIC_ACQUIRE) != me)
		plat_cpu_relax();
	for (uint64_t seq = 1; seq <= quiet_calls; seq++) {
		struct cpumask m;
		make_mask(&m, me, &s);
		inflight.slot = SLOT(a, me);
		inflight.initiator = me;
		inflight.mask = m;
		__atomic_store_n(&inflight_seq, seq, __ATOMIC_RELEASE);
		/* The bound is per call (re-armed): a loaded host slows the
		 * phase, never one call by seconds. */
		guard_arm(quiet_detail, "%s", quiet_what);
		one_call(algo, wait_mode, me, seq, &m);
		if (wait_mode != XCB_WAIT_DONE) {
			/* drain: a waited ping of the same algorithm lands after it
			 * (reuse/FIFO rules), so the next call is alone again */
			algo->call(&m, NULL, NULL, XCB_WAIT_DONE);
		}
		__atomic_store_n(&inflight_seq, 0, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&quiet_turn, me + 1, __ATOMIC_RELEASE);
}

static void run_quiet(const struct xcall_ops *ops, enum xcb_wait w)
{
	const char *what = label(ops, w);

	if (!(ops->waits & XCALL_WAIT_BIT(XCB_WAIT_DONE)))
		return;		/* the drain needs done */
	reset_book();
	algo = ops;
	wait_mode = w;
	quiet_turn = 0;
	snprintf(quiet_what, sizeof(quiet_what), "quiet %s: each CPU in turn, %u calls", what, quiet_calls);
	guard_arm(quiet_detail, "%s", quiet_what);
	plat_host_run(quiet_cpu, NULL);
	guard_disarm();
	check_book(what);
}

/* ---- held: a target that cannot take the IPI yet ---------------------
 * wait=ack returns once every target has READ fn/arg, wait=done once every
 * target ran fn. The stress and quiet phases cannot tell an ack that
 * returns right after the IPIs (as wait=none does) from a real one: the
 * callee records its own call's arg (a value, not a pointer the initiator
 * could change) whenever it runs, and the algorithm's reuse rule keeps its
 * descriptor intact until read, so nothing the caller can see differs —
 * except the one thing ack promises. A target reads fn/arg only in its
 * handler, and a CPU with interrupts off runs none: while one target of
 * the call holds its interrupts off, neither wait may return. Target t
 * turns them off, CPU 0 calls every CPU but itself, and t turns them on
 * only once the call returned or HELD_MS passed, saying so first
 * (held_open); a call that returns before t said so returned without t.
 * A correct call waits out HELD_MS; an early one returns in microseconds,
 * so the bound only decides how loaded a host may be before an early
 * return goes unnoticed (it can never fail a correct algorithm). */
#define HELD_MS 30

static unsigned held_turn;		/* atomic: the CPU to hold next (by CPU 0) */
static unsigned held_masked;		/* atomic: the CPU whose interrupts are off now */
static unsigned held_returned;		/* atomic: the held CPU whose call returned */
static unsigned held_open;		/* atomic: the held CPU that turned them back on */
static struct { uint64_t n, seq; unsigned target; } held_early;	/* by CPU 0 */
static char held_what[160];		/* the time bound's text, set before the threads */

/* What the held phase waits for when the time bound passes: which target
 * was due, and whether it ever held (a target thread that never came) or
 * the call never returned (an algorithm that waits for ever). Read on the
 * guard thread; relaxed: a snapshot for the message, ordering nothing. */
static void held_detail(char *buf, size_t n)
{
	unsigned t = __atomic_load_n(&held_turn, __ATOMIC_RELAXED);

	if (!t)
		return;
	if (__atomic_load_n(&held_masked, __ATOMIC_RELAXED) != t)
		snprintf(buf, n, ": target CPU %u never turned its interrupts off for its turn", t);
	else if (__atomic_load_n(&held_returned, __ATOMIC_RELAXED) != t)
		snprintf(buf, n, ": CPU 0's call while CPU %u held its interrupts off%s never returned", t,
			 __atomic_load_n(&held_open, __ATOMIC_RELAXED) == t ? " (and then turned them on)" : "");
}

static void held_cpu(unsigned me, void *unused)
{
	(void)unused;
	if (me != 0) {
		/* Serve (interrupts on) until our turn, then hold. */
		while (__atomic_load_n(&held_turn, __ATOMIC_ACQUIRE) != me)
			plat_cpu_relax();
		unsigned long f = plat_irq_save();
		/* release: pairs with CPU 0's acquire wait; it calls only
		 * once our interrupts are off. */
		__atomic_store_n(&held_masked, me, __ATOMIC_RELEASE);
		uint64_t until = plat_cycles() + (uint64_t)HELD_MS * plat_tsc_khz();
		/* acquire: pairs with CPU 0's release after its call returned.
		 * Bounded: a correct call never returns while we hold. */
		while (__atomic_load_n(&held_returned, __ATOMIC_ACQUIRE) != me && plat_cycles() < until)
			plat_cpu_relax();	/* interrupts off: serves nothing */
		/* release: before our interrupts are on, so before our handler
		 * reads fn/arg and checks in; pairs with CPU 0's acquire load
		 * after its call returned (through our check-in's release,
		 * which its wait acquired). */
		__atomic_store_n(&held_open, me, __ATOMIC_RELEASE);
		plat_irq_restore(f);
		return;
	}
	struct cpumask m;
	cpumask_clear_all(&m);
	for (unsigned c = 1; c < NCPUS; c++)
		cpumask_set(&m, c);
	for (unsigned t = 1; t < NCPUS; t++) {
		/* The bound is per target (re-armed, as quiet's per call): both
		 * waits below, t's for its turn and ours for t's hold, end in a
		 * named failure (held_detail) if a thread never comes. */
		guard_arm(held_detail, "%s", held_what);
		/* release: pairs with t's acquire wait for its turn. */
		__atomic_store_n(&held_turn, t, __ATOMIC_RELEASE);
		/* acquire: pairs with t's release once its interrupts are off. */
		while (__atomic_load_n(&held_masked, __ATOMIC_ACQUIRE) != t)
			plat_cpu_relax();
		one_call(algo, wait_mode, 0, t, &m);
		/* acquire: pairs with t's release before it turned interrupts on. */
		if (__atomic_load_n(&held_open, __ATOMIC_ACQUIRE) != t && !held_early.n++) {
			held_early.seq = t;
			held_early.target = t;
		}
		/* release: pairs with t's acquire wait; it may stop holding. */
		__atomic_store_n(&held_returned, t, __ATOMIC_RELEASE);
		/* drain (as quiet): a waited call lands after ours, so the
		 * next hold starts with nothing in flight. */
		if (wait_mode != XCB_WAIT_DONE)
			algo->call(&m, NULL, NULL, XCB_WAIT_DONE);
	}
}

static void run_held(const struct xcall_ops *ops, enum xcb_wait w)
{
	const char *what;

	if (w == XCB_WAIT_NONE || !(ops->waits & XCALL_WAIT_BIT(XCB_WAIT_DONE)))
		return;		/* none promises nothing to wait for; the drain needs done */
	shape = SHAPE_ALL;
	what = label(ops, w);
	reset_book();
	algo = ops;
	wait_mode = w;
	/* relaxed: no CPU thread runs; plat_host_run's pthread_create
	 * publishes these. */
	__atomic_store_n(&held_turn, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&held_masked, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&held_returned, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&held_open, 0, __ATOMIC_RELAXED);
	memset(&held_early, 0, sizeof(held_early));
	snprintf(held_what, sizeof(held_what), "held %s: CPU 0 calls CPUs 1..%u, each in turn holding its interrupts off",
		 what, NCPUS - 1);
	guard_arm(held_detail, "%s", held_what);
	plat_host_run(held_cpu, NULL);
	guard_disarm();
	if (held_early.n)
		fail_msg("held %s: initiator 0 call %llu returned while target CPU %u had its interrupts off, "
			 "before it could read fn/arg (wait=%s must wait until every target %s; "
			 "%llu of %u such calls returned early)",
			 what, (unsigned long long)held_early.seq, held_early.target, XCB_NAME(wait, w),
			 w == XCB_WAIT_ACK ? "has read fn/arg" : "has run fn",
			 (unsigned long long)held_early.n, NCPUS - 1);
	check_book(what);
}

/* ---- the free checks, generated from the registry ------------------- */

static const unsigned group_sizes[] = { 0, 3 };	/* 0: the default; 3: uneven groups of 7 */

struct algo_case { const struct xcall_ops *ops; enum xcb_wait w; };

/* ThreadSanitizer calls this for each report it prints (its own is a weak
 * no-op): counted, so that a free check during which TSan saw a race fails
 * by name. Before, the report scrolled by while every check said OK and
 * cmocka said PASSED; only the exit status (66, at exit) said otherwise,
 * and an author who forgot a barrier read "PASSED". */
void __tsan_on_report(void *report);
static unsigned tsan_reports;
void __tsan_on_report(void *report)
{
	(void)report;
	__atomic_fetch_add(&tsan_reports, 1, __ATOMIC_RELAXED);
}

static void test_algo_wait(void **st)
{
	const struct algo_case *c = *st;
	unsigned races = __atomic_load_n(&tsan_reports, __ATOMIC_RELAXED);
	unsigned ng = c->ops->set_group ? sizeof(group_sizes) / sizeof(group_sizes[0]) : 1;

	for (unsigned g = 0; g < ng; g++) {
		cur_group = c->ops->set_group ? group_sizes[g] : 0;
		if (c->ops->set_group)
			c->ops->set_group(cur_group);
		for (shape = 0; shape < SHAPE_NR; shape++) {
			if (shape == SHAPE_SELF && !c->ops->runs_self)
				continue;
			unsigned saved = iters;
			if (shape != SHAPE_RANDOM)
				iters = iters / 4 + 1;
			if (!no_stress)
				run_stress(c->ops, c->w);
			iters = saved;
			if (!no_quiet)
				run_quiet(c->ops, c->w);
		}
		if (!no_held)
			run_held(c->ops, c->w);
	}
	if (c->ops->set_group)
		c->ops->set_group(0);
	cur_group = 0;
	shape = SHAPE_RANDOM;
	races = __atomic_load_n(&tsan_reports, __ATOMIC_RELAXED) - races;
	if (races)
		fail_msg("%s wait=%s: ThreadSanitizer reported %u data race(s), above (each SUMMARY line names "
			 "the file and line): two CPUs' accesses to one location that no release/acquire pair "
			 "orders (docs/ADDING-AN-ALGORITHM.md, 2. The rules: ordering you must provide)",
			 c->ops->name, XCB_NAME(wait, c->w), races);
	printf("# checked %s wait=%s: stress and quiet x shapes one,all,random%s%s%s\n", c->ops->name,
	       XCB_NAME(wait, c->w), c->ops->runs_self ? ",self" : "", c->w != XCB_WAIT_NONE ? ", held" : "",
	       c->ops->set_group ? " x G=default,3" : "");
}

static void test_mixed(void **st)
{
	(void)st;
	shape = SHAPE_RANDOM;
	run_stress(NULL, XCB_WAIT_NONE);
}

/* ---- arrival order across initiators --------------------------------- */

static unsigned order_log[NCPUS];	/* by CPU 0, in its handler */
static unsigned order_n;
static unsigned turn;			/* whose turn to post (atomic) */
static unsigned perm[NCPUS - 1];	/* posting order of CPUs 1..7 */

static void log_order(void *arg)
{
	order_log[order_n++] = (unsigned)(uintptr_t)arg;
}

static void order_cpu(unsigned me, void *unused)
{
	(void)unused;
	if (me == 0) {
		/* The target: interrupts off until every call is queued, so
		 * all of them are pending at once and only the algorithm
		 * decides the order. */
		unsigned long f = plat_irq_save();
		while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) < NCPUS - 1)
			plat_cpu_relax();
		plat_irq_restore(f);
		while (order_n < NCPUS - 1)	/* log_order() runs on this thread */
			plat_cpu_relax();
		return;
	}
	unsigned pos = 0;
	while (perm[pos] != me)
		pos++;
	while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) != pos)
		plat_cpu_relax();
	struct cpumask m;
	cpumask_clear_all(&m);
	cpumask_set(&m, 0);
	algo->call(&m, log_order, (void *)(uintptr_t)me, XCB_WAIT_NONE);
	__atomic_store_n(&turn, pos + 1, __ATOMIC_RELEASE);
}

static void run_order(const struct xcall_ops *ops, int expect_fifo)
{
	uint64_t s = 12345;

	algo = ops;
	for (unsigned round = 0; round < 20; round++) {
		for (unsigned i = 0; i < NCPUS - 1; i++)
			perm[i] = i + 1;
		for (unsigned i = NCPUS - 2; i > 0; i--) {
			unsigned j = rnd(&s) % (i + 1), x = perm[i];
			perm[i] = perm[j];
			perm[j] = x;
		}
		order_n = 0;
		turn = 0;
		run_bounded(order_cpu, "arrival order: CPUs 1..7 posting to CPU 0 in turn");
		assert_int_equal(order_n, NCPUS - 1);
		for (unsigned i = 0; i < NCPUS - 1; i++)
			assert_int_equal(order_log[i], expect_fifo ? perm[i] : i + 1);
	}
}

static void test_queued_fifo_across_initiators(void **st)
{
	(void)st;
	run_order(xcall_find("queued"), 1);
}

static void test_lockless_serves_in_cpu_order(void **st)
{
	(void)st;
	run_order(xcall_find("lockless"), 0);
}

/* ---- lock profile, raw, names ---------------------------------------- */

static void test_locked_lockprof(void **st)
{
	(void)st;
	struct xcall_lockprof lp;

	const struct xcall_ops *locked = xcall_find("locked");
	unsigned saved = iters;
	iters = iters / 4 + 1;	/* the ticket lock is slow on oversubscribed cores */
	locked->reset();
	run_stress(locked, XCB_WAIT_ACK);
	locked->lockprof(&lp);
	assert_int_equal(lp.acquisitions, (uint64_t)NCPUS * iters);
	iters = saved;
	assert_true(lp.contended <= lp.acquisitions);
	assert_true(lp.hold_cycles > 0);
	assert_null(xcall_find("lockless")->lockprof);	/* no lock: none to profile */
}

/* The profile counts only the takes of a CPU whose counting is on: each
 * CPU's first `uncounted` calls (the bench's warm-up) are in no figure,
 * and a run with counting off throughout leaves it empty. */
static void test_locked_lockprof_counts_only_counted(void **st)
{
	(void)st;
	struct xcall_lockprof lp;

	const struct xcall_ops *locked = xcall_find("locked");
	unsigned saved = iters;
	iters = iters / 4 + 2;	/* as test_locked_lockprof */
	uncounted = iters / 2;
	locked->reset();
	run_stress(locked, XCB_WAIT_ACK);
	locked->lockprof(&lp);
	assert_int_equal(lp.acquisitions, (uint64_t)NCPUS * (iters - uncounted));
	assert_true(lp.contended <= lp.acquisitions);
	assert_true(lp.hold_cycles > 0);
	uncounted = iters;
	locked->reset();
	run_stress(locked, XCB_WAIT_ACK);
	locked->lockprof(&lp);
	uncounted = 0;
	iters = saved;
	assert_int_equal(lp.acquisitions, 0);
	assert_int_equal(lp.contended, 0);
	assert_int_equal(lp.hold_cycles, 0);
	assert_int_equal(lp.wait_cycles, 0);
}

static uint64_t rt_sum;
static void raw_cpu0(void)
{
	for (int i = 0; i < 1000; i++) {
		uint64_t c = xcall_raw_roundtrip(1 + i % (NCPUS - 1));
		assert_true(c > 0);
		rt_sum += c;
		/* the `ipi` floor: one IPI, the handler sets our flag */
		c = xcall_raw_ipi_once(1 + i % (NCPUS - 1));
		assert_true(c > 0);
	}
	assert_int_equal(xcall_raw_roundtrip(0), 0);	/* not to ourselves */
	assert_int_equal(xcall_raw_ipi_once(0), 0);
}

static void test_raw(void **st)
{
	(void)st;
	rt_sum = 0;
	run_from_cpu0(raw_cpu0, "raw ping-pong and ipi floors from CPU 0");
	assert_true(rt_sum > 0);
}

/* Every other value of the CASE key `algo` (flush paths, floors, sync
 * modes: the vocabularies themselves) and `all` are reserved; the one
 * exemption is the shipped algorithm `concurrent` beside the flush path of
 * that name (registry.c says why); a plain name is not. */
static void test_reserved_names(void)
{
	const char *const *vocabs[] = { xcb_flush_names, xcb_floor_names, xcb_sync_mode_names };
	const unsigned n[] = { XCB_N_flush, XCB_N_floor, XCB_N_sync_mode };
	for (unsigned v = 0; v < 3; v++)
		for (unsigned i = 0; i < n[v]; i++)
			if (strcmp(vocabs[v][i], "concurrent"))
				assert_non_null(xcall_name_reserved(vocabs[v][i]));
	assert_non_null(xcall_name_reserved("all"));
	assert_non_null(strstr(xcall_name_reserved("vector"), "flush path"));
	assert_non_null(strstr(xcall_name_reserved("roundtrip"), "floor"));
	assert_non_null(strstr(xcall_name_reserved("lazy"), "sync mode"));
	assert_null(xcall_name_reserved("concurrent"));
	assert_null(xcall_name_reserved("mine"));
	assert_null(xcall_name_reserved("vectors"));
}

static void test_names(void **st)
{
	(void)st;

	assert_null(xcall_find("lock"));
	test_reserved_names();
	/* The registry: sorted by name, each found by it, each with a one-line
	 * description and vectors of its own. */
	unsigned n = xcall_algo_count();
	assert_true(n >= 1);
	assert_null(xcall_algos[n]);
	for (unsigned i = 0; i < n; i++) {
		const struct xcall_ops *o = xcall_algos[i];
		assert_ptr_equal(xcall_find(o->name), o);
		if (i)
			assert_true(strcmp(xcall_algos[i - 1]->name, o->name) < 0);
		assert_non_null(o->desc);
		assert_true(strlen(o->desc) > 0 && !strchr(o->desc, '\n'));
		/* a name the CASE key `algo` or algos= gives another meaning */
		if (xcall_name_reserved(o->name))
			fail_msg("algorithm %s: %s: rename it", o->name, xcall_name_reserved(o->name));
		for (unsigned k = 0; k < o->nipi; k++) {
			int kind = xcall_algo_ipi(o, k);
			assert_true(kind >= PLAT_IPI_POOL0 && kind < PLAT_IPI_NR);
			for (unsigned j = 0; j < i; j++)
				for (unsigned l = 0; l < xcall_algos[j]->nipi; l++)
					assert_int_not_equal(kind, xcall_algo_ipi(xcall_algos[j], l));
		}
	}
}

/* ---- TLB shootdowns on the software TLB ------------------------------ */

static uint64_t flush_bad[NCPUS];
static unsigned flush_iters;

/* Every path a run takes unless asked (flush.h FLUSH_PATHS_DEFAULT: the
 * vocabulary but the unsafe demonstration, early_ack_reader, below), from
 * the vocabulary itself: a path added to XCB_VOCAB_FLUSH is checked here
 * with no edit (a list of its own here left a new path unchecked, and
 * nothing said so). Filled by test_flush_no_stale. */
static enum xcb_flush safe_paths[XCB_N_flush];
static unsigned nsafe_paths;
static uint64_t path_runs[NCPUS][XCB_N_flush];	/* shootdowns per CPU and path */

static void flush_cpu(unsigned me, void *unused)
{
	(void)unused;
	uint64_t s = 0x1234567ull * (me + 3);
	struct cpumask m;

	for (unsigned i = 0; i < flush_iters; i++) {
		struct flush_cfg c = {
			.method = (enum xcb_method)(rnd(&s) % 3),	/* not NONE */
			.flush = safe_paths[rnd(&s) % nsafe_paths],
			.change = (enum flush_change)(rnd(&s) % 2),
			.xops = xcall_algos[rnd(&s) % xcall_algo_count()],
			.batch = 1 + rnd(&s) % flush_max_batch(),
		};
		make_mask(&m, me, &s);
		int r = flush_run(&c, &m, NULL);
		if (r != 0)
			flush_bad[me]++;
		path_runs[me][c.flush]++;
	}
}

static void test_flush_no_stale(void **st)
{
	(void)st;
	struct flush_stats fs;

	memset(flush_bad, 0, sizeof(flush_bad));
	memset(path_runs, 0, sizeof(path_runs));
	nsafe_paths = 0;
	for (unsigned p = 0; p < XCB_N_flush; p++)
		if (FLUSH_PATHS_DEFAULT & (1u << p))
			safe_paths[nsafe_paths++] = (enum xcb_flush)p;
	flush_reset();
	flush_iters = iters / 10 + 20;	/* enough for every path/change to occur */
	run_bounded(flush_cpu, "random shootdowns on every CPU");
	for (unsigned i = 0; i < NCPUS; i++)
		assert_int_equal(flush_bad[i], 0);
	/* every path of the default set shot down, clean (flush_bad 0) */
	for (unsigned k = 0; k < nsafe_paths; k++) {
		uint64_t n = 0;
		for (unsigned i = 0; i < NCPUS; i++)
			n += path_runs[i][safe_paths[k]];
		printf("# flush path %s: %llu shootdowns, none stale\n", XCB_NAME(flush, safe_paths[k]),
		       (unsigned long long)n);
		if (!n)
			fail_msg("flush path %s: no shootdown ran (every default path must)", XCB_NAME(flush, safe_paths[k]));
	}
	flush_get_stats(&fs);
	assert_int_equal(fs.stale, 0);
	assert_int_equal(fs.stale_expected, 0);
	assert_int_equal(fs.shootdowns, (uint64_t)NCPUS * flush_iters);
	assert_true(fs.verified > fs.pages);	/* initiator + targets read each */
	assert_true(fs.faults > 0);		/* unmap cases faulted, as they must */
	assert_true(fs.lock.acquisitions > 0);	/* the vector path took the lock */
}

/* Every CPU but CPU 0: the targets of the single-initiator shootdowns below. */
static struct cpumask all_but_cpu0(void)
{
	struct cpumask m;
	cpumask_clear_all(&m);
	for (unsigned c = 1; c < NCPUS; c++)
		cpumask_set(&m, c);
	return m;
}

/* The controls' shootdown from CPU 0: every other CPU a target, 4 pages by CR3
 * through `queued` (method set to none by the caller for the control). */
static struct flush_cfg control_setup(struct cpumask *m)
{
	*m = all_but_cpu0();
	return (struct flush_cfg){ .method = XCB_METHOD_CR3, .flush = XCB_FLUSH_XCALL,
				   .change = FLUSH_REMAP, .xops = xcall_find("queued"), .batch = 4 };
}

static int noflush_result;
static void noflush_cpu0(void)
{
	struct cpumask m;
	struct flush_cfg c = control_setup(&m);
	/* Start from clean TLBs everywhere (earlier tests may have left CPUs
	 * that were not targeted holding old entries)... */
	noflush_result = flush_run(&c, &m, NULL);
	/* ... then the control: no invalidation anywhere. It returns what the
	 * targets detected: all 7 reach the old frame of 4 pages (the initiator
	 * does too, but its own TLB proves nothing about the shootdown). */
	c.method = XCB_METHOD_NONE;
	noflush_result |= flush_run(&c, &m, NULL) != (NCPUS - 1) * 4;
	/* Clean up with a real flush (no stale reads allowed)... */
	c.method = XCB_METHOD_CR3;
	noflush_result |= flush_run(&c, &m, NULL);
	/* ... then a method-less flush through the vector path must leave the
	 * stale entries in place too: the control is the same for both paths. */
	c.method = XCB_METHOD_NONE;
	c.flush = XCB_FLUSH_VECTOR;
	noflush_result |= flush_run(&c, &m, NULL) != (NCPUS - 1) * 4;
	/* a bad cfg is refused */
	c.flush = XCB_FLUSH_XCALL;
	c.xops = NULL;
	if (flush_run(&c, &m, NULL) >= 0)
		noflush_result = 99;
}

/*
 * Early acknowledgement. Safe: targets ack on entering the handler and
 * invalidate before it returns, and nothing runs in between: verification
 * after the shootdown finds nothing stale, while its control (method none)
 * does find the old frames, so the verification is real. Unsafe: a reader
 * inside the window (after the initiator returned, before the target's
 * invalidation) reaches the old frame: counted as violations.
 */
static int early_result;
static uint64_t reader_stale;
static void early_cpu0(void)
{
	struct cpumask m = all_but_cpu0();
	struct flush_cfg c = { .method = XCB_METHOD_INVLPG, .flush = XCB_FLUSH_EARLY_ACK,
			       .change = FLUSH_REMAP, .batch = 4 };
	early_result = 0;
	for (unsigned i = 0; i < 20; i++)
		early_result |= flush_run(&c, &m, NULL) != 0;		/* safe: verified clean */
	c.method = XCB_METHOD_NONE;
	early_result |= (flush_run(&c, &m, NULL) != (NCPUS - 1) * 4) << 1;	/* the control sees stale */
	c.method = XCB_METHOD_CR3;
	early_result |= (flush_run(&c, &m, NULL) != 0) << 2;			/* clean again */
	c.method = XCB_METHOD_INVLPG;
	c.flush = XCB_FLUSH_EARLY_ACK_READER;
	int r = flush_run(&c, &m, NULL);
	reader_stale = r > 0 ? (uint64_t)r : 0;
}

static void test_flush_early_ack_safe_and_unsafe(void **st)
{
	(void)st;
	struct flush_stats fs;

	flush_reset();
	run_from_cpu0(early_cpu0, "early_ack shootdowns from CPU 0 (safe, control, reader)");
	if (early_result)
		fail_msg("early_ack: safe shootdowns %s, control %s, clean-up %s", early_result & 1 ? "saw stale" : "clean",
			 early_result & 2 ? "did NOT see stale (verification not real)" : "saw stale",
			 early_result & 4 ? "saw stale" : "clean");
	flush_get_stats(&fs);
	/* The unsafe case: every target's window reader reached the old frame
	 * of each of the 4 pages after the initiator had returned. */
	if (reader_stale != (NCPUS - 1) * 4 || fs.stale != reader_stale)
		fail_msg("early_ack_reader: expected %u violations (7 targets x 4 pages), shootdown reported %llu, "
			 "stats %llu", (NCPUS - 1) * 4, (unsigned long long)reader_stale, (unsigned long long)fs.stale);
	printf("# early_ack: 20 shootdowns verified clean, control saw %llu stale; early_ack_reader: %llu violations "
	       "flagged\n", (unsigned long long)fs.stale_expected, (unsigned long long)reader_stale);
}

/* A mask of CPUs a and b (b < 0: just a), for the single-call tests below. */
static struct cpumask mask_of(int a, int b)
{
	struct cpumask m;
	cpumask_clear_all(&m);
	cpumask_set(&m, (unsigned)a);
	if (b >= 0)
		cpumask_set(&m, (unsigned)b);
	return m;
}

/*
 * The batch mislabel (issue 13): a shootdown asked for more pages than this
 * CPU's slice used to be clamped silently, so a case labelled batch=N changed
 * fewer pages. Now it is refused, and an honoured batch changes exactly N.
 */
static int batch_result;
static void batch_cpu0(void)
{
	struct cpumask m = mask_of(1, -1);
	unsigned max = flush_max_batch();
	struct flush_cfg c = { .method = XCB_METHOD_INVLPG, .flush = XCB_FLUSH_XCALL,
			       .change = FLUSH_REMAP, .xops = xcall_find("lockless"), .batch = max + 1 };
	struct flush_stats fs;

	flush_reset();
	batch_result = flush_run(&c, &m, NULL) < 0 ? 0 : 1;	/* refused */
	flush_get_stats(&fs);
	if (fs.shootdowns || fs.pages)
		batch_result |= 2;				/* and nothing done */
	c.batch = max;
	if (flush_run(&c, &m, NULL) != 0)
		batch_result |= 4;
	flush_get_stats(&fs);
	if (fs.shootdowns != 1 || fs.pages != max)
		batch_result |= 8;				/* exactly N pages */
}

static void test_flush_batch_refused_not_clamped(void **st)
{
	(void)st;
	assert_true(flush_max_batch() >= 2);
	run_from_cpu0(batch_cpu0, "the batch-refusal shootdowns from CPU 0");
	assert_int_equal(batch_result, 0);
}

/*
 * lockless leaves its tasks bit set after a wait=none call; reset() (between
 * cases, quiescent) must clear it, or every receiver of the next case scans
 * a descriptor with nothing for it.
 */
static void lockless_none_cpu(unsigned me, void *unused)
{
	(void)unused;
	if (me != 1)
		return;
	struct cpumask m = mask_of(2, -1);
	xcall_find("lockless")->call(&m, NULL, NULL, XCB_WAIT_NONE);
}

/*
 * An IPI runs only the algorithm that sent it (vectors of its own): a call
 * of each algorithm sends IPIs of its own kinds only, so no other
 * algorithm's handler (each an "anything for me?" scan of its own shared
 * lines) runs for it.
 */
static const struct xcall_ops *one_ops;
static void one_call_cpu(unsigned me, void *unused)
{
	(void)unused;
	if (me != 1)
		return;
	struct cpumask m = mask_of(2, 3);
	one_ops->call(&m, NULL, NULL, XCB_WAIT_DONE);
}

static void test_ipi_only_for_its_algorithm(void **st)
{
	(void)st;
	for (unsigned i = 0; xcall_algos[i]; i++) {
		uint64_t before[PLAT_IPI_NR], own = 0;
		one_ops = xcall_algos[i];
		for (unsigned k = 0; k < PLAT_IPI_NR; k++)
			before[k] = plat_host_ipis_of(k);
		run_bounded(one_call_cpu, "one call from CPU 1 to CPUs 2,3");
		for (unsigned k = 0; k < PLAT_IPI_NR; k++) {
			uint64_t d = plat_host_ipis_of(k) - before[k];
			int mine = 0;
			for (unsigned j = 0; j < one_ops->nipi; j++)
				mine |= xcall_algo_ipi(one_ops, j) == (int)k;
			if (mine)
				own += d;
			else if (d)
				fail_msg("%s: a call to CPUs 2,3 sent %llu IPIs of kind %u, not one of its own",
					 one_ops->name, (unsigned long long)d, k);
		}
		assert_true(own >= 1);
	}
}

static void test_lockless_reset_clears_tasks(void **st)
{
	(void)st;
	run_bounded(lockless_none_cpu, "lockless wait=none call from CPU 1");	/* joins: the call has landed */
	assert_true(xcall_lockless_task_pending(1));	/* left set by wait=none */
	xcall_find("lockless")->reset();
	assert_false(xcall_lockless_task_pending(1));
}

/*
 * The initiator-only control (issue 21): on a platform whose targets keep no
 * primed translation, the no-flush control must see nothing - the case is then
 * "unverified" - even though the initiator, which did not flush either, reads
 * its stale entry. Counting the initiator made such a control pass.
 */
static int ctl_only_result = -1;
static void ctl_only_cpu0(void)
{
	struct cpumask m;
	struct flush_cfg c = control_setup(&m);
	(void)flush_run(&c, &m, NULL);	/* clean TLBs */
	c.method = XCB_METHOD_NONE;
	ctl_only_result = flush_run(&c, &m, NULL);
}

static void test_flush_control_counts_targets_only(void **st)
{
	(void)st;
	flush_reset();
	plat_host_tlb_nocache(((1ull << NCPUS) - 1) & ~1ull);	/* every CPU but 0 */
	run_from_cpu0(ctl_only_cpu0, "the no-flush control from CPU 0 over non-caching targets");
	plat_host_tlb_nocache(0);
	assert_int_equal(ctl_only_result, 0);	/* nothing detected: unverified */
}

static void test_flush_noflush_control_sees_stale(void **st)
{
	(void)st;
	struct flush_stats fs;

	flush_reset();
	run_from_cpu0(noflush_cpu0, "the no-flush control shootdowns from CPU 0");
	assert_int_equal(noflush_result, 0);	/* NONE: not violations ... */
	flush_get_stats(&fs);
	assert_int_equal(fs.stale, 0);
	/* ... but every CPU (8) still reached the old frame of all 4 pages,
	 * twice: the model caches, and the verify step notices. */
	assert_int_equal(fs.stale_expected, 2 * NCPUS * 4);
}

/*
 * Back-to-back no-flush controls (issue 21): each must see every target stale.
 * With two frames per page the second control remapped the page back to the
 * frame the first one left cached, so the stale entry read as the "new" frame
 * and the control saw nothing; the rotation over three frames (and the control's
 * verify dropping what it saw stale) makes every round detect alone.
 */
static int ctl_twice_result = -1;
static void ctl_twice_cpu0(void)
{
	struct cpumask m;
	struct flush_cfg c = control_setup(&m);
	ctl_twice_result = flush_run(&c, &m, NULL);	/* clean TLBs: 0 */
	c.method = XCB_METHOD_NONE;
	for (int k = 0; k < 4; k++)
		ctl_twice_result |= (flush_run(&c, &m, NULL) != (NCPUS - 1) * 4) << (k + 1);
	c.method = XCB_METHOD_CR3;	/* and a real shootdown after them is clean */
	ctl_twice_result |= (flush_run(&c, &m, NULL) != 0) << 5;
}

static void test_flush_controls_back_to_back(void **st)
{
	(void)st;
	flush_reset();
	run_from_cpu0(ctl_twice_cpu0, "four no-flush controls in a row from CPU 0");
	if (ctl_twice_result)
		fail_msg("back-to-back controls: result bits %#x (bit k+1: control k saw "
			 "fewer than every target stale; bit 5: the real shootdown after saw stale)",
			 (unsigned)ctl_twice_result);
}

int main(void)
{
	const char *e = getenv("XCB_XCALL_ITERS");
	if (e && atoi(e) > 0)
		iters = (unsigned)atoi(e);
	e = getenv("XCB_XCALL_BOUND_S");
	if (e && atoi(e) > 0)
		bound_s = (unsigned)atoi(e);
	only = getenv("XCB_XCALL_ONLY");
	if (only && !*only)
		only = NULL;
	e = getenv("XCB_XCALL_PHASES");
	if (e && *e) {
		no_stress = !strstr(e, "stress");
		no_quiet = !strstr(e, "quiet");
		no_held = !strstr(e, "held");
	}

	pthread_t guard;
	if (pthread_create(&guard, NULL, guard_thread, NULL) || pthread_detach(guard))
		return 1;
	if (plat_host_init(NCPUS) || xcall_init_all(NCPUS) || flush_init(NCPUS)) {
		fprintf(stderr, "test_xcall: init failed: %s\n", *xcall_init_error() ? xcall_init_error() : "flush_init");
		printf("not ok - init: %s\n", *xcall_init_error() ? xcall_init_error() : "flush_init");
		return 1;
	}
	if (only && !xcall_find(only)) {
		fprintf(stderr, "test_xcall: XCB_XCALL_ONLY=%s: no such algorithm registered (registered:", only);
		for (unsigned i = 0; xcall_algos[i]; i++)
			fprintf(stderr, " %s", xcall_algos[i]->name);
		fprintf(stderr, "; an algorithm registers with XCALL_ALGO() at the end of its file, "
			"docs/ADDING-AN-ALGORITHM.md step 1)\n");
		return 1;
	}

	/* The free checks: one test per registered algorithm x supported wait. */
	static struct CMUnitTest tests[XCALL_MAX_ALGOS * XCB_N_wait + 32];
	static struct algo_case cases[XCALL_MAX_ALGOS * XCB_N_wait];
	static char names[XCALL_MAX_ALGOS * XCB_N_wait][64];
	unsigned nt = 0, nc = 0;

	tests[nt++] = (struct CMUnitTest)cmocka_unit_test(test_names);
	for (unsigned i = 0; xcall_algos[i]; i++) {
		if (only && strcmp(only, xcall_algos[i]->name))
			continue;
		for (unsigned w = 0; w < XCB_N_wait; w++) {
			if (!(xcall_algos[i]->waits & XCALL_WAIT_BIT(w)))
				continue;
			cases[nc] = (struct algo_case){ xcall_algos[i], (enum xcb_wait)w };
			snprintf(names[nc], sizeof(names[nc]), "free check: %s wait=%s", xcall_algos[i]->name,
				 XCB_NAME(wait, (enum xcb_wait)w));
			tests[nt++] = (struct CMUnitTest){ names[nc], test_algo_wait, NULL, NULL, &cases[nc] };
			nc++;
		}
	}
	if (!only) {
		const struct CMUnitTest rest[] = {
			cmocka_unit_test(test_mixed),
			cmocka_unit_test(test_ipi_only_for_its_algorithm),
			cmocka_unit_test(test_queued_fifo_across_initiators),
			cmocka_unit_test(test_lockless_serves_in_cpu_order),
			cmocka_unit_test(test_locked_lockprof),
			cmocka_unit_test(test_locked_lockprof_counts_only_counted),
			cmocka_unit_test(test_raw),
			cmocka_unit_test(test_flush_no_stale),
			cmocka_unit_test(test_flush_noflush_control_sees_stale),
			cmocka_unit_test(test_flush_controls_back_to_back),
			cmocka_unit_test(test_flush_early_ack_safe_and_unsafe),
			cmocka_unit_test(test_flush_control_counts_targets_only),
			cmocka_unit_test(test_flush_batch_refused_not_clamped),
			cmocka_unit_test(test_lockless_reset_clears_tasks),
		};
		for (unsigned i = 0; i < sizeof(rest) / sizeof(rest[0]); i++)
			tests[nt++] = rest[i];
	}
	int r = _cmocka_run_group_tests("test_xcall", tests, nt, NULL, NULL);
	/* A failed check ends its test before its calls are counted: say whose
	 * calls these are, so "0 calls checked" never reads as "nothing ran". */
	printf("# %llu calls, %llu callee runs checked exactly-once (%u CPUs, %u calls/CPU/case)%s\n",
	       (unsigned long long)total_calls, (unsigned long long)total_runs, NCPUS, iters,
	       r ? ", in the checks that passed" : "");
	return r;
}
