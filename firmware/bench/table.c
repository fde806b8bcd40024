/*
 * table.c - collects case summaries and prints the end-of-run console tables.
 * Output is plain text lines (kprintf), never frames: the daemon computes its own
 * comparisons from RESULT frames; this is for the person watching the console.
 */
#include "bench/table.h"
#include "bench/benchenv.h"
#include "bench/stats.h"
#include "lib/printf.h"
#include "lib/string.h"

#define TABLE_MAX 2048

static struct case_summary rows[TABLE_MAX];
static unsigned nrows;

void table_add(const struct case_summary *s)
{
	if (nrows < TABLE_MAX)
		rows[nrows++] = *s;
}

static uint64_t ns(uint64_t cyc)
{
	return ns_of_cycles(cyc, plat_tsc_khz());
}

static const struct case_summary *find(const struct bcase *shape, const char *algo)
{
	for (unsigned i = 0; i < nrows; i++)
		if (rows[i].ran && case_same_shape(&rows[i].c, shape) &&
		    rows[i].c.algo && rows[i].c.kind != XCB_KIND_RAW &&
		    strcmp(case_algo_name(&rows[i].c), algo) == 0)
			return &rows[i];
	return 0;
}


/* "+12.34" / "-47.20": percent change in hundredths, rounded (muldiv_round_u64:
 * truncated, the console's "-50.36" beside the host's "-50.37" for one change
 * of -50.366 % read as two answers for one run). */
static void pct(char *buf, unsigned cap, uint64_t base, uint64_t v)
{
	if (!base) {
		ksnprintf(buf, cap, "%8s", "-");
		return;
	}
	int64_t d = (int64_t)v - (int64_t)base;
	uint64_t a = d < 0 ? (uint64_t)-d : (uint64_t)d;
	uint64_t h = muldiv_round_u64(a, 10000, base);
	ksnprintf(buf, cap, "%c%llu.%02llu", d < 0 ? '-' : '+', (unsigned long long)(h / 100),
		  (unsigned long long)(h % 100));
}

/* The algo column's width: the longest registered name (or the floors'). */
static int algo_width(void)
{
	int w = 9;
	for (unsigned a = 0; xcall_algos[a]; a++)
		if ((int)strlen(xcall_algos[a]->name) > w)
			w = (int)strlen(xcall_algos[a]->name);
	return w;
}

/* Whether some cross-call case of algorithm name ran. */
static int algo_ran(const char *name)
{
	for (unsigned i = 0; i < nrows; i++)
		if (rows[i].ran && rows[i].c.kind == XCB_KIND_XCALL && !strcmp(case_algo_name(&rows[i].c), name))
			return 1;
	return 0;
}

static void seed_tables(void)
{
	unsigned others = 0;

	for (unsigned ai = 0; xcall_algos[ai]; ai++)
		others += strcmp(xcall_algos[ai]->name, "locked") && algo_ran(xcall_algos[ai]->name);
	/* Said, not left out silently: algos= without the baseline. */
	if (others && !algo_ran("locked"))
		kprintf("\n(no %% change tables: they are against locked, which did not run; add it to algos=)\n");
	/* One table per (algorithm that ran != locked, the baseline) x shape
	 * group (everything but inits/mask); one that did not run (not in
	 * algos=) would be a table of "-" only. */
	for (unsigned ai = 0; xcall_algos[ai]; ai++) {
		const char *name = xcall_algos[ai]->name;
		if (!strcmp(name, "locked") || !algo_ran(name))
			continue;
		int done_group[TABLE_MAX] = { 0 };
		for (unsigned g = 0; g < nrows; g++) {
			const struct bcase *gc = &rows[g].c;
			if (done_group[g] || !rows[g].ran || gc->kind != XCB_KIND_XCALL ||
			    strcmp(case_algo_name(gc), "locked") != 0)
				continue;
			/* collect inits and masks of this group */
			unsigned inits[16], ni = 0, masks[32], nm = 0;
			for (unsigned i = g; i < nrows; i++) {
				const struct bcase *c = &rows[i].c;
				if (!rows[i].ran || c->kind != XCB_KIND_XCALL || c->delivery != gc->delivery ||
				    c->wait != gc->wait || c->placement != gc->placement ||
				    c->overlap != gc->overlap || c->work_us != gc->work_us ||
				    c->harness != gc->harness ||
				    strcmp(case_algo_name(c), "locked") != 0)
					continue;
				done_group[i] = 1;
				unsigned k;
				for (k = 0; k < ni && inits[k] != c->inits; k++)
					;
				if (k == ni && ni < 16)
					inits[ni++] = c->inits;
				for (k = 0; k < nm && masks[k] != c->mask; k++)
					;
				if (k == nm && nm < 32)
					masks[nm++] = c->mask;
			}
			kprintf("\n%% change of median call time (p50), %s vs locked (%s, wait %s, %s %s, work %u us):\n",
				name, XCB_NAME(delivery, gc->delivery), XCB_NAME(wait, gc->wait),
				XCB_NAME(placement, gc->placement), gc->overlap ? "overlap" : "disjoint",
				gc->work_us);
			char hdr[256];
			int n = ksnprintf(hdr, sizeof(hdr), "%-16s", "");
			for (unsigned k = 0; k < ni; k++)
				n += ksnprintf(hdr + n, sizeof(hdr) - (unsigned)n, " %9u init%s", inits[k],
					       inits[k] == 1 ? " " : "s");
			kprintf("%s\n", hdr);
			for (unsigned m = 0; m < nm; m++) {
				char line[256];
				n = ksnprintf(line, sizeof(line), "%3u CPU%s in mask", masks[m],
					      masks[m] == 1 ? " " : "s");
				n += ksnprintf(line + n, sizeof(line) - (unsigned)n, "%*s", 16 - n, "");
				for (unsigned k = 0; k < ni; k++) {
					struct bcase shape = *gc;
					shape.inits = inits[k];
					shape.mask = masks[m];
					const struct case_summary *l = find(&shape, "locked");
					const struct case_summary *x = find(&shape, name);
					char p[32];
					if (l && x)
						pct(p, sizeof(p), l->p50, x->p50);
					else
						ksnprintf(p, sizeof(p), "-");
					n += ksnprintf(line + n, sizeof(line) - (unsigned)n, " %15s", p);
				}
				kprintf("%s\n", line);
			}
		}
	}
}

