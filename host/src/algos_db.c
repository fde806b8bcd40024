/*
 * algos_db.c — the algorithms learned from stored HELLOs (algos_db.h): one
 * query over runs.hello, newest first; the JSON is folded here so the
 * handlers see a list, not SQL.
 */
#include <stdio.h>
#include <string.h>

#include "algos_db.h"

/* Adds run `id`'s HELLO (a JSON object text) to `by_name`. */
static void fold_hello(json_t *by_name, const char *hello, json_int_t id)
{
	json_t *h = hello ? json_loads(hello, 0, NULL) : NULL;
	const char *list = json_string_value(json_object_get(h, "algos"));
	char name[64];

	for (const char *p = list; p && *p;) {
		size_t n = strcspn(p, ",");
		if (n > 0 && n < sizeof(name)) {
			memcpy(name, p, n);
			name[n] = 0;
			json_t *a = json_object_get(by_name, name);
			if (!a) {
				char key[80];
				snprintf(key, sizeof(key), "algo.%s", name);
				json_t *d = json_object_get(h, key);
				/* rows come newest first: the first seen is the newest */
				a = json_pack("{s:s, s:O, s:I, s:I}", "name", name, "description",
					      d ? d : json_null(), "runs", (json_int_t)0, "last_run", id);
				json_object_set_new(by_name, name, a);
			}
			json_object_set_new(a, "runs",
					    json_integer(json_integer_value(json_object_get(a, "runs")) + 1));
		}
		p += n + (p[n] == ',');
	}
	json_decref(h);
}

json_t *algos_db_learned(struct dbi *db)
{
	struct dbi_stmt *st;
	json_t *by_name, *arr;
	const char *key;
	json_t *v;
	int step;

	if (!db || dbi_prepare(db, "SELECT id, hello FROM runs WHERE hello LIKE '%\"algos\"%' "
				      "ORDER BY id DESC", &st) != DBI_OK)
		return NULL;
	by_name = json_object();
	while ((step = dbi_step(st)) == DBI_ROW)
		fold_hello(by_name, dbi_column_text(st, 1),
			   (json_int_t)dbi_column_i64(st, 0));
	dbi_finalize(st);
	if (step != DBI_DONE) {
		/* not the algorithms read before the failure */
		json_decref(by_name);
		return NULL;
	}
	/* jansson keeps insertion order: sort the names for a stable answer */
	arr = json_array();
	const char *names[256];
	size_t n = 0;
	json_object_foreach(by_name, key, v)
		if (n < sizeof(names) / sizeof(names[0]))
			names[n++] = key;
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			const char *t = names[j];
			names[j] = names[j - 1];
			names[j - 1] = t;
		}
	for (size_t i = 0; i < n; i++)
		json_array_append(arr, json_object_get(by_name, names[i]));
	json_decref(by_name);
	return arr;
}
