/*
 * emit.c - what a case says: the CASE frame (its key=value text), the RESULT frames
 * of a repetition - per initiator, then all initiators together - with their
 * histograms and samples, and LOG lines.
 */
#include <stdarg.h>
#include "bench/emit.h"
#include "bench/rep.h"
#include "bench/benchenv.h"
#include "bench/casetext.h"
#include "bench/placement.h"
#include "bench/report.h"
#include "bench/strbuf.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "xcall/xcall.h"
#include "xcall/groups.h"

void emit_logf(const char *fmt, ...)
{
	static char line[512];
	va_list ap;
	va_start(ap, fmt);
	kvsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	report_log(line);
}

/*
 * The CASE text but x_cpus (the head), built whole before it is sent, and
 * x_cpus's value apart: casetext.c sends them in one frame (XCB_PAYLOAD_MAX,
 * 1448 bytes) or, when x_cpus is too wide, as the head with x_cpus's first
 * piece and further CASE frames of "id" and a piece, which the daemon
 * merges into one case (proto/README.md "CASE pieces"). The CPU lists are
 * written short (xcb_cpulist.h): at XCB_MAX_CPUS (1024) a full mask is
 * "0:1-1023", every other CPU "1-1023:1/2" (was 2,006 bytes), and 32
 * initiators aimed at one mask say it once ("=" after the first). Still
 * irregular masks (placement=spread with a mask no even fraction of the
 * CPUs) travel in pieces. Only past 99 pieces is the case sent without
 * x_cpus, said on a LOG line; a head too wide is refused out loud (an
 * ERROR naming the part). Never a cut x_cpus: it would name CPUs that did
 * not run.
 */
static char casebuf[XCB_PAYLOAD_MAX + 1];
static char cpusbuf[CASE_CPUS_MAX + 1];

/* What the APIC layer resolves the delivery policy to for the first initiator's
 * mask; an algorithm that sends one unicast IPI per CPU it picks (a tree's
 * leaders) uses unicast whatever the policy (xcall.h: sends). */
static const char *case_delivery_used(const struct bcase *c, const struct case_cpus *cpus)
{
	if (c->algo && c->kind != XCB_KIND_RAW && c->kind != XCB_KIND_SYNC &&
	    c->algo->sends == XCALL_SENDS_UNICAST)
		return "unicast";
	return benv_delivery_used(c->delivery, &cpus->targets[0], cpus->init_cpus[0]);
}

/* The keys every case has, in the schema's order of the common axes. */
static void case_common_keys(struct strbuf *sb, const struct bcase *c, const struct case_cpus *cpus)
{
	sb_kv_u64(sb, XCB_KEY(id), c->id);
	sb_kv(sb, XCB_KEY(kind), XCB_NAME(kind, c->kind));
	sb_kv(sb, XCB_KEY(algo), case_algo_name(c));
	sb_kv(sb, XCB_KEY(delivery), XCB_NAME(delivery, c->delivery));
	sb_kv(sb, XCB_KEY(x_delivery_used), case_delivery_used(c, cpus));
	sb_kv(sb, XCB_KEY(wait), XCB_NAME(wait, c->wait));
	sb_kv_u64(sb, XCB_KEY(inits), c->inits);
	sb_kv_u64(sb, XCB_KEY(mask), c->mask);
	sb_kv(sb, XCB_KEY(placement), XCB_NAME(placement, c->placement));
	sb_kv(sb, XCB_KEY(overlap), xcb_overlap_names[c->overlap ? XCB_OVERLAP_OVERLAP : XCB_OVERLAP_DISJOINT]);
	sb_kv_u64(sb, XCB_KEY(work_us), c->work_us);
	sb_kv_u64(sb, XCB_KEY(iters), c->iters);
	sb_kv_u64(sb, XCB_KEY(warmup), c->warmup);
	sb_kv_u64(sb, XCB_KEY(reps), c->reps);
	sb_kv(sb, XCB_KEY(x_boot), XCB_NAME(boot, benv_boot_firmware()));
}

/* A cross-call case's optional keys, each sent only when it is not the
 * default, so ordinary cases keep their matching key. */
