/*
 * dbi.c — the storage seam's front (dbi.h): picks the engine from the
 * --db value and dispatches each call through its operations table
 * (dbi_engine.h). Also the engine-independent helpers: values, bindings
 * of a value, URL redaction, and one statement with its arguments given at
 * once (dbi_query and friends: prepare, bind, step, finalize written once).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbi_engine.h"

int dbi_url_is_pg(const char *url)
{
	return strncmp(url, "postgresql://", 13) == 0 || strncmp(url, "postgres://", 11) == 0;
}

struct dbi *dbi_open(const char *url, int flags, char *err, size_t errlen)
{
	if (dbi_url_is_pg(url))
		return dbi_pg_open(url, flags, err, errlen);
	return dbi_sqlite_open(url, flags, err, errlen);
}

/* 1 when a URL query's key k (klen bytes, %XX-encoded as libpq decodes
 * it) names a password: password or sslpassword. */
static int key_is_password(const char *k, size_t klen)
{
	char d[64];
	size_t n = 0;

	for (size_t i = 0; i < klen && n < sizeof(d) - 1; i++) {
		if (k[i] == '%' && i + 2 < klen && isxdigit((unsigned char)k[i + 1]) &&
		    isxdigit((unsigned char)k[i + 2])) {
			char hex[3] = { k[i + 1], k[i + 2], 0 };

			d[n++] = (char)strtol(hex, NULL, 16);
			i += 2;
		} else {
			d[n++] = k[i];
		}
	}
	d[n] = 0;
	return strcmp(d, "password") == 0 || strcmp(d, "sslpassword") == 0;
}

/* In s (n bytes), the value of each password parameter of a URL's query
 * replaced by "***". libpq takes a password there too (its key may be
 * %-encoded), and the refusal of one printed the URL with the password. */
static void redact_query(char *s, size_t n)
{
	char *k = strchr(s, '?');

	while (k && *k) {
		char *eq, *e;

		k++;	/* past '?' or '&' */
		e = k + strcspn(k, "&");
		eq = memchr(k, '=', (size_t)(e - k));
		if (eq && key_is_password(k, (size_t)(eq - k))) {
			char *v = eq + 1;
			size_t tail = strlen(e) + 1;

			if ((size_t)(v - s) + 3 + tail > n) {	/* no room for "***": cut */
				*v = 0;
				return;
			}
			memmove(v + 3, e, tail);
			memcpy(v, "***", 3);
			e = v + 3;
		}
		k = *e ? e : NULL;
	}
}

/* "scheme://user:secret@host/db?password=secret" ->
 * "scheme://user:***@host/db?password=***"; a path as is. */
void dbi_url_redact(const char *url, char *out, size_t n)
{
	const char *p = dbi_url_is_pg(url) ? strstr(url, "://") + 3 : NULL;
	const char *at = p ? strchr(p, '@') : NULL;
	const char *colon = at ? memchr(p, ':', (size_t)(at - p)) : NULL;

	if (!n)
		return;
	if (!colon)
		snprintf(out, n, "%s", url);
	else
		snprintf(out, n, "%.*s:***%s", (int)(colon - url), url, at);
	if (p)
		redact_query(out, n);
}

void dbi_close(struct dbi *db)
{
	if (db)
		db->ops->close(db);
}

enum dbi_engine dbi_engine(const struct dbi *db) { return db->ops->engine; }
const char *dbi_errmsg(struct dbi *db) { return db ? db->ops->errmsg(db) : "no database"; }
int dbi_exec(struct dbi *db, const char *sql) { return db->ops->exec(db, sql); }
int dbi_in_txn(struct dbi *db) { return db->ops->in_txn(db); }
int64_t dbi_changes(struct dbi *db) { return db->ops->changes(db); }
int64_t dbi_last_id(struct dbi *db) { return db->ops->last_id(db); }
int dbi_user_version(struct dbi *db) { return db->ops->user_version(db); }
int dbi_set_user_version(struct dbi *db, int v) { return db->ops->set_user_version(db, v); }
int dbi_ping(struct dbi *db) { return db->ops->ping(db); }
int dbi_conn_lost(struct dbi *db) { return db->ops->conn_lost(db); }
void dbi_idle(struct dbi *db) { db->ops->idle(db); }
void dbi_settle(struct dbi *db) { db->ops->settle(db); }

