/*
 * dbi.h — the storage seam: every SQL statement of the daemon goes through
 * this interface, whatever engine holds the data (dbi.c dispatches to
 * dbi_sqlite.c, the embedded default, or dbi_pg.c, a PostgreSQL server).
 *
 * The calls mirror SQLite's prepared-statement API one for one, so that
 * converting data-access code is mechanical (docs/ARCHITECTURE.md, "The
 * storage seam", lists the renames; host/tools/dbi-convert.sed applies
 * them). SQL is written once, in the subset both engines accept:
 *   - parameters as ?, ?N or :name (the PostgreSQL engine renumbers them);
 *   - INSERT ... ON CONFLICT DO NOTHING, never INSERT OR IGNORE;
 *   - a parameter only tested with IS NULL is CAST (AS TEXT, AS BIGINT):
 *     PostgreSQL types each parameter from where it is used;
 *   - standard functions only (count, sum, min, max, COALESCE, CASE,
 *     EXISTS, LIMIT/OFFSET); a new id is read with dbi_last_id.
 * A connection belongs to one thread at a time (like SQLite's NOMUTEX).
 */
#ifndef XCB_DBI_H
#define XCB_DBI_H

#include <stddef.h>
#include <stdint.h>

struct dbi;
struct dbi_stmt;

enum dbi_engine { DBI_SQLITE, DBI_PG };

/* Column and value types (SQLite's storage classes; PostgreSQL's numeric
 * columns map to INT or FLOAT, the others to TEXT). */
enum { DBI_NULL, DBI_INT, DBI_FLOAT, DBI_TEXT };

/* Results of dbi_step and friends. DBI_IOERR: the store is unusable right
 * now (disk full, I/O error, server gone): the caller degrades and retries
 * instead of logging each statement. */
enum { DBI_OK = 0, DBI_ERROR = 1, DBI_IOERR = 2, DBI_MISMATCH = 3, DBI_ROW = 100, DBI_DONE = 101 };

/* The most parameters a statement may have on either engine: the
 * PostgreSQL engine's dbi_prepare refuses more (its rewrite's tables;
 * SQLite takes 32766, the PostgreSQL server 65535). */
#define DBI_PARAMS_MAX 4096

/* Open flags. */
enum { DBI_RO = 1, DBI_RW = 2 };

/* A value as the store holds it: the API keeps its type (a number stays a
 * number, text stays text, NULL is null). */
struct dbval {
	int type;       /* DBI_INT, DBI_FLOAT, DBI_TEXT or DBI_NULL */
	int64_t i;      /* the value as an integer */
	double d;       /* the value as a double */
	char *s;        /* its text, for any non-NULL value (owned), else NULL */
};
/* Reads column col of st into v (free with dbval_free). */
void dbval_read(struct dbi_stmt *st, int col, struct dbval *v);
void dbval_free(struct dbval *v);

/* ---- connections ---- */

/* Opens url: "postgresql://..." or "postgres://..." (a password comes from
 * PGPASSFILE, ~/.pgpass or the environment, never from the url), or else a
 * SQLite file path. NULL with the reason in err. DBI_RO: a reader. */
struct dbi *dbi_open(const char *url, int flags, char *err, size_t errlen);
void dbi_close(struct dbi *db);
enum dbi_engine dbi_engine(const struct dbi *db);
/* 1 if url names a PostgreSQL server. */
int dbi_url_is_pg(const char *url);
/* url with any password replaced by "***", for logs and the API. */
void dbi_url_redact(const char *url, char *out, size_t n);
/* The last error of db (valid until its next call). */
const char *dbi_errmsg(struct dbi *db);
/* Runs one or more statements without results: DBI_OK, DBI_ERROR or
 * DBI_IOERR (dbi_errmsg says why). */
int dbi_exec(struct dbi *db, const char *sql);
/* 1 inside BEGIN ... COMMIT. 0 after a failure rolled the transaction back
 * (SQLite does on a full disk) or outside one. */
int dbi_in_txn(struct dbi *db);
/* Rows changed by the last INSERT/UPDATE/DELETE statement. */
int64_t dbi_changes(struct dbi *db);
/* The id the last INSERT gave its row (an INTEGER PRIMARY KEY). */
int64_t dbi_last_id(struct dbi *db);
/* The schema version (migrations applied), or -1; and setting it (inside
 * the migration's transaction). */
int dbi_user_version(struct dbi *db);
int dbi_set_user_version(struct dbi *db, int v);
/* 1 if the connection is usable (a PostgreSQL engine reconnects here when
 * it was lost). */
