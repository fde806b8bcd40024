/*
 * compare_html.c — `xcbench compare … --html FILE`: a comparison as ONE
 * self-contained HTML file to attach or archive: both sides named, the
 * row compared, the method, the conditions of each side, the warnings, the summary, and per
 * group of the other axes a
 * forest plot (inline SVG: each case's % change as a dot with its 95 %
 * interval as a bar, zero line, marked cases coloured) beside a table of
 * absolute p50 values, % change, interval and q. No script, no external
 * file: it opens the same anywhere, years later.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "client.h"
#include "compare_text.h"
#include "pseudo_words.h"

/* Writes s HTML-escaped. */
static void esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

static double num(json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A key's integer as text ("–" where the case has no such key: a sync
 * case's initiators, say), never an invented 0. */
static const char *key_int(json_t *key, const char *name, char out[24])
{
	json_t *v = json_object_get(key, name);

	if (json_is_integer(v))
		snprintf(out, 24, "%lld", (long long)json_integer_value(v));
	else
		snprintf(out, 24, "\xe2\x80\x93");
	return out;
}

/* A case's interval as text: "[lo, hi]", "~[lo, hi]", or why there is
 * none (compare_ci_text: the text report's words). */
static const char *interval(json_t *c, char out[48])
{
	return compare_ci_text(c, out, 48, "\xe2\x80\x93");
}

/* compare_interval_notes' line: a paragraph. */
static void note_par(const char *text, void *f)
{
	fputs("<p class='note'>", f);
	esc(f, text);
	fputs("</p>\n", f);
}

/* The sides' conditions (payload, firmware, CPUs, hypervisor, ...) as a
 * table: the file is read away from the daemon, so it carries them. */
static void conditions(FILE *f, json_t *conds)
{
	json_t *c, *v;
	size_t i, j;

	if (!json_array_size(conds))
		return;
	fputs("<table id='conditions'><tr><th>condition</th><th>A</th><th>B</th></tr>\n", f);
	json_array_foreach(conds, i, c) {
		fputs(json_is_true(json_object_get(c, "same")) ? "<tr>" : "<tr class='warn'>", f);
		fputs("<td>", f);
		esc(f, json_string_value(json_object_get(c, "what")));
		for (int s = 0; s < 2; s++) {
			fputs("</td><td>", f);
			json_array_foreach(json_object_get(c, s ? "b" : "a"), j, v) {
				const char *t = json_string_value(v);

				if (j)
					fputs(", ", f);
				esc(f, t && *t ? t : "\xe2\x80\x93");
			}
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static const char *side_list(json_t *o, const char *key, struct buf *b)
{
	json_t *r, *w = json_object_get(o, key[0] == 'a' ? "a_where" : "b_where"), *v;
	size_t i;
	const char *k;

	json_array_foreach(json_object_get(o, key), i, r) {
		const char *l = json_string_value(json_object_get(r, "label"));

		buf_addf(b, "%s#%lld%s%s%s", i ? ", " : "", (long long)json_integer_value(json_object_get(r, "id")),
			 l ? " \xe2\x80\x9c" : "", l ? l : "", l ? "\xe2\x80\x9d" : "");
	}
	json_object_foreach(w, k, v)
		buf_addf(b, "%s%s=%s", strchr(b->p ? b->p : "", ';') ? " " : "; only ", k, json_string_value(v));
	return b->p ? b->p : "";
}

/* One forest plot: rows = the group's cases. */
static void forest(FILE *f, json_t *members)
{
	size_t n = json_array_size(members), i;
	double lo = -10, hi = 10;
	const int W = 520, L = 110, R = 20, ROW = 22, TOP = 24;
	json_t *c;

	json_array_foreach(members, i, c) {
		double a = num(json_object_get(c, "ci_low")), b = num(json_object_get(c, "ci_high"));
		double ch = num(json_object_get(c, "change_pct"));

		if (!isnan(a) && a < lo) lo = a;
		if (!isnan(b) && b > hi) hi = b;
		if (!isnan(ch) && ch < lo) lo = ch;
		if (!isnan(ch) && ch > hi) hi = ch;
	}
	lo = floor(lo / 10) * 10;
	hi = ceil(hi / 10) * 10;
#define X(v) (L + ((v) - lo) / (hi - lo) * (W - L - R))
	fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%zu' role='img' "
		   "aria-label='%% change with 95%% interval per case'>\n", W, TOP + n * ROW + 28);
	fprintf(f, "<line x1='%.1f' y1='%d' x2='%.1f' y2='%zu' stroke='#9ca3af' stroke-dasharray='3,3'/>\n",
		X(0), TOP - 6, X(0), TOP + n * ROW);
	for (double t = lo; t <= hi + 1e-9; t += (hi - lo) / 4)
		fprintf(f, "<text x='%.1f' y='%zu' font-size='10' text-anchor='middle' fill='#6b7280'>%+.0f%%</text>\n",
			X(t), TOP + n * ROW + 14, t);
	fprintf(f, "<text x='%d' y='12' font-size='10' fill='#6b7280'>CPUs in mask, initiators</text>\n", 4);
	json_array_foreach(members, i, c) {
		json_t *key = json_object_get(c, "key");
		double a = num(json_object_get(c, "ci_low")), b = num(json_object_get(c, "ci_high"));
		double ch = num(json_object_get(c, "change_pct"));
		int sig = json_is_true(json_object_get(c, "significant"));
		const char *col = !sig ? "#6b7280" : ch < 0 ? "#15803d" : "#b91c1c";
		double y = TOP + i * ROW + ROW / 2.0;
		char mk[24], in[24], ci[48];

		fprintf(f, "<text x='4' y='%.1f' font-size='11' dominant-baseline='middle'>%s CPU, %s init</text>\n", y,
			key_int(key, "mask", mk), key_int(key, "inits", in));
		if (!isnan(a) && !isnan(b))
			fprintf(f, "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='%s' stroke-width='3'/>\n", X(a), y,
				X(b), y, col);
		if (!isnan(ch))
			fprintf(f, "<circle cx='%.1f' cy='%.1f' r='4' fill='%s'><title>%+.2f%% %s%s</title></circle>\n",
				X(ch), y, col, ch, interval(c, ci), sig ? " marked" : "");
	}
	fputs("</svg>\n", f);
#undef X
}

int compare_html(json_t *o, const char *path)
{
	FILE *f = fopen(path, "w");
	json_t *groups = NULL, *c, *members, *w, *s = json_object_get(o, "summary");
	struct buf a = { 0 }, b = { 0 };
	const char *gk, *row = json_string_value(json_object_get(o, "row"));
	const struct pseudo_words *pw = pseudo_words_of(row);
	const char *figure = compare_figure(o), *stat = json_string_value(json_object_get(o, "stat"));
	size_t i;

	if (!f) {
		fprintf(stderr, "xcbench compare: cannot write '%s': %s\n", path, strerror(errno));
		json_decref(groups);
		return -1;
	}
	groups = compare_groups(json_object_get(o, "cases"), 0);
	fputs("<!doctype html>\n<html lang='en'><head><meta charset='utf-8'>\n<title>xcbench comparison</title>\n"
	      "<style>body{font:14px system-ui,sans-serif;margin:2em;color:#111827}"
	      "table{border-collapse:collapse;margin:.5em 0}td,th{padding:3px 8px;border-bottom:1px solid #e5e7eb}"
	      "td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}.warn{color:#b45309}"
	      ".up{color:#b91c1c;font-weight:600}.down{color:#15803d;font-weight:600}"
	      ".g{display:flex;gap:2em;flex-wrap:wrap;align-items:flex-start}h2{font-size:1.05em;margin-top:1.6em}"
	      "</style></head><body>\n<h1>xcbench comparison: B against baseline A</h1>\n", f);
	fputs("<p><b>A</b>: ", f);
	esc(f, side_list(o, "a_runs", &a));
	fputs("<br><b>B</b>: ", f);
	esc(f, side_list(o, "b_runs", &b));
	fputs("</p>\n<p id='row'><b>Row compared</b>: ", f);
	/* the row's name and measure (the row table's words; row all's
	 * per kind: method_text below names them) */
	esc(f, row ? row : "all");
	if (pw) {
		fputs(", ", f);
		esc(f, pw->measure);
	}
	/* the statistic each repetition gives (the answer's stat) */
	fputs("</p>\n<p id='stat'><b>Statistic</b>: each repetition's ", f);
	esc(f, stat ? stat : "median");
	fputs("</p>\n<p>", f);
	esc(f, json_string_value(json_object_get(o, "method_text")));
	/* the star's rule: the daemon's line, as every form's */
	fputs("; ", f);
	esc(f, json_string_value(json_object_get(o, "star_text")));
	fputs(".</p>\n", f);
	conditions(f, json_object_get(o, "conditions"));
	json_array_foreach(json_object_get(o, "warnings"), i, w) {
		fputs("<p class='warn'>&#9888; ", f);
		esc(f, json_string_value(w));
		fputs("</p>\n", f);
	}
	json_array_foreach(json_object_get(o, "mismatches"), i, w) {
		fputs("<p class='warn'>&#9888; ", f);
		esc(f, json_string_value(w));
		fputs("</p>\n", f);
	}
	fprintf(f, "<p id='summary'><b>%lld of %lld matched cases changed</b> (%lld slower, %lld faster); "
		   "unmatched: %lld in A, %lld in B.</p>\n",
		(long long)json_integer_value(json_object_get(s, "flagged")), (long long)json_integer_value(json_object_get(s, "cases")),
		(long long)json_integer_value(json_object_get(s, "slower")), (long long)json_integer_value(json_object_get(s, "faster")),
		(long long)json_integer_value(json_object_get(o, "unmatched_a")),
		(long long)json_integer_value(json_object_get(o, "unmatched_b")));
	json_object_foreach(groups, gk, members) {
		fputs("<h2>", f);
		esc(f, gk);
		fputs("</h2>\n<div class='g'>\n", f);
		forest(f, members);
		fprintf(f, "<table><tr><th class='n'>CPUs in mask</th><th class='n'>initiators</th><th class='n'>A %s (cycles)</th>"
			   "<th class='n'>B %s (cycles)</th><th class='n'>change</th><th class='n'>95%% interval</th><th class='n'>q</th></tr>\n",
			figure, figure);
		json_array_foreach(members, i, c) {
			json_t *key = json_object_get(c, "key");
			double ch = num(json_object_get(c, "change_pct")), q = num(json_object_get(c, "q"));
			int sig = json_is_true(json_object_get(c, "significant"));
			char mk[24], in[24], ci[48], qs[24];
			/* a case that failed a check, one of method none: the
			 * text report's marks */
			const char *fm = compare_failed_mark(c), *nf = compare_no_flush_mark(c);

			snprintf(qs, sizeof(qs), isnan(q) ? "\xe2\x80\x93" : "%.3f", q);
			fprintf(f, "<tr><td class='n'>%s</td><td class='n'>%s</td><td class='n'>%.0f</td><td class='n'>%.0f</td>"
				   "<td class='n %s'>%+.2f%%%s</td><td class='n'>%s%s%s%s%s%s%s</td><td class='n'>%s</td></tr>\n",
				key_int(key, "mask", mk), key_int(key, "inits", in),
				num(json_object_get(c, "a_p50")), num(json_object_get(c, "b_p50")),
				sig ? (ch > 0 ? "up" : "down") : "", ch, sig ? "*" : "", interval(c, ci),
				*fm ? " <b class='warn' title='failed a check (calls lost, duplicated or out of order, a stale "
				      "translation, or a watchdog): not the figures of a correct algorithm'>" : "", fm,
				*fm ? "</b>" : "", *nf ? " <b class='warn' title='" COMPARE_NO_FLUSH_LEGEND "'>" : "", nf,
				*nf ? "</b>" : "", qs);
		}
		fputs("</table>\n</div>\n", f);
	}
	compare_interval_notes(json_object_get(o, "cases"), 0, note_par, f);
	/* the text forms' legend of 0A/0B/0AB (compare_no_flush_legend) */
	if (json_integer_value(json_object_get(json_object_get(o, "summary"), "no_flush_a")) > 0 ||
	    json_integer_value(json_object_get(json_object_get(o, "summary"), "no_flush_b")) > 0)
		note_par(COMPARE_NO_FLUSH_LEGEND, f);
	fputs("<p style='color:#6b7280'>Made by xcbench compare --html; every number is the daemon's /api/v1/compare answer.</p>\n"
	      "</body></html>\n", f);
	buf_free(&a);
	buf_free(&b);
	json_decref(groups);
	/* A full disk shows at the flush: said, as for the open. */
	if (ferror(f) | fclose(f)) {
		fprintf(stderr, "xcbench compare: writing '%s' failed: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}
