/* cmd_show.c — `xcbench show RUN`: run summary, machine facts, the
 * algorithms the payload carried (from its HELLO), case table, and for
 * sync cases (seed 002) the writer's and the readers' own statistics. */
#include <getopt.h>
#include <math.h>
#include <string.h>

#include "client.h"
#include "lock_words.h"
#include "pseudo_words.h"
#include "skipped.h"
#include "verdict.h"
#include "xcb_proto.h"
#include "xcb_schema.h"

/* The case table's columns are every axis the schema matches on that some
 * case of the run has (kind, algo, delivery ... work_us, and batch, method,
 * flush, pages … of TLB cases): two cases that differ only in one of them
 * are told apart. Adding one to the schema adds it here. */
static int matched(const struct xcb_axis *a)
{
	return a->role == XCB_ROLE_IDENTITY || a->role == XCB_ROLE_CHART || a->role == XCB_ROLE_AXIS;
}

/* A case's value of axis a: its own member, else its config's; NULL if none. */
static json_t *axis_value(json_t *cs, const struct xcb_axis *a)
{
	json_t *v = json_object_get(cs, a->key);

	return v && !json_is_null(v) ? v : json_object_get(json_object_get(cs, "config"), a->key);
}

/* One cell (v) or, with v NULL, its heading: numbers right-aligned. */
static void print_cell(const struct xcb_axis *a, json_t *v)
{
	char up[32], tmp[48];
	size_t n = strlen(a->key);
	int w = n > 9 ? (int)n : a->type == XCB_TY_INT ? 5 : 9;

	for (size_t i = 0; i < n && i + 1 < sizeof(up); i++)
		up[i] = (char)(a->key[i] >= 'a' && a->key[i] <= 'z' ? a->key[i] - 32 : a->key[i]);
	up[n < sizeof(up) ? n : sizeof(up) - 1] = 0;
	const char *text = v ? jstr(v, tmp, sizeof(tmp)) : up;
	if (a->type == XCB_TY_INT)
		printf(" %*s", w, text);
	else
		printf(" %-*s", w, text);
}

/* The algorithms the payload listed in HELLO (algos=, algo.NAME=), one a
 * line with its description: the host has no list of its own. */
static void print_algorithms(json_t *facts)
{
	const char *list = json_string_value(json_object_get(facts, "algos"));
	char name[64], key[80];

	if (!list)
		return;
	printf("algorithms:\n");
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ",");
		if (n && n < sizeof(name)) {
			memcpy(name, p, n);
			name[n] = 0;
			snprintf(key, sizeof(key), XCB_HELLO_ALGO_PREFIX "%s", name);
			const char *d = json_string_value(json_object_get(facts, key));
			printf("  %-12s %s\n", name, d ? d : "");
		}
		p += n + (p[n] == ',');
	}
}

/* A figure in cycles, v, as whole cycles: a percentile of two repetitions
 * is their mean (15531.5), and the table and the sync rows mixed "296"
 * with "15531.50". The half cycle is below what a TSC read resolves; the
 * API, --json and the CSV keep it. */
static const char *cyc(json_t *v, char *tmp, size_t len)
{
	if (!json_is_real(v))
		return jstr(v, tmp, len);
	snprintf(tmp, len, "%.0f", json_real_value(v));
	return tmp;
}

/* Whole lines of at most SHOW_WIDTH columns where a long list is folded
 * (the facts: ~650 columns in one line), each item whole on its line. */
#define SHOW_WIDTH 100

/* Prints item after a blank at *col, first folding to a new line indented
 * to indent when it would pass SHOW_WIDTH (an item longer than a line
 * stands alone on its own). */
static void put_folded(const char *item, int indent, int *col)
{
	int n = (int)strlen(item);

	if (*col > indent && *col + 1 + n > SHOW_WIDTH) {
		printf("\n%*s", indent, "");
		*col = indent;
	}
	printf(" %s", item);
	*col += 1 + n;
}

/* The facts as KEY=VALUE, in the schema's reading order (XCB_HELLO_FACTS,
 * the run page's), then any key it does not name (a newer payload's);
 * the algorithms are listed below, one a line. */
