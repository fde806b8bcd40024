/*
 * bench.c - runs one suite from the command line to DONE (see bench.h).
 */
#include "bench/bench.h"
#include "bench/faults.h"
#include "bench/errline.h"
#include "bench/benchenv.h"
#include "bench/hello_algos.h"
#include "bench/watchdog.h"
#include "bench/report.h"
#include "bench/runner.h"
#include "bench/strbuf.h"
#include "bench/stress.h"
#include "bench/suite.h"
#include "bench/table.h"
#include "flush/flush.h"
#include "lib/cmdline.h"
#include "lib/cpumask.h"
#include "lib/printf.h"
#include "xcall/xcall.h"
#include "xcb_proto.h"

#ifndef XCB_FW_VERSION
#define XCB_FW_VERSION "xcbench-0.1"
#endif

static struct suite suite;

/*
 * HELLO's buffer, by share. Each share is checked after it is written
 * (send_hello): an overflow is an error that names the share, never a HELLO
 * cut off without a word (a fixed 4096 lost the algorithms' lines, and on a
 * big machine apic_ids alone passes it).
 *  - the machine facts: a budget for the fixed ones (vendor, brand, loader,
 *    the UEFI vendor...), plus per CPU its apic_ids and cpu_topo entries at
 *    their widest (u32 each: "4294967295," and "P/C/T," of three);
 *  - the algorithms' lines: derived from the registry's limits
 *    (hello_algos.h), so they always fit;
 *  - the timings after them (overhead, spin, floors, harness): a budget;
 *  - the command line: at most CMDLINE_MAX characters.
 */
#define HELLO_FIXED_FACTS 2048
#define HELLO_CPU_MAX (sizeof("4294967295,") - 1 + sizeof("4294967295/4294967295/4294967295,") - 1)
#define HELLO_FACTS_MAX (HELLO_FIXED_FACTS + XCB_MAX_CPUS * HELLO_CPU_MAX)
#define HELLO_TIMINGS 512
#define HELLO_CMDLINE_MAX (sizeof("cmdline=\n") - 1 + CMDLINE_MAX)
#define HELLO_MAX (HELLO_FACTS_MAX + HELLO_ALGOS_MAX + HELLO_TIMINGS + HELLO_CMDLINE_MAX)
static char hello[HELLO_MAX + 1];	/* + the NUL strbuf keeps */
static const char *spin_mode, *spin_word;	/* in force ("pause"/"plain"), as asked */

static void crash_hook(unsigned cpu, unsigned vector, uint64_t error, uint64_t rip)
{
	static char t[160];
	ksnprintf(t, sizeof(t), "exception: cpu%u vector %u error 0x%llx at rip 0x%llx",
		  cpu, vector, (unsigned long long)error, (unsigned long long)rip);
	report_error_emergency(t);
}

#define MAX_CASES 4096
#define MAX_GROUP 16

static struct bcase cases[MAX_CASES];
static unsigned ncases;
static struct case_summary group_sum[MAX_GROUP];

static void collect(const struct bcase *c, void *ctx)
{
	(void)ctx;
	if (ncases < MAX_CASES)
		cases[ncases++] = *c;
}

struct run_ctx {
	int aborted;
	uint64_t stale, lost, dup, ooo;	/* case_summary's, summed */
	uint64_t early;		/* wait=done calls that returned before a target ran them */
};

/*
 * Runs every collected case. Cases that differ only in the algorithm (or harness)
 * form a group whose repetitions are interleaved (rep 0 of each, then rep 1 of
 * each, ...), so a comparison between algorithms is not skewed by when each one
 * happened to run.
 */
static void run_cases(struct run_ctx *x)
{
	static unsigned char done[MAX_CASES];
	unsigned n = ncases;
	for (unsigned i = 0; i < n && !x->aborted; i++) {
		if (done[i])
			continue;
		unsigned g[MAX_GROUP], ng = 0;
		for (unsigned j = i; j < n && ng < MAX_GROUP; j++)
			if (!done[j] && (j == i || case_same_group(&cases[i], &cases[j]))) {
				g[ng++] = j;
				done[j] = 1;
			}
		uint64_t reps = 0;
		for (unsigned k = 0; k < ng; k++) {
			const struct bcase *c = &cases[g[k]];
			int rc = runner_case_begin(c, c->id, n, &group_sum[k]);
			if (rc < 0)	/* its CASE did not fit: ERROR sent */
				x->aborted = 1;
			if (rc == 0 && c->reps > reps)
				reps = c->reps;
		}
		for (unsigned rep = 0; rep < reps && !x->aborted; rep++)
			for (unsigned k = 0; k < ng && !x->aborted; k++) {
				const struct bcase *c = &cases[g[k]];
				if (group_sum[k].ran && rep < c->reps &&
				    runner_case_rep(c, rep, suite.watchdog_ms, &group_sum[k]) < 0)
					x->aborted = 1;
			}
		for (unsigned k = 0; k < ng && !x->aborted; k++) {
			const struct bcase *c = &cases[g[k]];
			if (group_sum[k].ran)
				runner_case_end(c, c->id, n, &group_sum[k]);
			table_add(&group_sum[k]);
			x->stale += group_sum[k].stale;
			x->lost += group_sum[k].lost;
			x->dup += group_sum[k].dup;
			x->ooo += group_sum[k].ooo;
			x->early += group_sum[k].early;
		}
		report_poll();
	}
}

