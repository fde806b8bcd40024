/*
 * compare_cond.c — the conditions of the two sides of a comparison side by
 * side (payload commit, boot firmware, CPUs, suite, suite parameters, CPU
 * model, hypervisor, and any compared case flagged `unstable` or that failed
 * a check), with one line per
 * condition that differs between the sides or within one: a comparison
 * across different conditions measures the conditions too, and every view
 * says so.
 */
#include <string.h>

#include "casestats.h"
#include "compare.h"
#include "results_db.h"
#include "runs_db.h"
#include "sqljson.h"
#include "util.h"
#include "xcb_schema.h"

/* A condition: its name in the answer, where it is read, and its words in
 * a mismatch line (`plural`: "CPUs differ", "suite differs"; `empty`: a run
 * without a value - a fact its payload did not send, or none to have). */
struct cond {
	const char *name, *hello, *what;
	int plural;
	const char *empty;
};
static const struct cond conds[] = {
	{ "payload", "fw", "payload commit", 0, "not stated" },
	{ "firmware", "boot_fw", "boot firmware", 0, "not stated" },
	{ "uefi", "uefi_rev", "UEFI", 0, "none" },
	{ "cpus", "cpus", "CPUs", 1, "not stated" },
	{ "suite", NULL, "suite", 0, "none" },
	{ "params", NULL, "suite parameters", 1, "none" },
	{ "cpu", "brand", "CPU model", 0, "not stated" },
	{ "hypervisor", "hypervisor", "hypervisor", 0, "none" },
	{ "unstable", NULL, "unstable host cases", 1, "none" },
	{ "failed", NULL, "cases that failed a check", 1, "none" },
};

/* The notes: counts of a run's flagged cases, never a condition the sides
 * differ in (each run has its own "run 2: 1 case"). */
static int is_note(const struct cond *c)
{
	return strcmp(c->name, "unstable") == 0 || strcmp(c->name, "failed") == 0;
}
#define NCOND (sizeof(conds) / sizeof(conds[0]))

/* Run's count of condition c, a note (flags resolved: resolve_flags). */
static int64_t note_count(const struct cond *c, struct case_flags flags)
{
	return strcmp(c->name, "unstable") == 0 ? flags.unstable : flags.failed;
}

/* The run's value of condition c as text ("" when it has none). The suite
 * parameters leave out run= (each boot's own id), and algos= where the
 * sides are picked by algorithm (by_algo): comparing one's own algorithm
 * from one boot with locked from another, algos= always differed and the
 * mismatch line said the sides ran under different conditions. */
static char *cond_value(const struct run_row *r, struct case_flags flags, json_t *hello, const struct cond *c,
			int by_algo)
{
	json_t *v;

	/* The notes: "unstable", the run's cases whose floor moved during them
	 * (casestats.h case_unstable_host, show's "unstable host": the RESULT
	 * flag XCB_RF_UNSTABLE or the repetitions' paired floors spread 2x,
	 * issue 21); "failed", those whose
	 * calls were lost, duplicated or out of order, read a stale
	 * translation or ran past the watchdog (XCB_RF_INVARIANT,
	 * XCB_RF_WATCHDOG): "" when none */
	if (is_note(c)) {
		int64_t n = note_count(c, flags);
		struct buf b = { 0 };

		if (n <= 0)
			return strdup("");
		buf_addf(&b, "run %lld: %lld case%s", (long long)r->id, (long long)n, n == 1 ? "" : "s");
		return b.p;
	}
	if (strcmp(c->name, "suite") == 0)
		return strdup(r->suite.type == DBI_TEXT ? r->suite.s : "");
	if (strcmp(c->name, "params") == 0) {
		json_t *p = r->params ? json_loads(r->params, 0, NULL) : NULL;
		char *t;

		if (!json_is_object(p)) {
			json_decref(p);
			return strdup("");
		}
		json_object_del(p, "run");
		if (by_algo)
			json_object_del(p, "algos");
		t = json_object_size(p) ? json_dumps(p, JSON_COMPACT | JSON_SORT_KEYS) : strdup("");
		json_decref(p);
		return t;
	}
	v = json_object_get(hello, c->hello);
	if (json_is_string(v))
		return strdup(json_string_value(v));
	if (json_is_integer(v)) {
		struct buf b = { 0 };

		buf_addf(&b, "%lld", (long long)json_integer_value(v));
		return b.p;
	}
	return strdup("");
}

