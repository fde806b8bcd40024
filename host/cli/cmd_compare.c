/*
 * cmd_compare.c — `xcbench compare A B`: the seed table (rows = CPUs in mask,
 * columns = concurrent initiators, cells = % change of the median with its
 * 95 % interval and `*` when significant) for each group of the other axes,
 * as the payload's console prints it; --flat lists one line per matched case
 * with its whole key; --csv prints the daemon's compare.csv instead.
 */
#include <ctype.h>
#include <getopt.h>
#include <string.h>

#include "client.h"
#include "compare_text.h"
#include "pseudo_words.h"

#define CELL_W 26	/* "-15.32* [-98.32, -2.21]" and room */

static const char usage[] =
	"usage: xcbench compare A B [options]   (A, B: run id, list 1,2,3, label:NAME)\n"
	"       xcbench compare --baseline A|stored|last:N B [options]\n"
	"label:NAME: the complete runs with that label or tag. Compares B against\n"
	"the baseline A (stored: the baseline of B's machine and\n"
	"suite, set by `xcbench baseline`; last:N: the N complete runs of B's\n"
	"machine and suite before B). A side of several runs (boots of one\n"
	"configuration) is compared between boots: each boot's median, Welch's\n"
	"interval, so the interval carries the boot-to-boot variation (3 or more\n"
	"boots a side: with 2 a cell says '(too few boots)'); one run a side\n"
	"compares repetitions within one boot and says so. '~[lo, hi]': an\n"
	"interval at the histogram's resolution (a note under the table).\n"
	"Benjamini-Hochberg controls the false discovery rate across the table;\n"
	"a change below the\n"
	"minimum effect is never marked. '*' marks a significant change; '!A',\n"
	"'!B' (or '!AB') a case that failed a check in A's or B's boots (calls\n"
	"lost, duplicated or out of order, a stale translation, a watchdog).\n"
	"  --format text|markdown  the paste-ready report (<= 80 columns): both sides\n"
	"                     named, absolute p50 (ns), % change, interval, summary\n"
	"  --format seed      (default) the seed's pivot: rows = CPUs in mask,\n"
	"                     columns = initiators, cells = % change [interval];\n"
	"                     with --csv that table as CSV, a row per table row\n"
	"  --flat             one line per case with its whole key (TSC cycles)\n"
	"  --csv, --json      the daemon's answer as CSV / JSON (one of them;\n"
	"                     a_p50, b_p50 in TSC cycles; the CSV ends with\n"
	"                     stat, each side's tsc_khz and a_ns, b_ns)\n"
	"  --stat median|mean|min|p90|p99|p999|max   the statistic of each\n"
	"                     repetition's calls compared (default median: its\n"
	"                     p50); each view names it; not with --row lock_hold\n"
	"  --html FILE        also write the comparison as one self-contained HTML\n"
	"                     file (charts as inline SVG) to attach or archive,\n"
	"                     beside whichever form is printed\n"
	"  --algo-a X --algo-b Y   two algorithms (A = B compares within runs)\n"
	"  --a-where K=V[,K=V] --b-where K=V   restrict a side (a key both sides\n"
	"                     restrict is not matched: --a-where work_us=0\n"
	"                     --b-where work_us=5;\n"
	"                     TLB paths: --a-where flush=vector --b-where\n"
	"                     flush=concurrent, or flush=xcall,algo=locked)\n"
	"  --fdr Q            false discovery rate (default 0.05)\n"
	"  --min-effect PCT   smallest |% change| called a change (default 5)\n"
	"  --row NAME         sync cases (seed 002) by another row than the readers'\n"
	"                     wait per read: writer_hold, writer_e2e,\n"
	"                     writer_effective or reader_batch; or lock_hold, any\n"
	"                     case with a lock profile by its hold per acquisition\n"
	"                     (seed 001; cases without the row are left out)\n"
	"Exit status: 0; 1 when the daemon cannot be asked or answers an error;\n"
	"2 on a usage error (a value the daemon refused too); 3 when no case\n"
	"matched (in every output form).\n";

