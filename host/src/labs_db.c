/*
 * labs_db.c — the SQL of machines' labs (labs_db.h). A machine's lab is set
 * by the first daemon with a --lab that boots it; from then on only that
 * lab's daemon boots it and serves its jobs (its history stays readable by
 * every daemon).
 */
#include <stdio.h>
#include <string.h>

#include "labs_db.h"
#include "xcbd.h"

int lab_machine_elsewhere(struct dbi *db, const char *mac, char *other, size_t n)
{
	struct dbi_stmt *st;
	int found = 0;

	if (dbi_row(db, "SELECT lab FROM machines WHERE mac = ? AND lab IS NOT NULL "
		    "AND lab IS DISTINCT FROM CAST(? AS TEXT)", &st, DBI_T(mac), DBI_T(cfg.lab)) == DBI_ROW) {
		snprintf(other, n, "%s", dbi_column_text(st, 0));
		found = 1;
	}
	dbi_finalize(st);
	return found;
}

void lab_machine_adopt(struct dbi *db, int64_t id)
{
	if (cfg.lab)
		dbi_run(db, "UPDATE machines SET lab = ? WHERE id = ? AND lab IS NULL", DBI_T(cfg.lab), DBI_I(id));
}

int labs_names(struct dbi *db, json_t *names)
{
	struct dbi_stmt *st;
	int rc;

	/* UNION drops the duplicates; the NULL of a daemon without --lab (and
	 * of runs and machines from before labs) is no lab, so not listed. */
	if (dbi_query(db, "SELECT lab FROM runs WHERE lab IS NOT NULL UNION SELECT lab FROM machines "
		      "WHERE lab IS NOT NULL UNION SELECT CAST(? AS TEXT) ORDER BY 1", &st, DBI_T(cfg.lab)))
		return -1;
	while ((rc = dbi_step(st)) == DBI_ROW)
		if (dbi_column_text(st, 0))
			json_array_append_new(names, json_string(dbi_column_text(st, 0)));
	dbi_finalize(st);
	return rc == DBI_DONE ? 0 : -1;
}

int labs_filter_unknown(struct dbi *db, const char *lab, char *why, size_t n)
{
	json_t *names = json_array(), *v;
	size_t i, len = 0;
	int known = 0;

	if (labs_names(db, names)) {
		json_decref(names);
		return -1;
	}
	json_array_foreach(names, i, v)
		known |= !strcmp(json_string_value(v), lab);
	if (!known && !json_array_size(names))
		snprintf(why, n, "lab: no lab '%s' in this store (it has no labs: its runs come from daemons "
			 "without --lab)", lab);
	else if (!known) {
		len = (size_t)snprintf(why, n, "lab: no lab '%s' in this store (its labs: ", lab);
		json_array_foreach(names, i, v)
			if (len < n)
				len += (size_t)snprintf(why + len, n - len, "%s%s", i ? ", " : "", json_string_value(v));
		if (len < n)
			snprintf(why + len, n - len, ")");
	}
	json_decref(names);
	return !known;
}