int dbi_prepare(struct dbi *db, const char *sql, struct dbi_stmt **st)
{
	*st = NULL;
	return db ? db->ops->prepare(db, sql, st) : DBI_ERROR;
}

void dbi_finalize(struct dbi_stmt *st)
{
	if (st)
		st->db->ops->finalize(st);
}

int64_t dbi_executions(struct dbi *db) { return db->executions; }

void dbi_reset(struct dbi_stmt *st)
{
	st->stepped = 0;
	st->db->ops->reset(st);
}

void dbi_clear(struct dbi_stmt *st) { st->db->ops->clear(st); }
int dbi_param_index(struct dbi_stmt *st, const char *name) { return st->db->ops->param_index(st, name); }
int dbi_bind_i64(struct dbi_stmt *st, int i, int64_t v) { return st->db->ops->bind_i64(st, i, v); }
int dbi_bind_double(struct dbi_stmt *st, int i, double v) { return st->db->ops->bind_double(st, i, v); }
int dbi_bind_null(struct dbi_stmt *st, int i) { return st->db->ops->bind_null(st, i); }
void dbi_bind_named_i64(struct dbi_stmt *st, const char *name, int64_t v)
{
	int i = dbi_param_index(st, name);

	if (i)
		dbi_bind_i64(st, i, v);
}
int dbi_step(struct dbi_stmt *st)
{
	if (!st->stepped) {
		st->stepped = 1;
		st->db->executions++;
	}
	return st->db->ops->step(st);
}

int dbi_defer(struct dbi_stmt *st, int64_t rows)
{
	st->db->executions++;
	return st->db->ops->defer(st, rows);
}

int dbi_sync(struct dbi *db) { return db->ops->sync(db); }

int dbi_copy_in(struct dbi *db, const char *target, const char *rows, size_t len, int64_t nrows)
{
	if (db->ops->engine != DBI_PG)
		return DBI_ERROR;
	db->executions++;
	return dbi_pg_copy_in(db, target, rows, len, nrows);
}

int dbi_column_count(struct dbi_stmt *st) { return st->db->ops->column_count(st); }
int dbi_column_type(struct dbi_stmt *st, int col) { return st->db->ops->column_type(st, col); }
int64_t dbi_column_i64(struct dbi_stmt *st, int col) { return st->db->ops->column_i64(st, col); }
int dbi_column_int(struct dbi_stmt *st, int col) { return (int)st->db->ops->column_i64(st, col); }
double dbi_column_double(struct dbi_stmt *st, int col) { return st->db->ops->column_double(st, col); }
void dbi_column_i64s(struct dbi_stmt *st, int first, int n, int64_t *v, uint64_t *nulls)
{
	st->db->ops->column_i64s(st, first, n, v, nulls);
}
int dbi_fetch_ints(struct dbi_stmt *st, int ncols, int max, int64_t *v, uint64_t *nulls, int *got)
{
	*got = 0;
	if (ncols < 1 || ncols > 64 || max < 0)
		return DBI_ERROR;
	st->db->executions++;
	return st->db->ops->fetch_ints(st, ncols, max, v, nulls, got);
}

int dbi_fetch_ints_steps(struct dbi_stmt *st, int ncols, int max, int64_t *v, uint64_t *nulls, int *got)
{
	int rc = DBI_DONE, n = 0;

	/* the engine's own steps: dbi_fetch_ints counted the execution once,
	 * and a dbi_step would count it again */
	while (n < max && (rc = st->db->ops->step(st)) == DBI_ROW) {
		st->db->ops->column_i64s(st, 0, ncols, v + (size_t)n * (size_t)ncols, &nulls[n]);
		n++;
	}
	*got = n;
	dbi_reset(st);
	return rc == DBI_ROW || rc == DBI_DONE ? DBI_OK : rc;
}

