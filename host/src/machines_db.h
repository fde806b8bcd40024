/* machines_db.h — data access for the machine records: the record of a
 * MAC named by a write (a run registered for a machine) or by a boot
 * (boot.c). */
#ifndef XCB_MACHINES_DB_H
#define XCB_MACHINES_DB_H

#include "dbi.h"
#include <stdint.h>

/* A machine never seen (no boot, no run: one that only a copied job
 * names, xcb-copy) has first_seen = last_seen = MACHINE_NEVER_SEEN: the
 * schema's columns are NOT NULL, and a time there would be a boot that
 * never happened. Reads answer it as null (MACHINE_SEEN_SQL). */
#define MACHINE_NEVER_SEEN 0
#define MACHINE_SEEN_STR_(x) #x
#define MACHINE_SEEN_STR(x) MACHINE_SEEN_STR_(x)
/* SQL for seen-time column c: its time, NULL for a machine never seen. */
#define MACHINE_SEEN_SQL(c) "NULLIF(" c ", " MACHINE_SEEN_STR(MACHINE_NEVER_SEEN) ")"

/* The id of the machine record of mac (canonical "aa:bb:.."), created
 * (first_seen = last_seen = now) if it is new, or seen now for the first
 * time if it was never seen; 0 if the query failed. Writer thread only. */
int64_t machine_ensure(struct dbi *db, const char *mac, int64_t now);

#endif
