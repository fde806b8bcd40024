/*
 * db.h — opening the store (db.c): the writer's read-write connection and
 * one read-only connection per HTTP thread, on whichever engine --db names
 * (dbi.h).
 */
#ifndef XCB_DB_H
#define XCB_DB_H

#include <stddef.h>

#include "dbi.h"

/* The read-write connection to the store, migrated to the newest schema;
 * NULL with the reason in err (a SQLite store is a file: "" and ":memory:"
 * are refused). */
struct dbi *db_open_rw(const char *url, char *err, size_t errlen);
/* Applies the migrations db lacks (each in its own transaction): 0, or -1
 * with the reason in err. */
int db_migrate(struct dbi *db, char *err, size_t errlen);
/* The same up to schema version upto only (a test builds an older
 * database with it, to migrate its rows with db_migrate). */
int db_migrate_to(struct dbi *db, int upto, char *err, size_t errlen);
/* This thread's read-only connection (opened on first use), or NULL. */
struct dbi *db_ro(void);
/* A new read-only connection owned by the caller (dbi_close), or NULL: for
 * one that outlives a thread (csvahead.c keeps its spares). */
struct dbi *db_ro_open(void);
/* Closes this thread's read-only connection. */
void db_ro_close(void);

#endif