/* One cell: "-15.32* [-20.10, -10.20]", "+0.00 ~[-0.35, +0.35]" (the
 * histograms' resolution), "+3.10 (too few reps)", "-80.52 (too few
 * boots)" (compare_ci_text), or "-"; then " !B" where a side failed a check
 * (compare_failed_mark), whatever its figures: "-" too, a case a watchdog
 * stopped before it timed a call; then " 0B" where a side is of method
 * none (compare_no_flush_mark: it flushed nothing); then " 1 boot" for a
 * cell within one boot in a table of both levels (levels: the pivot's,
 * compare_level_mark). */
static void cell_text(json_t *cell, char *out, size_t cap, unsigned levels)
{
	json_t *ch = json_object_get(cell, "change_pct");
	const char *mk = json_is_object(cell) ? compare_failed_mark(cell) : "";
	char ci[48];
	int n;

	if (!json_is_object(cell) || !json_is_number(ch))
		n = snprintf(out, cap, "-");
	else
		n = snprintf(out, cap, "%+.2f%s %s", json_number_value(ch),
			     json_is_true(json_object_get(cell, "significant")) ? "*" : "",
			     compare_ci_text(cell, ci, sizeof(ci), "(no interval)"));
	if (*mk && n > 0 && (size_t)n < cap)
		n += snprintf(out + n, cap - (size_t)n, " %s", mk);
	mk = json_is_object(cell) ? compare_no_flush_mark(cell) : "";
	if (*mk && n > 0 && (size_t)n < cap)
		n += snprintf(out + n, cap - (size_t)n, " %s", mk);
	mk = json_is_object(cell) ? compare_level_mark(cell, levels) : "";
	if (*mk && n > 0 && (size_t)n < cap)
		snprintf(out + n, cap - (size_t)n, " %s", mk);
}

/* One side's name in a table's title: its algorithm, then what its
 * restriction (--a-where/--b-where: the answer's a_where/b_where) sets
 * that the other side's does not set to the same value. Two sides of one
 * algorithm told apart by another key (delivery=unicast against
 * delivery=allbutself, work_us=0 against 5) were both titled by the
 * algorithm alone: "vector -> vector". algo= itself is the name, and
 * so is a value that repeats it (flush=vector: a TLB path's algo is the
 * path's name), which would only say it twice. */
static void side_name(struct buf *b, const char *algo, json_t *mine, json_t *other)
{
	const char *k;
	json_t *v;
	char t[64], u[64];
	int n = 0;

	buf_addf(b, "%s", algo ? algo : "-");
	json_object_foreach(mine, k, v) {
		json_t *o = json_object_get(other, k);

		if (strcmp(k, "algo") == 0 || (algo && strcmp(jstr(v, t, sizeof(t)), algo) == 0) ||
		    (o && strcmp(jstr(v, t, sizeof(t)), jstr(o, u, sizeof(u))) == 0))
			continue;
		buf_addf(b, "%s%s=%s", n++ ? "," : " (", k, jstr(v, t, sizeof(t)));
	}
	if (n)
		buf_addf(b, ")");
}

/* One pivot table; its cells' levels (compare_levels) say its figure:
 * between boots (each case in 2 or more boots a side) the geometric mean
 * of its boots' medians, within one boot a median, both: the title says
 * both and the cells within one boot are marked; aw, bw: the sides'
 * restrictions (see side_name); stat: the statistic each repetition
 * gives when not its median (compare_stat_other), NULL. */
