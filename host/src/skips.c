/*
 * skips.c — the cases a run's payload skipped, counted per reason from its
 * stored LOG lines (skips.h). The lines are the payload's only record of
 * them: a skipped case sends no CASE frame and is left out of cases_planned,
 * and one the expansion left out (plan: ...) has not even a case id.
 */
#include "skips.h"

#include <stdio.h>
#include <string.h>

#include "xcb_proto.h"

int skips_reason(const char *text, char *out, size_t len, int64_t *cases, int64_t *suite_n)
{
	unsigned idx, n, k;
	int at = 0;
	const char *why;
	size_t wl;

	/* the payload's formats themselves (xcb_proto.h), each ending at WHY:
	 * %n is set only where the whole prefix matched */
	if ((sscanf(text, XCB_SKIP_CASE "%n", &idx, &n, &at) == 2 && at) ||
	    (at = 0, sscanf(text, XCB_REFUSE_CASE "%n", &idx, &n, &at) == 2 && at)) {
		*cases = 1;
		*suite_n = n;
	} else if (at = 0, sscanf(text, XCB_SKIP_PLAN "%n", &k, &at) == 1 && at) {
		*cases = k;
		*suite_n = -1;
	} else
		return 0;
	why = text + at;
	wl = strlen(why);
	/* A trailing parenthesis that closes the line: the case's own axes
	 * (placement's "(tlb locked inits=1 mask=8 first, 4 CPUs)") or an
	 * aside ("(APIC mode)"); cut at the " (" that opens it. */
	if (wl && why[wl - 1] == ')') {
		int depth = 0;

		for (size_t i = wl; i-- > 0;) {
			depth += why[i] == ')' ? 1 : why[i] == '(' ? -1 : 0;
			if (!depth) {
				if (i > 0 && why[i - 1] == ' ')
					wl = i - 1;
				break;
			}
		}
	}
	if (wl >= len)
		wl = len - 1;
	memcpy(out, why, wl);
	out[wl] = 0;
	return 1;
}

json_t *skips_json(struct dbi *db, int64_t run, int64_t planned)
{
	struct dbi_stmt *st;
	json_t *reasons = json_array();
	int64_t total = 0, suite = -1, plan = 0;
	int step;

	/* Only the lines of this shape: a run holds up to 16384 LOG lines. */
	if (dbi_prepare(db, "SELECT text FROM events WHERE run_id = ?1 AND kind = 'log' "
			       "AND (text LIKE 'case %skipped: %' OR text LIKE 'case %refused: %' OR text LIKE 'plan: %skipped: %') "
			       "ORDER BY seq", &st)) {
		json_decref(reasons);
		return NULL;
	}
	dbi_bind_i64(st, 1, run);
	while ((step = dbi_step(st)) == DBI_ROW) {
		const char *text = dbi_column_text(st, 0);
		char why[256];
		int64_t k, n;
		size_t i;
		json_t *r = NULL;

		if (!text || !skips_reason(text, why, sizeof(why), &k, &n))
			continue;
		total += k;
		if (n < 0)
			plan += k;
		else if (n > suite)
			suite = n;
		json_array_foreach(reasons, i, r)
			if (!strcmp(json_string_value(json_object_get(r, "reason")), why))
				break;
		if (i < json_array_size(reasons))
			json_object_set_new(r, "cases", json_integer(json_integer_value(json_object_get(r, "cases")) + k));
		else
			json_array_append_new(reasons, json_pack("{s:s,s:I}", "reason", why, "cases", (json_int_t)k));
	}
	dbi_finalize(st);
	if (step != DBI_DONE) {
		json_decref(reasons);
		return NULL;
	}
	/* a live run's lines so far (N is the whole expansion's), or the plan
	 * and every skip (a finished run's: the same then) */
	if (suite >= 0)
		suite += plan;
	if (planned >= 0 && total && planned + total > suite)
		suite = planned + total;
	return json_pack("{s:I,s:o,s:o}", "cases", (json_int_t)total, "suite_cases",
			 suite >= 0 ? json_integer((json_int_t)suite) : json_null(), "reasons", reasons);
}
