/* machines_db.h — data access for the machine records: the record of a
 * MAC named by a write (a run registered for a machine) or by a boot
 * (boot.c). */
#ifndef XCB_MACHINES_DB_H
#define XCB_MACHINES_DB_H

#include "dbi.h"
#include <stdint.h>

/* The id of the machine record of mac (canonical "aa:bb:.."), created
 * (first_seen = last_seen = now) if it is new; 0 if the query failed.
 * Writer thread only. */
int64_t machine_ensure(struct dbi *db, const char *mac, int64_t now);

#endif
