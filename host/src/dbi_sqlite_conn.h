/*
 * dbi_sqlite_conn.h — the SQLite engine's connection and statement, shared
 * by its files (internal to dbi_sqlite.c and dbi_sqlite_ints.c).
 */
#ifndef XCB_DBI_SQLITE_CONN_H
#define XCB_DBI_SQLITE_CONN_H

#include <sqlite3.h>

#include "dbi_engine.h"

struct lite {
	struct dbi base;
	sqlite3 *h;
	int mismatch;   /* a deferred statement changed other rows than told */
	struct lite_ckpt *ck; /* a read-write connection's checkpointer, or NULL */
};
struct lite_stmt {
	struct dbi_stmt base;
	sqlite3_stmt *h;
	/* dbi_fetch_ints's own statement (dbi_sqlite_ints.c): h with its
	 * first ints_ncols columns packed into one, prepared on first use;
	 * ints_none: h cannot be rewritten so, it is stepped. */
	sqlite3_stmt *ints;
	int ints_ncols, ints_none;
};
#define LITE(db) (((struct lite *)(db))->h)
#define LST(st) (((struct lite_stmt *)(st))->h)

/* SQLite's result code as the seam's. */
int lite_rc(int rc);
/* Registers xcb_ints, the packing function of dbi_fetch_ints, on h. */
int lite_ints_register(sqlite3 *h);
/* The most pages the WAL holds after a commit with the checkpointer on:
 * at this many the writer waits for its pass and copies the rest (~18.5
 * MiB at 4 KiB pages; test_sqlite_ckpt holds it to that, and
 * t-daemon-csvstall's bound is above it). */
#define LITE_CKPT_MAX 4500
/* At this many the writer copies what the checkpointer's passes left (the
 * catch-up, at dbi_settle), so its next write rewinds the WAL. */
#define LITE_CKPT_CATCHUP 4000
/* Starts the checkpointer of the read-write connection `writer`
 * (dbi_sqlite_ckpt.c): its checkpoints then run on a thread of their own.
 * NULL if it cannot (said on stderr) or the database is in memory: SQLite's
 * automatic checkpoint stays. */
struct lite_ckpt *lite_ckpt_start(sqlite3 *writer);
/* The catch-up (the WAL's frames the passes left, copied by `writer`
 * itself, so its next write rewinds the WAL) if a commit found it due;
 * dbi_settle, after the commit's answers. NULL does nothing. */
void lite_ckpt_settle(struct lite_ckpt *ck, sqlite3 *writer);
/* Stops it (after its pass, if one runs) and gives `writer` back its
 * default; NULL does nothing. Before `writer` is closed. */
void lite_ckpt_stop(struct lite_ckpt *ck, sqlite3 *writer);
/* dbi_fetch_ints on SQLite (dbi_sqlite_ints.c). */
int l_fetch_ints(struct dbi_stmt *st, int ncols, int max, int64_t *v, uint64_t *nulls, int *got);

#endif
