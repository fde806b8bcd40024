/*
 * runner.c - one case at a time: placement, a start barrier so initiators contend
 * for real, warm-up calls, serialised-TSC timing of every call, exactly-once (by
 * sequence numbers, ledger.h) and stale-translation checks with a no-flush control,
 * and the CASE / RESULT / HISTO / SAMPLES frames.
 *
 * Inside the timed region the harness writes nothing another CPU reads: the callee
 * gets its (initiator slot, sequence number) as the call's argument VALUE and notes
 * it in its own padded ledger line; CPU 0 checks the ledger after the timed calls.
 *
 * CPU 0 orchestrates. It is an initiator too when the placement picks it (the seed's
 * 2 initiators x disjoint masks need all 4 CPUs of -smp 4); then it checks the
 * watchdog between its own calls and afterwards while it waits for the others.
 */
#include "bench/runner.h"
#include "bench/benchenv.h"
#include "bench/histo.h"
#include "bench/ledger.h"
#include "bench/placement.h"
#include "bench/report.h"
#include "bench/stats.h"
#include "bench/strbuf.h"
#include "bench/sync.h"
#include "bench/watchdog.h"
#include "flush/flush.h"
#include "lib/cmdline.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "xcall/xcall.h"

#define SAMPLES_MAX 1024	/* raw samples kept per initiator per rep (samples=1) */
#define CTL_RUNS 8		/* no-flush control shootdowns per initiator per TLB rep */
#define REP_FLOOR_N 65		/* `ipi` floor probes before each repetition (after 32 untimed) */

/* A call's argument is the value ledger_arg(slot, seq) (ledger.h). */
_Static_assert(RUN_MAX_INITS <= LEDGER_MAX_SLOTS, "slot must fit the call argument");

struct initiator {
	const struct bcase *c;
	const struct xcall_ops *ops;	/* the case's algorithm, or per initiator (stress) */
	enum xcall_wait wait;
	unsigned cpu, slot;
	const struct cpumask *targets;
	struct flush_cfg fcfg;
	uint64_t deadline;	/* cycles; 0 = none */
	/* results, written by the initiator's CPU, read by CPU 0 after `finished` */
	struct stats st;
	struct histo *h;
	uint64_t *samples;
	uint64_t seq;		/* calls issued, warm-up included (the last number used) */
	uint64_t done;		/* timed calls made */
	uint64_t elapsed;	/* cycles the timed calls took, all together */
	uint64_t ipis;
	uint64_t stale;
	uint64_t ctl_runs, ctl_stale;	/* TLB no-flush control: runs, runs that saw stale */
	int bad_cfg;		/* the flush layer refused the configuration */
	int finished;
} __attribute__((aligned(64)));	/* each initiator writes its own: no shared line */

/* Read-only while a repetition runs (set by CPU 0 before `go`). */
static uint64_t callee_work;		/* busy cycles per callee */
static int harness_bare;		/* this rep's case is harness=bare: no bookkeeping at all */
static int ledger_ok;			/* the ledger has memory (else every case runs bare) */
static uint64_t floor_ipi, floor_rt;	/* this boot's floors (CPU 0 -> CPU 1), cycles */
static uint64_t rep_floor_now;		/* the running repetition's `ipi` floor (rep_floor) */

static struct initiator ini[RUN_MAX_INITS];
static struct histo hist[RUN_MAX_INITS];
static struct histo hall;
static uint64_t samples[RUN_MAX_INITS][SAMPLES_MAX];
static unsigned init_cpus[RUN_MAX_INITS];
static struct cpumask targets[RUN_MAX_INITS];

/* Start barrier: initiators count themselves in `ready`, then spin until `go`. */
static unsigned ready;
static int go;
/* Set by CPU 0 when the watchdog fired: initiators stop after their current call. */
static int abort_run;

static struct overhead overhead;

/* Fairness over every repetition of a case (ring: a group of interleaved cases holds
 * at most MAX_GROUP = 16 of these at once, bench.c). */
struct fair_acc {
	uint64_t calls[RUN_MAX_INITS], cycles[RUN_MAX_INITS];
	uint64_t p50[RUN_MAX_INITS][REPS_KEPT];
	unsigned nrep, ninit;
};
static struct fair_acc fair_pool[32];
static unsigned fair_next;

static struct fair_acc *fair_take(void)
{
	struct fair_acc *fa = &fair_pool[fair_next++ % 32];
	memset(fa, 0, sizeof(*fa));
	return fa;
}

/* Fault injection for the tests: hang_cpu=N wedges that CPU in its first callee,
 * interrupts off, the way a target lost in a broken handler would; fault_cpu=N
 * makes it take an invalid-opcode exception there instead; dupskip_cpu=N makes it
 * run one call (sequence number >= 3) as if it were the previous one again - one
 * call skipped and one duplicated, which a count of calls cannot see. */
static unsigned hang_cpu = ~0u, fault_cpu = ~0u, dupskip_cpu = ~0u;
static int dupskip_done;	/* written only by dupskip_cpu, once */

uint64_t runner_overhead_min(void) { return overhead.min; }
uint64_t runner_overhead_median(void) { return overhead.median; }
uint64_t runner_floor_ipi(void) { return floor_ipi; }
uint64_t runner_floor_roundtrip(void) { return floor_rt; }
int runner_harness_bare(void) { return !ledger_ok; }

