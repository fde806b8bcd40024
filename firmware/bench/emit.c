/*
 * emit.c - what a case says: the CASE frame (its key=value text), the RESULT frames
 * of a repetition - per initiator, then all initiators together - with their
 * histograms and samples, and LOG lines.
 */
#include <stdarg.h>
#include "bench/emit.h"
#include "bench/rep.h"
#include "bench/benchenv.h"
#include "bench/placement.h"
#include "bench/report.h"
#include "bench/strbuf.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "xcall/xcall.h"

void emit_logf(const char *fmt, ...)
{
	static char line[512];
	va_list ap;
	va_start(ap, fmt);
	kvsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	report_log(line);
}

static char casebuf[1024];

void emit_case_frame(const struct bcase *c, const struct case_cpus *cpus)
{
	/* The CPUs last placed (or stress's), under the names the lines below use. */
	const unsigned *init_cpus = cpus->init_cpus;
	const struct cpumask *targets = cpus->targets;
	const struct xcall_ops *const *mix_ops = cpus->mix_ops;
	const enum xcb_wait *mix_waits = cpus->mix_waits;
	int ledger_ok = !runner_harness_bare();
	struct strbuf sb;
	sb_init(&sb, casebuf, sizeof(casebuf));
	sb_kv_u64(&sb, XCB_KEY(id), c->id);
	sb_kv(&sb, XCB_KEY(kind), XCB_NAME(kind, c->kind));
	sb_kv(&sb, XCB_KEY(algo), case_algo_name(c));
	sb_kv(&sb, XCB_KEY(delivery), XCB_NAME(delivery, c->delivery));
	/* What the APIC layer resolves it to for the first initiator's mask. */
	/* An algorithm that sends one unicast IPI per CPU it picks (a tree's
	 * leaders) uses unicast whatever the policy (xcall.h: sends). */
	sb_kv(&sb, XCB_KEY(x_delivery_used), c->algo && c->kind != XCB_KIND_RAW && c->kind != XCB_KIND_SYNC &&
		c->algo->sends == XCALL_SENDS_UNICAST ? "unicast"
		: benv_delivery_used(c->delivery, &targets[0], init_cpus[0]));
	sb_kv(&sb, XCB_KEY(wait), XCB_NAME(wait, c->wait));
	sb_kv_u64(&sb, XCB_KEY(inits), c->inits);
	sb_kv_u64(&sb, XCB_KEY(mask), c->mask);
	sb_kv(&sb, XCB_KEY(placement), XCB_NAME(placement, c->placement));
	sb_kv(&sb, XCB_KEY(overlap), xcb_overlap_names[c->overlap ? XCB_OVERLAP_OVERLAP : XCB_OVERLAP_DISJOINT]);
	sb_kv_u64(&sb, XCB_KEY(work_us), c->work_us);
	sb_kv_u64(&sb, XCB_KEY(iters), c->iters);
	sb_kv_u64(&sb, XCB_KEY(warmup), c->warmup);
	sb_kv_u64(&sb, XCB_KEY(reps), c->reps);
	sb_kv(&sb, XCB_KEY(x_boot), XCB_NAME(boot, benv_boot_firmware()));
	/* A matching key only when bare, so ordinary cases keep theirs. */
	/* Likewise the targets' idle state: sent only when not the default. */
	if (c->kind == XCB_KIND_XCALL && c->idle != XCB_IDLE_HLT)
		sb_kv(&sb, XCB_KEY(idle), xcb_idle_names[c->idle]);
	/* The G a hierarchical algorithm ran with (its default when 0 asked). */
	if (c->kind == XCB_KIND_XCALL && c->algo && c->algo->set_group) {
		sb_kv_u64(&sb, XCB_KEY(group), c->algo->set_group(c->group));
		c->algo->set_group(0);
	}
	if (c->kind == XCB_KIND_XCALL && (c->harness || !ledger_ok))
		sb_kv(&sb, XCB_KEY(harness), xcb_harness_names[XCB_HARNESS_BARE]);
	if (c->time_ms)
		sb_kv_u64(&sb, XCB_KEY(x_time_ms), c->time_ms);
	/* A lazy sync case sends no shootdown: no path, method or algorithm of one
	 * (a label it does not use would make two identical cases look different). */
	int lazy = c->kind == XCB_KIND_SYNC && c->mode == XCB_SYNC_LAZY;
	if (c->kind == XCB_KIND_SYNC) {
		/* The shootdown's algorithm (the algo slot holds the mode). */
		if (!lazy)
			sb_kv(&sb, XCB_KEY(xcall_algo), c->algo ? c->algo->name : "-");
		sb_kv(&sb, XCB_KEY(rwlock), xcb_rwlock_names[c->rwlock ? XCB_RWLOCK_UNFAIR : XCB_RWLOCK_FAIR]);
		sb_kv_u64(&sb, XCB_KEY(batch_reads), c->batch_reads);
		sb_kv_u64(&sb, XCB_KEY(entry_us), c->entry_us);
	}
	if (c->kind == XCB_KIND_TLB || c->kind == XCB_KIND_SYNC) {
		if (!lazy) {
			sb_kv(&sb, XCB_KEY(flush), XCB_NAME(flush, c->flush));
			sb_kv(&sb, XCB_KEY(method), XCB_NAME(method, c->method));
		}
		/* The batch actually used: prepare() refuses a case whose batch the
		 * flush layer cannot honour, so this is never a clamped request. */
		sb_kv_u64(&sb, XCB_KEY(batch), c->batch);
		sb_kv_u64(&sb, XCB_KEY(pages), c->batch);
		sb_kv_u64(&sb, XCB_KEY(x_control_runs), CTL_RUNS);
	}
	/* The CPUs actually used: an annotation (x_), not part of the matching key. */
	sb_puts(&sb, XCB_KEY_EQ(x_cpus));
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
		sb_puts(&sb, XCB_KEY_EQ(x_mix));
		for (unsigned k = 0; k < c->inits && k < RUN_MAX_INITS; k++) {
			if (k)
				sb_putc(&sb, ',');
			sb_puts(&sb, c->kind == XCB_KIND_XCALL ? mix_ops[k]->name : case_algo_name(c));
			sb_putc(&sb, '/');
			sb_puts(&sb, XCB_NAME(wait, mix_waits ? mix_waits[k] : c->wait));
		}
		sb_putc(&sb, '\n');
	}
	report_text(XCB_T_CASE, casebuf, sb.len);
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

