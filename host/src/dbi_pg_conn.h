/*
 * dbi_pg_conn.h — the PostgreSQL engine's connection and statement
 * (internal to dbi_pg.c, dbi_pg_pipe.c, its pipeline of deferred
 * statements, dbi_pg_copy.c, its blocks of integer rows, and
 * dbi_pg_passfile.c, what a connection wanting a password lacked).
 */
#ifndef XCB_DBI_PG_CONN_H
#define XCB_DBI_PG_CONN_H

#include <libpq-fe.h>

#include "dbi_engine.h"
#include "dbi_pg_sql.h"

/* Type OIDs (pg_type.h is a server header). */
enum { OID_BOOL = 16, OID_INT8 = 20, OID_INT2 = 21, OID_INT4 = 23, OID_TEXT = 25, OID_OID = 26,
       OID_FLOAT4 = 700, OID_FLOAT8 = 701, OID_NUMERIC = 1700 };

/* A statement text a reader has sent, with its parameters' types: from
 * its second sending on, prepared on the server under name, and kept
 * there while the connection lives (never DEALLOCATEd: a dbi_stmt may
 * still use it). */
struct plan {
	char *sql;
	Oid *type;              /* [0..n) */
	int n;
	char name[24];
	unsigned gen;           /* == pg->gen + 1 when prepared on this connection */
};
#define PLANS 128               /* then further texts keep the per-statement rule */

struct pg {
	struct dbi base;
	struct plan plan[PLANS]; /* a reader's shared server-side statements (dbi_pg.c plan_shared) */
	int nplans;
	PGconn *c;
	int flags;
	unsigned gen;           /* bumped by each reconnection */
	unsigned next_name;     /* server-side statement names x1, x2, ... */
	int64_t changes;
	char err[512];
	struct pg_pending *pend; /* the pipeline's statements not yet answered (dbi_pg_pipe.c) */
	int npend, pend_cap;
	int mismatch;           /* one changed other rows than told, until p_sync */
	int pipe_err;           /* one failed (DBI_ERROR/IOERR), until p_sync */
};

struct pg_stmt {
	struct dbi_stmt base;
	char *sql;              /* as written */
	struct pg_sql q;        /* rewritten: $N parameters, which are LIMITs */
	char **val;             /* [1..q.nparams]: bound text, NULL = SQL NULL */
	Oid *type;              /* [1..]: INT8/FLOAT8 when bound as numbers (kept) */
	char name[24];
	unsigned prepared_gen;  /* == pg->gen when prepared on this connection */
	int execs;
	int retyped;            /* untyped parameters were made text */
	int retried;            /* executing again on a new connection */
	int shared;             /* name is a struct plan's: not DEALLOCATEd at finalize */
	int copy_ints;          /* dbi_pg_copy.c: its columns are integers (1), not (-1), not asked (0) */
	PGresult *res;
	int row, nrows;
	char boolbuf[2];
};
#define PG(db) ((struct pg *)(db))
#define PST(st) ((struct pg_stmt *)(st))

/* The seam's code for a failed result: the connection gone is DBI_IOERR
 * (the writer degrades and retries), anything else DBI_ERROR; the message
 * kept for dbi_errmsg. */
int pg_fail(struct pg *p, PGresult *r);

/* dbi_pg_passfile.c: for a connection that wanted a password and had
 * none, "; " and what to do about it, in out: which password file libpq
 * read and why it gave none (missing, readable by others, no line for
 * this host, port, database and user). */
void pg_password_hint(PGconn *c, char *out, size_t n);

/* dbi_pg_pipe.c: dbi_defer / dbi_sync for PostgreSQL, and the wait every
 * synchronous call does first (0, or the DBI_ code of a failed deferred
 * statement: the transaction is lost). */
int p_defer(struct dbi_stmt *s, int64_t rows);
int p_sync(struct dbi *db);
int pg_pipe_wait(struct pg *p);
/* Queues sql, a statement without parameters whose answer (any rows)
 * nobody waits for, in the pipeline like p_defer's: 0 or the DBI_ code. */
int pg_pipe_send(struct pg *p, const char *sql);

/* dbi_pg_copy.c: dbi_fetch_ints for PostgreSQL (COPY (SELECT ...) TO STDOUT). */
int p_fetch_ints(struct dbi_stmt *s, int ncols, int max, int64_t *v, uint64_t *nulls, int *got);

#endif