/* Median of `n` floor measurements CPU 0 -> CPU 1 after 128 untimed ones. */
static uint64_t floor_of(uint64_t (*probe)(unsigned), uint64_t *d, unsigned n)
{
	for (unsigned i = 0; i < 128; i++)
		(void)probe(1);
	for (unsigned i = 0; i < n; i++)
		d[i] = probe(1);
	sort_u64(d, n);
	return d[n / 2];
}

void runner_init(void)
{
	static uint64_t d[256];
	/* Back-to-back serialised reads: what every timed call pays on top. */
	for (unsigned i = 0; i < 256; i++) {
		uint64_t a = plat_cycles();
		uint64_t b = plat_cycles();
		d[i] = b - a;
	}
	overhead_from_deltas(d, 256, &overhead);

	/* This boot's floors, before any case: every cross-call RESULT carries
	 * floor_ipi, the least a wait=done call can cost (one IPI, a handler that
	 * sets a flag, the caller spinning on it). The kind=raw cases measure both
	 * floors again per placement. */
	if (plat_num_cpus() >= 2) {
		floor_ipi = floor_of(xcall_raw_ipi_once, d, 256);
		floor_rt = floor_of(xcall_raw_roundtrip, d, 256);
	}

	/* The ledger: one padded line per (target CPU, initiator slot), sized from the
	 * CPU count. Without memory for it the exactly-once check cannot run: say so
	 * in every result rather than judge from nothing (ledger_ok). */
	void *mem = plat_alloc_zeroed(ledger_bytes(plat_num_cpus(), RUN_MAX_INITS));
	if (mem)
		ledger_setup(mem, plat_num_cpus(), RUN_MAX_INITS);
	ledger_ok = mem != 0;

	uint64_t h;
	if (cmdline_u64("hang_cpu", ~0ull, &h) == 0 && h < XCB_MAX_CPUS)
		hang_cpu = (unsigned)h;
	if (cmdline_u64("fault_cpu", ~0ull, &h) == 0 && h < XCB_MAX_CPUS)
		fault_cpu = (unsigned)h;
	if (cmdline_u64("dupskip_cpu", ~0ull, &h) == 0 && h < XCB_MAX_CPUS)
		dupskip_cpu = (unsigned)h;
}

/* ---- the calls ---- */

static void busy(uint64_t cycles)
{
	if (!cycles)
		return;
	uint64_t end = plat_cycles() + cycles;
	while (plat_cycles() < end)
		plat_cpu_relax();
}

static void callee(void *p)
{
	unsigned slot = ledger_arg_slot(p);
	unsigned me = plat_cpu_id();

	if (harness_bare) {
		busy(callee_work);
		return;
	}
	/* Everything below writes only this CPU's own lines (its watchdog record,
	 * its ledger entries), and reads only what CPU 0 set before `go`. The
	 * record's timestamp is unserialised: it is a diagnostic. */
	uint32_t prev = __atomic_load_n(&wd_cpus[me].state, __ATOMIC_RELAXED);
	uint64_t prev_since = wd_cpus[me].since;

	wd_cpus[me].peer = init_cpus[slot];
	wd_state(me, WD_CALLEE, plat_cycles_fast());
	if (me == hang_cpu)
		for (;;)
			plat_cpu_relax();
	if (me == fault_cpu)
		__asm__ __volatile__("ud2");
	busy(callee_work);
	uint64_t seq = ledger_arg_seq(p);
	if (me == dupskip_cpu && seq >= 3 && !dupskip_done) {
		dupskip_done = 1;
		seq--;
	}
	ledger_note(ledger_at(me, slot), seq);
	wd_state(me, (enum wd_state)prev, prev_since);
}

/* One call / shootdown / floor probe of initiator `in`; *d gets its time. <0: the
 * flush layer refused the configuration. */
static int one_call(struct initiator *in, unsigned raw_target, uint64_t *d)
{
	const struct bcase *c = in->c;
	uint64_t seq = ++in->seq;
	if (c->kind == KIND_XCALL) {
		void *arg = ledger_arg(in->slot, seq);
		uint64_t t0 = plat_cycles();
		in->ops->call(in->targets, callee, arg, in->wait);
		*d = plat_cycles() - t0;
	} else if (c->kind == KIND_TLB) {
		/* prepare (targets load the old translation) and verify are untimed;
		 * d is the shootdown itself. */
		*d = 0;
		int r = flush_run(&in->fcfg, in->targets, d);
		if (r < 0)
			return -1;
		if (r > 0 && c->method != FLUSH_NONE)
			in->stale += (uint64_t)r;
	} else if (c->floor == FLOOR_IPI) {
		*d = xcall_raw_ipi_once(raw_target);
	} else {
		*d = xcall_raw_roundtrip(raw_target);
	}
	return 0;
}

/* The no-flush control of a TLB repetition, untimed, after the timed shootdowns:
 * the same path and targets without any invalidation. If no target then reads the
 * old frame, the platform did not keep the primed translations, and stale = 0 in
 * this case proves nothing (the result is "unverified"). */