static void print_facts(json_t *facts)
{
	char item[600], tmp[48];
	const char *k;
	json_t *v;
	const int indent = (int)strlen("facts:");
	int col = indent;

	printf("facts:");
	for (unsigned i = 0; i < xcb_n_hello_facts; i++) {
		v = json_object_get(facts, xcb_hello_facts[i].key);
		if (!v || !strcmp(xcb_hello_facts[i].key, "algos"))
			continue;
		snprintf(item, sizeof(item), "%s=%s", xcb_hello_facts[i].key, jstr(v, tmp, sizeof(tmp)));
		put_folded(item, indent, &col);
	}
	json_object_foreach(facts, k, v) {
		int named = 0;

		for (unsigned i = 0; i < xcb_n_hello_facts && !named; i++)
			named = !strcmp(k, xcb_hello_facts[i].key);
		if (named || !strncmp(k, XCB_HELLO_ALGO_PREFIX, strlen(XCB_HELLO_ALGO_PREFIX)))
			continue;
		snprintf(item, sizeof(item), "%s=%s", k, jstr(v, tmp, sizeof(tmp)));
		put_folded(item, indent, &col);
	}
	printf("\n");
}

/* Whether case cs is of kind k. */
static int is_kind(json_t *cs, const char *k)
{
	const char *v = json_string_value(json_object_get(cs, "kind"));

	return v && !strcmp(v, k);
}

/* A sync case's pseudo-initiators (writer_hold, writer_e2e,
 * writer_effective, reader_batch): the seed's figures, in cycles. */
/* A fairness figure as the API, the payload's console and the run page
 * give it, to 3 decimals (jstr's 2 read "jain 1.00" for 0.996 and "p50
 * max/min 1.99" for 1.987); "-" where not measured (null). */
static const char *fair3(json_t *v, char *tmp, size_t len)
{
	if (!json_is_number(v))
		return jstr(v, tmp, len);
	snprintf(tmp, len, "%.3f", json_number_value(v));
	return tmp;
}

/* Under a case with 2 or more initiators, its fairness; under one whose
 * algorithm keeps a lock profile (locked, sync's rw-lock), the profile:
 * what the run page shows beside the latency, which the seed's table
 * cannot (issue 13, README "Fairness"). */
