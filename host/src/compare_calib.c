/*
 * compare_calib.c — A/A calibration (issue 25): given N boots of ONE
 * configuration, every comparison between them is a comparison of nothing,
 * so every case it marks is a false positive. Compares every split of the
 * boots into two halves as groups (between-boot level) and every pair of
 * single boots (within-boot level), and reports the share of cases each
 * marks: the number a reviewer needs before believing a star. Groups
 * are compared only when each half has COMPARE_MIN_BOOTS boots (6 boots
 * or more): with fewer, every case of a group comparison has no interval
 * (compare.c too_few_boots) and a rate of "0 % marked" would read as a
 * clean bill where nothing was tested.
 */
#include <math.h>
#include <string.h>

#include "compare.h"

struct tally {
	size_t comparisons, cases, flagged, any;
};

static void add(struct tally *t, json_t *o)
{
	json_t *s = json_object_get(o, "summary");
	size_t f = (size_t)json_integer_value(json_object_get(s, "flagged"));

	t->comparisons++;
	t->cases += (size_t)json_integer_value(json_object_get(s, "cases"));
	t->flagged += f;
	t->any += f > 0;
}

static json_t *tally_json(const struct tally *t)
{
	return json_pack("{s:I, s:I, s:I, s:I, s:f, s:f}", "comparisons", (json_int_t)t->comparisons,
			 "cases", (json_int_t)t->cases, "flagged", (json_int_t)t->flagged,
			 "with_any_flag", (json_int_t)t->any,
			 "false_positive_rate", t->cases ? (double)t->flagged / (double)t->cases : 0.0,
			 "familywise_rate", t->comparisons ? (double)t->any / (double)t->comparisons : 0.0);
}

json_t *compare_calibrate(struct dbi *db, const int64_t *runs, size_t n, double fdr, double min_effect)
{
	struct compare_req rq;
	struct tally grp = { 0 }, pair = { 0 };
	size_t half = n / 2;

	memset(&rq, 0, sizeof(rq));
	rq.fdr = fdr;
	rq.min_effect = min_effect;
	/* Every subset of `half` boots against the rest (an even n counts each
	 * split once: the subsets holding boot 0). */
	for (unsigned m = 0; half >= COMPARE_MIN_BOOTS && m < (1u << n); m++) {
		json_t *o;

		if ((size_t)__builtin_popcount(m) != half || (n % 2 == 0 && !(m & 1)))
			continue;
		rq.a.nruns = rq.b.nruns = 0;
		for (size_t i = 0; i < n; i++) {
			if (m & (1u << i))
				rq.a.runs[rq.a.nruns++] = runs[i];
			else if (rq.b.nruns < half)
				rq.b.runs[rq.b.nruns++] = runs[i];
		}
		o = compare_runs(db, &rq, NULL, NULL);
		add(&grp, o);
		json_decref(o);
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			json_t *o;

			rq.a.nruns = rq.b.nruns = 1;
			rq.a.runs[0] = runs[i];
			rq.b.runs[0] = runs[j];
			o = compare_runs(db, &rq, NULL, NULL);
			add(&pair, o);
			json_decref(o);
		}
	return json_pack("{s:I, s:I, s:I, s:f, s:f, s:o, s:o, s:s}", "boots", (json_int_t)n,
			 "boots_per_side", (json_int_t)half, "groups_min_boots", (json_int_t)(2 * COMPARE_MIN_BOOTS),
			 "fdr", fdr, "min_effect_pct", min_effect,
			 "groups", tally_json(&grp), "pairs", tally_json(&pair),
			 "note", "every boot is of one configuration: every marked case is a false positive; "
				 "Benjamini-Hochberg at FDR q bounds the chance that a comparison marks any at q");
}