static void case_xcall_keys(struct strbuf *sb, const struct bcase *c)
{
	if (c->kind != XCB_KIND_XCALL)
		return;
	/* The targets' idle state. */
	if (c->idle != XCB_IDLE_HLT)
		sb_kv(sb, XCB_KEY(idle), xcb_idle_names[c->idle]);
	/* The G a hierarchical algorithm ran with (its default when 0 asked). */
	if (c->algo && c->algo->set_group) {
		sb_kv_u64(sb, XCB_KEY(group), c->algo->set_group(c->group));
		c->algo->set_group(0);
	}
	/* Bare when asked, or when the ledger cannot judge (runner_harness_bare). */
	if (c->harness || runner_harness_bare())
		sb_kv(sb, XCB_KEY(harness), xcb_harness_names[XCB_HARNESS_BARE]);
}

/* x_leaders: a hierarchical algorithm's group leaders for the first
 * initiator's targets, cut by the rule it uses (xcall/groups.h: G, and the
 * packages where known), so a run says how its groups followed the topology.
 * Written short like the other CPU lists (sb_cpubits: every other CPU of
 * 1024, G=2, is "1-1023:1/2", where the plain list's ~2 KB filled the
 * frame and ended the run) and stored canonical by the daemon. */
static void case_groups_key(struct strbuf *sb, const struct bcase *c, const struct case_cpus *cpus)
{
	struct amask t, l;
	unsigned cpu, nw = (plat_num_cpus() + 63) / 64;

	if (c->kind != XCB_KIND_XCALL || !c->algo || !c->algo->set_group)
		return;
	unsigned g = c->algo->set_group(c->group);
	c->algo->set_group(0);
	memset(&t, 0, sizeof(t));
	for_each_cpu(cpu, &cpus->targets[0])
		t.w[cpu / 64] |= amask_bit(cpu);
	xcall_group_leaders(&t, nw, g, xcall_domains(), &l);
	sb_puts(sb, XCB_KEY_EQ(x_leaders));
	sb_cpubits(sb, l.w, nw * 64);
	sb_putc(sb, '\n');
}

/* A sync case's keys (rwlock, batching, entry time) and a TLB or sync case's
 * shootdown keys. A lazy sync case sends no shootdown: no path, method or
 * algorithm of one (a label it does not use would make two identical cases
 * look different). */
static void case_shootdown_keys(struct strbuf *sb, const struct bcase *c)
{
	int lazy = c->kind == XCB_KIND_SYNC && c->mode == XCB_SYNC_LAZY;
	if (c->kind == XCB_KIND_SYNC) {
		/* The shootdown's algorithm (the algo slot holds the mode). */
		if (!lazy)
			sb_kv(sb, XCB_KEY(xcall_algo), c->algo ? c->algo->name : "-");
		sb_kv(sb, XCB_KEY(rwlock), xcb_rwlock_names[c->rwlock ? XCB_RWLOCK_UNFAIR : XCB_RWLOCK_FAIR]);
		sb_kv_u64(sb, XCB_KEY(batch_reads), c->batch_reads);
		sb_kv_u64(sb, XCB_KEY(entry_us), c->entry_us);
	}
	if (c->kind != XCB_KIND_TLB && c->kind != XCB_KIND_SYNC)
		return;
	if (!lazy) {
		sb_kv(sb, XCB_KEY(flush), XCB_NAME(flush, c->flush));
		sb_kv(sb, XCB_KEY(method), XCB_NAME(method, c->method));
	}
	/* The batch actually used: prepare() refuses a case whose batch the
	 * flush layer cannot honour, so this is never a clamped request. */
	sb_kv_u64(sb, XCB_KEY(batch), c->batch);
	sb_kv_u64(sb, XCB_KEY(pages), c->batch);
	/* method none runs no control (initiator.c): it is the no-flush run */
	sb_kv_u64(sb, XCB_KEY(x_control_runs), c->method == XCB_METHOD_NONE ? 0 : CTL_RUNS);
}

/* seed 002's writer and readers axes (kind=sync): sent only when not today's
 * (the boot CPU writes, the targets read), so those cases keep their matching
 * key; x_readers lists the readers' CPUs. */
