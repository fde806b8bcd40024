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

/* Every daemon and xcb-copy on one PostgreSQL store migrates it at its
 * start, and a lab's daemons start together (compose's central profile
 * starts two with the store): two that both read version 0 both ran
 * migration 1, and the second died on "duplicate key value violates unique
 * constraint pg_type_typname_nsp_index". So each migration's transaction
 * first takes this transaction-scoped advisory lock (a constant of this
 * program, "xcbm" in ASCII), then reads the version under it: the second
 * waits for the first's COMMIT and finds the work done. SQLite's BEGIN
 * IMMEDIATE is its lock. */
#define MIGRATION_LOCK "2019779181"

static int migration_begin(struct dbi *db)
{
	if (dbi_engine(db) != DBI_PG)
		return dbi_exec(db, "BEGIN IMMEDIATE");
	return dbi_exec(db, "BEGIN") || dbi_exec(db, "SELECT pg_advisory_xact_lock(" MIGRATION_LOCK ")");
}

int db_migrate_to(struct dbi *db, int upto, char *err, size_t errlen)
{
	const char *const *m = dbi_engine(db) == DBI_PG ? xcb_migrations_pg : xcb_migrations;

	if (upto > xcb_nmigrations)
		upto = xcb_nmigrations;
	for (;;) {
		int have, v;

		/* One transaction per migration: a failure leaves the previous
		 * version intact instead of a half-migrated schema. */
		if (migration_begin(db)) {
			snprintf(err, errlen, "cannot start the schema migration: %s", dbi_errmsg(db));
			dbi_exec(db, "ROLLBACK");
			return -1;
		}
		have = dbi_user_version(db);
		if (have < 0 || have > xcb_nmigrations) {
			if (have < 0)
				snprintf(err, errlen, "cannot read the schema version: %s", dbi_errmsg(db));
			else
				snprintf(err, errlen, "database schema version %d is newer than this xcbenchd (%d)",
					 have, xcb_nmigrations);
			dbi_exec(db, "ROLLBACK");
			return -1;
		}
		if (have >= upto) {
			if (!dbi_exec(db, "COMMIT"))
				return 0;
			snprintf(err, errlen, "cannot end the schema check: %s", dbi_errmsg(db));
			return -1;
		}
		v = have + 1;
		if (dbi_exec(db, m[v - 1]) || dbi_set_user_version(db, v) || dbi_exec(db, "COMMIT")) {
			snprintf(err, errlen, "migration %d failed: %s", v, dbi_errmsg(db));
			dbi_exec(db, "ROLLBACK");
			return -1;
		}
	}
}

struct dbi *db_open_rw(const char *url, char *err, size_t errlen)
{
	struct dbi *db;

	/* SQLite takes "" as a temporary file deleted at close and ":memory:"
	 * as one connection's database: the daemon's readers would each see
	 * an empty one of their own, and every run stored is gone at exit
	 * (xcbenchd --db "" started; xcb-copy --db "" copied into it, exit 0).
	 * The unit tests' own dbi_open(":memory:") is no store. */
	if (!dbi_url_is_pg(url) && (!url[0] || strcmp(url, ":memory:") == 0)) {
		snprintf(err, errlen, "cannot open database '%s': %s", url,
			 url[0] ? "SQLite's in-memory database is gone at exit: name a file"
				: "no file named (SQLite's temporary database is gone at exit)");
		return NULL;
	}
	db = dbi_open(url, DBI_RW, err, errlen);
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
