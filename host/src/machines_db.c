/* machines_db.c — machine records named by a write (machines_db.h). */
#include <stddef.h>

#include "machines_db.h"

int64_t machine_ensure(struct dbi *db, const char *mac, int64_t now)
{
	struct dbi_stmt *st;
	int64_t id = 0;

	/* A known MAC keeps its record as it is (as /boot.ipxe does). */
	if (dbi_prepare(db, "INSERT INTO machines(mac, first_seen, last_seen) VALUES (?1, ?2, ?2) "
			       "ON CONFLICT(mac) DO NOTHING", &st) != DBI_OK)
		return 0;
	dbi_bind_text(st, 1, mac, -1);
	dbi_bind_i64(st, 2, now);
	dbi_step(st);
	dbi_finalize(st);
	if (dbi_prepare(db, "SELECT id FROM machines WHERE mac = ?1", &st) != DBI_OK)
		return 0;
	dbi_bind_text(st, 1, mac, -1);
	if (dbi_step(st) == DBI_ROW)
		id = dbi_column_i64(st, 0);
	dbi_finalize(st);
	return id;
}