/* Adds value to the set arr (a JSON array of distinct strings). */
static void add_distinct(json_t *arr, const char *value)
{
	size_t i;
	json_t *e;

	json_array_foreach(arr, i, e)
		if (strcmp(json_string_value(e), value) == 0)
			return;
	json_array_append_new(arr, json_string(value));
}

/* out[i]: run s->runs[i]'s flagged cases, as counted by compare's read
 * of the RESULT rows (in[i]), else (-1, or no in) over every case of the
 * run. */
static void resolve_flags(struct dbi *db, const struct compare_side *s, const struct case_flags *in,
			  struct case_flags *out)
{
	for (size_t i = 0; i < s->nruns; i++)
		out[i] = in && in[i].unstable >= 0 && in[i].failed >= 0 ? in[i] : case_flags_of_run(db, s->runs[i]);
}

/* Each condition's distinct values over the side's runs (rows[i]: run
 * s->runs[i]'s row, flags[i] its flagged cases). */
static void side_values(const struct compare_side *s, const struct run_row *rows, const struct case_flags *flags,
			int by_algo, json_t *vals[NCOND])
{
	for (size_t k = 0; k < NCOND; k++)
		vals[k] = json_array();
	for (size_t i = 0; i < s->nruns; i++) {
		const struct run_row *r = &rows[i];
		json_t *hello = r->hello ? json_loads(r->hello, 0, NULL) : NULL;

		for (size_t k = 0; k < NCOND; k++) {
			char *v = cond_value(r, flags[i], hello, &conds[k], by_algo);

			if (v)
				add_distinct(vals[k], v);
			free(v);
		}
		json_decref(hello);
	}
}

static int same_sets(json_t *x, json_t *y)
{
	size_t i, j;
	json_t *e, *f;

	if (json_array_size(x) != json_array_size(y))
		return 0;
	json_array_foreach(x, i, e) {
		int found = 0;

		json_array_foreach(y, j, f)
			found |= strcmp(json_string_value(e), json_string_value(f)) == 0;
		if (!found)
			return 0;
	}
	return 1;
}

/* A side's values of condition c in a mismatch line: ", " between them,
 * c->empty for an empty one, a hypervisor by its name (XCB_HYPERVISORS). */
static void join(struct buf *b, json_t *arr, const struct cond *c)
{
	size_t i;
	json_t *e;

	json_array_foreach(arr, i, e) {
		const char *v = json_string_value(e), *hv;

		if (c->hello && strcmp(c->hello, "hypervisor") == 0 && (hv = xcb_hypervisor_name(v)))
			v = hv;
		buf_addf(b, "%s%s", i ? ", " : "", *v ? v : c->empty);
	}
}

/* A side's count of note c in its line: "15 of A's cases (run 1)", "3 of
 * A's cases (run 2: 1, run 3: 2)", "none of B's" (first: the line's first
 * side, which says "cases"). Each side is named: "run 1: 15 cases vs run
 * 1: 14 cases" (two algorithms of one run) read as one run counted twice. */
