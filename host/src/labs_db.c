/*
 * labs_db.c — the SQL of machines' labs (labs_db.h). A machine's lab is set
 * by the first daemon with a --lab that boots it; from then on only that
 * lab's daemon boots it and serves its jobs (its history stays readable by
 * every daemon).
 */
#include <stdio.h>

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
