/* baselines_db.c — baselines of a machine + suite (baselines_db.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baselines_db.h"
#include "sqljson.h"

int baseline_key(sqlite3 *db, const int64_t *runs, size_t n, int64_t *machine, char *suite, size_t cap,
		 char *why)
{
	sqlite3_stmt *st;

	*machine = 0;
	suite[0] = 0;
	if (sqlite3_prepare_v2(db, "SELECT machine_id, suite FROM runs WHERE id = ?", -1, &st, NULL) != SQLITE_OK) {
		snprintf(why, 128, "query failed");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const char *s;
		int64_t m;

		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, runs[i]);
		if (sqlite3_step(st) != SQLITE_ROW) {
			snprintf(why, 128, "run %lld not found", (long long)runs[i]);
			goto err;
		}
		m = sqlite3_column_int64(st, 0);
		s = (const char *)sqlite3_column_text(st, 1);
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
	sqlite3_finalize(st);
	return 0;
err:
	sqlite3_finalize(st);
	return -1;
}

int baseline_set(sqlite3 *db, int64_t machine, const char *suite, const int64_t *runs, size_t n, int64_t now)
{
	json_t *arr = json_array();
	char *txt;
	sqlite3_stmt *st;
	int rc = -1;

	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr, json_integer(runs[i]));
	txt = json_dumps(arr, JSON_COMPACT);
	json_decref(arr);
	if (txt && sqlite3_prepare_v2(db, "INSERT INTO baselines(machine_id, suite, runs, set_at) VALUES (?, ?, ?, ?) "
				      "ON CONFLICT(machine_id, suite) DO UPDATE SET runs = excluded.runs, set_at = excluded.set_at",
				      -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, machine);
		sqlite3_bind_text(st, 2, suite, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, txt, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 4, now);
		rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
		sqlite3_finalize(st);
	}
	free(txt);
	return rc;
}

json_t *baselines_list(sqlite3 *db, int64_t machine)
{
	sqlite3_stmt *st;
	json_t *out = json_array();

	if (sqlite3_prepare_v2(db, "SELECT b.machine_id, m.mac, b.suite, b.runs, b.set_at FROM baselines b "
			       "JOIN machines m ON m.id = b.machine_id WHERE ?1 = 0 OR b.machine_id = ?1 "
			       "ORDER BY b.machine_id, b.suite", -1, &st, NULL) != SQLITE_OK)
		return out;
	sqlite3_bind_int64(st, 1, machine);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct dbval at;
		json_t *runs = json_loads((const char *)sqlite3_column_text(st, 3), 0, NULL);

		dbval_read(st, 4, &at);
		json_array_append_new(out, json_pack("{s:{s:I, s:s}, s:s, s:o, s:o}",
			"machine", "id", (json_int_t)sqlite3_column_int64(st, 0), "mac", (const char *)sqlite3_column_text(st, 1),
			"suite", (const char *)sqlite3_column_text(st, 2), "runs", runs ? runs : json_array(),
			"set_at", dbval_iso(&at)));
		dbval_free(&at);
	}
	sqlite3_finalize(st);
	return out;
}

size_t baseline_get(sqlite3 *db, int64_t machine, const char *suite, int64_t *runs, size_t cap)
{
	sqlite3_stmt *st;
	size_t n = 0;

	if (sqlite3_prepare_v2(db, "SELECT runs FROM baselines WHERE machine_id = ? AND suite = ?", -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_int64(st, 1, machine);
	sqlite3_bind_text(st, 2, suite, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		json_t *arr = json_loads((const char *)sqlite3_column_text(st, 0), 0, NULL), *v;
		size_t i;

		json_array_foreach(arr, i, v)
			if (n < cap && json_is_integer(v))
				runs[n++] = json_integer_value(v);
		json_decref(arr);
	}
	sqlite3_finalize(st);
	return n;
}
