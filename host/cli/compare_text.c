/*
 * compare_text.c — the paste-ready comparison report (compare_text.h): what
 * a reviewer pastes into a reply. Every line is at most 80 columns with no
 * trailing spaces; long lines wrap at a space with an indent.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "client.h"
#include "compare_text.h"
#include "pseudo_words.h"

#define WIDTH 80

void compare_path(const struct cmp_args *c, int csv, struct buf *path)
{
	buf_addf(path, "/api/v1/compare%s?a=", csv ? ".csv" : "");
	url_encode(path, c->a);
	buf_addf(path, "&b=");
	url_encode(path, c->b);
#define ARG(name, v) do { if (v) { buf_addf(path, "&" name "="); url_encode(path, v); } } while (0)
	ARG("algo_a", c->algo_a);
	ARG("algo_b", c->algo_b);
	ARG("a_where", c->a_where);
	ARG("b_where", c->b_where);
	ARG("fdr", c->fdr);
	ARG("min_effect", c->min_effect);
	ARG("row", c->row);
	ARG("stat", c->stat);
#undef ARG
}

const char *compare_stat_other(json_t *o)
{
	const char *s = json_string_value(json_object_get(o, "stat"));

	return s && strcmp(s, "median") != 0 ? s : NULL;
}

const char *compare_figure(json_t *o)
{
	const struct pseudo_words *pw = pseudo_words_of(json_string_value(json_object_get(o, "row")));

	return compare_stat_other(o) ?: (pw ? pw : &pseudo_words_all)->figure;
}

int compare_run_ids(const char *s, json_t *ids)
{
	int n = 0;

	while (*s) {
		uint64_t v;
		char t[24];
		size_t len = strcspn(s, ",");

		if (len == 0 || len >= sizeof(t))
			return -1;
		memcpy(t, s, len);
		t[len] = 0;
		if (parse_id(t, &v))
			return -1;
		if (ids)
			json_array_append_new(ids, json_integer((json_int_t)v));
		n++;
		s += len;
		if (*s == ',' && !*++s)
			return -1;
	}
	return n ? 0 : -1;
}

int compare_run_list(const char *s)
{
	return compare_run_ids(s, NULL);
}

/* Prints text wrapped at WIDTH (compare_text.h): the first line after first, the rest
 * after indent; words split at spaces; never a trailing space. */
void compare_wrap(const char *first, const char *indent, const char *text)
{
	size_t col = strlen(first), ind = strlen(indent);
	const char *p = text;
	int start = 1;

	fputs(first, stdout);
	while (*p) {
		size_t w;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		w = strcspn(p, " ");
		if (!start && col + 1 + w > WIDTH) {
			printf("\n%s", indent);
			col = ind;
			start = 1;
		}
		if (!start) {
			putchar(' ');
			col++;
		}
		fwrite(p, 1, w, stdout);
		col += w;
		p += w;
		start = 0;
	}
	putchar('\n');
}