static void case_sync_keys(struct strbuf *sb, const struct bcase *c, const struct case_cpus *cpus)
{
	if (c->kind != XCB_KIND_SYNC)
		return;
	if (c->writer)
		sb_kv_u64(sb, XCB_KEY(writer), c->writer);
	if (!c->readers)
		return;
	sb_kv_u64(sb, XCB_KEY(readers), c->readers);
	sb_puts(sb, XCB_KEY_EQ(x_readers));
	sb_cpus(sb, &cpus->readers);
	sb_putc(sb, '\n');
}

/* x_mix (stress only): each initiator's own algorithm and wait, in x_cpus order. */
static void case_mix_key(struct strbuf *sb, const struct bcase *c, const struct case_cpus *cpus)
{
	if (!cpus->mix_ops)
		return;
	sb_puts(sb, XCB_KEY_EQ(x_mix));
	for (unsigned k = 0; k < c->inits && k < RUN_MAX_INITS; k++) {
		if (k)
			sb_putc(sb, ',');
		sb_puts(sb, c->kind == XCB_KIND_XCALL ? cpus->mix_ops[k]->name : case_algo_name(c));
		sb_putc(sb, '/');
		sb_puts(sb, XCB_NAME(wait, cpus->mix_waits ? cpus->mix_waits[k] : c->wait));
	}
	sb_putc(sb, '\n');
}

/* The first part of the CASE text that did not fit, or NULL (sb: so far). */
static const char *case_part(const struct strbuf *sb, const char *part, const char *name)
{
	return part ? part : sb_overflowed(sb) ? name : 0;
}

int emit_case_frame(const struct bcase *c, const struct case_cpus *cpus)
{
	struct strbuf sb;
	const char *part = 0;
	sb_init(&sb, casebuf, sizeof(casebuf));
	case_common_keys(&sb, c, cpus);
	part = case_part(&sb, part, "the common keys");
	case_xcall_keys(&sb, c);
	case_groups_key(&sb, c, cpus);
	part = case_part(&sb, part, "x_leaders");
	if (c->time_ms)
		sb_kv_u64(&sb, XCB_KEY(x_time_ms), c->time_ms);
	case_shootdown_keys(&sb, c);
	case_sync_keys(&sb, c, cpus);
	part = case_part(&sb, part, "the shootdown or sync keys (x_readers)");
	case_mix_key(&sb, c, cpus);
	part = case_part(&sb, part, "x_mix");
	if (part) {
		/* Never a cut CASE: its stored keys would not be the ones
		 * that ran. The caller stops the run (the ERROR makes it
		 * crashed anyway). */
		static char line[160];
		ksnprintf(line, sizeof(line), "CASE %u does not fit one %u-byte frame (emit.c casebuf): %s "
			  "past it; the case is not run", (unsigned)c->id, (unsigned)XCB_PAYLOAD_MAX, part);
		report_error(line);
		return -1;
	}
	/* x_cpus: the CPUs actually used, "init:t,t;init:t,..." - an
	 * annotation (x_), not part of the matching key. */
	struct strbuf xb;
	sb_init(&xb, cpusbuf, sizeof(cpusbuf));
	case_cpus_value(&xb, c->inits < RUN_MAX_INITS ? c->inits : RUN_MAX_INITS, cpus->init_cpus, cpus->targets);
	if (!sb_overflowed(&xb) && case_text_send(c->id, casebuf, sb.len, cpusbuf, xb.len))
		return 0;
	/* Wider than 99 pieces (~95 KB: not for the placements the suite
	 * makes, even at 1024 CPUs and 32 initiators): it
	 * is a note about the case, not what it is matched by, so the case
	 * is sent and run without it, said on a LOG line, rather than
	 * stopping a big machine's whole run for a note. */
	report_text(XCB_T_CASE, casebuf, sb.len);
	emit_logf("CASE %u: x_cpus (%u bytes) is wider than %u pieces of a %u-byte frame and is left out of it "
		  "(its initiators' target lists; the case runs and is stored without that note)",
		  (unsigned)c->id, xb.len, (unsigned)XCB_PIECES_MAX, (unsigned)XCB_PAYLOAD_MAX);
	return 0;
}

void emit_fill_result(struct xcb_result *r, const struct bcase *c, unsigned rep,
			unsigned initiator, const struct stats *st, const struct histo *h,
			uint64_t ipi_floor)
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
	r->ipi_floor = ipi_floor;
}

