/*
 * dbi_sqlite.c — the embedded engine of the storage seam (dbi.h): one
 * SQLite file in WAL mode. A read-write connection is checked (quick_check)
 * and set up for the writer; read-only ones are the HTTP threads'. Each
 * call is SQLite's own (dbi.h mirrors its API), so this file only maps
 * result codes.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbi_sqlite_conn.h"

/* SQLite's result code as the seam's (dbi_sqlite_conn.h). */
int lite_rc(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_OK: return DBI_OK;
	case SQLITE_ROW: return DBI_ROW;
	case SQLITE_DONE: return DBI_DONE;
	case SQLITE_FULL: case SQLITE_IOERR: return DBI_IOERR;
	default: return DBI_ERROR;
	}
}

static void l_close(struct dbi *db)
{
	lite_ckpt_stop(((struct lite *)db)->ck, LITE(db));
	sqlite3_close_v2(LITE(db));
	free(db);
}

static const char *l_errmsg(struct dbi *db) { return sqlite3_errmsg(LITE(db)); }
static int l_exec(struct dbi *db, const char *sql) { return lite_rc(sqlite3_exec(LITE(db), sql, NULL, NULL, NULL)); }
static int l_in_txn(struct dbi *db) { return !sqlite3_get_autocommit(LITE(db)); }
static int64_t l_changes(struct dbi *db) { return sqlite3_changes(LITE(db)); }
static int64_t l_last_id(struct dbi *db) { return sqlite3_last_insert_rowid(LITE(db)); }
static int l_ping(struct dbi *db) { (void)db; return 1; }
static int l_conn_lost(struct dbi *db) { (void)db; return 0; }

/* The passive checkpoint: the WAL does not grow for good between bursts
 * (journal_size_limit truncates it after). */
