/* machines_db.c — machine records named by a write or a boot (machines_db.h). */
#include <stddef.h>

#include "machines_db.h"

int64_t machine_ensure(struct dbi *db, const char *mac, int64_t now)
{
	/* A known MAC keeps its record as it is: uuid and serial change with a
	 * HELLO or an admin write only. One never seen (xcb-copy's, of a job)
	 * is seen now: this is its first boot or run. */
	if (dbi_run(db, "INSERT INTO machines(mac, first_seen, last_seen) VALUES (?1, ?2, ?2) "
		    "ON CONFLICT(mac) DO UPDATE SET first_seen = excluded.first_seen, last_seen = excluded.last_seen "
		    "WHERE machines.first_seen = ?3", DBI_T(mac), DBI_I(now), DBI_I(MACHINE_NEVER_SEEN)) != DBI_OK)
		return 0;
	return dbi_i64(db, "SELECT id FROM machines WHERE mac = ?1", 0, DBI_T(mac));
}