/* The RESULT frames of repetition x: one per initiator (always: stress is judged
 * per initiator too), then all initiators together; histograms and samples where
 * x->emit_each; the ledger's verdicts (x->vd) go into them; the case summary
 * (x->sum) and fairness accumulate. */
void rep_emit(struct rep_ctx *x, struct initiator *ini, unsigned n, struct histo *hall)
{
	const struct bcase *c = x->c;
	unsigned rep = x->rep;
	int emit_each = x->emit_each;
	struct case_summary *sum = x->sum;

	/* Results: per initiator, then all together. */
	struct stats all;
	stats_init(&all);
	histo_init(hall);
	uint64_t ipis = 0, stale = 0, lost = 0, dup = 0, ooo = 0, elapsed = 0;
	uint64_t ctl_runs = 0, ctl_stale = 0;
	struct fair_acc *fa = sum->fair;
	struct xcb_result r;
	all_pairs = 0;
	for (unsigned k = 0; k < n; k++) {
		struct initiator *in = &ini[k];
		memset(&r, 0, sizeof(r));
		emit_fill_result(&r, c, rep, in->cpu, &in->st, in->h, x->ipi_floor);
		if (fa && k < RUN_MAX_INITS) {
			/* The shared window's (README "Fairness"), not its own span. */
			fa->calls[k] += in->win.calls;
			fa->cycles[k] += in->win.cycles;
			if (fa->nrep < REPS_KEPT)
				fa->p50[k][fa->nrep] = r.p50;
		}
		r.ipis = in->ipis;
		r.stale = in->stale;
		r.elapsed_cycles = in->elapsed;
		r.control_runs = in->ctl_runs;
		r.control_stale = in->ctl_stale;
		int unstable;
		pairs_collect(in);
		paired_floor(in->probe, in->pratio, in->npairs, &r.floor_paired,
			     &r.ratio_paired_x1000, &unstable);
		if (unstable)
			r.flags |= XCB_RF_UNSTABLE;
		if (x->judged) {
			r.calls_expected = x->vd[k].expected;
			r.calls_executed = x->vd[k].ran;
			r.lost = x->vd[k].lost;
			r.dup = x->vd[k].dup;
			r.ooo = x->vd[k].ooo;
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
			emit_logf("case %u: the flush layer refused this configuration", c->id);
		if (r.lost || r.dup || r.ooo)
			emit_logf("case %u rep %u: initiator cpu%u: %llu lost, %llu duplicated, %llu out of order",
			      c->id, rep, in->cpu, (unsigned long long)r.lost, (unsigned long long)r.dup,
			      (unsigned long long)r.ooo);
		stats_merge(&all, &in->st);
		histo_merge(hall, in->h);
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
		fa->ninit = n;
		fa->nrep++;
	}
	paired_floor(all_probe, all_pratio, all_pairs, &x->floor_paired, &x->ratio_paired,
		     &x->unstable);
	memset(&r, 0, sizeof(r));
	emit_fill_result(&r, c, rep, XCB_INIT_ALL, &all, hall, x->ipi_floor);
	r.ipis = ipis;
	r.calls_expected = x->expected;
	r.calls_executed = x->executed;
	r.lost = lost;
	r.dup = dup;
	r.ooo = ooo;
	r.elapsed_cycles = elapsed;
	r.control_runs = ctl_runs;
	r.control_stale = ctl_stale;
	r.floor_paired = x->floor_paired;
	r.ratio_paired_x1000 = x->ratio_paired;
	if (x->unstable)
		r.flags |= XCB_RF_UNSTABLE;
	struct xcall_lockprof lp = { 0 };
	if (c->kind == XCB_KIND_TLB) {
		struct flush_stats fs;
		flush_get_stats(&fs);
		lp = fs.lock;
		/* The flush layer's own count is authoritative (it sees every target). */
		r.stale = fs.stale;
		if (!ctl_stale)
			emit_logf("case %u rep %u: UNVERIFIED: the no-flush control saw no stale read in %llu "
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
		report_histo(c->id, (uint16_t)rep, XCB_INIT_ALL, hall);

	x->p50 = r.p50;
	x->mean = r.mean_x1000;
	sum->unstable += x->unstable;
	sum->count += r.count;
	sum->stale += r.stale;
	sum->lost += lost + dup + ooo;
	sum->ipis += ipis;
	sum->ctl_runs += ctl_runs;
	sum->ctl_stale += ctl_stale;
	if (r.p99 > sum->p99)
		sum->p99 = r.p99;
	if (r.flags & XCB_RF_INVARIANT)
		emit_logf("case %u rep %u: INVARIANT FAILED: ran %llu of %llu calls (%llu lost, %llu duplicated, "
		      "%llu out of order), %llu stale",
		      c->id, rep, (unsigned long long)x->executed, (unsigned long long)x->expected,
		      (unsigned long long)lost, (unsigned long long)dup, (unsigned long long)ooo,
		      (unsigned long long)r.stale);
}