static void pivot(json_t *p, const char *row, json_t *aw, json_t *bw, const char *stat)
{
	json_t *rows = json_object_get(p, "rows"), *cols = json_object_get(p, "cols"), *v;
	const char *k;
	size_t r, c;
	char t[64];

	const char *kind = json_string_value(json_object_get(json_object_get(p, "fixed"), "kind"));
	/* sync (seed 002): the cells are the readers' lock wait, its one initiator the writer */
	int sync = kind && strcmp(kind, "sync") == 0;
	/* --row: a pseudo-initiator's row (only sync cases have one), or
	 * lock_hold (any case with a lock profile) */
	const struct pseudo_words *pw = pseudo_words_of(row);

	struct buf na = { 0 }, nb = { 0 };
	unsigned levels = compare_levels(json_object_get(p, "cells"));
	const char *fig = (pw ? pw : &pseudo_words_all)->figure;

	side_name(&na, json_string_value(json_object_get(p, "algo_a")), aw, bw);
	side_name(&nb, json_string_value(json_object_get(p, "algo_b")), bw, aw);
	/* the measure, then what each repetition gave it (a p50, or
	 * lock_hold's hold per acquisition): the table's words throughout;
	 * --stat mean, p99: "the p99 call time (p99)", its measure's label
	 * by that statistic, not the median the measure names */
	const struct pseudo_words *mw = pw ? pw : sync ? &pseudo_words_all : &pseudo_words_call;
	int mixed = levels == (CMP_BETWEEN | CMP_WITHIN);

	if (stat)
		printf("\n%% change of the %s %s (%s%s%s%s), %s -> %s,", stat, mw->label,
		       levels & CMP_BETWEEN ? "geometric mean of the boots' median " : "median of the repetitions' ",
		       stat, mixed ? "; marked 1 boot: the median of the repetitions' " : "", mixed ? stat : "",
		       na.p ? na.p : "-", nb.p ? nb.p : "-");
	else
		printf("\n%% change of %s (%s%s%s%s), %s -> %s,", mw->measure,
		       levels & CMP_BETWEEN ? "geometric mean of the boots' " : "", fig,
		       mixed ? "; marked 1 boot: the median " : "", mixed ? fig : "", na.p ? na.p : "-",
		       nb.p ? nb.p : "-");
	buf_free(&na);
	buf_free(&nb);
	json_object_foreach(json_object_get(p, "fixed"), k, v)
		printf(" %s=%s", k, jstr(v, t, sizeof(t)));
	printf(":\n%-16s", "");
	for (c = 0; c < json_array_size(cols); c++) {
		long long n = (long long)json_integer_value(json_array_get(cols, c));

		snprintf(t, sizeof(t), "%lld %s%s", n, sync ? "writer" : "initiator", n == 1 ? "" : "s");
		printf(" %-*s", CELL_W, t);
	}
	putchar('\n');
	for (r = 0; r < json_array_size(rows); r++) {
		long long m = (long long)json_integer_value(json_array_get(rows, r));

		printf("%3lld CPU%s in mask", m, m == 1 ? " " : "s");
		for (c = 0; c < json_array_size(cols); c++) {
			cell_text(json_array_get(json_array_get(json_object_get(p, "cells"), r), c), t, sizeof(t),
				  levels);
			printf(" %-*s", CELL_W, t);
		}
		putchar('\n');
	}
}

/* --flat's numeric columns: A, B, change, interval, method. */
enum { FL_A, FL_B, FL_CH, FL_CI, FL_METHOD, FL_N };

/* Case cs's --flat columns into t (each at most 48 bytes). */
static void flat_cells(json_t *cs, char t[FL_N][48])
{
	char lo[48], hi[48];
	const char *m = json_string_value(json_object_get(cs, "method"));

	jstr(json_object_get(cs, "a_p50"), t[FL_A], 48);
	jstr(json_object_get(cs, "b_p50"), t[FL_B], 48);
	jstr(json_object_get(cs, "change_pct"), t[FL_CH], 48);
	snprintf(t[FL_CI], 48, "%s[%s, %s]", json_is_true(json_object_get(cs, "ci_at_resolution")) ? "~" : "",
		 jstr(json_object_get(cs, "ci_low"), lo, sizeof(lo)),
		 jstr(json_object_get(cs, "ci_high"), hi, sizeof(hi)));
	snprintf(t[FL_METHOD], 48, "%s", m ? m : "-");
}

/* --flat: one line per matched case, the whole key (never cut). Each
 * column is as wide as its widest value (two passes): a fixed width
 * pushed every later column right on the line of an 8-digit cycle count. */