/* Sends HELLO; NULL, or (nothing sent) the share of it that did not fit. */
static const char *send_hello(const char *suite_name)
{
	struct strbuf sb;
	sb_init(&sb, hello, sizeof(hello));
	sb_kv(&sb, "fw", XCB_FW_VERSION);
	sb_kv(&sb, "suite", suite_name);
	sb_kv_u64(&sb, "cpus", plat_num_cpus());
	benv_facts(&sb);
	sb_kv(&sb, "transport", report_transport_names());
	if (sb.len > HELLO_FACTS_MAX)
		return "the machine facts (HELLO_FACTS_MAX)";
	hello_algos(&sb, xcall_algos);
	sb_kv_u64(&sb, "overhead_min_cycles", runner_overhead_min());
	sb_kv_u64(&sb, "overhead_median_cycles", runner_overhead_median());
	sb_kv(&sb, "spin", spin_mode);
	sb_kv(&sb, "spin_policy", spin_word);
	sb_kv_u64(&sb, "floor_ipi_cycles", runner_floor_ipi());
	sb_kv_u64(&sb, "floor_roundtrip_cycles", runner_floor_roundtrip());
	if (runner_harness_bare())
		sb_kv(&sb, "harness", "bare");
	const char *cl = benv_cmdline_all();
	sb_puts(&sb, "cmdline=");
	for (; cl && *cl; cl++)
		sb_putc(&sb, *cl == '\n' ? ' ' : *cl);
	sb_putc(&sb, '\n');
	if (sb_overflowed(&sb))
		return "the timings (HELLO_TIMINGS) or the command line";
	report_text(XCB_T_HELLO, hello, sb.len);
	return 0;
}

/*
 * The plan, as a second HELLO (proto/README.md: HELLO keys merge, each insert-once:
 * a later HELLO adds keys, never changes one): `cases_planned` = the cases of the expanded suite this machine will run
 * (skipped ones left out), so the daemon can show progress from the first case
 * on. A separate frame because the count is known only after the suite is
 * expanded, and the first HELLO goes out before (a bad command line must still
 * leave the machine's facts behind).
 */
static void send_plan(void)
{
	static char plan[64];
	struct strbuf sb;
	unsigned planned = 0;
	for (unsigned i = 0; i < ncases; i++)
		planned += runner_case_fits(&cases[i]);
	sb_init(&sb, plan, sizeof(plan));
	sb_kv_u64(&sb, "cases_planned", planned);
	report_text(XCB_T_HELLO, plan, sb.len);
}

/* Spin policy (spin=, before anything is measured: floors, overhead). */
static void set_spin(void)
{
	const char *spin_policy = cmdline_str("spin", "auto");

	spin_mode = benv_spin_set(spin_policy);
	if (!spin_mode) {
		kprintf("xcbench: warning: spin=%s unknown, using auto\n", spin_policy);
		spin_policy = "auto";
		spin_mode = benv_spin_set(spin_policy);
	}
	spin_word = spin_policy;
}

/* Everything before the first case: the transports, the crash hook, IRQs,
 * the spin policy, TLB features, the layers below bench, the runner, HELLO
 * and the run's first LOG line. 0, or -1 after an ERROR frame and DONE. */
static int set_up(const char *suite_name)
{
	static char line[256];
	/* Default: UDP when the daemon told us where it is (server=, from the iPXE
	 * script), else serial. Not both by default: on real hardware a 115200-baud
	 * line needs ~0.1 s per frame and would pace the whole run. */
	const char *tdefault = cmdline_has("server") ? "udp" : "serial";

	report_init(cmdline_str("transport", tdefault), cmdline_str("run", 0), plat_cycles());
	benv_set_crash_hook(crash_hook);
	/* CPU 0 is a cross-call target too (and spins waiting for the initiators):
	 * it must take IPIs like every other CPU. */
	plat_irq_enable();
	set_spin();
	/* Global pages and PCIDs where offered, as in Xen and Linux, before the
	 * TLB window is built and anything is timed. */
	benv_tlb_features();
	/* The layers below bench: algorithms (IPI handlers) and the TLB test window. */
	int xrc = xcall_init_all(plat_num_cpus());
	int frc = flush_init(plat_num_cpus());
	runner_init();
	const char *cut = send_hello(suite_name);
	if (cut) {
		/* Before anything is measured: a run whose HELLO lost its facts
		 * or its algorithms would be stored without them. */
		ksnprintf(line, sizeof(line), "HELLO does not fit its %u-byte buffer (bench.c hello[]): %s "
			  "past its share", (unsigned)HELLO_MAX, cut);
		kprintf("xcbench: %s\n", line);
		report_error(line);
		report_done(XCB_DONE_FAILED);
		return -1;
	}

	ksnprintf(line, sizeof(line), "run %016llx: suite %s on %u CPUs, tsc %llu kHz, timing overhead min %llu median %llu cycles, "
		  "spin %s (%s), floors: ipi %llu roundtrip %llu cycles",
		  (unsigned long long)report_token(), suite_name, plat_num_cpus(),
		  (unsigned long long)plat_tsc_khz(), (unsigned long long)runner_overhead_min(),
		  (unsigned long long)runner_overhead_median(), spin_mode, spin_word,
		  (unsigned long long)runner_floor_ipi(), (unsigned long long)runner_floor_roundtrip());
	report_log(line);
	if (xrc < 0 || frc < 0) {
		ksnprintf(line, sizeof(line), "cannot initialise: xcall_init_all %d%s%s, flush_init %d",
			  xrc, *xcall_init_error() ? " " : "", xcall_init_error(), frc);
		report_error(line);
		report_done(XCB_DONE_FAILED);
		return -1;
	}
	if (runner_floor_lost() >= 0) {
		/* A floor probe went unanswered: that CPU takes no IPI, and every
		 * case would wait on it until its watchdog. */
		ksnprintf(line, sizeof(line), "floors: cpu%d never answered a raw IPI from cpu0 "
			  "(gave up after %u ms): ending the run", runner_floor_lost(), (unsigned)xcall_raw_bound_ms());
		report_error(line);
		report_done(XCB_DONE_FAILED);
		return -1;
	}
	return 0;
}

