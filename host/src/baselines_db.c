/* baselines_db.c — baselines of a machine + suite (baselines_db.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baselines_db.h"
#include "sqljson.h"

int baseline_key(struct dbi *db, const int64_t *runs, size_t n, int64_t *machine, char *suite, size_t cap,
		 char *why)
{
	struct dbi_stmt *st;

	*machine = 0;
	suite[0] = 0;
	if (dbi_prepare(db, "SELECT machine_id, suite FROM runs WHERE id = ?", &st) != DBI_OK) {
		snprintf(why, 128, "query failed");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const char *s;
		int64_t m;

		dbi_reset(st);
		dbi_bind_i64(st, 1, runs[i]);
		if (dbi_step(st) != DBI_ROW) {
			snprintf(why, 128, "run %lld not found", (long long)runs[i]);
			goto err;
		}
		m = dbi_column_i64(st, 0);
		s = dbi_column_text(st, 1);
		if (!m || !s) {
			snprintf(why, 128, "run %lld has no machine or no suite", (long long)runs[i]);
			goto err;
		}
		if (i && (m != *machine || strcmp(s, suite))) {
			snprintf(why, 128, "run %lld is of another machine or suite than run %lld", (long long)runs[i],
				 (long long)runs[0]);
			goto err;
		}
		*machine = m;
		snprintf(suite, cap, "%s", s);
	}
	dbi_finalize(st);
	return 0;
err:
	dbi_finalize(st);
	return -1;
}

int baseline_set(struct dbi *db, int64_t machine, const char *suite, const int64_t *runs, size_t n, int64_t now)
{
	json_t *arr = json_array();
	char *txt;
	int rc;

	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr, json_integer(runs[i]));
	txt = json_dumps(arr, JSON_COMPACT);
	json_decref(arr);
	rc = txt && dbi_run(db, "INSERT INTO baselines(machine_id, suite, runs, set_at) VALUES (?, ?, ?, ?) "
			    "ON CONFLICT(machine_id, suite) DO UPDATE SET runs = excluded.runs, set_at = excluded.set_at",
			    DBI_I(machine), DBI_T(suite), DBI_T(txt), DBI_I(now)) == DBI_OK ? 0 : -1;
	free(txt);
	return rc;
}

int baselines_list(struct dbi *db, int64_t machine, json_t *out)
{
	struct dbi_stmt *st;
	int rc;

	if ((rc = dbi_query(db, "SELECT b.machine_id, m.mac, b.suite, b.runs, b.set_at FROM baselines b "
			  "JOIN machines m ON m.id = b.machine_id WHERE ?1 = 0 OR b.machine_id = ?1 "
			  "ORDER BY b.machine_id, b.suite", &st, DBI_I(machine))) != DBI_OK)
		return rc;
	while ((rc = dbi_step(st)) == DBI_ROW) {
		struct dbval at;
		json_t *runs = json_loads(dbi_column_text(st, 3), 0, NULL);

		dbval_read(st, 4, &at);
		json_array_append_new(out, json_pack("{s:{s:I, s:s}, s:s, s:o, s:o}",
			"machine", "id", (json_int_t)dbi_column_i64(st, 0), "mac", dbi_column_text(st, 1),
			"suite", dbi_column_text(st, 2), "runs", runs ? runs : json_array(),
			"set_at", dbval_iso(&at)));
		dbval_free(&at);
	}
	dbi_finalize(st);
	return rc;
}

size_t baseline_get(struct dbi *db, int64_t machine, const char *suite, int64_t *runs, size_t cap)
{
	struct dbi_stmt *st;
	size_t n = 0;

	if (dbi_row(db, "SELECT runs FROM baselines WHERE machine_id = ? AND suite = ?", &st, DBI_I(machine),
		    DBI_T(suite)) == DBI_ROW) {
		json_t *arr = json_loads(dbi_column_text(st, 0), 0, NULL), *v;
		size_t i;

		json_array_foreach(arr, i, v)
			if (n < cap && json_is_integer(v))
				runs[n++] = json_integer_value(v);
		json_decref(arr);
	}
	dbi_finalize(st);
	return n;
}

size_t runs_last_before(struct dbi *db, int64_t machine, const char *suite, int64_t before, size_t n,
			int64_t *runs)
{
	struct dbi_stmt *st;
	size_t k = 0;

	if (dbi_query(db, "SELECT id FROM runs WHERE machine_id = ?1 AND suite = ?2 AND status = 'complete' "
		      "AND id < ?3 ORDER BY id DESC LIMIT ?4", &st, DBI_I(machine), DBI_T(suite), DBI_I(before),
		      DBI_I((int64_t)n)))
		return 0;
	while (k < n && dbi_step(st) == DBI_ROW)
		runs[k++] = dbi_column_i64(st, 0);
	dbi_finalize(st);
	/* oldest first, as a group is listed */
	for (size_t i = 0; i < k / 2; i++) {
		int64_t t = runs[i];

		runs[i] = runs[k - 1 - i];
		runs[k - 1 - i] = t;
	}
	return k;
}