static void tlb_control(struct initiator *in)
{
	struct flush_cfg ctl = in->fcfg;
	ctl.method = FLUSH_NONE;
	for (unsigned i = 0; i < CTL_RUNS; i++) {
		uint64_t d;
		int r = flush_run(&ctl, in->targets, &d);
		if (r < 0)
			return;
		in->ctl_runs++;
		in->ctl_stale += r > 0;
	}
}

static void initiator_main(void *p)
{
	struct initiator *in = p;
	const struct bcase *c = in->c;
	unsigned me = plat_cpu_id();
	struct wd_cpu *w = &wd_cpus[me];
	unsigned raw_target = cpumask_first(in->targets);

	/* Spin with interrupts on: we must keep answering calls aimed at us. */
	plat_irq_enable();
	w->algo = c->kind == KIND_XCALL && in->ops ? in->ops->name : case_algo_name(c);
	wd_state(me, WD_WAITING_START, plat_cycles());
	/* release: CPU 0 sees our setup (wd record) before it counts us ready. */
	__atomic_fetch_add(&ready, 1, __ATOMIC_RELEASE);
	/* acquire: pairs with CPU 0's release of `go` (deadline, targets published). */
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		plat_cpu_relax();

	uint64_t ipi0 = benv_ipis_sent(me);
	enum wd_state busy = c->kind == KIND_TLB ? WD_FLUSHING :
			     c->kind == KIND_RAW ? WD_RAW : WD_CALLING;
	/* Warm-up: untimed calls first (cold caches, TLB, branch predictors and the
	 * first IPI of a case are not the algorithm's steady state). They count
	 * for the exactly-once ledger like any other call. */
	for (uint64_t k = 0; k < c->warmup && !in->bad_cfg; k++) {
		uint64_t t0 = plat_cycles(), d;
		if (__atomic_load_n(&abort_run, __ATOMIC_RELAXED) || (in->deadline && t0 > in->deadline))
			break;
		__atomic_store_n(&w->call_no, in->seq + 1, __ATOMIC_RELAXED);
		__atomic_store_n(&w->call_start, t0, __ATOMIC_RELAXED);
		wd_state(me, busy, t0);
		in->bad_cfg = one_call(in, raw_target, &d) < 0;
		__atomic_store_n(&w->call_start, 0, __ATOMIC_RELAXED);
	}
	uint64_t i, t_begin = plat_cycles();
	for (i = 0; !in->bad_cfg && (!c->iters || i < c->iters); i++) {
		if (__atomic_load_n(&abort_run, __ATOMIC_RELAXED))
			break;
		uint64_t t0 = plat_cycles();
		if (in->deadline && t0 > in->deadline)
			break;
		/* Watchdog record: call_no before call_start, so a checker that sees the
		 * start also sees which call it is (both relaxed: x86 keeps store order,
		 * and the report is diagnostic). call_no counts warm-up calls too: it is
		 * the sequence number the targets' ledger entries are compared with. */
		__atomic_store_n(&w->call_no, in->seq + 1, __ATOMIC_RELAXED);
		__atomic_store_n(&w->call_start, t0, __ATOMIC_RELAXED);
		wd_state(me, busy, t0);
		uint64_t d;
		if (one_call(in, raw_target, &d) < 0) {
			in->bad_cfg = 1;
			__atomic_store_n(&w->call_start, 0, __ATOMIC_RELAXED);
			break;
		}
		__atomic_store_n(&w->call_start, 0, __ATOMIC_RELAXED);
		stats_add(&in->st, d);
		histo_add(in->h, d);
		if (in->samples && i < SAMPLES_MAX)
			in->samples[i] = d;
	}
	in->elapsed = plat_cycles() - t_begin;
	in->done = i;
	in->ipis = benv_ipis_sent(me) - ipi0;	/* warm-up included, control not */
	if (c->kind == KIND_TLB && !in->bad_cfg)
		tlb_control(in);
	wd_state(me, WD_FINISHED, plat_cycles());
	/* release: CPU 0 reads our stats after it sees finished (acquire). */
	__atomic_store_n(&in->finished, 1, __ATOMIC_RELEASE);
}

/* ---- frames ---- */

/* Per-initiator algorithm/wait overrides (stress); NULL = the case's. */
static const struct xcall_ops *const *mix_ops;
static const enum xcall_wait *mix_waits;


static char casebuf[1024];