int dbi_ping(struct dbi *db);
/* 1 when db has no connection to its store now: a PostgreSQL server
 * stopped, restarted or unreachable (a failed call's cause, so the caller
 * says "database unavailable", 503, not a failed query, 500). SQLite: 0, a
 * file has no connection to lose (its DBI_IOERR is the disk's). */
int dbi_conn_lost(struct dbi *db);
/* Statements executed on db so far (each first step after a prepare or a
 * reset counts once): what a test counts to prove a page costs a constant
 * number of queries. */
int64_t dbi_executions(struct dbi *db);
/* Housekeeping while the writer is idle (SQLite: a passive checkpoint). */
void dbi_idle(struct dbi *db);
/* Work a commit left for after its answers: the writer calls it once a
 * batch's ACKs are sent. SQLite: the WAL's catch-up copy when a commit
 * found it due (dbi_sqlite_ckpt.c), which inside the COMMIT held the
 * batch's ACKs for its two fdatasyncs. PostgreSQL: nothing. */
void dbi_settle(struct dbi *db);

/* ---- statements ---- */

/* DBI_OK with *st, or DBI_ERROR / DBI_IOERR with *st NULL. */
int dbi_prepare(struct dbi *db, const char *sql, struct dbi_stmt **st);
void dbi_finalize(struct dbi_stmt *st);
/* Back to before the first step, bindings kept. */
void dbi_reset(struct dbi_stmt *st);
/* Every parameter back to NULL. */
void dbi_clear(struct dbi_stmt *st);
/* The index (1-based) of parameter :name, or 0. */
int dbi_param_index(struct dbi_stmt *st, const char *name);
/* Binding parameter i (1-based); text is copied. */
int dbi_bind_i64(struct dbi_stmt *st, int i, int64_t v);
int dbi_bind_double(struct dbi_stmt *st, int i, double v);
int dbi_bind_text(struct dbi_stmt *st, int i, const char *s, int len); /* len -1: to NUL */
int dbi_bind_null(struct dbi_stmt *st, int i);
int dbi_bind_value(struct dbi_stmt *st, int i, const struct dbval *v);
/* Binds v to parameter :name when st has it (a statement whose text holds
 * only the filters given), else nothing. */
void dbi_bind_named_i64(struct dbi_stmt *st, const char *name, int64_t v);
/* DBI_ROW (a row is readable), DBI_DONE, DBI_ERROR or DBI_IOERR. */
int dbi_step(struct dbi_stmt *st);
int dbi_column_count(struct dbi_stmt *st);
int dbi_column_type(struct dbi_stmt *st, int col);
int64_t dbi_column_i64(struct dbi_stmt *st, int col);
int dbi_column_int(struct dbi_stmt *st, int col);
double dbi_column_double(struct dbi_stmt *st, int col);
/* Columns first .. first+n-1 (n <= 64) of the current row as integers, a
 * NULL read as 0 with bit k of *nulls set for column first+k: one call per
 * row instead of two per column, for a reader of many numeric columns (the
 * run CSV reads ~30 a row; per-column calls were a fifth of its time on
 * SQLite, a third on PostgreSQL, whose engine re-checked the row and the
 * type and ran strtoll for every column). */
void dbi_column_i64s(struct dbi_stmt *st, int first, int n, int64_t *v, uint64_t *nulls);
/* A block of integer rows at once: runs st (bound, from its start) and
 * reads up to max rows of its first ncols columns (ncols <= 64; every
 * column an integer) into v, row k at v[k * ncols], a NULL read as 0 with
 * bit c of nulls[k] set; *got is the rows read. st is reset after (its
 * read is over: a streamed export's blocks are short transactions).
 * DBI_OK, DBI_ERROR or DBI_IOERR. SQLite steps st with its first ncols
 * columns packed into one blob a row where its text allows
 * (dbi_sqlite_ints.c); PostgreSQL asks for the
 * block as COPY ... TO STDOUT and parses its rows straight into numbers,
 * with no PGresult built in between (the run CSV's ~33 numbers a row;
 * dbi_pg_copy.c). Counts one execution. */
int dbi_fetch_ints(struct dbi_stmt *st, int ncols, int max, int64_t *v, uint64_t *nulls, int *got);
/* The column as text (valid until the next step), NULL for NULL. */
const char *dbi_column_text(struct dbi_stmt *st, int col);
/* Runs st (bound) for its effect without waiting for its answer: it must
 * change exactly rows rows (-1: any number). Reset and cleared after. The
 * PostgreSQL engine queues it in libpq's pipeline, so a writer's batch
 * costs a round trip per few hundred statements, not one each; SQLite runs
 * it now. DBI_OK, or DBI_ERROR / DBI_IOERR when it could not be sent (a
 * failure on the server is dbi_sync's answer). Any other call on db first
 * waits for what is queued. */