static void note_side(struct buf *b, const char *side, const struct compare_side *s,
		      const struct case_flags *flags, const struct cond *c, int first)
{
	int64_t total = 0;
	size_t with = 0, n = 0;

	for (size_t i = 0; i < s->nruns; i++) {
		total += note_count(c, flags[i]) > 0 ? note_count(c, flags[i]) : 0;
		with += note_count(c, flags[i]) > 0;
	}
	if (!total) {
		buf_addf(b, "none of %s's%s", side, first ? " cases" : "");
		return;
	}
	buf_addf(b, "%lld of %s's%s (", (long long)total, side, first ? " cases" : "");
	for (size_t i = 0; i < s->nruns; i++) {
		int64_t k = note_count(c, flags[i]);

		if (k <= 0)
			continue;
		buf_addf(b, "%srun %lld", n++ ? ", " : "", (long long)s->runs[i]);
		if (with > 1)
			buf_addf(b, ": %lld", (long long)k);
	}
	buf_addf(b, ")");
}

/* Whether a side is picked by algorithm (algo_a/algo_b, or a where on
 * algo). */
static int picks_algo(const struct compare_req *rq)
{
	for (size_t i = 0; i < rq->a.nwhere; i++)
		if (strcmp(rq->a.where[i].key, "algo") == 0)
			return 1;
	for (size_t i = 0; i < rq->b.nwhere; i++)
		if (strcmp(rq->b.where[i].key, "algo") == 0)
			return 1;
	return 0;
}

json_t *compare_conditions(struct dbi *db, const struct compare_req *rq, const struct run_row *ra,
			   const struct run_row *rb, const struct case_flags *fa, const struct case_flags *fb)
{
	json_t *va[NCOND], *vb[NCOND], *list = json_array(), *mism = json_array();
	struct case_flags ga[COMPARE_MAX_RUNS], gb[COMPARE_MAX_RUNS];

	resolve_flags(db, &rq->a, fa, ga);
	resolve_flags(db, &rq->b, fb, gb);
	side_values(&rq->a, ra, ga, picks_algo(rq), va);
	side_values(&rq->b, rb, gb, picks_algo(rq), vb);
	for (size_t k = 0; k < NCOND; k++) {
		/* same: the sides have the same values; within: a side has
		 * several (its runs ran under different conditions) */
		int same = same_sets(va[k], vb[k]);
		int within = json_array_size(va[k]) > 1 || json_array_size(vb[k]) > 1;
		int all_empty = json_array_size(va[k]) == 1 && json_array_size(vb[k]) == 1 &&
				!*json_string_value(json_array_get(va[k], 0)) &&
				!*json_string_value(json_array_get(vb[k], 0));

		/* a note only when a run has one */
		if (is_note(&conds[k]) && all_empty) {
			json_decref(va[k]);
			json_decref(vb[k]);
			continue;
		}
		/* a flagged case on either side is worth a line even when both
		 * sides have the same: its figures are in doubt. It is a note,
		 * never a condition the sides differ in: each run has its own
		 * ("run 2: 1 case"), so two groups of boots always would. */
		int note = is_note(&conds[k]);
		int flag = !same || within || note;

		json_array_append_new(list, json_pack("{s:s, s:s, s:o, s:o, s:b}", "name", conds[k].name,
			"what", conds[k].what, "a", va[k], "b", vb[k], "same", same));
		if (flag) {
			struct buf line = { 0 };

			if (note) {
				buf_addf(&line, "%s: ", conds[k].what);
				note_side(&line, "A", &rq->a, ga, &conds[k], 1);
				buf_addf(&line, ", ");
				note_side(&line, "B", &rq->b, gb, &conds[k], 0);
			} else {
				if (!same)
					buf_addf(&line, "%s %s: ", conds[k].what, conds[k].plural ? "differ" : "differs");
				else
					buf_addf(&line, "%s %s within a side: ", conds[k].what,
						 conds[k].plural ? "vary" : "varies");
				join(&line, va[k], &conds[k]);
				buf_addf(&line, " vs ");
				join(&line, vb[k], &conds[k]);
			}
			json_array_append_new(mism, json_string(line.p));
			buf_free(&line);
		}
	}
	return json_pack("{s:o, s:o}", "conditions", list, "mismatches", mism);
}