static void l_idle(struct dbi *db)
{
	sqlite3_wal_checkpoint_v2(LITE(db), NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
}

/* The catch-up a commit left due (dbi_sqlite_ckpt.c). */
static void l_settle(struct dbi *db)
{
	lite_ckpt_settle(((struct lite *)db)->ck, LITE(db));
}

static int l_user_version(struct dbi *db)
{
	sqlite3_stmt *st;
	int v = -1;

	if (sqlite3_prepare_v2(LITE(db), "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	return v;
}

static int l_set_user_version(struct dbi *db, int v)
{
	char pragma[64];

	snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", v);
	return l_exec(db, pragma);
}

static int l_prepare(struct dbi *db, const char *sql, struct dbi_stmt **out)
{
	struct lite_stmt *st = calloc(1, sizeof(*st));
	int rc;

	if (!st)
		return DBI_ERROR;
	/* PERSISTENT: most statements live as long as their connection. */
	rc = sqlite3_prepare_v3(LITE(db), sql, -1, SQLITE_PREPARE_PERSISTENT, &st->h, NULL);
	if (rc != SQLITE_OK) {
		free(st);
		return lite_rc(rc) == DBI_OK ? DBI_ERROR : lite_rc(rc);
	}
	st->base.db = db;
	*out = &st->base;
	return DBI_OK;
}

static void l_finalize(struct dbi_stmt *st)
{
	sqlite3_finalize(((struct lite_stmt *)st)->ints);
	sqlite3_finalize(LST(st));
	free(st);
}

static void l_reset(struct dbi_stmt *st) { sqlite3_reset(LST(st)); }
static void l_clear(struct dbi_stmt *st) { sqlite3_clear_bindings(LST(st)); }
static int l_param_index(struct dbi_stmt *st, const char *name) { return sqlite3_bind_parameter_index(LST(st), name); }
static int l_bind_i64(struct dbi_stmt *st, int i, int64_t v) { return lite_rc(sqlite3_bind_int64(LST(st), i, v)); }
static int l_bind_double(struct dbi_stmt *st, int i, double v) { return lite_rc(sqlite3_bind_double(LST(st), i, v)); }
static int l_bind_null(struct dbi_stmt *st, int i) { return lite_rc(sqlite3_bind_null(LST(st), i)); }
static int l_bind_text(struct dbi_stmt *st, int i, const char *s, int len)
{
	return lite_rc(sqlite3_bind_text(LST(st), i, s, len, SQLITE_TRANSIENT));
}
static int l_step(struct dbi_stmt *st) { return lite_rc(sqlite3_step(LST(st))); }
/* SQLite has no round trip to save: the statement runs now, and a count
 * other than rows is kept for l_sync to say. */
static int l_defer(struct dbi_stmt *st, int64_t rows)
{
	int rc = lite_rc(sqlite3_step(LST(st)));
	struct lite *l = (struct lite *)st->db;

	if (rc == DBI_DONE && rows >= 0 && sqlite3_changes(l->h) != rows)
		l->mismatch = 1;
	sqlite3_reset(LST(st));
	sqlite3_clear_bindings(LST(st));
	return rc == DBI_DONE || rc == DBI_ROW ? DBI_OK : rc;
}

/* What l_defer saw since the last call: DBI_MISMATCH or DBI_OK. */
static int l_sync(struct dbi *db)
{
	struct lite *l = (struct lite *)db;
	int m = l->mismatch;

	l->mismatch = 0;
	return m ? DBI_MISMATCH : DBI_OK;
}

static int l_column_count(struct dbi_stmt *st) { return sqlite3_column_count(LST(st)); }
static int64_t l_column_i64(struct dbi_stmt *st, int c) { return sqlite3_column_int64(LST(st), c); }
static double l_column_double(struct dbi_stmt *st, int c) { return sqlite3_column_double(LST(st), c); }
static const char *l_column_text(struct dbi_stmt *st, int c) { return (const char *)sqlite3_column_text(LST(st), c); }
static const char *l_sql(struct dbi_stmt *st) { return sqlite3_sql(LST(st)); }

static int l_column_type(struct dbi_stmt *st, int c)
{
	switch (sqlite3_column_type(LST(st), c)) {
	case SQLITE_INTEGER: return DBI_INT;
	case SQLITE_FLOAT: return DBI_FLOAT;
	case SQLITE_NULL: return DBI_NULL;
	default: return DBI_TEXT;
	}
}

/* dbi_column_i64s: one column API call per column (each costs as much as
 * the column's decoding): sqlite3_column_value, whose number and type are
 * then read off the value itself. (Asking the type of every 0, to tell a
 * NULL, was a second call for ~10 of the run CSV's ~33 columns.) */
static void l_column_i64s(struct dbi_stmt *st, int first, int n, int64_t *v, uint64_t *nulls)
{
	sqlite3_stmt *s = LST(st);
	uint64_t m = 0;

	for (int k = 0; k < n; k++) {
		sqlite3_value *x = sqlite3_column_value(s, first + k);

		v[k] = sqlite3_value_int64(x);
		if (v[k] == 0 && sqlite3_value_type(x) == SQLITE_NULL)
			m |= 1ull << k;
	}
	*nulls = m;
}

/* dbval_read: the type asked once; NULL is 0, 0.0 and no text, and an
 * integer's double is (double)i, as sqlite3_column_double converts it;
 * any other value by the column calls. */
static void l_column_val(struct dbi_stmt *st, int c, struct dbval *v)
{
	sqlite3_stmt *s = LST(st);
	const char *t;

	switch (sqlite3_column_type(s, c)) {
	case SQLITE_NULL:
		v->type = DBI_NULL;
		v->i = 0;
		v->d = 0.0;
		v->s = NULL;
		return;
	case SQLITE_INTEGER:
		v->type = DBI_INT;
		v->i = sqlite3_column_int64(s, c);
		v->d = (double)v->i;
		t = (const char *)sqlite3_column_text(s, c);
		v->s = t ? strdup(t) : NULL;
		return;
	default:
		dbi_column_val_calls(st, c, v);
	}
}

static const struct dbi_ops lite_ops = DBI_OPS(l, DBI_SQLITE);

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

/* SQLite's process-wide settings, before its first use (pthread_once). No
 * memory statistics: with them on, every sqlite3_malloc and sqlite3_free
 * takes one process-wide mutex to count the bytes (the writer's most
 * frequent lock: ~5 % of its CPU in perf), and nothing here reads them
 * (no sqlite3_memory_used, no soft heap limit). A process that used SQLite
 * before (sqlite3_config then fails: SQLITE_MISUSE) keeps its statistics. */
static void lite_configure(void)
{
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

struct dbi *dbi_sqlite_open(const char *path, int flags, char *err, size_t errlen)
{
	static pthread_once_t configured = PTHREAD_ONCE_INIT;
	struct lite *l;
	int oflags = flags & DBI_RW ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
	char *msg = NULL;

	pthread_once(&configured, lite_configure);
	l = calloc(1, sizeof(*l));
	if (!l) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	l->base.ops = &lite_ops;
	if (sqlite3_open_v2(path, &l->h, oflags | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "cannot open database '%s': %s", path,
			 l->h ? sqlite3_errmsg(l->h) : "out of memory");
		goto fail;
	}
	sqlite3_busy_timeout(l->h, 5000);
	if (lite_ints_register(l->h) != SQLITE_OK) {
		snprintf(err, errlen, "database '%s': %s", path, sqlite3_errmsg(l->h));
		goto fail;
	}
	if (!(flags & DBI_RW))
		return &l->base;
	if (check_intact(l->h, path, err, errlen))
		goto fail;
	/* WAL: readers see the last commit while the writer appends;
	 * synchronous=NORMAL: a commit survives a daemon crash (not a power
	 * cut of the last few), at a fraction of FULL's fsyncs.
	 * journal_size_limit: the WAL is truncated back to 64 MiB after a
	 * checkpoint, so one burst (or a reader that held a snapshot) does not
	 * leave a huge file behind for good. */
	if (sqlite3_exec(l->h, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
			 "PRAGMA journal_size_limit=67108864;", NULL, NULL, &msg)) {
		snprintf(err, errlen, "database '%s': %s", path, msg ? msg : "?");
		sqlite3_free(msg);
		goto fail;
	}
	l->ck = lite_ckpt_start(l->h);
	return &l->base;
fail:
	sqlite3_close(l->h);
	free(l);
	return NULL;
}