static void raw_vs_algos(void)
{
	const struct case_summary *fl[XCB_N_floor] = { 0 };
	for (unsigned i = 0; i < nrows; i++)
		if (rows[i].ran && rows[i].c.kind == XCB_KIND_RAW && rows[i].c.placement == XCB_PL_FIRST &&
		    !fl[rows[i].c.floor])
			fl[rows[i].c.floor] = &rows[i];
	for (unsigned f = 0; f < XCB_N_floor; f++)
		if (fl[f])
			kprintf("%sfloor %-*s (first placement): p50 %llu cycles = %llu ns\n", f ? "" : "\n", algo_width(),
				case_algo_name(&fl[f]->c), (unsigned long long)fl[f]->p50,
				(unsigned long long)ns(fl[f]->p50));
	/* Each call against the `ipi` floor measured just before each of its own
	 * repetitions (runner.c rep_floor): same boot, same stretch of time. */
	for (unsigned i = 0; i < nrows; i++) {
		const struct bcase *c = &rows[i].c;
		if (!rows[i].ran || c->kind != XCB_KIND_XCALL || c->inits != 1 || c->mask != 1 ||
		    c->work_us != 0 || c->placement != XCB_PL_FIRST || c->delivery != XCB_DELIVERY_AUTO)
			continue;
		uint64_t f = rows[i].floor;
		uint64_t x100 = f ? muldiv_round_u64(rows[i].p50, 100, f) : 0;
		kprintf("  %-*s wait %-4s 1 init -> 1 target: p50 %llu cycles = %llu ns = %llu.%02llu x ipi (%llu)\n",
			algo_width(), case_algo_name(c), XCB_NAME(wait, c->wait), (unsigned long long)rows[i].p50,
			(unsigned long long)ns(rows[i].p50), (unsigned long long)(x100 / 100),
			(unsigned long long)(x100 % 100), (unsigned long long)f);
	}
}

void table_print(unsigned plan_skipped)
{
	/* both kinds of skip, as the daemon's `skipped` counts them: the
	 * runner's alone said "2 cases skipped" beside a plan: line of 4 */
	unsigned skipped = plan_skipped;
	int aw = algo_width();
	kprintf("\n  id kind  %-*s delivery       wait inits mask placement overlap  work_us"
		"      p50cyc     p50ns      p99cyc  jain  stale lost  dup  ooo  (tlb: method batch)\n", aw, "algo");
	for (unsigned i = 0; i < nrows; i++) {
		const struct case_summary *r = &rows[i];
		const struct bcase *c = &r->c;
		if (!r->ran) {
			skipped++;
			continue;
		}
		char tlb[40] = "";
		if (c->kind == XCB_KIND_TLB)
			ksnprintf(tlb, sizeof(tlb), "  %s %u", XCB_NAME(method, c->method), c->batch);
		char jn[16];	/* "-" where not measured (sync): never "0.000" */
		runner_jain_text(jn, sizeof(jn), r->jain_ppm);
		kprintf("%4u %-5s %-*s %-14s %-4s %5u %4u %-9s %-8s %7u %11llu %9llu %11llu %5s %6llu %4llu %4llu %4llu%s\n",
			c->id, XCB_NAME(kind, c->kind), aw, case_algo_name(c), XCB_NAME(delivery, c->delivery),
			c->kind == XCB_KIND_RAW ? "-" : XCB_NAME(wait, c->wait), c->inits, c->mask,
			XCB_NAME(placement, c->placement), c->overlap ? "overlap" : "disjoint", c->work_us,
			(unsigned long long)r->p50, (unsigned long long)ns(r->p50),
			(unsigned long long)r->p99, jn, (unsigned long long)r->stale,
			(unsigned long long)r->lost, (unsigned long long)r->dup, (unsigned long long)r->ooo, tlb);
	}
	if (skipped)
		kprintf("(%u cases skipped: see the LOG lines above)\n", skipped);
	seed_tables();
	raw_vs_algos();
}