void runner_case_frame(const struct bcase *c)
{
	struct strbuf sb;
	sb_init(&sb, casebuf, sizeof(casebuf));
	sb_kv_u64(&sb, "id", c->id);
	sb_kv(&sb, "kind", kind_name(c->kind));
	sb_kv(&sb, "algo", case_algo_name(c));
	sb_kv(&sb, "delivery", delivery_name(c->delivery));
	/* What the APIC layer resolves it to for the first initiator's mask. */
	sb_kv(&sb, "x_delivery_used", benv_delivery_used(c->delivery, &targets[0], init_cpus[0]));
	sb_kv(&sb, "wait", xcall_wait_name(c->wait));
	sb_kv_u64(&sb, "inits", c->inits);
	sb_kv_u64(&sb, "mask", c->mask);
	sb_kv(&sb, "placement", placement_name(c->placement));
	sb_kv(&sb, "overlap", c->overlap ? "overlap" : "disjoint");
	sb_kv_u64(&sb, "work_us", c->work_us);
	sb_kv_u64(&sb, "iters", c->iters);
	sb_kv_u64(&sb, "warmup", c->warmup);
	sb_kv_u64(&sb, "reps", c->reps);
	/* A matching key only when bare, so ordinary cases keep theirs. */
	if (c->kind == KIND_XCALL && (c->harness || !ledger_ok))
		sb_kv(&sb, "harness", "bare");
	if (c->time_ms)
		sb_kv_u64(&sb, "x_time_ms", c->time_ms);
	if (c->kind == KIND_SYNC) {
		/* The shootdown's algorithm (the algo slot holds the mode). */
		sb_kv(&sb, "xcall", c->algo ? c->algo->name : "-");
		sb_kv(&sb, "rwlock", c->rwlock ? "unfair" : "fair");
		sb_kv_u64(&sb, "batch_reads", c->batch_reads);
		sb_kv_u64(&sb, "entry_us", c->entry_us);
	}
	if (c->kind == KIND_TLB || c->kind == KIND_SYNC) {
		sb_kv(&sb, "flush", flush_path_name(c->path));
		sb_kv(&sb, "method", flush_method_name(c->method));
		/* The batch actually used: prepare() refuses a case whose batch the
		 * flush layer cannot honour, so this is never a clamped request. */
		sb_kv_u64(&sb, "batch", c->batch);
		sb_kv_u64(&sb, "pages", c->batch);
		sb_kv_u64(&sb, "x_control_runs", CTL_RUNS);
	}
	/* The CPUs actually used: an annotation (x_), not part of the matching key. */
	sb_puts(&sb, "x_cpus=");
	for (unsigned k = 0; k < c->inits && k < RUN_MAX_INITS; k++) {
		unsigned t;
		if (k)
			sb_putc(&sb, ';');
		sb_u64(&sb, init_cpus[k]);
		sb_putc(&sb, ':');
		int first = 1;
		for_each_cpu(t, &targets[k]) {
			if (!first)
				sb_putc(&sb, ',');
			sb_u64(&sb, t);
			first = 0;
		}
	}
	sb_putc(&sb, '\n');
	if (mix_ops) {
		/* stress: each initiator's own algorithm and wait, in x_cpus order */
		sb_puts(&sb, "x_mix=");
		for (unsigned k = 0; k < c->inits && k < RUN_MAX_INITS; k++) {
			if (k)
				sb_putc(&sb, ',');
			sb_puts(&sb, c->kind == KIND_XCALL ? mix_ops[k]->name : case_algo_name(c));
			sb_putc(&sb, '/');
			sb_puts(&sb, xcall_wait_name(mix_waits ? mix_waits[k] : c->wait));
		}
		sb_putc(&sb, '\n');
	}
	report_text(XCB_T_CASE, casebuf, sb.len);
}

void runner_fill_result(struct xcb_result *r, const struct bcase *c, unsigned rep,
			unsigned initiator, const struct stats *st, const struct histo *h)
{
	r->case_id = c->id;
	r->rep = (uint16_t)rep;
	r->initiator = (uint16_t)initiator;
	r->count = st->n;
	r->min = st->n ? st->min : 0;
	r->max = st->max;
	r->p50 = histo_percentile(h, 500000, st->min, st->max);
	r->p90 = histo_percentile(h, 900000, st->min, st->max);
	r->p99 = histo_percentile(h, 990000, st->min, st->max);
	r->p999 = histo_percentile(h, 999000, st->min, st->max);
	r->mean_x1000 = stats_mean_milli(st);
	r->stddev_x1000 = stats_stddev_milli(st);
	r->ipi_floor = rep_floor_now;
}

/* ---- one case ---- */

static uint64_t ns_of(uint64_t cycles)
{
	uint64_t khz = plat_tsc_khz();
	return khz ? muldiv_u64(cycles, 1000000, khz) : 0;
}

static uint64_t median_of(uint64_t *v, unsigned n)
{
	if (!n)
		return 0;
	sort_u64(v, n);
	return v[n / 2];
}

static void logf_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logf_(const char *fmt, ...)
{
	static char line[512];
	va_list ap;
	va_start(ap, fmt);
	kvsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	report_log(line);
}

/*
 * Watchdog tick on CPU 0 while CPU 0 itself initiates. Interrupt context: CPU 0 holds
 * no lock here (its call loop sends no frames), so reporting is safe; a call that
 * outlived the bound may never return, so end the run from here.
 */
static void watchdog_tick(void)
{
	if (wd_check()) {
		report_done(XCB_DONE_ABORTED);
		benv_exit(1);
	}
}

/* One floor measurement, on whichever CPU runs it: median of REP_FLOOR_N `ipi`
 * probes to `target` after 32 untimed ones (the target may be waking from idle). */
struct floor_job {
	unsigned target;
	uint64_t result;	/* written by the measuring CPU; read after it is idle */
};

static void floor_job_run(void *p)
{
	static uint64_t d[REP_FLOOR_N];	/* one job at a time: CPU 0 waits for it */
	struct floor_job *j = p;

	for (unsigned i = 0; i < 32; i++)
		(void)xcall_raw_ipi_once(j->target);
	for (unsigned i = 0; i < REP_FLOOR_N; i++)
		d[i] = xcall_raw_ipi_once(j->target);
	j->result = median_of(d, REP_FLOOR_N);
}

