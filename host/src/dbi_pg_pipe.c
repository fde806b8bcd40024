/*
 * dbi_pg_pipe.c — dbi_defer and dbi_sync on PostgreSQL: libpq's pipeline
 * mode. The writer's per-frame statements need no answer before the next
 * one is sent (store.c decides from what it knows in memory), so they are
 * queued on the connection and their answers read together: a batch of
 * frames costs a round trip per PIPE_MAX statements instead of one or more
 * per frame, which was the ingest bound on PostgreSQL (bench/LIMITS.md).
 *
 * Each queued statement carries the rows it must change. The answers are
 * read at dbi_sync, before any synchronous call (pg_pipe_wait: libpq allows
 * no PQexec in pipeline mode, and a reader of the batch must see what was
 * queued before it), and every PIPE_MAX statements, so neither side's
 * socket buffer fills with what the other has not read (a blocking
 * client and a server both writing would deadlock). A failed statement
 * aborts the transaction and the rest of the pipeline: that is kept
 * (pipe_err) until dbi_sync says it, and a COMMIT is refused meanwhile
 * (dbi_pg.c), so nothing of a failed batch is ever ACKed.
 */
#include <stdlib.h>
#include <string.h>

#include "dbi_pg_conn.h"

/* Answers read every PIPE_MAX statements: ~64 bytes of answer each, well
 * inside a Unix or TCP socket buffer. */
#define PIPE_MAX 512

/* A statement sent and not yet answered: the rows it must change (-1:
 * any), or PEND_PREPARE for the PQsendPrepare of st (answered with no
 * rows); st is NULL for pg_pipe_send's. */
struct pg_pending {
	struct pg_stmt *st;
	int64_t rows;
};
#define PEND_PREPARE (-2)

/* Appends an entry for what was just sent: 0, or -1 out of memory. */
static int pend_add(struct pg *p, struct pg_stmt *st, int64_t rows)
{
	if (p->npend == p->pend_cap) {
		int cap = p->pend_cap ? p->pend_cap * 2 : 64;
		struct pg_pending *n = realloc(p->pend, (size_t)cap * sizeof(*n));

		if (!n)
			return -1;
		p->pend = n;
		p->pend_cap = cap;
	}
	p->pend[p->npend++] = (struct pg_pending){ st, rows };
	return 0;
}

/* Checks one entry's answer r against what it must do; the first failure
 * is kept in p->pipe_err (the later ones are PIPELINE_ABORTED: its
 * consequence, not news). */
static void check_answer(struct pg *p, const struct pg_pending *e, PGresult *r)
{
	int rs = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;

	if (rs == PGRES_COMMAND_OK || rs == PGRES_TUPLES_OK) {
		int64_t n = rs == PGRES_TUPLES_OK ? PQntuples(r) : strtoll(PQcmdTuples(r), NULL, 10);

		if (e->rows >= 0 && n != e->rows)
			p->mismatch = 1;
		return;
	}
	/* Not prepared after all (the pipeline was aborted before it, or it
	 * failed): prepared again at its next use. */
	if (e->rows == PEND_PREPARE)
		e->st->prepared_gen = 0;
	if (rs != PGRES_PIPELINE_ABORTED && !p->pipe_err)
		p->pipe_err = pg_fail(p, r);
	else if (!p->pipe_err)
		p->pipe_err = DBI_ERROR;
}

int pg_pipe_wait(struct pg *p)
{
	PGresult *r;
	int i;

	if (PQpipelineStatus(p->c) == PQ_PIPELINE_OFF)
		return p->pipe_err;
	if (!PQpipelineSync(p->c)) {
		p->pipe_err = pg_fail(p, NULL);
		p->npend = 0;
		return p->pipe_err;
	}
	for (i = 0; i < p->npend; i++) {
		r = PQgetResult(p->c);
		if (!r)
			break; /* the connection is gone: nothing more comes */
		check_answer(p, &p->pend[i], r);
		PQclear(r);
		while ((r = PQgetResult(p->c)) != NULL) /* its end (NULL) */
			PQclear(r);
	}
	for (; i < p->npend; i++)
		check_answer(p, &p->pend[i], NULL);
	p->npend = 0;
	/* The sync point's own answer, then back to synchronous calls. */
	while ((r = PQgetResult(p->c)) != NULL) {
		int sync = PQresultStatus(r) == PGRES_PIPELINE_SYNC;

		PQclear(r);
		if (sync)
			break;
	}
	if (!PQexitPipelineMode(p->c) && !p->pipe_err)
		p->pipe_err = pg_fail(p, NULL);
	return p->pipe_err;
}

/* Readies the pipeline for one more statement: DBI_OK, or why none may
 * be sent (a failed one lost the transaction: sending more is no use; the
 * connection is gone). Answers are read first every PIPE_MAX. */
static int pipe_ready(struct pg *p)
{
	if (p->pipe_err)
		return p->pipe_err;
	if (PQstatus(p->c) != CONNECTION_OK)
		return pg_fail(p, NULL);
	if (p->npend >= PIPE_MAX && pg_pipe_wait(p))
		return p->pipe_err;
	if (PQpipelineStatus(p->c) == PQ_PIPELINE_OFF && !PQenterPipelineMode(p->c))
		return pg_fail(p, NULL);
	return DBI_OK;
}

int p_defer(struct dbi_stmt *s, int64_t rows)
{
	struct pg_stmt *st = PST(s);
	struct pg *p = PG(s->db);
	int n = st->q.nparams, rc = DBI_OK;
	const char *vals[n + 1];

	if ((rc = pipe_ready(p)))
		return rc;
	for (int i = 1; i <= n; i++)
		vals[i] = st->val[i];
	/* Prepared in the pipeline too (its answer checked like the rest):
	 * the writer's statements run thousands of times. */
	if (st->prepared_gen != p->gen + 1) {
		if (!PQsendPrepare(p->c, st->name, st->q.sql, n, st->type + 1) ||
		    pend_add(p, st, PEND_PREPARE))
			rc = pg_fail(p, NULL);
		else
			st->prepared_gen = p->gen + 1;
	}
	/* libpq copies the values into its buffer here: the statement's own
	 * are free to go. */
	if (rc == DBI_OK && (!PQsendQueryPrepared(p->c, st->name, n, vals + 1, NULL, NULL, 0) ||
			     pend_add(p, st, rows)))
		rc = pg_fail(p, NULL);
	st->execs++;
	for (int i = 1; i <= n; i++) {
		free(st->val[i]);
		st->val[i] = NULL;
	}
	return rc;
}

int pg_pipe_send(struct pg *p, const char *sql)
{
	int rc = pipe_ready(p);

	if (rc)
		return rc;
	/* (the extended protocol: libpq sends no simple query in a pipeline) */
	if (!PQsendQueryParams(p->c, sql, 0, NULL, NULL, NULL, NULL, 0) || pend_add(p, NULL, -1))
		return pg_fail(p, NULL);
	return DBI_OK;
}

int p_sync(struct dbi *db)
{
	struct pg *p = PG(db);
	int rc = pg_pipe_wait(p);

	if (!rc && p->mismatch)
		rc = DBI_MISMATCH;
	p->pipe_err = 0;
	p->mismatch = 0;
	return rc;
}