/* suite=stress: the raw floor first, as in every suite, then the random
 * rounds. 1 if a round failed. */
static int run_stress(struct run_ctx *x)
{
	struct suite rawonly = suite;
	struct stress_result sr = { 0 };
	int failed = 0;

	rawonly.kinds = 1u << XCB_KIND_RAW;
	rawonly.reps = 1;
	rawonly.iters = 100;
	suite_for_each_case(&rawonly, plat_num_cpus(), collect, 0);
	run_cases(x);
	if (!x->aborted)
		failed = stress_run(&suite, ncases + 1, &sr) != 0;
	x->aborted |= sr.watchdog;
	return failed;
}

/* Every other suite: its cases, planned, run, and the console table. 1 if
 * a case saw a stale translation, a lost call or a wait=done call that
 * returned before a target ran it. */
static int run_suite(struct run_ctx *x)
{
	static char line[128];

	suite_for_each_case(&suite, plat_num_cpus(), collect, 0);
	ksnprintf(line, sizeof(line), "suite %s: %u cases", suite.name, ncases);
	report_log(line);
	/* The allbutself cases the expansion left out, said as a skip as the
	 * runner's are (proto/README.md "Skipped cases": the daemon counts
	 * them): they were the one silent skip. */
	unsigned left = suite_shorthand_left(&suite, plat_num_cpus());
	if (left)
		emit_logf(XCB_SKIP_PLAN SUITE_SHORTHAND_WHY " (inits=1 mask=%u here: "
			  "the all-but-self shorthand, seed 001)", left, plat_num_cpus() - 1);
	send_plan();
	run_cases(x);
	table_print(left);
	return x->stale || x->lost || x->dup || x->ooo || x->early;
}

int bench_main(void)
{
	static char line[256];
	const char *suite_name = cmdline_str("suite", "default");
	struct run_ctx x = { 0 };
	int failed;

	/* The test faults before set_up's first IPI (the floors); a bad one
	 * ends the run as a bad command line, once HELLO is out. The parsers
	 * say which key and value on the console: errline keeps the first
	 * such line for the ERROR (the host shows ERROR, not the console). */
	errline_begin();
	int bad_faults = faults_init(plat_num_cpus()) < 0;
	errline_end();

	if (set_up(suite_name))
		return 1;
	errline_begin();
	int bad = bad_faults || suite_load(&suite, suite_name) < 0 || suite_check_cpus(&suite, plat_num_cpus()) < 0;
	errline_end();
	if (bad) {
		static char err[532];	/* errline's 512 and the words before it */
		const char *why = errline_first();
		ksnprintf(err, sizeof(err), "bad command line: %s", *why ? why : "see the console for the key and value");
		report_error(err);
		report_done(XCB_DONE_FAILED);
		return 2;
	}
	failed = bs_streq(suite.name, "stress") ? run_stress(&x) : run_suite(&x);
	if (x.aborted)
		failed = 1;
	/* The done-early count only when there is one: the line stays what
	 * stored runs and their readers know. */
	char early[48] = "";
	if (x.early)
		ksnprintf(early, sizeof(early), ", %llu done early", (unsigned long long)x.early);
	ksnprintf(line, sizeof(line), "done: %s (%u ERROR frames, %llu stale, %llu lost, %llu duplicated, "
		  "%llu out of order%s)", failed ? "FAILED" : "ok", report_errors(), (unsigned long long)x.stale,
		  (unsigned long long)x.lost, (unsigned long long)x.dup, (unsigned long long)x.ooo, early);
	report_log(line);
	report_done(x.aborted ? XCB_DONE_ABORTED : failed ? XCB_DONE_FAILED : XCB_DONE_OK);
	kprintf("xcbench: %s\n", failed ? "FAILED" : "PASSED");
	return failed ? 1 : 0;
}
