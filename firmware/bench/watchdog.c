/*
 * watchdog.c - the hang detector and its "who waits on whom" report.
 */
#include "bench/watchdog.h"
#include "bench/report.h"
#include "bench/benchenv.h"
#include "bench/ledger.h"
#include "lib/printf.h"
#include "xcall/platform.h"

struct wd_cpu wd_cpus[XCB_MAX_CPUS];

static uint64_t bound;
static struct cpumask inits;
static const struct cpumask *tmasks;
static const char *unjudged_what;	/* wd_arm's: the calls keep no ledger */
static int fired;

static const char *const state_names[WD_NR] = {
	"idle", "waiting for the start barrier", "initiating a call", "running a callee",
	"in a TLB shootdown", "in a raw IPI ping-pong", "finished its calls",
	"orchestrating (waiting for the initiators)",
	"writer: write_lock", "writer: shootdown", "writer: lazy_wait", "writer: prime/verify",
	"reader: read_lock", "reader: read section", "reader: between reads",
};

_Static_assert(sizeof(state_names) / sizeof(state_names[0]) == WD_NR, "a name per state");

const char *wd_state_name(uint32_t s)
{
	return s < WD_NR ? state_names[s] : "?";
}

int wd_describe(char *text, int n, int cap, uint64_t now)
{
	uint64_t khz = plat_tsc_khz() ? plat_tsc_khz() : 1;
	for (unsigned i = 0; i < plat_num_cpus() && n < cap - 128; i++) {
		const struct wd_cpu *x = &wd_cpus[i];
		uint32_t st = __atomic_load_n(&x->state, __ATOMIC_RELAXED);
		uint64_t since = __atomic_load_n(&x->since, __ATOMIC_RELAXED);
		n += ksnprintf(text + n, (size_t)(cap - n), "cpu%u: %s", i, wd_state_name(st));
		if (st == WD_CALLEE)
			n += ksnprintf(text + n, (size_t)(cap - n), " for cpu%u", x->peer);
		uint64_t start = __atomic_load_n(&x->call_start, __ATOMIC_RELAXED);
		const char *op = __atomic_load_n(&x->op, __ATOMIC_RELAXED);
		if (start && op)	/* not a numbered call: say what it is */
			n += ksnprintf(text + n, (size_t)(cap - n), ", own %s in flight %llu ms", op,
				       (unsigned long long)((now - start) / khz));
		else if (start)
			n += ksnprintf(text + n, (size_t)(cap - n), ", own call #%llu in flight %llu ms",
				       (unsigned long long)x->call_no,
				       (unsigned long long)((now - start) / khz));
		/* The CPU its wait spins on (xcall/platform.h plat_wait_note):
		 * the one that never answered, when an IPI was lost. */
		const char *what = "?";
		int on = plat_waiting_on(i, &what);
		if (on >= 0)
			n += ksnprintf(text + n, (size_t)(cap - n), ", spinning on cpu%d (%s)", on, what);
		n += ksnprintf(text + n, (size_t)(cap - n), ", for %llu ms\n",
			       (unsigned long long)(now > since ? (now - since) / khz : 0));
	}
	return n;
}

void wd_reset(void)
{
	unsigned n = plat_num_cpus();
	for (unsigned i = 0; i < n; i++) {
		wd_cpus[i].call_start = 0;
		wd_cpus[i].call_no = 0;
		wd_cpus[i].op = 0;
	}
}

void wd_arm(uint64_t bound_cycles, const struct cpumask *initiators,
	    const struct cpumask *targets, const char *unjudged)
{
	bound = bound_cycles;
	unjudged_what = unjudged;
	if (initiators)
		inits = *initiators;
	else
		cpumask_clear_all(&inits);
	tmasks = targets;
}

int wd_fired(void)
{
	return __atomic_load_n(&fired, __ATOMIC_ACQUIRE);
}

static char text[4096];