static void print_profile(json_t *cs, double khz)
{
	json_t *fa = json_object_get(cs, "fairness"), *st = json_object_get(cs, "stats");
	json_t *lk = json_object_get(cs, "lock");
	char a[48], b[48], hp[48], wp[48], hm[80];

	const char *of = json_string_value(json_object_get(fa, "jain_of")) ?: "-";

	/* A sync case's readers send no window: all of them read through the
	 * writer's timed phase, so the figure of the fields it is read from
	 * (elapsed_throughput, casestats.c) is their throughput in that one
	 * shared span, not a run stored before the window (README "Fairness"). */
	if (is_kind(cs, "sync") && !strcmp(of, "elapsed_throughput"))
		of = "the readers' throughput in the writer's timed phase";
	if (json_is_object(fa))
		printf("%5s   %-32s jain %s over %s, p50 max/min %s\n", "", "fairness",
		       fair3(json_object_get(fa, "jain"), a, sizeof(a)), of,
		       fair3(json_object_get(fa, "p50_max_min"), b, sizeof(b)));
	if (!json_is_object(lk))
		return;
	/* Which lock, and each figure per its own acquisitions, are the API's
	 * (casestats.c agg_lock_write: a sync case's hold is per write, its
	 * wait per read acquisition); what is said here is what they cover. */
	double acq = json_number_value(json_object_get(st, "lock_acq"));
	double wait = json_number_value(json_object_get(st, "lock_wait_cycles"));
	double hold = json_number_value(json_object_get(st, "lock_hold_cycles"));
	double cont = json_number_value(json_object_get(st, "lock_contended"));
	const char *name = json_string_value(json_object_get(lk, "name")) ?: "?";
	/* What the figures count (lock_words.c: the run page says the same). */
	const char *method = json_string_value(json_object_get(json_object_get(cs, "config"), "method"));
	const char *counts = lock_words_for(json_string_value(json_object_get(cs, "kind")), method);

	/* whole cycles, as the totals; "-" where none was taken (null) */
	snprintf(hp, sizeof(hp), json_is_number(json_object_get(lk, "hold_cycles_per")) ? "%.0f" : "-",
		 json_number_value(json_object_get(lk, "hold_cycles_per")));
	snprintf(wp, sizeof(wp), json_is_number(json_object_get(lk, "wait_cycles_per")) ? "%.0f" : "-",
		 json_number_value(json_object_get(lk, "wait_cycles_per")));
	/* compare --row lock_hold's figure, to its 0.1 (the compare's a_p50),
	 * with its unit: it stands alone at the end of the line, and the
	 * thread it reproduces quotes ns ("Average lock time: 347577ns"), so
	 * it is given in ns too where the run has a TSC rate, as the case's
	 * P50_NS is (a reviewer otherwise converts by hand). */
	json_t *hp50 = json_object_get(lk, "hold_cycles_p50");
	if (!json_is_number(hp50))
		snprintf(hm, sizeof(hm), "-");
	else if (khz > 0)
		snprintf(hm, sizeof(hm), "%.1f cycles (%.1f ns)", json_number_value(hp50),
			 json_number_value(hp50) * 1e6 / khz);
	else
		snprintf(hm, sizeof(hm), "%.1f cycles", json_number_value(hp50));
	/* The payload counts the timed calls' acquisitions only, not the
	 * warm-up's or a TLB case's no-flush control's (firmware xcall.h
	 * xcall_lockprof_count). The hold an acquisition is the shorthand
	 * thread's "average lock time" (seed 001). */
	if (!is_kind(cs, "sync"))
		printf("%5s   %-32s %s: %.0f acquisitions, %.0f contended, hold %.0f, wait %.0f cycles (an "
		       "acquisition: hold %s, wait %s; %s)\n", "", "lock profile", name, acq, cont, hold, wait, hp, wp,
		       counts);
	else
		/* two lines: one was ~320 columns */
		printf("%5s   %-32s %s, %s: %.0f read acquisitions + %.0f writes, %.0f contended\n"
		       "%5s   %-32s the writer's hold %.0f cycles (%s a write), the readers' wait %.0f cycles "
		       "(%s a read acquisition)\n", "", "lock profile", name, counts,
		       json_number_value(json_object_get(lk, "waits")), json_number_value(json_object_get(lk, "holds")),
		       cont, "", "", hold, hp, wait, wp);
	/* compare --row lock_hold's figure under its own name, as the sync
	 * rows are (it ended the profile's line) */
	printf("%5s   %-32s the repetitions' median: %s\n", "", pseudo_words_lock_hold.label, hm);
}

/* " (p50 X ns, p99 Y ns)" of a row's stats st at the run's TSC rate khz,
 * "" when either is unknown: the seed 002 thread quotes its invalidation
 * in ms ("~3-5 ms"), and a row in cycles alone left the conversion to the
 * reader, with the rate only among the facts. */
static const char *pseudo_ns(json_t *st, double khz, char *out, size_t len)
{
	json_t *p50 = json_object_get(st, "p50"), *p99 = json_object_get(st, "p99");

	if (!(khz > 0) || !json_is_number(p50) || !json_is_number(p99))
		return "";
	snprintf(out, len, " (p50 %.1f ns, p99 %.1f ns)", json_number_value(p50) * 1e6 / khz,
		 json_number_value(p99) * 1e6 / khz);
	return out;
}

static void print_pseudo(json_t *cs, double khz)
{
	json_t *ps = json_object_get(cs, "pseudo"), *all = json_object_get(cs, "stats");
	char a[48], b[48], n[48], ns[96];

	if (!json_is_object(ps))
		return;
	for (size_t k = 0; k < pseudo_words_n; k++) {
		json_t *st = json_object_get(ps, pseudo_words[k].name);
		if (st)
			printf("%5s   %-32s p50 %s  p99 %s cycles%s\n", "", pseudo_words[k].label,
			       cyc(json_object_get(st, "p50"), a, sizeof(a)), cyc(json_object_get(st, "p99"), b, sizeof(b)),
			       pseudo_ns(st, khz, ns, sizeof(ns)));
	}
	if (!json_is_object(all))
		return;
	/* The row's P50/P99: the readers' wait per read, counted in read
	 * acquisitions (not calls); then what the no-flush control proved. */
	printf("%5s   %-32s p50 %s  p99 %s cycles over %s read acquisitions%s\n", "", pseudo_words_all.label,
	       cyc(json_object_get(all, "p50"), a, sizeof(a)), cyc(json_object_get(all, "p99"), b, sizeof(b)),
	       jstr(json_object_get(all, "count"), n, sizeof(n)), pseudo_ns(all, khz, ns, sizeof(ns)));
	json_t *ver = json_object_get(all, "verified");
	printf("%5s   %-32s %s, %s stale (no-flush control: %s of %s runs saw stale reads)\n", "", "verification",
	       json_is_true(ver) ? "verified" : json_is_false(ver) ? "UNVERIFIED" : "-",
	       jstr(json_object_get(all, "stale"), a, sizeof(a)), jstr(json_object_get(all, "control_stale"), b, sizeof(b)),
	       jstr(json_object_get(all, "control_runs"), n, sizeof(n)));
}