/* The paired floor of n pairs (sorted here): median probe, median call/probe
 * ratio, and whether the probes spread by more than XCB_UNSTABLE_FACTOR (upper
 * quartile over lower: a floor that moved while the calls ran). All 0 without. */
static void paired_floor(uint64_t *probe, uint64_t *pratio, unsigned n,
			 uint64_t *floor, uint64_t *ratio, int *unstable)
{
	*floor = *ratio = 0;
	*unstable = 0;
	if (!probe || !n)
		return;
	sort_u64(probe, n);
	sort_u64(pratio, n);
	*floor = probe[n / 2];
	*ratio = pratio[n / 2];
	uint64_t lo = probe[n / 4], hi = probe[(3 * n) / 4 < n ? (3 * n) / 4 : n - 1];
	*unstable = hi > lo * XCB_UNSTABLE_FACTOR;
}

/* Every initiator's pairs together (the all-initiators row's paired floor and
 * ratio: the median of all the repetition's pairs); copied before the
 * per-initiator sort. */
static uint64_t all_probe[RUN_MAX_INITS * PAIRS_MAX], all_pratio[RUN_MAX_INITS * PAIRS_MAX];
static unsigned all_pairs;

static void pairs_collect(const struct initiator *in)
{
	for (unsigned i = 0; in->probe && i < in->npairs; i++) {
		all_probe[all_pairs] = in->probe[i];
		all_pratio[all_pairs++] = in->pratio[i];
	}
}

/* The repetition's totals over its initiators, for the all-initiators row. */
struct rep_totals {
	struct stats all;
	uint64_t ipis, stale, lost, dup, ooo, elapsed;
	uint64_t ctl_runs, ctl_stale;
	uint64_t early;		/* wait=done calls that returned before a target ran them */
};

/* Initiator k's share of the case's fairness, from its RESULT row r: the
 * shared window's calls and cycles (README "Fairness"), not its own span, and
 * this repetition's p50. From the row, so the console's Jain's index is of
 * the very figures the daemon computes its own from. */
static void fair_add(struct fair_acc *fa, unsigned k, const struct xcb_result *r)
{
	if (!fa || k >= RUN_MAX_INITS)
		return;
	fa->calls[k] += r->window_calls;
	fa->cycles[k] += r->window_cycles;
	if (fa->nrep < REPS_KEPT)
		fa->p50[k][fa->nrep] = r->p50;
}

/* Initiator k's RESULT row r: its statistics, paired floor and the ledger's
 * verdict; its pairs join the repetition's (pairs_collect). */
static void initiator_result(struct rep_ctx *x, unsigned k, struct initiator *in, struct xcb_result *r)
{
	memset(r, 0, sizeof(*r));
	emit_fill_result(r, x->c, x->rep, in->cpu, &in->st, in->h, x->ipi_floor);
	r->ipis = in->ipis;
	r->stale = in->stale;
	r->elapsed_cycles = in->elapsed;
	r->window_calls = in->win.calls;
	r->window_cycles = in->win.cycles;
	fair_add(x->sum->fair, k, r);
	r->control_runs = in->ctl_runs;
	r->control_stale = in->ctl_stale;
	int unstable;
	pairs_collect(in);
	paired_floor(in->probe, in->pratio, in->npairs, &r->floor_paired, &r->ratio_paired_x1000,
		     &unstable);
	if (unstable)
		r->flags |= XCB_RF_UNSTABLE;
	if (x->judged) {
		r->calls_expected = x->vd[k].expected;
		r->calls_executed = x->vd[k].ran;
		r->lost = x->vd[k].lost;
		r->dup = x->vd[k].dup;
		r->ooo = x->vd[k].ooo;
		if (r->lost || r->dup || r->ooo)
			r->flags |= XCB_RF_INVARIANT;
	}
	if (in->stale || in->done_early)
		r->flags |= XCB_RF_INVARIANT;
}

/* Send initiator in's row r - per initiator always (stress too: it is judged
 * per initiator), its histogram and samples only where asked - with the LOG
 * lines it calls for. */
