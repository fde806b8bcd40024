/*
 * skips.c — the cases a run's payload skipped, counted per reason from its
 * stored LOG lines (skips.h). The lines are the payload's only record of
 * them: a skipped case sends no CASE frame and is left out of cases_planned.
 */
#include "skips.h"

#include <stdio.h>
#include <string.h>

int skips_reason(const char *text, char *out, size_t len, int64_t *suite_cases)
{
	unsigned idx, n;
	int at = 0;
	const char *why;
	size_t wl;

	if (sscanf(text, "case %u/%u %n", &idx, &n, &at) != 2 || !at)
		return 0;
	why = text + at;
	if (!strncmp(why, "skipped: ", 9))
		why += 9;
	else if (!strncmp(why, "refused: ", 9))
		why += 9;
	else
		return 0;
	wl = strlen(why);
	/* A trailing parenthesis that closes the line: the case's own axes
	 * (placement's "(tlb locked inits=1 mask=8 first, 4 CPUs)") or an
	 * aside ("(APIC mode)"); its opening is the last " (" before it. */
	if (wl && why[wl - 1] == ')') {
		for (size_t i = wl - 1; i > 0; i--)
			if (why[i] == '(' && why[i - 1] == ' ') {
				wl = i - 1;
				break;
			}
	}
	if (wl >= len)
		wl = len - 1;
	memcpy(out, why, wl);
	out[wl] = 0;
	if (suite_cases)
		*suite_cases = n;
	return 1;
}

json_t *skips_json(struct dbi *db, int64_t run)
{
	struct dbi_stmt *st;
	json_t *reasons = json_array();
	int64_t total = 0, suite = -1;
	int step;

	/* Only the lines of this shape: a run holds up to 16384 LOG lines. */
	if (dbi_prepare(db, "SELECT text FROM events WHERE run_id = ?1 AND kind = 'log' "
			       "AND (text LIKE 'case %skipped: %' OR text LIKE 'case %refused: %') ORDER BY seq", &st)) {
		json_decref(reasons);
		return NULL;
	}
	dbi_bind_i64(st, 1, run);
	while ((step = dbi_step(st)) == DBI_ROW) {
		const char *text = dbi_column_text(st, 0);
		char why[256];
		int64_t n = -1;
		size_t i;
		json_t *r = NULL;

		if (!text || !skips_reason(text, why, sizeof(why), &n))
			continue;
		total++;
		if (n > suite)
			suite = n;
		json_array_foreach(reasons, i, r)
			if (!strcmp(json_string_value(json_object_get(r, "reason")), why))
				break;
		if (i < json_array_size(reasons))
			json_object_set_new(r, "cases", json_integer(json_integer_value(json_object_get(r, "cases")) + 1));
		else
			json_array_append_new(reasons, json_pack("{s:s,s:I}", "reason", why, "cases", (json_int_t)1));
	}
	dbi_finalize(st);
	if (step != DBI_DONE) {
		json_decref(reasons);
		return NULL;
	}
	return json_pack("{s:I,s:o,s:o}", "cases", (json_int_t)total, "suite_cases",
			 suite >= 0 ? json_integer((json_int_t)suite) : json_null(), "reasons", reasons);
}