const char *dbi_column_text(struct dbi_stmt *st, int col) { return st->db->ops->column_text(st, col); }
const char *dbi_sql(struct dbi_stmt *st) { return st->db->ops->sql(st); }
struct dbi *dbi_db(struct dbi_stmt *st) { return st->db; }

int dbi_bind_text(struct dbi_stmt *st, int i, const char *s, int len)
{
	return s ? st->db->ops->bind_text(st, i, s, len) : st->db->ops->bind_null(st, i);
}

int dbi_bind_value(struct dbi_stmt *st, int i, const struct dbval *v)
{
	switch (v->type) {
	case DBI_INT: return dbi_bind_i64(st, i, v->i);
	case DBI_FLOAT: return dbi_bind_double(st, i, v->d);
	case DBI_TEXT: return dbi_bind_text(st, i, v->s, -1);
	default: return dbi_bind_null(st, i);
	}
}

void dbi_column_val_calls(struct dbi_stmt *st, int col, struct dbval *v)
{
	const char *s;

	v->type = dbi_column_type(st, col);
	v->i = dbi_column_i64(st, col);
	v->d = dbi_column_double(st, col);
	s = v->type == DBI_NULL ? NULL : dbi_column_text(st, col);
	v->s = s ? strdup(s) : NULL;
}

/* The engine's column_val: the values dbi_column_val_calls gives, with
 * fewer calls (a run list reads ~18 of them a run). */
void dbval_read(struct dbi_stmt *st, int col, struct dbval *v)
{
	st->db->ops->column_val(st, col, v);
}

void dbval_free(struct dbval *v)
{
	free(v->s);
	v->s = NULL;
}

/* Binds one argument to parameter i (1-based) as its type says. */
static int bind_arg(struct dbi_stmt *st, int i, const struct dbi_arg *a)
{
	switch (a->type) {
	case DBI_INT: return dbi_bind_i64(st, i, a->i);
	case DBI_FLOAT: return dbi_bind_double(st, i, a->d);
	case DBI_TEXT: return dbi_bind_text(st, i, a->s, -1);
	default: return dbi_bind_null(st, i);
	}
}

int dbi_query_args(struct dbi *db, const char *sql, struct dbi_stmt **st, const struct dbi_arg *args,
		   size_t n)
{
	int rc = dbi_prepare(db, sql, st);

	for (size_t k = 0; rc == DBI_OK && k < n; k++)
		rc = bind_arg(*st, (int)k + 1, &args[k]);
	if (rc != DBI_OK) {
		/* a bind refused (a parameter the SQL lacks): nothing half-bound
		 * reaches the caller */
		dbi_finalize(*st);
		*st = NULL;
	}
	return rc;
}

int dbi_row_args(struct dbi *db, const char *sql, struct dbi_stmt **st, const struct dbi_arg *args,
		 size_t n)
{
	int rc = dbi_query_args(db, sql, st, args, n);

	if (rc != DBI_OK)
		return rc;
	rc = dbi_step(*st);
	if (rc != DBI_ROW) {
		dbi_finalize(*st);
		*st = NULL;
	}
	return rc;
}

int dbi_run_args(struct dbi *db, const char *sql, const struct dbi_arg *args, size_t n)
{
	struct dbi_stmt *st;
	int rc = dbi_row_args(db, sql, &st, args, n);

	dbi_finalize(st);
	return rc == DBI_ROW || rc == DBI_DONE ? DBI_OK : rc;
}

int64_t dbi_i64_args(struct dbi *db, const char *sql, int64_t dflt, const struct dbi_arg *args, size_t n)
{
	struct dbi_stmt *st;
	int64_t v = dflt;

	if (dbi_row_args(db, sql, &st, args, n) == DBI_ROW)
		v = dbi_column_i64(st, 0);
	dbi_finalize(st);
	return v;
}