/*
 * The `ipi` floor for this repetition, measured just before it from the case's first
 * initiator to its first target - the path of its calls, per placement: a floor from
 * the same boot AND the same stretch of time, so a host that slows down between cases
 * (a VM's neighbours) moves the call and its floor together. Everything is idle here;
 * an AP initiator measures through smp_start_on, whose hand-back (benv_wait_idle,
 * acquire) makes its result visible to us.
 */
static uint64_t rep_floor(const struct bcase *c)
{
	struct floor_job j = { .target = cpumask_first(&targets[0]), .result = 0 };
	unsigned src = init_cpus[0], me = plat_cpu_id();

	if (c->kind == KIND_RAW || plat_num_cpus() < 2)
		return floor_ipi;
	if (j.target >= plat_num_cpus() || j.target == src) {
		src = me;
		j.target = me == 1 ? 0 : 1;
	}
	if (src != me && (benv_start_on(src, floor_job_run, &j) < 0 || benv_wait_idle(src) < 0))
		src = me;	/* cannot use that CPU: measure from ours */
	if (src == me) {
		if (j.target == me)
			j.target = me == 1 ? 0 : 1;
		floor_job_run(&j);
	}
	return j.result;
}

/* Runs one repetition; returns <0 when the watchdog fired. */

static int run_rep(const struct bcase *c, unsigned rep, uint64_t wd_cycles, int emit_each,
		   struct case_summary *sum, uint64_t *rep_p50, uint64_t *rep_mean)
{
	unsigned I = c->inits;
	uint64_t khz = plat_tsc_khz();
	struct cpumask imask;
	cpumask_clear_all(&imask);

	/* Quiescent here (every initiator finished, every call landed): reset every
	 * algorithm's counters, not just this case's - stress mixes them. */
	for (unsigned a = 0; xcall_algos[a]; a++)
		if (xcall_algos[a]->reset)
			xcall_algos[a]->reset();
	if (c->kind == KIND_TLB) {
		flush_reset();
		flush_assign_slices(init_cpus, I);
	}
	wd_reset();
	/* read-only during the rep: set before any initiator starts */
	harness_bare = c->harness || !ledger_ok;
	if (!harness_bare)
		ledger_reset();
	callee_work = khz * c->work_us / 1000;
	rep_floor_now = rep_floor(c);
	if (sum->kept < REPS_KEPT)
		sum->rep_floor[sum->kept] = rep_floor_now;

	for (unsigned k = 0; k < I; k++) {
		struct initiator *in = &ini[k];
		in->c = c;
		in->ops = mix_ops ? mix_ops[k] : c->algo;
		in->wait = mix_waits ? mix_waits[k] : c->wait;
		in->cpu = init_cpus[k];
		in->slot = k;
		in->targets = &targets[k];
		in->fcfg.method = c->method;
		in->fcfg.path = c->path;
		in->fcfg.change = FLUSH_REMAP;
		in->fcfg.xops = in->ops;
		in->fcfg.batch = c->batch ? c->batch : 1;
		stats_init(&in->st);
		in->h = &hist[k];
		histo_init(in->h);
		in->samples = c->samples ? samples[k] : 0;
		in->seq = in->done = in->elapsed = in->ipis = in->stale = 0;
		in->ctl_runs = in->ctl_stale = 0;
		in->bad_cfg = 0;
		in->finished = 0;
		cpumask_set(&imask, init_cpus[k]);
	}
	wd_arm(wd_cycles, &imask, targets);
	__atomic_store_n(&ready, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&go, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&abort_run, 0, __ATOMIC_RELAXED);

