/*
 * db.h — opening the store (db.c): the writer's read-write connection and
 * one read-only connection per HTTP thread.
 */
#ifndef XCB_DB_H
#define XCB_DB_H

#include <sqlite3.h>
#include <stddef.h>

/* The read-write connection, migrated to the newest schema; NULL with the
 * reason in err. */
sqlite3 *db_open_rw(const char *path, char *err, size_t errlen);
/* This thread's read-only connection (opened on first use), or NULL. */
sqlite3 *db_ro(void);
/* Closes this thread's read-only connection. */
void db_ro_close(void);

#endif
