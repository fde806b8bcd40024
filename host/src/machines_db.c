/* machines_db.c — machine records named by a write (machines_db.h). */
#include <stddef.h>

#include "machines_db.h"

int64_t machine_ensure(sqlite3 *db, const char *mac, int64_t now)
{
	sqlite3_stmt *st;
	int64_t id = 0;

	/* A known MAC keeps its record as it is (as /boot.ipxe does). */
	if (sqlite3_prepare_v2(db, "INSERT INTO machines(mac, first_seen, last_seen) VALUES (?1, ?2, ?2) "
			       "ON CONFLICT(mac) DO NOTHING", -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, mac, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now);
	sqlite3_step(st);
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(db, "SELECT id FROM machines WHERE mac = ?1", -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, mac, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}
