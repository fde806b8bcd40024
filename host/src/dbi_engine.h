/*
 * dbi_engine.h — what an engine of the storage seam provides (internal to
 * dbi*.c): one table of operations. dbi.c dispatches every dbi_* call
 * through it; dbi_sqlite.c and dbi_pg.c each define one.
 */
#ifndef XCB_DBI_ENGINE_H
#define XCB_DBI_ENGINE_H

#include "dbi.h"

struct dbi_ops {
	enum dbi_engine engine;
	void (*close)(struct dbi *db);
	const char *(*errmsg)(struct dbi *db);
	int (*exec)(struct dbi *db, const char *sql);
	int (*in_txn)(struct dbi *db);
	int64_t (*changes)(struct dbi *db);
	int64_t (*last_id)(struct dbi *db);
	int (*user_version)(struct dbi *db);
	int (*set_user_version)(struct dbi *db, int v);
	int (*ping)(struct dbi *db);
	int (*conn_lost)(struct dbi *db);
	void (*idle)(struct dbi *db);
	void (*settle)(struct dbi *db);
	int (*prepare)(struct dbi *db, const char *sql, struct dbi_stmt **st);
	void (*finalize)(struct dbi_stmt *st);
	void (*reset)(struct dbi_stmt *st);
	void (*clear)(struct dbi_stmt *st);
	int (*param_index)(struct dbi_stmt *st, const char *name);
	int (*bind_i64)(struct dbi_stmt *st, int i, int64_t v);
	int (*bind_double)(struct dbi_stmt *st, int i, double v);
	int (*bind_text)(struct dbi_stmt *st, int i, const char *s, int len);
	int (*bind_null)(struct dbi_stmt *st, int i);
	int (*step)(struct dbi_stmt *st);
	int (*defer)(struct dbi_stmt *st, int64_t rows);
	int (*sync)(struct dbi *db);
	int (*column_count)(struct dbi_stmt *st);
	int (*column_type)(struct dbi_stmt *st, int col);
	int64_t (*column_i64)(struct dbi_stmt *st, int col);
	double (*column_double)(struct dbi_stmt *st, int col);
	const char *(*column_text)(struct dbi_stmt *st, int col);
	const char *(*sql)(struct dbi_stmt *st);
	void (*column_i64s)(struct dbi_stmt *st, int first, int n, int64_t *v, uint64_t *nulls);
	int (*fetch_ints)(struct dbi_stmt *st, int ncols, int max, int64_t *v, uint64_t *nulls, int *got);
	void (*column_val)(struct dbi_stmt *st, int col, struct dbval *v);
};

/* An engine's table from its functions, named PREFIX_close, PREFIX_exec,
 * ... (one per operation above): the list of operations is written once. */
#define DBI_OPS(P, ENGINE) { \
	.engine = ENGINE, .close = P##_close, .errmsg = P##_errmsg, .exec = P##_exec, \
	.in_txn = P##_in_txn, .changes = P##_changes, .last_id = P##_last_id, \
	.user_version = P##_user_version, .set_user_version = P##_set_user_version, \
	.ping = P##_ping, .conn_lost = P##_conn_lost, .idle = P##_idle, .settle = P##_settle, \
	.prepare = P##_prepare, .finalize = P##_finalize, \
	.reset = P##_reset, .clear = P##_clear, .param_index = P##_param_index, \
	.bind_i64 = P##_bind_i64, .bind_double = P##_bind_double, .bind_text = P##_bind_text, \
	.bind_null = P##_bind_null, .step = P##_step, .defer = P##_defer, .sync = P##_sync, \
	.column_count = P##_column_count, \
	.column_type = P##_column_type, .column_i64 = P##_column_i64, \
	.column_double = P##_column_double, .column_text = P##_column_text, .sql = P##_sql, \
	.column_i64s = P##_column_i64s, .fetch_ints = P##_fetch_ints, .column_val = P##_column_val, \
}

/* Every engine's connection and statement start with these. */
struct dbi {
	const struct dbi_ops *ops;
	int64_t executions;     /* dbi_executions */
};
struct dbi_stmt {
	struct dbi *db;
	int stepped;            /* stepped since the prepare or the last reset */
};

/* dbi_fetch_ints by stepping: dbi_step and dbi_column_i64s a row (dbi.c).
 * SQLite's way, and PostgreSQL's for a statement COPY cannot carry. */
int dbi_fetch_ints_steps(struct dbi_stmt *st, int ncols, int max, int64_t *v, uint64_t *nulls, int *got);

/* dbval_read by the column calls: its type, then its number as an integer
 * and as a double and its text, each asked of the engine (dbi.c). What an
 * engine's column_val does for a value it has no quicker way to read. */
void dbi_column_val_calls(struct dbi_stmt *st, int col, struct dbval *v);
/* The engines' openers (NULL with err filled). */
struct dbi *dbi_sqlite_open(const char *path, int flags, char *err, size_t errlen);
struct dbi *dbi_pg_open(const char *url, int flags, char *err, size_t errlen);
/* dbi_copy_in on PostgreSQL (dbi_pg_copyin.c): no other engine has one. */
int dbi_pg_copy_in(struct dbi *db, const char *target, const char *rows, size_t len, int64_t nrows);

#endif