static const char *sval(json_t *v)
{
	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* The distinct values of one condition on one side ("a" or "b"), joined. */
static void cond_text(json_t *o, const char *name, const char *side, struct buf *b)
{
	size_t i, j;
	json_t *c, *v;

	json_array_foreach(json_object_get(o, "conditions"), i, c) {
		if (strcmp(sval(json_object_get(c, "name")) ?: "", name))
			continue;
		json_array_foreach(json_object_get(c, side), j, v)
			buf_addf(b, "%s%s", j ? "|" : "", *json_string_value(v) ? json_string_value(v) : "-");
		return;
	}
	buf_addf(b, "-");
}

/* 1 if the list b ("x, y, z", each item as fmt wrote it) holds item:
 * whole items, so lab "A" is not taken for part of "AB". */
static int listed(const struct buf *b, const char *fmt, const char *item)
{
	char one[256];

	if (!b->p)
		return 0;
	snprintf(one, sizeof(one), fmt, item);
	for (const char *p = b->p; (p = strstr(p, one)); p++)
		if ((p == b->p || p[-1] == ' ') && (!p[strlen(one)] || p[strlen(one)] == ','))
			return 1;
	return 0;
}

/* "A: runs 1, 2, 3 (3 boots) ..." naming one side. */
static void side_header(json_t *o, const char *side, const char *label, int md)
{
	char key[16];
	json_t *runs, *r;
	struct buf b = { 0 }, t = { 0 };
	size_t i, n;
	const char *first = NULL, *last = NULL;

	snprintf(key, sizeof(key), "%s_runs", side);
	runs = json_object_get(o, key);
	n = json_array_size(runs);
	buf_addf(&b, "run%s", n == 1 ? "" : "s");
	json_array_foreach(runs, i, r)
		buf_addf(&b, "%s %lld", i ? "," : "", (long long)json_integer_value(json_object_get(r, "id")));
	buf_addf(&b, " (%zu boot%s);", n, n == 1 ? "" : "s");
	{
		/* labels, machines and labs: distinct, in run order (a lab only
		 * where the store has labs: across labs, which side is whose) */
		struct buf lab = { 0 }, mac = { 0 }, labs = { 0 };

		json_array_foreach(runs, i, r) {
			const char *l = sval(json_object_get(r, "label"));
			const char *m = sval(json_object_get(json_object_get(r, "machine"), "mac"));
			const char *lb = sval(json_object_get(r, "lab"));

			if (lb && !listed(&labs, "%s", lb))
				buf_addf(&labs, "%s%s", labs.len ? ", " : "", lb);
			const char *cr = sval(json_object_get(r, "created"));

			if (l && !listed(&lab, "\"%s\"", l))
				buf_addf(&lab, "%s\"%s\"", lab.len ? ", " : "", l);
			if (m && !listed(&mac, "%s", m))
				buf_addf(&mac, "%s%s", mac.len ? ", " : "", m);
			if (cr) {
				if (!first || strcmp(cr, first) < 0)
					first = cr;
				if (!last || strcmp(cr, last) > 0)
					last = cr;
			}
		}
		buf_addf(&b, " label %s; machine %s;", lab.p ? lab.p : "-", mac.p ? mac.p : "-");
		if (labs.p)
			buf_addf(&b, " lab %s;", labs.p);
		buf_free(&lab);
		buf_free(&mac);
		buf_free(&labs);
	}
	snprintf(key, sizeof(key), "%s_where", side);
	if (json_object_size(json_object_get(o, key))) {
		const char *k;
		json_t *v;

		buf_addf(&b, " only");
		json_object_foreach(json_object_get(o, key), k, v)
			buf_addf(&b, " %s=%s", k, json_string_value(v));
		buf_addf(&b, ";");
	}
	buf_addf(&b, " firmware ");
	cond_text(o, "firmware", side, &b);
	buf_addf(&b, "; ");
	cond_text(o, "cpus", side, &b);
	buf_addf(&b, " CPUs; suite ");
	cond_text(o, "suite", side, &b);
	buf_addf(&b, "; payload ");
	cond_text(o, "payload", side, &b);
	if (first)
		buf_addf(&b, "; %.16s%s%.16s", first, strcmp(first, last) ? " to " : "",
			 strcmp(first, last) ? last : "");
	buf_addf(&t, md ? "- **%s:** " : "%s: ", label);
	compare_wrap(t.p, md ? "  " : "   ", b.p);
	buf_free(&b);
	buf_free(&t);
}

/* A latency in cycles as ns with the side's TSC rate (kHz). */
static double to_ns(json_t *cycles, double khz)
{
	return json_is_number(cycles) && khz > 0 ? json_number_value(cycles) * 1e6 / khz : NAN;
}

static double side_khz(json_t *o, const char *side)
{
	json_t *r = json_object_get(o, side);
	json_t *k = json_object_get(r, "tsc_khz");
	double v = json_is_number(k) ? json_number_value(k) : 0;

	if (!(v > 0) && sval(json_object_get(json_object_get(r, "facts"), "tsc_khz")))
		v = atof(sval(json_object_get(json_object_get(r, "facts"), "tsc_khz")));
	return v;
}

/* The group a case belongs to: every key but mask and inits, as text. */
static void group_of(json_t *key, struct buf *b)
{
	const char *k;
	json_t *v;
	char t[64];

	json_object_foreach(key, k, v) {
		if (strcmp(k, "mask") == 0 || strcmp(k, "inits") == 0)
			continue;
		buf_addf(b, "%s%s=%s", b->len ? " " : "", k, jstr(v, t, sizeof(t)));
	}
	if (!b->p)
		buf_addf(b, "(all)");
}

int compare_regressed(json_t *c)
{
	return json_is_true(json_object_get(c, "significant")) && json_number_value(json_object_get(c, "change_pct")) > 0 &&
	       !json_is_true(json_object_get(c, "a_failed")) && !json_is_true(json_object_get(c, "b_no_flush"));
}

const char *compare_failed_mark(json_t *c)
{
	int a = json_is_true(json_object_get(c, "a_failed")), b = json_is_true(json_object_get(c, "b_failed"));

	return a && b ? "!AB" : a ? "!A" : b ? "!B" : "";
}

int compare_failed_legend(json_t *o)
{
	json_t *s = json_object_get(o, "summary");

	if (json_integer_value(json_object_get(s, "failed_a")) <= 0 && json_integer_value(json_object_get(s, "failed_b")) <= 0)
		return 0;
	compare_wrap("", "", "!A, !B, !AB: the case failed a check in A's, B's, both sides' boots (calls lost, "
		     "duplicated or out of order, a stale translation, or a watchdog): its figures are not those "
		     "of a correct algorithm");
	return 1;
}

const char *compare_no_flush_mark(json_t *c)
{
	int a = json_is_true(json_object_get(c, "a_no_flush")), b = json_is_true(json_object_get(c, "b_no_flush"));

	return a && b ? "0AB" : a ? "0A" : b ? "0B" : "";
}

int compare_no_flush_legend(json_t *o)
{
	json_t *s = json_object_get(o, "summary");

	if (json_integer_value(json_object_get(s, "no_flush_a")) <= 0 &&
	    json_integer_value(json_object_get(s, "no_flush_b")) <= 0)
		return 0;
	compare_wrap("", "", COMPARE_NO_FLUSH_LEGEND);
	return 1;
}

unsigned compare_levels(json_t *arr)
{
	unsigned l = 0;
	size_t i;
	json_t *c;

	json_array_foreach(arr, i, c) {
		const char *v = sval(json_object_get(c, "level"));

		if (json_is_array(c))
			l |= compare_levels(c);
		else if (v)
			l |= !strcmp(v, "between_boot") ? CMP_BETWEEN : CMP_WITHIN;
	}
	return l;
}

const char *compare_level_mark(json_t *c, unsigned levels)
{
	const char *v = sval(json_object_get(c, "level"));

	return levels == (CMP_BETWEEN | CMP_WITHIN) && v && strcmp(v, "between_boot") ? "1 boot" : "";
}

int compare_level_legend(json_t *o)
{
	if (strcmp(sval(json_object_get(o, "level")) ?: "", "mixed"))
		return 0;
	compare_wrap("", "", "1 boot: the case is in one boot of a side (the others' in 2 or more): its figures are "
		     "that boot's medians of its repetitions, its interval within-boot only");
	return 1;
}

/* 1 if compare_groups(cases, only_verdict) takes case c. */
static int case_shown(json_t *c, int only_verdict)
{
	return !only_verdict || compare_regressed(c) || json_is_true(json_object_get(c, "b_failed"));
}

json_t *compare_groups(json_t *cases, int only_verdict)
{
	json_t *groups = json_object(), *c, *members;
	size_t i;

	json_array_foreach(cases, i, c) {
		struct buf g = { 0 };

		if (!case_shown(c, only_verdict))
			continue;
		group_of(json_object_get(c, "key"), &g);
		members = json_object_get(groups, g.p);
		if (!members) {
			members = json_array();
			json_object_set_new(groups, g.p, members);
		}
		json_array_append(members, c);
		buf_free(&g);
	}
	return groups;
}

const char *compare_ci_text(json_t *c, char *out, size_t cap, const char *none_text)
{
	json_t *lo = json_object_get(c, "ci_low"), *hi = json_object_get(c, "ci_high");
	const char *m = sval(json_object_get(c, "method"));

	if (json_is_number(lo) && json_is_number(hi))
		snprintf(out, cap, "%s[%+.2f, %+.2f]", json_is_true(json_object_get(c, "ci_at_resolution")) ? "~" : "",
			 json_number_value(lo), json_number_value(hi));
	else
		snprintf(out, cap, "%s", m && !strcmp(m, "too_few_reps")    ? "(too few reps)"
					 : m && !strcmp(m, "too_few_boots") ? "(too few boots)"
									    : none_text);
	return out;
}

int compare_interval_notes(json_t *cases, int only_verdict, void (*line)(const char *text, void *arg), void *arg)
{
	int reps = 0, boots = 0, res = 0, n = 0;
	size_t i;
	json_t *c;

	json_array_foreach(cases, i, c) {
		const char *m = sval(json_object_get(c, "method"));

		if (!case_shown(c, only_verdict))
			continue;
		reps |= m && !strcmp(m, "too_few_reps");
		boots |= m && !strcmp(m, "too_few_boots");
		res |= json_is_true(json_object_get(c, "ci_at_resolution"));
	}
	/* the daemon's rules (host/API.md, method): COMPARE_MIN_REPS,
	 * COMPARE_MIN_BOOTS, compare.c at_resolution */
	if (reps && ++n)
		line("too few repetitions for an interval: 5 or more per side are needed (reps=5)", arg);
	if (boots && ++n)
		line("too few boots for an interval: 3 or more per side are needed (Welch's t on 2 boots a side has 1 "
		     "to 2 degrees of freedom): the change only, not tested, never marked", arg);
	if (res && ++n)
		line("~: the interval is the histogram's resolution: each p50 is its histogram bucket's midpoint "
		     "(buckets 0.4-0.8 % wide), the spread measured was narrower, and the change is known no finer "
		     "than the two buckets allow", arg);
	return n;
}

/* 1 when side A names no stored baseline, last:N or label: but is not a run list. */
static int bad_side_a(const char *a)
{
	return strcmp(a, "baseline") && strncmp(a, "last:", 5) && strncmp(a, "label:", 6) && compare_run_list(a);
}

int compare_sides(const char *cmd, struct cmp_args *ca)
{
	if (strcmp(ca->a, "stored") == 0)
		ca->a = "baseline";	/* the API's name for the stored baseline */
	if (bad_side_a(ca->a) || (strncmp(ca->b, "label:", 6) && compare_run_list(ca->b))) {
		fprintf(stderr, "%s: a side is a run id or a list of run ids (1,2,3), not '%s'\n", cmd,
			bad_side_a(ca->a) ? ca->a : ca->b);
		return -1;
	}
	return 0;
}

static void num(char *out, size_t cap, json_t *v, const char *fmt)
{
	if (json_is_number(v))
		snprintf(out, cap, fmt, json_number_value(v));
	else
		snprintf(out, cap, "-");
}

/* One table row's cells as text. */
struct row {
	char mask[8], inits[8], a[16], b[16], ch[16], ci[28], boots[12];
	/* compare_failed_mark ("" or "!A", "!B", "!AB"), compare_no_flush_mark
	 * ("0A", "0B", "0AB"), then compare_level_mark */
	char mark[24];
};

static void row_of(json_t *c, double ka, double kb, int md, unsigned levels, struct row *r)
{
	json_t *key = json_object_get(c, "key");
	double an = to_ns(json_object_get(c, "a_p50"), ka), bn = to_ns(json_object_get(c, "b_p50"), kb);

	num(r->mask, sizeof(r->mask), json_object_get(key, "mask"), "%.0f");
	num(r->inits, sizeof(r->inits), json_object_get(key, "inits"), "%.0f");
	snprintf(r->a, sizeof(r->a), isnan(an) ? "-" : "%.0f", an);
	snprintf(r->b, sizeof(r->b), isnan(bn) ? "-" : "%.0f", bn);
	if (json_is_number(json_object_get(c, "change_pct")))
		snprintf(r->ch, sizeof(r->ch), "%+.2f%%%s", json_number_value(json_object_get(c, "change_pct")),
			 json_is_true(json_object_get(c, "significant")) ? "*" : "");
	else
		snprintf(r->ch, sizeof(r->ch), "-");
	/* Markdown: '\~', a tilde GitHub cannot take for a strikethrough */
	compare_ci_text(c, r->ci + md, sizeof(r->ci) - 1, "-");
	if (md && r->ci[1] == '~')
		r->ci[0] = '\\';
	else
		memmove(r->ci, r->ci + md, strlen(r->ci + md) + 1);
	snprintf(r->boots, sizeof(r->boots), "%lld/%lld", (long long)json_integer_value(json_object_get(c, "a_boots")),
		 (long long)json_integer_value(json_object_get(c, "b_boots")));
	const char *marks[3] = { compare_failed_mark(c), compare_no_flush_mark(c), compare_level_mark(c, levels) };
	size_t n = 0;

	r->mark[0] = 0;
	for (size_t i = 0; i < 3; i++)
		if (*marks[i] && n < sizeof(r->mark))
			n += (size_t)snprintf(r->mark + n, sizeof(r->mark) - n, "%s%s", n ? " " : "", marks[i]);
}

/* Columns: mask inits A B change interval; widths fit 80 with room, the
 * mark of a failed check too (after the interval: text's last column has
 * no width, Markdown's interval cell carries it). */
static void print_row(const struct row *r, int md)
{
	const char *mk = r->mark;

	if (md)
		printf("| %s | %s | %s | %s | %s | %s%s%s |\n", r->mask, r->inits, r->a, r->b, r->ch, r->ci,
		       *mk ? " " : "", mk);
	else
		printf("%5s %6s %13s %13s %10s %18s%s%s\n", r->mask, r->inits, r->a, r->b, r->ch, r->ci, *mk ? " " : "",
		       mk);
}

/* compare_interval_notes' line in the text and Markdown reports */
static void note_line(const char *text, void *arg)
{
	(void)arg;
	compare_wrap("", "", text);
}

void compare_sides_header(json_t *o)
{
	side_header(o, "a", "A", 0);
	side_header(o, "b", "B", 0);
}

size_t compare_report(json_t *o, enum cmp_format f, int only_verdict)
{
	int md = f == CMP_MARKDOWN;
	json_t *cases = json_object_get(o, "cases"), *groups, *c;
	double ka = side_khz(o, "a"), kb = side_khz(o, "b");
	const char *gk;
	json_t *members;
	size_t i, shown = 0;
	struct buf t = { 0 };
	const char *figure = compare_figure(o);

	if (md)
		printf("### xcbench compare: B against baseline A\n\n");
	else
		printf("xcbench compare: B against baseline A\n");
	side_header(o, "a", "A", md);
	side_header(o, "b", "B", md);
	/* the star's rule is the daemon's line (star_text), as every form's */
	buf_addf(&t, "%s; %s", sval(json_object_get(o, "method_text")) ?: "",
		 sval(json_object_get(o, "star_text")) ?: "");
	compare_wrap(md ? "- method: " : "method: ", md ? "  " : "   ", t.p);
	buf_free(&t);
	groups = compare_groups(cases, only_verdict);	/* in the cases' order */
	json_object_foreach(groups, gk, members) {
		/* between boots a side's figure is the geometric mean of its
		 * boots' medians (the method line says so): "gm" says it here */
		struct row hdr = { "mask", "inits", "", "", "change", "95% interval", "", "" };
		/* the group's cases' levels: a case in one boot of a side
		 * has its repetitions' median (marked where others have gm) */
		unsigned levels = compare_levels(members);
		int between = levels & CMP_BETWEEN;

		/* what the values are of: a p50, lock_hold's hold (the row table's figure) */
		snprintf(hdr.a, sizeof(hdr.a), "A %s%s ns", between ? "gm " : "", figure);
		snprintf(hdr.b, sizeof(hdr.b), "B %s%s ns", between ? "gm " : "", figure);

		putchar('\n');
		compare_wrap(md ? "Group: " : "", md ? "" : "  ", gk);
		if (md)
			putchar('\n');
		print_row(&hdr, md);
		if (md)
			printf("|---:|---:|---:|---:|---:|---:|\n");
		json_array_foreach(members, i, c) {
			struct row r;

			row_of(c, ka, kb, md, levels, &r);
			print_row(&r, md);
			shown++;
		}
	}
	json_decref(groups);
	putchar('\n');
	if (shown && compare_interval_notes(cases, only_verdict, note_line, NULL))
		putchar('\n');
	if (shown && compare_failed_legend(o) + compare_no_flush_legend(o) + compare_level_legend(o))
		putchar('\n');
	return shown;
}

void compare_warnings(json_t *o)
{
	size_t i, j;
	json_t *w;

	json_array_foreach(json_object_get(o, "warnings"), i, w)
		compare_wrap("warning: ", "   ", json_string_value(w));
	/* "mismatch: ", the word the warnings' "see mismatches" points at
	 * (the API's field): as "warning: " they read as unrelated warnings
	 * and the pointer led nowhere. */
	json_array_foreach(json_object_get(o, "mismatches"), j, w)
		compare_wrap("mismatch: ", "   ", json_string_value(w));
}

void compare_summary(json_t *o)
{
	json_t *s = json_object_get(o, "summary");
	struct buf b = { 0 };

#define I(k) (long long)json_integer_value(json_object_get(s, k))
	buf_addf(&b, "%lld of %lld matched cases changed (%lld slower, %lld faster) at FDR %.2g, min effect %.3g%%, "
		 "%lld boot%s vs %lld; %lld below the min effect; unmatched: %lld in A, %lld in B",
		 I("flagged"), I("cases"), I("slower"), I("faster"), json_number_value(json_object_get(o, "fdr")),
		 json_number_value(json_object_get(o, "min_effect_pct")),
		 (long long)json_integer_value(json_object_get(o, "boots_a")),
		 json_integer_value(json_object_get(o, "boots_a")) == 1 ? "" : "s",
		 (long long)json_integer_value(json_object_get(o, "boots_b")), I("below_min_effect"),
		 (long long)json_integer_value(json_object_get(o, "unmatched_a")),
		 (long long)json_integer_value(json_object_get(o, "unmatched_b")));
#undef I
	/* the sides' boots, and the cases that are in one of them only
	 * (compared within it, whatever the boots: each case's level) */
	size_t within = 0, i;
	json_t *c;

	json_array_foreach(json_object_get(o, "cases"), i, c)
		within += strcmp(sval(json_object_get(c, "level")) ?: "", "within_boot") == 0;
	if (within && json_integer_value(json_object_get(o, "boots_a")) > 1 &&
	    json_integer_value(json_object_get(o, "boots_b")) > 1)
		buf_addf(&b, "; %zu of %zu cases in 1 boot of a side (compared within it)", within,
			 json_array_size(json_object_get(o, "cases")));
	compare_wrap("summary: ", "   ", b.p);
	buf_free(&b);
}