int dbi_defer(struct dbi_stmt *st, int64_t rows);
/* Inserts nrows rows, given as COPY's text format in rows (len bytes: a
 * line a row, tab-separated, \N a NULL, \\ \t \n escaped), into target
 * ("table(column, ...)"), without waiting for its answer, like dbi_defer:
 * a row that a unique key refuses (one stored, or the same key twice in
 * rows) makes no row of it stored and is a wrong prediction dbi_sync
 * reports as DBI_MISMATCH, the transaction kept; as an INSERT ... ON
 * CONFLICT DO NOTHING asking for all its rows would, at a fraction of the
 * server's work a row. PostgreSQL only (COPY FROM STDIN, dbi_pg_copyin.c):
 * DBI_ERROR on SQLite. DBI_OK, or DBI_ERROR / DBI_IOERR when it failed
 * (the transaction is lost). Counts one execution. */
int dbi_copy_in(struct dbi *db, const char *target, const char *rows, size_t len, int64_t nrows);
/* Waits for every deferred statement of db: DBI_OK; DBI_MISMATCH when one
 * changed another number of rows than dbi_defer was told (the caller
 * predicted wrong: it rolls back and does the work the careful way);
 * DBI_ERROR or DBI_IOERR when one failed (the transaction is lost). */
int dbi_sync(struct dbi *db);
/* The statement's SQL as prepared, and its connection. */
const char *dbi_sql(struct dbi_stmt *st);
struct dbi *dbi_db(struct dbi_stmt *st);

/* ---- one statement, its arguments given at once ---- */

/* An argument of dbi_query and friends, bound to parameter k+1 as the k-th
 * of its list. Built with DBI_I, DBI_D, DBI_T, DBI_NUL, so that each value
 * is converted to its column's type where it is written (a varargs list
 * would read an int as an int64_t). */
struct dbi_arg {
	int type;       /* DBI_INT, DBI_FLOAT, DBI_TEXT or DBI_NULL */
	int64_t i;
	double d;
	const char *s;  /* DBI_TEXT: NULL binds NULL, as dbi_bind_text */
};
#define DBI_I(v) ((struct dbi_arg){ .type = DBI_INT, .i = (v) })
#define DBI_D(v) ((struct dbi_arg){ .type = DBI_FLOAT, .d = (v) })
#define DBI_T(v) ((struct dbi_arg){ .type = DBI_TEXT, .s = (v) })
#define DBI_NUL ((struct dbi_arg){ .type = DBI_NULL })
/* The list of arguments ... and its length, for the *_args functions. */
#define DBI_ARGV(...) (const struct dbi_arg[]){ __VA_ARGS__ }, \
	sizeof((const struct dbi_arg[]){ __VA_ARGS__ }) / sizeof(struct dbi_arg)

/* Prepares sql and binds args[0..n) to parameters 1..n: DBI_OK with *st
 * ready to step (the caller finalizes it), else the error with *st NULL. */
int dbi_query_args(struct dbi *db, const char *sql, struct dbi_stmt **st, const struct dbi_arg *args,
		   size_t n);
/* The same, then one step: DBI_ROW with *st on the first row (the caller
 * reads it, then finalizes *st); otherwise (DBI_DONE: no row, or an error)
 * the statement is finalized already and *st is NULL, so that the caller's
 * dbi_finalize(*st) is harmless on every path. */
int dbi_row_args(struct dbi *db, const char *sql, struct dbi_stmt **st, const struct dbi_arg *args,
		 size_t n);
/* A statement run for its effect (INSERT, UPDATE, DELETE): prepared, bound,
 * stepped once, finalized. DBI_OK when the step gave DBI_DONE or DBI_ROW,
 * else the error (DBI_ERROR, DBI_IOERR). */
int dbi_run_args(struct dbi *db, const char *sql, const struct dbi_arg *args, size_t n);
/* The first column of the first row as an integer; dflt when there is no
 * row or the statement fails. */
int64_t dbi_i64_args(struct dbi *db, const char *sql, int64_t dflt, const struct dbi_arg *args, size_t n);

/* The above with the arguments written in the call:
 * dbi_row(db, "SELECT lab FROM machines WHERE mac = ?", &st, DBI_T(mac)). */
#define dbi_query(db, sql, st, ...) dbi_query_args(db, sql, st, DBI_ARGV(__VA_ARGS__))
#define dbi_row(db, sql, st, ...) dbi_row_args(db, sql, st, DBI_ARGV(__VA_ARGS__))
#define dbi_run(db, sql, ...) dbi_run_args(db, sql, DBI_ARGV(__VA_ARGS__))
#define dbi_i64(db, sql, dflt, ...) dbi_i64_args(db, sql, dflt, DBI_ARGV(__VA_ARGS__))

#endif