	/* Start the AP initiators; they wait at the barrier. */
	unsigned aps = 0;
	int self = -1;
	for (unsigned k = 0; k < I; k++) {
		if (init_cpus[k] == plat_cpu_id()) {
			self = (int)k;
			continue;
		}
		if (benv_start_on(init_cpus[k], initiator_main, &ini[k]) < 0) {
			logf_("case %u: cannot start cpu%u (busy or crashed)", c->id, init_cpus[k]);
			__atomic_store_n(&abort_run, 1, __ATOMIC_RELAXED);
			__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
			return -1;
		}
		aps++;
	}
	uint64_t t_wait = plat_cycles();
	/* acquire: pairs with each initiator's release increment. */
	while (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) < aps) {
		plat_cpu_relax();
		if (wd_cycles && plat_cycles() - t_wait > wd_cycles) {
			report_error("watchdog: initiators never reached the start barrier");
			return -1;
		}
	}
	uint64_t deadline = c->time_ms ? plat_cycles() + khz * c->time_ms : 0;
	for (unsigned k = 0; k < I; k++)
		ini[k].deadline = deadline;
	/* release: every initiator sees its deadline and args before it leaves the
	 * barrier. */
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	if (self >= 0) {
		/* We are an initiator ourselves, so nobody watches while we call: a
		 * timer tick does (interrupts stay on while we spin in a call). */
		unsigned period = (unsigned)(wd_cycles / (khz ? khz : 1) / 4);
		if (wd_cycles)
			benv_tick_start(period ? period : 1, watchdog_tick);
		initiator_main(&ini[self]);
		benv_tick_stop();
	}

	/* Wait for the others, checking that no call outlives the bound. */
	wd_state(plat_cpu_id(), WD_WATCHING, plat_cycles());
	for (;;) {
		unsigned fin = 0;
		for (unsigned k = 0; k < I; k++)
			fin += (unsigned)__atomic_load_n(&ini[k].finished, __ATOMIC_ACQUIRE);
		if (fin == I)
			break;
		for (unsigned k = 0; k < I; k++)
			if (!ini[k].finished && benv_cpu_crashed(init_cpus[k])) {
				/* its exception report (ERROR frame) is out already; it
				 * will never finish its calls */
				/* Let its crash hook finish its ERROR frame first (bounded:
				 * it may have died in a way that never gets there). */
				uint64_t t = plat_cycles();
				while (report_emergencies() < benv_crash_count() &&
				       plat_cycles() - t < khz * 2000)
					plat_cpu_relax();
				logf_("case %u: initiator cpu%u crashed: ending the run", c->id, init_cpus[k]);
				__atomic_store_n(&abort_run, 1, __ATOMIC_RELAXED);
				return -1;
			}
		if (wd_check()) {
			__atomic_store_n(&abort_run, 1, __ATOMIC_RELAXED);
			return -1;
		}
		plat_cpu_relax();
	}
	if (wd_fired())
		return -1;

	/* Exactly once, after the timed calls: each target ran each numbered call of
	 * each initiator once (ledger.h). With wait=none the last calls may still be
	 * running: give them the watchdog bound to land. */
	int judged = c->kind == KIND_XCALL && !harness_bare;
	struct ledger_verdict vd[RUN_MAX_INITS];
	uint64_t expected = 0, executed = 0;
	if (judged) {
		uint64_t t = plat_cycles();
		for (;;) {
			expected = executed = 0;
			for (unsigned k = 0; k < I; k++) {
				vd[k] = (struct ledger_verdict){ 0 };
				expected += ledger_judge_mask(&targets[k], k, ini[k].seq, &vd[k]);
				executed += vd[k].ran;
			}
			if (executed >= expected || (wd_cycles && plat_cycles() - t > wd_cycles))
				break;
			plat_cpu_relax();
		}
	}
	for (unsigned k = 0; k < I; k++)
		if (init_cpus[k] != plat_cpu_id())
			benv_wait_idle(init_cpus[k]);

	/* Results: per initiator, then all together. */
	struct stats all;
	stats_init(&all);
	histo_init(&hall);
	uint64_t ipis = 0, stale = 0, lost = 0, dup = 0, ooo = 0, elapsed = 0;
	uint64_t ctl_runs = 0, ctl_stale = 0;
	struct fair_acc *fa = sum->fair;
	struct xcb_result r;
	for (unsigned k = 0; k < I; k++) {
		struct initiator *in = &ini[k];
		memset(&r, 0, sizeof(r));
		runner_fill_result(&r, c, rep, in->cpu, &in->st, in->h);
		if (fa && k < RUN_MAX_INITS) {
			fa->calls[k] += in->done;
			fa->cycles[k] += in->elapsed;
			if (fa->nrep < REPS_KEPT)
				fa->p50[k][fa->nrep] = r.p50;
		}
		r.ipis = in->ipis;
		r.stale = in->stale;
		r.elapsed_cycles = in->elapsed;
		r.control_runs = in->ctl_runs;
		r.control_stale = in->ctl_stale;
		if (judged) {
			r.calls_expected = in->seq * cpumask_weight(&targets[k]);
			r.calls_executed = vd[k].ran;
			r.lost = vd[k].lost;
			r.dup = vd[k].dup;
			r.ooo = vd[k].ooo;
			if (r.lost || r.dup || r.ooo)
				r.flags |= XCB_RF_INVARIANT;
		}
		if (in->stale)
			r.flags |= XCB_RF_INVARIANT;
		/* Per initiator always (stress too: it is judged per initiator);
		 * histograms and samples only where asked. */
		report_result(&r);
		if (emit_each) {
			report_histo(c->id, (uint16_t)rep, (uint16_t)in->cpu, in->h);
			if (in->samples)
				report_samples(c->id, (uint16_t)rep, (uint16_t)in->cpu, in->samples,
					       in->done < SAMPLES_MAX ? (uint32_t)in->done : SAMPLES_MAX);
		}
		if (in->bad_cfg)
			logf_("case %u: the flush layer refused this configuration", c->id);
		if (r.lost || r.dup || r.ooo)
			logf_("case %u rep %u: initiator cpu%u: %llu lost, %llu duplicated, %llu out of order",
			      c->id, rep, in->cpu, (unsigned long long)r.lost, (unsigned long long)r.dup,
			      (unsigned long long)r.ooo);
		stats_merge(&all, &in->st);
		histo_merge(&hall, in->h);
		ipis += in->ipis;
		stale += in->stale;
		lost += r.lost;
		dup += r.dup;
		ooo += r.ooo;
		if (in->elapsed > elapsed)
			elapsed = in->elapsed;
		ctl_runs += in->ctl_runs;
		ctl_stale += in->ctl_stale;
		report_poll();
	}
	if (fa) {
		fa->ninit = I;
		fa->nrep++;
	}
	memset(&r, 0, sizeof(r));
	runner_fill_result(&r, c, rep, XCB_INIT_ALL, &all, &hall);
	r.ipis = ipis;
	r.calls_expected = expected;
	r.calls_executed = executed;
	r.lost = lost;
	r.dup = dup;
	r.ooo = ooo;
	r.elapsed_cycles = elapsed;
	r.control_runs = ctl_runs;
	r.control_stale = ctl_stale;
	struct xcall_lockprof lp = { 0 };
	if (c->kind == KIND_TLB) {
		struct flush_stats fs;
		flush_get_stats(&fs);
		lp = fs.lock;
		/* The flush layer's own count is authoritative (it sees every target). */
		r.stale = fs.stale;
		if (!ctl_stale)
			logf_("case %u rep %u: UNVERIFIED: the no-flush control saw no stale read in %llu "
			      "shootdowns, so stale=0 proves nothing here", c->id, rep,
			      (unsigned long long)ctl_runs);
	} else {
		r.stale = stale;
		if (c->algo && c->algo->lockprof)
			c->algo->lockprof(&lp);
	}
	r.lock_acq = lp.acquisitions;
	r.lock_contended = lp.contended;
	r.lock_hold_cycles = lp.hold_cycles;
	r.lock_wait_cycles = lp.wait_cycles;
	if (r.stale || lost || dup || ooo)
		r.flags |= XCB_RF_INVARIANT;
	report_result(&r);
	if (emit_each)
		report_histo(c->id, (uint16_t)rep, XCB_INIT_ALL, &hall);

	*rep_p50 = r.p50;
	*rep_mean = r.mean_x1000;
	sum->count += r.count;
	sum->stale += r.stale;
	sum->lost += lost + dup + ooo;
	sum->ipis += ipis;
	sum->ctl_runs += ctl_runs;
	sum->ctl_stale += ctl_stale;
	if (r.p99 > sum->p99)
		sum->p99 = r.p99;
	if (r.flags & XCB_RF_INVARIANT)
		logf_("case %u rep %u: INVARIANT FAILED: ran %llu of %llu calls (%llu lost, %llu duplicated, "
		      "%llu out of order), %llu stale",
		      c->id, rep, (unsigned long long)executed, (unsigned long long)expected,
		      (unsigned long long)lost, (unsigned long long)dup, (unsigned long long)ooo,
		      (unsigned long long)r.stale);
	return 0;
}

