/*
 * db.c — opening the store: the writer's read-write connection, migrated
 * to the newest schema version, and one read-only connection per HTTP
 * thread, so readers never block the writer and never share a connection
 * across threads. The engine (dbi.h) sets itself up (SQLite: WAL and
 * quick_check); the migrations are the same numbered list on both, each
 * rendered in the engine's dialect (host/gen-migrations.sh).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "xcbd.h"

/* Generated from db/schema.sql and db/migrations/NNN_*.sql (host/Makefile):
 * as written (SQLite) and rendered for PostgreSQL. */
extern const char *const xcb_migrations[];
extern const char *const xcb_migrations_pg[];
extern const int xcb_nmigrations;

int db_migrate(struct dbi *db, char *err, size_t errlen)
{
	return db_migrate_to(db, xcb_nmigrations, err, errlen);
}

int db_migrate_to(struct dbi *db, int upto, char *err, size_t errlen)
{
	const char *const *m = dbi_engine(db) == DBI_PG ? xcb_migrations_pg : xcb_migrations;
	int have = dbi_user_version(db);

	if (have < 0) {
		snprintf(err, errlen, "cannot read the schema version: %s", dbi_errmsg(db));
		return -1;
	}
	if (have > xcb_nmigrations) {
		snprintf(err, errlen, "database schema version %d is newer than this xcbenchd (%d)",
			 have, xcb_nmigrations);
		return -1;
	}
	for (int v = have + 1; v <= upto && v <= xcb_nmigrations; v++) {
		/* One transaction per migration: a failure leaves the previous
		 * version intact instead of a half-migrated schema. */
		if (dbi_exec(db, dbi_engine(db) == DBI_PG ? "BEGIN" : "BEGIN IMMEDIATE") ||
		    dbi_exec(db, m[v - 1]) || dbi_set_user_version(db, v) ||
		    dbi_exec(db, "COMMIT")) {
			snprintf(err, errlen, "migration %d failed: %s", v, dbi_errmsg(db));
			dbi_exec(db, "ROLLBACK");
			return -1;
		}
	}
	return 0;
}

struct dbi *db_open_rw(const char *url, char *err, size_t errlen)
{
	struct dbi *db = dbi_open(url, DBI_RW, err, errlen);

	if (db && db_migrate(db, err, errlen)) {
		dbi_close(db);
		return NULL;
	}
	return db;
}

static pthread_key_t ro_key;
static pthread_once_t ro_once = PTHREAD_ONCE_INIT;

static void ro_destroy(void *p)
{
	dbi_close(p);
}

static void ro_init(void)
{
	pthread_key_create(&ro_key, ro_destroy);
}

struct dbi *db_ro_open(void)
{
	char err[256];

	return dbi_open(cfg.db_path, DBI_RO, err, sizeof(err));
}

struct dbi *db_ro(void)
{
	struct dbi *db;

	pthread_once(&ro_once, ro_init);
	db = pthread_getspecific(ro_key);
	if (db)
		return db;
	db = db_ro_open();
	if (db)
		pthread_setspecific(ro_key, db);
	return db;
}

void db_ro_close(void)
{
	struct dbi *db;

	pthread_once(&ro_once, ro_init);
	db = pthread_getspecific(ro_key);
	if (db) {
		dbi_close(db);
		pthread_setspecific(ro_key, NULL);
	}
}