static const char usage[] = "usage: xcbench show RUN [--json]\n"
		   "Shows one run: status, the cases the payload skipped (how many of the\n"
		   "suite's, and why), the payload's verdict where its checks failed\n"
		   "(VERDICT, with the LOG lines naming each failed case's initiator\n"
		   "and CPU), machine facts and every case with its median\n"
		   "and tail latency (cycles; ns when the machine reported its TSC rate),\n"
		   "and a NOTE where a case's figures are in doubt: \"FAILED check\" (calls\n"
		   "lost, duplicated or out of order, a stale translation, a watchdog),\n"
		   "\"UNVERIFIED\" (a TLB or sync case whose no-flush control saw no stale\n"
		   "read: its stale count of 0 proves nothing), \"no flush\" (a TLB case of\n"
		   "method none: stale reads expected, not checked), \"unstable host\"\n"
		   "(the floor moved under it) or \"no result\" (no timed call stored: the\n"
		   "case a run crashed in). Under a case: its fairness\n"
		   "(2 or more initiators) and its algorithm's lock profile, where kept;\n"
		   "under a sync case (seed 002) the writer's and the readers' rows.\n"
		   "Lock holds and sync rows are in cycles, and in ns where the run has\n"
		   "a TSC rate.\n";

/* The NOTE cell of a case (its stats: flags OR-ed over the RESULT rows,
 * unstable_host, null where no paired floor was measured): "" when its
 * figures are as good as any. */
static void case_note(json_t *cs, char *out, size_t len)
{
	json_t *st = json_object_get(cs, "stats");
	json_int_t f = json_integer_value(json_object_get(st, "flags"));
	const char *method = json_string_value(json_object_get(json_object_get(cs, "config"), "method"));
	size_t n = 0;

	out[0] = 0;
	/* Described, never timed: the case a run crashed or was lost in, or
	 * one whose every repetition timed no call (its dashes read as "not
	 * applicable" otherwise). */
	if (!json_is_object(st) || json_integer_value(json_object_get(st, "reps")) == 0) {
		/* ... and a failed check among its flags still said: the case
		 * a watchdog stopped before it timed a call failed it. */
		snprintf(out, len, " no result (no timed call stored)%s",
			 f & (XCB_RF_INVARIANT | XCB_RF_WATCHDOG) ? " FAILED check" : "");
		return;
	}
	if (f & (XCB_RF_INVARIANT | XCB_RF_WATCHDOG))
		n += (size_t)snprintf(out + n, len - n, " FAILED check");
	/* A shootdown with method none invalidates nothing: its targets read
	 * stale translations by design and its stale count stays 0, which is
	 * no pass; a case whose no-flush control saw no stale read proves
	 * nothing with its 0 (README "TLB"). Either must not read as clean. */
	if (is_kind(cs, "tlb") && method && !strcmp(method, "none"))
		n += (size_t)snprintf(out + n, len - n, " no flush (control: stale not checked)");
	else if (json_is_false(json_object_get(st, "verified")))
		n += (size_t)snprintf(out + n, len - n, " UNVERIFIED (control saw no stale read)");
	/* the flag, or the repetitions' paired floors spread: unstable_host,
	 * the daemon's one definition (casestats.h case_unstable_host), which
	 * compare's "unstable host cases" counts too */
	if (n < len && json_is_true(json_object_get(st, "unstable_host")))
		snprintf(out + n, len - n, " unstable host");
}