static uint64_t wd_bound(const struct bcase *c, uint64_t watchdog_ms)
{
	/* The bound must exceed what one call legitimately takes: every initiator's
	 * call may queue behind all the others' callee work. */
	uint64_t floor_ms = 4 * (uint64_t)c->work_us * c->inits / 1000 + 1000;
	if (watchdog_ms && watchdog_ms < floor_ms)
		watchdog_ms = floor_ms;
	return plat_tsc_khz() * watchdog_ms;
}

static int rep_into(const struct bcase *c, unsigned rep, uint64_t watchdog_ms, int emit_each,
		    struct case_summary *sum)
{
	uint64_t p50 = 0, mean = 0;
	if (c->kind == KIND_SYNC) {	/* its own scenario: bench/sync.c */
		rep_floor_now = 0;
		if (sync_rep(c, rep, &targets[0], sum, &p50, &mean) < 0)
			return -1;
	} else if (run_rep(c, rep, wd_bound(c, watchdog_ms), emit_each, sum, &p50, &mean) < 0)
		return -1;
	if (sum->kept < REPS_KEPT) {
		sum->rep_p50[sum->kept] = p50;
		sum->rep_mean[sum->kept++] = mean;
	}
	report_poll();
	return 0;
}

/* Fairness over every repetition: Jain's index of per-initiator throughput, and
 * max/min of per-initiator medians (each the median of its per-rep p50s). */
static void case_fairness(struct case_summary *sum)
{
	const struct fair_acc *fa = sum->fair;
	uint64_t meds[RUN_MAX_INITS], v[REPS_KEPT];
	unsigned n = fa ? fa->ninit : 0, nr = fa ? (fa->nrep < REPS_KEPT ? fa->nrep : REPS_KEPT) : 0;
	struct fairness f;

	if (n > RUN_MAX_INITS)
		n = RUN_MAX_INITS;
	for (unsigned k = 0; k < n; k++) {
		memcpy(v, fa->p50[k], sizeof(v));
		meds[k] = median_of(v, nr);
	}
	fairness_from_runs(n ? fa->calls : 0, n ? fa->cycles : 0, meds, n, &f);
	sum->spread_ppm = f.spread_ppm;
	sum->jain_ppm = f.jain_ppm;
}