static void initiator_send(const struct rep_ctx *x, unsigned k, const struct initiator *in,
			   const struct xcb_result *r)
{
	const struct bcase *c = x->c;
	report_result(r);
	if (x->emit_each) {
		report_histo(c->id, (uint16_t)x->rep, (uint16_t)in->cpu, in->h);
		if (in->samples)
			report_samples(c->id, (uint16_t)x->rep, (uint16_t)in->cpu, in->samples,
				       in->done < SAMPLES_MAX ? (uint32_t)in->done : SAMPLES_MAX);
	}
	if (in->bad_cfg)
		emit_logf("case %u: the flush layer refused this configuration", c->id);
	/* The algorithm and the target: an author's first two questions
	 * (the case line says the algorithm only by case number, the counts
	 * are summed over targets). */
	if (r->lost || r->dup || r->ooo)
		emit_logf("case %u rep %u: initiator cpu%u: %llu lost, %llu duplicated, %llu out of order: "
		      "%s, at %u of %u targets, first cpu%u",
		      c->id, x->rep, in->cpu, (unsigned long long)r->lost, (unsigned long long)r->dup,
		      (unsigned long long)r->ooo, in->ops ? in->ops->name : case_algo_name(c),
		      x->vd[k].bad_targets, x->vd[k].targets, x->vd[k].bad_target);
	const void *wild_arg;
	uint64_t wild = ledger_wild(&wild_arg);
	if (r->lost && wild && k == 0)	/* once a repetition: the count is the ledger's */
		emit_logf("case %u rep %u: fn ran %llu times with an argument no call passed (the first %p): "
		      "%s handed fn a wrong arg", c->id, x->rep, (unsigned long long)wild, wild_arg,
		      in->ops ? in->ops->name : case_algo_name(c));
	if (in->done_early)
		emit_logf("case %u rep %u: initiator cpu%u: %s wait=done returned before cpu%u ran call %llu "
		      "(%llu of %llu calls looked at returned early)",
		      c->id, x->rep, in->cpu, in->ops ? in->ops->name : case_algo_name(c), in->early_cpu,
		      (unsigned long long)in->early_seq, (unsigned long long)in->done_early,
		      (unsigned long long)in->done_checked);
}

/* Add initiator in (and its row r) to the totals t and to hall. */
static void totals_add(struct rep_totals *t, struct histo *hall, const struct initiator *in,
		       const struct xcb_result *r)
{
	stats_merge(&t->all, &in->st);
	histo_merge(hall, in->h);
	t->ipis += in->ipis;
	t->stale += in->stale;
	t->lost += r->lost;
	t->dup += r->dup;
	t->ooo += r->ooo;
	if (in->elapsed > t->elapsed)
		t->elapsed = in->elapsed;
	t->ctl_runs += in->ctl_runs;
	t->ctl_stale += in->ctl_stale;
	t->early += in->done_early;
}

/* The stale count and lock profile of the all-initiators row: a TLB case's
 * stale count from the flush layer (its own count is authoritative: it sees
 * every target), another's from the initiators. The lock profile is the lock
 * the timed shootdown or call took: the vector path's global flush lock, or
 * on the xcall path the algorithm's own (locked's call lock: Xen's
 * on_selected_cpus() under ept_sync_domain(), seed 002), which the flush
 * lock's empty profile hid; the direct paths take no lock. Either counts
 * the timed calls' takes only (initiator.c turns the warm-up's and the
 * no-flush control's off: xcall.h xcall_lockprof_count). */
static void all_stale_and_locks(const struct rep_ctx *x, const struct rep_totals *t, struct xcb_result *r)
{
	const struct bcase *c = x->c;
	struct xcall_lockprof lp = { 0 };
	if (c->kind == XCB_KIND_TLB) {
		struct flush_stats fs;
		flush_get_stats(&fs);
		if (c->flush == XCB_FLUSH_XCALL && c->algo && c->algo->lockprof)
			c->algo->lockprof(&lp);
		else
			lp = fs.lock;
		r->stale = fs.stale;
		if (!t->ctl_stale && c->method != XCB_METHOD_NONE)
			emit_logf("case %u rep %u: UNVERIFIED: the no-flush control saw no stale read in %llu "
			      "shootdowns, so stale=0 proves nothing here", c->id, x->rep,
			      (unsigned long long)t->ctl_runs);
	} else {
		r->stale = t->stale;
		if (c->algo && c->algo->lockprof)
			c->algo->lockprof(&lp);
	}
	r->lock_acq = lp.acquisitions;
	r->lock_contended = lp.contended;
	r->lock_hold_cycles = lp.hold_cycles;
	r->lock_wait_cycles = lp.wait_cycles;
}