int cmd_show(int argc, char **argv)
{
	int rc, as_json = 0;
	const struct cmdopt opts[] = { OPT_FLAG("json", &as_json), OPT_END };
	const struct cmd cmd = { "xcbench show", usage, opts };
	char t[13][48];
	int shown[XCB_N_AXES];
	json_t *o, *run, *cs;
	size_t i;
	uint64_t id;

	if (cmd_parse(&cmd, argc, argv, &rc))
		return rc;
	if (one_run_id(&cmd, argc, argv, &id))
		return 2;
	o = api_run_whole(id);
	if (!o)
		return 1;
	if (as_json)
		return print_json(o);
	term_safe(o);	/* for text on a terminal, as get_answer does */
	run = json_object_get(o, "run");
	/* the run's TSC rate (kHz), for the lock hold in ns; 0: unknown */
	double khz = json_is_number(json_object_get(run, "tsc_khz")) ? json_number_value(json_object_get(run, "tsc_khz")) : 0;
	printf("run %s  token %s  status %s  suite %s  label %s\n", jstr(json_object_get(run, "id"), t[0], 48),
	       jstr(json_object_get(run, "token"), t[1], 48), jstr(json_object_get(run, "status"), t[2], 48),
	       jstr(json_object_get(run, "suite"), t[3], 48), jstr(json_object_get(run, "label"), t[4], 48));
	printf("created %s  finished %s  frames %s/%s\n", jstr(json_object_get(run, "created"), t[0], 48),
	       jstr(json_object_get(run, "finished"), t[1], 48), jstr(json_object_get(run, "frames_received"), t[2], 48),
	       jstr(json_object_get(run, "frames_expected"), t[3], 48));
	/* The cases the payload skipped: they have no row below, and
	 * only its log said so (skipped.h). */
	{
		char sk[1024];

		if (!skipped_sentence(o, sk, sizeof(sk)))
			printf("%s\n", sk);
	}
	/* Whole: a watchdog's report names the CPU waited on and what it
	 * spins on after its first line, which is all `error` keeps. */
	if (json_is_string(json_object_get(run, "error")))
		print_run_errors((long long)id, json_string_value(json_object_get(run, "error")), 40, "", stdout);
	/* The payload's verdict: a run whose checks failed is still
	 * `complete`; say so first, with the lines naming what failed. */
	if (run_verdict(run)) {
		printf("VERDICT: %s\n", run_verdict(run));
		print_failed_logs((long long)id, json_object_get(o, "cases"), 3, NULL, "  ", stdout);
	}
	print_facts(json_object_get(o, "facts"));
	{
		json_t *c2;
		size_t j;

		memset(shown, 0, sizeof(shown));
		for (unsigned a = 0; a < XCB_N_AXES; a++)
			json_array_foreach(json_object_get(o, "cases"), j, c2)
				shown[a] |= matched(&xcb_axes[a]) && axis_value(c2, &xcb_axes[a]) != NULL;
	}
	print_algorithms(json_object_get(o, "facts"));
	printf("\n%5s", "CASE");
	for (unsigned a = 0; a < XCB_N_AXES; a++)
		if (shown[a])
			print_cell(&xcb_axes[a], NULL);
	printf(" %10s %10s %10s %4s %s\n", "P50_CYC", "P99_CYC", "P50_NS", "REPS", "NOTE");
	json_array_foreach(json_object_get(o, "cases"), i, cs) {
		json_t *st = json_object_get(cs, "stats"), *ns = json_object_get(cs, "ns");

		printf("%5s", jstr(json_object_get(cs, "case_id"), t[0], 48));
		for (unsigned a = 0; a < XCB_N_AXES; a++)
			if (shown[a]) {
				json_t *v = axis_value(cs, &xcb_axes[a]);
				json_t *dash = json_string("-");

				print_cell(&xcb_axes[a], v ? v : dash);	/* "-": not applicable */
				json_decref(dash);
			}
		char note[128];

		case_note(cs, note, sizeof(note));
		printf(" %10s %10s %10s %4s%s\n", cyc(json_object_get(st, "p50"), t[8], 48),
		       cyc(json_object_get(st, "p99"), t[9], 48), jstr(json_object_get(ns, "p50"), t[10], 48),
		       jstr(json_object_get(st, "reps"), t[11], 48), note);
		print_profile(cs, khz);
		print_pseudo(cs, khz);
	}
	json_decref(o);
	return 0;
}
