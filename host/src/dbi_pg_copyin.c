/*
 * dbi_pg_copyin.c — dbi_copy_in on PostgreSQL: the writer's rows of one
 * table inserted by COPY ... FROM STDIN, not a multi-row INSERT.
 *
 * Why: the fast path's RESULT rows (and its frame ledger's, before the
 * ledger became spans: store_ledger.c) were INSERT ... VALUES ...
 * ON CONFLICT DO NOTHING, and on the server a row of that costs a
 * speculative insertion (an index probe first, a token, a second WAL
 * record to confirm it) plus parsing and binding its parameters; COPY
 * inserts a page's rows with one heap WAL record (heap_multi_insert) and
 * parses plain text, and the server's CPU a row is the ingest bound
 * (bench/LIMITS.md).
 *
 * Insert-once stays the unique keys' work: COPY has no ON CONFLICT, so a
 * duplicate key fails the COPY (unique_violation, 23505). The COPY runs
 * in a savepoint, rolled back to on that failure: the transaction goes on
 * with none of the COPY's rows, and the next dbi_sync says DBI_MISMATCH,
 * exactly as a short count of the INSERT said it, so the writer redoes
 * the batch the careful way (writer.c process()). Any other failure is
 * the batch's (the savepoint is not rolled back to: the transaction is
 * lost, and COMMIT is refused, dbi_pg.c).
 *
 * libpq runs no COPY in pipeline mode, so what the pipeline holds is
 * answered first (pg_pipe_wait); the savepoint and the COPY go in one
 * message, and the RELEASE is queued in the pipeline with the statements
 * that follow: one round trip a COPY.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbi_pg_conn.h"

/* 1 if r failed on a unique key. */
static int unique_violation(PGresult *r)
{
	const char *code = PQresultErrorField(r, PG_DIAG_SQLSTATE);

	return code && !strcmp(code, "23505");
}

/* Sends the rows and reads the COPY's end: DBI_OK (n set to its rows),
 * DBI_MISMATCH (a unique key refused a row), or the failure. The
 * connection is idle again on return. */
static int copy_rows(struct pg *p, const char *rows, size_t len, int64_t *n)
{
	PGresult *r;
	int rc = DBI_OK;

	/* (libpq sends big rows as several CopyData messages itself) */
	if (len > 0 && PQputCopyData(p->c, rows, (int)len) != 1)
		rc = pg_fail(p, NULL);
	if (PQputCopyEnd(p->c, rc == DBI_OK ? NULL : "not sent") != 1 && rc == DBI_OK)
		rc = pg_fail(p, NULL);
	while ((r = PQgetResult(p->c)) != NULL) {
		if (PQresultStatus(r) == PGRES_COPY_IN) {
			/* The end was not taken (PQputCopyEnd failed on a
			 * connection libpq still calls up): asking again would
			 * answer the same for ever. The batch fails here; the
			 * writer's dbi_ping after it finds the connection unusable
			 * and reconnects (writer.c check_connection). */
			PQclear(r);
			if (rc == DBI_OK)
				rc = pg_fail(p, NULL);
			break;
		}
		if (PQresultStatus(r) == PGRES_COMMAND_OK)
			*n = strtoll(PQcmdTuples(r), NULL, 10);
		else if (rc == DBI_OK)
			rc = unique_violation(r) ? DBI_MISMATCH : pg_fail(p, r);
		PQclear(r);
	}
	return rc;
}

int dbi_pg_copy_in(struct dbi *db, const char *target, const char *rows, size_t len, int64_t nrows)
{
	struct pg *p = PG(db);
	char sql[512];
	PGresult *r;
	int64_t n = -1;
	int rc, txn;

	/* The statements queued before are answered first (their failure is
	 * the batch's: nothing more is sent). */
	if (pg_pipe_wait(p))
		return p->pipe_err;
	if (PQstatus(p->c) != CONNECTION_OK)
		return pg_fail(p, NULL);
	/* Outside a transaction the COPY is its own: no savepoint to keep. */
	txn = PQtransactionStatus(p->c) == PQTRANS_INTRANS;
	if (len > (size_t)0x7fffffff || (size_t)snprintf(sql, sizeof(sql), "%sCOPY %s FROM STDIN",
							   txn ? "SAVEPOINT xcb_copy; " : "", target) >= sizeof(sql)) {
		snprintf(p->err, sizeof(p->err), "COPY too long");
		return DBI_ERROR;
	}
	r = PQexec(p->c, sql);
	if (PQresultStatus(r) != PGRES_COPY_IN) {
		rc = pg_fail(p, r);
		PQclear(r);
		while ((r = PQgetResult(p->c)) != NULL)
			PQclear(r);
		return p->pipe_err = rc;
	}
	PQclear(r);
	rc = copy_rows(p, rows, len, &n);
	if (rc == DBI_MISMATCH && txn) {
		/* The COPY's rows are gone; the batch's others stay, to be
		 * rolled back by the writer after dbi_sync says it. */
		r = PQexec(p->c, "ROLLBACK TO SAVEPOINT xcb_copy; RELEASE SAVEPOINT xcb_copy");
		rc = PQresultStatus(r) == PGRES_COMMAND_OK ? DBI_OK : pg_fail(p, r);
		PQclear(r);
		p->mismatch = 1;
	} else if (rc == DBI_MISMATCH) {
		rc = DBI_OK;
		p->mismatch = 1;
	} else if (rc == DBI_OK) {
		if (n != nrows)
			p->mismatch = 1;
		if (txn)
			rc = pg_pipe_send(p, "RELEASE SAVEPOINT xcb_copy");
	}
	if (rc != DBI_OK && !p->pipe_err)
		p->pipe_err = rc;
	return rc;
}