static void report(unsigned late, uint64_t now)
{
	int n = 0, cap = (int)sizeof(text);
	uint64_t khz = plat_tsc_khz() ? plat_tsc_khz() : 1;
	const struct wd_cpu *w = &wd_cpus[late];
	uint64_t start = __atomic_load_n(&w->call_start, __ATOMIC_RELAXED);
	uint64_t call = __atomic_load_n(&w->call_no, __ATOMIC_RELAXED);
	const char *algo = __atomic_load_n(&w->algo, __ATOMIC_RELAXED);
	const char *op = __atomic_load_n(&w->op, __ATOMIC_RELAXED);

	/* What really ran: call #N of the algorithm, or (op) what the CPU runs
	 * instead - a paired floor probe is "raw", not the case's algorithm. */
	if (op)
		n += ksnprintf(text + n, (size_t)(cap - n), "watchdog: cpu%u %s (%s)", late, op,
			       algo ? algo : "?");
	else
		n += ksnprintf(text + n, (size_t)(cap - n), "watchdog: cpu%u call #%llu (%s)", late,
			       (unsigned long long)call, algo ? algo : "?");
	n += ksnprintf(text + n, (size_t)(cap - n), " still running after %llu ms (bound %llu ms)\n",
		       (unsigned long long)((now - start) / khz), (unsigned long long)(bound / khz));
	/* Who waits on whom: for every initiator with a call in flight (not only
	 * the one that crossed the bound first — under contention a wedged CPU's
	 * own call and its victims' calls expire at nearly the same moment, and
	 * the culprit shows only as the target the others wait on), the targets
	 * of its mask that have not finished its current call. */
	if (tmasks) {
		unsigned k = 0, i;
		for_each_cpu(i, &inits) {
			const struct wd_cpu *x = &wd_cpus[i];
			uint64_t xcall = __atomic_load_n(&x->call_no, __ATOMIC_RELAXED);
			unsigned t;
			int any = 0;

			if (__atomic_load_n(&x->call_start, __ATOMIC_RELAXED) == 0 || n >= cap - 128) {
				k++;
				continue;
			}
			n += ksnprintf(text + n, (size_t)(cap - n), "cpu%u waits on:", i);
			/* Not a numbered call (a probe, a warm-up): the ledger
			 * holds no verdict on it, and the targets' counts would
			 * judge a call that is not the one running. */
			const char *xop = __atomic_load_n(&x->op, __ATOMIC_RELAXED);
			if (xop || unjudged_what) {
				n += ksnprintf(text + n, (size_t)(cap - n), " (%s: no ledger verdict)",
					       xop ? xop : unjudged_what);
				any = 1;
			} else {
				for_each_cpu(t, &tmasks[k]) {
					/* the ledger slot of the k-th initiator is k */
					uint64_t d = ledger_hi(t, k);
					if (d < xcall) {
						n += ksnprintf(text + n, (size_t)(cap - n),
							       " cpu%u(done %llu/%llu)", t,
							       (unsigned long long)d,
							       (unsigned long long)xcall);
						any = 1;
					}
					if (n >= cap - 64)
						break;
				}
			}
			if (!any)
				n += ksnprintf(text + n, (size_t)(cap - n),
					       " (every target ran it: waiting on acknowledgement)");
			/* Whom its wait spins on, when it noted it (flush paths,
			 * qlist, raw, lazy: xcall/platform.h plat_wait_note): the
			 * CPU that never answered, where the ledger cannot tell
			 * (TLB and raw keep no ledger; with wait=none every
			 * target is behind). */
			const char *what = "?";
			int on = plat_waiting_on(i, &what);
			if (on >= 0)
				n += ksnprintf(text + n, (size_t)(cap - n), ", spinning on cpu%d(%s)", on, what);
			n += ksnprintf(text + n, (size_t)(cap - n), "\n");
			k++;
		}
	}
	/* What every CPU is doing. */
	n = wd_describe(text, n, cap, now);
	report_error(text);
}

int wd_check(void)
{
	if (!bound || wd_fired())
		return wd_fired();
	uint64_t now = plat_cycles();
	unsigned c;
	for_each_cpu(c, &inits) {
		uint64_t start = __atomic_load_n(&wd_cpus[c].call_start, __ATOMIC_RELAXED);
		if (start && now > start && now - start > bound) {
			/* Only one CPU reports, even if several notice. */
			int zero = 0;
			if (__atomic_compare_exchange_n(&fired, &zero, 1, 0, __ATOMIC_ACQ_REL,
							__ATOMIC_ACQUIRE))
				report(c, now);
			return 1;
		}
	}
	return 0;
}