/* The all-initiators RESULT row r of the totals t and histogram hall. */
static void all_result(const struct rep_ctx *x, const struct rep_totals *t, const struct histo *hall,
		       struct xcb_result *r)
{
	memset(r, 0, sizeof(*r));
	emit_fill_result(r, x->c, x->rep, XCB_INIT_ALL, &t->all, hall, x->ipi_floor);
	r->ipis = t->ipis;
	r->calls_expected = x->expected;
	r->calls_executed = x->executed;
	r->lost = t->lost;
	r->dup = t->dup;
	r->ooo = t->ooo;
	r->elapsed_cycles = t->elapsed;
	r->control_runs = t->ctl_runs;
	r->control_stale = t->ctl_stale;
	r->floor_paired = x->floor_paired;
	r->ratio_paired_x1000 = x->ratio_paired;
	if (x->unstable)
		r->flags |= XCB_RF_UNSTABLE;
	all_stale_and_locks(x, t, r);
	if (r->stale || t->lost || t->dup || t->ooo || t->early)
		r->flags |= XCB_RF_INVARIANT;
}

/* The repetition's all-initiators row r into x (p50, mean) and the case
 * summary, and the LOG line of a failed invariant. */
static void rep_summarise(struct rep_ctx *x, const struct rep_totals *t, const struct xcb_result *r)
{
	struct case_summary *sum = x->sum;
	x->p50 = r->p50;
	x->mean = r->mean_x1000;
	sum->unstable += x->unstable;
	sum->count += r->count;
	sum->stale += r->stale;
	sum->lost += t->lost;
	sum->dup += t->dup;
	sum->ooo += t->ooo;
	sum->early += t->early;
	sum->ipis += t->ipis;
	sum->ctl_runs += t->ctl_runs;
	sum->ctl_stale += t->ctl_stale;
	if (sum->kept < REPS_KEPT)	/* the case's p99: their median (runner.c) */
		sum->rep_p99[sum->kept] = r->p99;
	/* A case without a ledger (TLB shootdowns: judged by stale reads
	 * alone) has no calls to count: "ran 0 of 0 calls" said nothing. */
	if ((r->flags & XCB_RF_INVARIANT) && !x->expected)
		emit_logf("case %u rep %u: INVARIANT FAILED: %llu stale", x->c->id, x->rep,
			  (unsigned long long)r->stale);
	else if (r->flags & XCB_RF_INVARIANT)
		emit_logf("case %u rep %u: INVARIANT FAILED: ran %llu of %llu calls (%llu lost, %llu duplicated, "
		      "%llu out of order), %llu stale, %llu wait=done calls returned before a target ran them",
		      x->c->id, x->rep, (unsigned long long)x->executed, (unsigned long long)x->expected,
		      (unsigned long long)t->lost, (unsigned long long)t->dup, (unsigned long long)t->ooo,
		      (unsigned long long)r->stale, (unsigned long long)t->early);
}

/* The RESULT frames of repetition x: one per initiator (always: stress is judged
 * per initiator too), then all initiators together; histograms and samples where
 * x->emit_each; the ledger's verdicts (x->vd) go into them; the case summary
 * (x->sum) and fairness accumulate. */
void rep_emit(struct rep_ctx *x, struct initiator *ini, unsigned n, struct histo *hall)
{
	struct rep_totals t = { 0 };
	struct fair_acc *fa = x->sum->fair;
	struct xcb_result r;
	stats_init(&t.all);
	histo_init(hall);
	all_pairs = 0;
	for (unsigned k = 0; k < n; k++) {
		initiator_result(x, k, &ini[k], &r);
		initiator_send(x, k, &ini[k], &r);
		totals_add(&t, hall, &ini[k], &r);
		report_poll();
	}
	if (fa) {
		fa->ninit = n;
		fa->nrep++;
	}
	paired_floor(all_probe, all_pratio, all_pairs, &x->floor_paired, &x->ratio_paired,
		     &x->unstable);
	all_result(x, &t, hall, &r);
	report_result(&r);
	if (x->emit_each)
		report_histo(x->c->id, (uint16_t)x->rep, XCB_INIT_ALL, hall);
	rep_summarise(x, &t, &r);
}
