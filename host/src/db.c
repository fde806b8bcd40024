/*
 * db.c — opening the store: the writer's read-write connection (WAL,
 * synchronous=NORMAL, migrations to the newest PRAGMA user_version) and one
 * read-only connection per HTTP thread, so readers never block the writer
 * and never share a connection across threads.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "xcbd.h"

/* Generated from db/schema.sql and db/migrations/NNN_*.sql (host/Makefile). */
extern const char *const xcb_migrations[];
extern const int xcb_nmigrations;

static int migrate(sqlite3 *db, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int have = 0;

	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			have = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	if (have > xcb_nmigrations) {
		snprintf(err, errlen, "database schema version %d is newer than this xcbenchd (%d)",
			 have, xcb_nmigrations);
		return -1;
	}
	for (int v = have + 1; v <= xcb_nmigrations; v++) {
		char *msg = NULL, pragma[64];

		/* One transaction per migration: a failure leaves the previous
		 * version intact instead of a half-migrated schema. */
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", v);
		if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, &msg) ||
		    sqlite3_exec(db, xcb_migrations[v - 1], NULL, NULL, &msg) ||
		    sqlite3_exec(db, pragma, NULL, NULL, &msg) ||
		    sqlite3_exec(db, "COMMIT", NULL, NULL, &msg)) {
			snprintf(err, errlen, "migration %d failed: %s", v, msg ? msg : "?");
			sqlite3_free(msg);
			sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
			return -1;
		}
	}
	return 0;
}

/* A damaged file must not be served as healthy: a broken runs page made
 * registered runs vanish from the registry, so their valid frames were
 * REFUSED while /health said "ok". quick_check reads every page (O(size),
 * without the index cross-checks of integrity_check). */
static int check_intact(sqlite3 *db, const char *path, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	const char *first = NULL;
	int rc;

	if (sqlite3_prepare_v2(db, "PRAGMA quick_check(1)", -1, &st, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "database '%s' is unreadable (%s)", path, sqlite3_errmsg(db));
		goto corrupt;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		first = (const char *)sqlite3_column_text(st, 0);
	if (rc == SQLITE_ROW && first && strcmp(first, "ok") == 0) {
		sqlite3_finalize(st);
		return 0;
	}
	snprintf(err, errlen, "database '%s' is corrupt (quick_check: %s)", path,
		 first ? first : sqlite3_errmsg(db));
	sqlite3_finalize(st);
corrupt:
	snprintf(err + strlen(err), errlen - strlen(err),
		 "; refusing to start. Recover the readable rows into a new file with "
		 "sqlite3 '%s' .recover | sqlite3 recovered.db, or restore a backup, "
		 "then start with --db pointing at it", path);
	return -1;
}

sqlite3 *db_open_rw(const char *path, char *err, size_t errlen)
{
	sqlite3 *db = NULL;
	char *msg = NULL;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "cannot open database '%s': %s", path,
			 db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return NULL;
	}
	sqlite3_busy_timeout(db, 5000);
	/* WAL: readers see the last commit while the writer appends;
	 * synchronous=NORMAL: a commit survives a daemon crash (not a power
	 * cut of the last few), at a fraction of FULL's fsyncs. */
	if (check_intact(db, path, err, errlen)) {
		sqlite3_close(db);
		return NULL;
	}
	/* journal_size_limit: the WAL is truncated back to 64 MiB after a
	 * checkpoint, so one burst (or a reader that held a snapshot) does not
	 * leave a huge file behind for good. */
	if (sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
			 "PRAGMA journal_size_limit=67108864;", NULL, NULL, &msg) ||
	    migrate(db, err, errlen)) {
		if (msg)
			snprintf(err, errlen, "database '%s': %s", path, msg);
		sqlite3_free(msg);
		sqlite3_close(db);
		return NULL;
	}
	return db;
}

static pthread_key_t ro_key;
static pthread_once_t ro_once = PTHREAD_ONCE_INIT;

static void ro_destroy(void *p)
{
	sqlite3_close_v2(p);
}

static void ro_init(void)
{
	pthread_key_create(&ro_key, ro_destroy);
}

sqlite3 *db_ro(void)
{
	sqlite3 *db;

	pthread_once(&ro_once, ro_init);
	db = pthread_getspecific(ro_key);
	if (db)
		return db;
	if (sqlite3_open_v2(cfg.db_path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL)) {
		sqlite3_close(db);
		return NULL;
	}
	sqlite3_busy_timeout(db, 5000);
	pthread_setspecific(ro_key, db);
	return db;
}

void db_ro_close(void)
{
	sqlite3 *db;

	pthread_once(&ro_once, ro_init);
	db = pthread_getspecific(ro_key);
	if (db) {
		sqlite3_close_v2(db);
		pthread_setspecific(ro_key, NULL);
	}
}