void runner_case_end(const struct bcase *c, unsigned idx, unsigned n, struct case_summary *sum)
{
	uint64_t v[REPS_KEPT];
	memcpy(v, sum->rep_p50, sizeof(v));
	sum->p50 = median_of(v, sum->kept);
	memcpy(v, sum->rep_mean, sizeof(v));
	sum->mean_milli = median_of(v, sum->kept);
	memcpy(v, sum->rep_floor, sizeof(v));
	sum->floor = median_of(v, sum->kept);
	case_fairness(sum);
	if (!n)
		return;
	char tlb[64] = "";
	if (c->kind == KIND_TLB)
		ksnprintf(tlb, sizeof(tlb), " %s batch %u%s", flush_method_name(c->method), c->batch,
			  sum->ctl_stale ? "" : " UNVERIFIED");
	uint64_t ratio = sum->floor ? muldiv_u64(sum->p50, 100, sum->floor) : 0;
	kprintf("case %u/%u %s %s%s%s %s %s i=%u m=%u %s %s w=%uus: p50 %llu cyc (%llu ns, %llu.%02llux ipi) "
		"p99 %llu jain %llu.%03llu stale %llu lost %llu\n",
		idx, n, kind_name(c->kind), case_algo_name(c), tlb, c->harness ? " bare" : "", delivery_name(c->delivery),
		xcall_wait_name(c->wait), c->inits, c->mask, placement_name(c->placement),
		c->overlap ? "overlap" : "disjoint", c->work_us,
		(unsigned long long)sum->p50, (unsigned long long)ns_of(sum->p50),
		(unsigned long long)(ratio / 100), (unsigned long long)(ratio % 100),
		(unsigned long long)sum->p99, (unsigned long long)(sum->jain_ppm / 1000000),
		(unsigned long long)(sum->jain_ppm / 1000 % 1000),
		(unsigned long long)sum->stale, (unsigned long long)sum->lost);
}

/* Placement and support checks for a case; 0 runnable, 1 skipped (why logged if
 * idx). Leaves init_cpus/targets set for it. */
static int prepare(const struct bcase *c, unsigned idx, unsigned n)
{
	static unsigned pkg_of[XCB_MAX_CPUS];
	const char *why = 0;
	for (unsigned cpu = 0; cpu < plat_num_cpus(); cpu++)
		pkg_of[cpu] = benv_package_of(cpu);
	if (place_case(c, plat_num_cpus(), pkg_of, init_cpus, targets, &why) < 0) {
		if (idx)
			logf_("case %u/%u skipped: %s (%s %s inits=%u mask=%u %s, %u CPUs)", idx, n, why,
			      kind_name(c->kind), case_algo_name(c), c->inits, c->mask,
			      placement_name(c->placement), plat_num_cpus());
		return 1;
	}
	if (c->kind == KIND_SYNC && init_cpus[0] != plat_cpu_id()) {
		if (idx)
			logf_("case %u/%u skipped: sync: the writer must be CPU %u", idx, n, plat_cpu_id());
		return 1;
	}
	if ((c->kind == KIND_TLB || c->kind == KIND_SYNC) && !flush_method_supported(c->method)) {
		if (idx)
			logf_("case %u/%u skipped: %s not supported by this CPU", idx, n,
			      flush_method_name(c->method));
		return 1;
	}
	if ((c->kind == KIND_TLB || c->kind == KIND_SYNC) && (c->batch ? c->batch : 1) > flush_max_batch()) {
		/* Refused, never clamped: a case labelled batch=N must change N pages. */
		if (idx)
			logf_("case %u/%u refused: batch %u exceeds the %u pages each CPU may change "
			      "per shootdown on %u CPUs", idx, n, c->batch, flush_max_batch(), plat_num_cpus());
		return 1;
	}
	int rc = benv_set_delivery(c->delivery);
	benv_set_delivery(DELIV_AUTO);
	if (rc < 0) {
		if (idx)
			logf_("case %u/%u skipped: delivery %s not available (APIC mode)", idx, n,
			      delivery_name(c->delivery));
		return 1;
	}
	return 0;
}

int runner_case_fits(const struct bcase *c)
{
	/* idx 0: prepare() logs nothing; begin() places the case again anyway. */
	return prepare(c, 0, 0) == 0;
}

int runner_case_begin(const struct bcase *c, unsigned idx, unsigned n, struct case_summary *sum)
{
	memset(sum, 0, sizeof(*sum));
	sum->c = *c;
	if (prepare(c, idx, n))
		return 1;
	sum->fair = fair_take();
	sum->ran = 1;
	runner_case_frame(c);
	return 0;
}

int runner_case_rep(const struct bcase *c, unsigned rep, uint64_t watchdog_ms,
		    struct case_summary *sum)
{
	/* Re-place: another case may have run in between (interleaved repetitions). */
	if (prepare(c, 0, 0))
		return 0;
	benv_set_delivery(c->delivery);
	int rc = rep_into(c, rep, watchdog_ms, 1, sum);
	benv_set_delivery(DELIV_AUTO);
	return rc;
}

int runner_run_custom(const struct bcase *c, const unsigned *icpus, const struct cpumask *tm,
		      const struct xcall_ops *const *ops, const enum xcall_wait *waits,
		      uint64_t watchdog_ms, struct case_summary *sum)
{
	for (unsigned k = 0; k < c->inits && k < RUN_MAX_INITS; k++) {
		init_cpus[k] = icpus[k];
		targets[k] = tm[k];
	}
	if (benv_set_delivery(c->delivery) < 0)
		benv_set_delivery(DELIV_AUTO);
	mix_ops = ops;
	mix_waits = waits;
	runner_case_frame(c);
	memset(sum, 0, sizeof(*sum));
	sum->c = *c;
	sum->ran = 1;
	sum->fair = fair_take();
	int rc = 0;
	for (unsigned rep = 0; rep < c->reps && rc == 0; rep++)
		rc = rep_into(c, rep, watchdog_ms, 0, sum);
	runner_case_end(c, 0, 0, sum);
	mix_ops = 0;
	mix_waits = 0;
	benv_set_delivery(DELIV_AUTO);
	return rc;
}