static void flat(json_t *o)
{
	char ah[24], bh[24];
	const char *head[FL_N] = { ah, bh, "CHANGE%", "95% CI", "METHOD" };
	json_t *cs, *v, *cases = json_object_get(o, "cases");
	int w[FL_N];
	size_t i;
	const char *k;
	char t[FL_N][48], kv[48];

	/* A_P50_CYCLES, or lock_hold's A_HOLD_CYCLES: what the values are of
	 * (the table's figure), and their unit: they are compare.csv's TSC
	 * cycles, where --format text converts to ns and says "ns" */
	snprintf(ah, sizeof(ah), "A_%s_cycles", compare_figure(o));
	snprintf(bh, sizeof(bh), "B_%s_cycles", compare_figure(o));
	for (char *p = ah; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	for (char *p = bh; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	for (int c = 0; c < FL_N; c++)
		w[c] = (int)strlen(head[c]);
	json_array_foreach(cases, i, cs) {
		flat_cells(cs, t);
		for (int c = 0; c < FL_N; c++)
			if ((int)strlen(t[c]) > w[c])
				w[c] = (int)strlen(t[c]);
	}
	/* CHANGE% carries its significance star right after it */
	printf("%*s %*s %*s  %*s %-*s %s\n", w[FL_A], head[FL_A], w[FL_B], head[FL_B], w[FL_CH], head[FL_CH],
	       w[FL_CI], head[FL_CI], w[FL_METHOD], head[FL_METHOD], "CASE");
	json_array_foreach(cases, i, cs) {
		flat_cells(cs, t);
		printf("%*s %*s %*s%s %*s %-*s", w[FL_A], t[FL_A], w[FL_B], t[FL_B], w[FL_CH], t[FL_CH],
		       json_is_true(json_object_get(cs, "significant")) ? "*" : " ", w[FL_CI], t[FL_CI],
		       w[FL_METHOD], t[FL_METHOD]);
		json_object_foreach(json_object_get(cs, "key"), k, v)
			printf(" %s=%s", k, jstr(v, kv, sizeof(kv)));
		putchar('\n');
	}
}

/* The seed table's notes on its intervals (compare_interval_notes): a
 * blank line above the first. */
static void seed_note(const char *text, void *first)
{
	if (*(int *)first)
		putchar('\n');
	*(int *)first = 0;
	compare_wrap("", "", text);
}

int cmd_compare(int argc, char **argv)
{
	struct cmp_args ca = { 0 };
	const char *format = NULL, *baseline = NULL, *html = NULL;
	int rc, csv = 0, as_json = 0, as_flat = 0, npos, first = 1;
	const struct cmdopt opts[] = {
		OPT_STR("algo-a", &ca.algo_a), OPT_STR("algo-b", &ca.algo_b), OPT_FLAG("csv", &csv),
		OPT_FLAG("json", &as_json), OPT_FLAG("flat", &as_flat),
		OPT_STR("a-where", &ca.a_where), OPT_STR("b-where", &ca.b_where), OPT_STR("baseline", &baseline),
		OPT_STR("fdr", &ca.fdr), OPT_STR("min-effect", &ca.min_effect), OPT_STR("format", &format),
		OPT_STR("html", &html), OPT_STR("row", &ca.row), OPT_STR("stat", &ca.stat), OPT_END,
	};
	const struct cmd cmd = { "xcbench compare", usage, opts };
	struct buf path = { 0 };
	json_t *o, *cs;
	size_t i;

	if (cmd_parse(&cmd, argc, argv, &rc))
		return rc;
	npos = argc - optind;
	if (baseline ? npos != 1 : npos != 2) {
		fprintf(stderr, "xcbench compare: expected %s\n", baseline ? "one side (B) after --baseline A"
									: "two sides (A B), each a run id or a list 1,2,3");
		return cmd_usage_error(&cmd);
	}
	ca.a = baseline ? baseline : argv[optind];
	ca.b = argv[argc - 1];
	if (compare_sides("xcbench compare", &ca))
		return 2;
	if (!ca.algo_a != !ca.algo_b) {
		fprintf(stderr, "xcbench compare: --algo-a and --algo-b go together\n");
		return 2;
	}
	if (format && strcmp(format, "seed") && strcmp(format, "text") && strcmp(format, "markdown")) {
		fprintf(stderr, "xcbench compare: --format is text, markdown or seed, not '%s'\n", format);
		return 2;
	}
	if (csv && as_json) {
		fprintf(stderr, "xcbench compare: --csv or --json, not both\n");
		return cmd_usage_error(&cmd);
	}
	/* --format shapes the printed table: beside --csv, --json or --flat
	 * (each an output of its own) it was taken and ignored. The seed
	 * table has a CSV of its own (compare.csv?format=seed): --format
	 * seed --csv is that. */
	if (format && (csv || as_json || as_flat) && !(csv && strcmp(format, "seed") == 0)) {
		fprintf(stderr, "xcbench compare: --format %s and --%s: one output (--format is the printed "
			"table's)\n", format, csv ? "csv" : as_json ? "json" : "flat");
		return 2;
	}
	/* The JSON answer first, whatever is printed: the HTML file and the
	 * no-case verdict (exit 3) come from it in every form. */
	compare_path(&ca, 0, &path);
	o = get_answer(path.p, 0, &rc);
	buf_free(&path);
	if (!o)
		return rc;
	if (!format)
		format = csv ? NULL : "seed";
	if (html && compare_html(o, html)) {
		json_decref(o);
		return 1;
	}
	rc = 0;
	if (csv) {
		compare_path(&ca, 1, &path);
		if (format && strcmp(format, "seed") == 0)
			buf_addf(&path, "&format=seed");
		rc = http_get_to("compare", path.p, stdout);
		buf_free(&path);
	} else if (as_json) {
		print_json(json_incref(o));
	} else if (as_flat) {
		flat(o);
	} else if (strcmp(format, "seed") == 0) {
		/* which runs the table is of: a pasted table keeps its context */
		compare_sides_header(o);
		json_array_foreach(json_object_get(o, "pivots"), i, cs)
			pivot(cs, json_string_value(json_object_get(o, "row")), json_object_get(o, "a_where"),
			      json_object_get(o, "b_where"), compare_stat_other(o));
		compare_interval_notes(json_object_get(o, "cases"), 0, seed_note, &first);
		/* what a '*' takes (the daemon's line, as the text form's): a
		 * cell whose interval excludes 0 may have none, and the table
		 * alone does not say why */
		if (json_array_size(json_object_get(o, "cases"))) {
			putchar('\n');
			compare_wrap("", "   ", json_string_value(json_object_get(o, "star_text")) ?: "");
		}
		putchar('\n');
		if (compare_failed_legend(o) + compare_no_flush_legend(o) + compare_level_legend(o))
			putchar('\n');
	} else {
		compare_report(o, strcmp(format, "markdown") == 0 ? CMP_MARKDOWN : CMP_TEXT, 0);
	}
	if (!csv && !as_json) {
		compare_warnings(o);
		compare_summary(o);
	}
	if (rc == 0 && json_array_size(json_object_get(o, "cases")) == 0) {
		rc = 3;
		/* --csv and --json print no warnings: the ones that say which
		 * restriction matched nothing ("A: no case has algo=mien (its
		 * cases have algo: ...)") go to stderr with the verdict */
		if (csv || as_json) {
			size_t k;
			json_t *w;

			json_array_foreach(json_object_get(o, "warnings"), k, w)
				if (strstr(json_string_value(w), ": no case has "))
					fprintf(stderr, "warning: %s\n", json_string_value(w));
		}
		fprintf(stderr, "xcbench compare: no case matched (unmatched: %lld in A, %lld in B): check the run ids, "
			"--algo-a/--algo-b and --a-where/--b-where%s\n",
			(long long)json_integer_value(json_object_get(o, "unmatched_a")),
			(long long)json_integer_value(json_object_get(o, "unmatched_b")),
			!ca.row ? "" : strcmp(ca.row, pseudo_words_lock_hold.name) ? " (--row: only sync cases have that row)"
			: " (--row lock_hold: only cases with a lock profile)");
	}
	json_decref(o);
	return rc;
}
