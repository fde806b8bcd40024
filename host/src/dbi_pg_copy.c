/*
 * dbi_pg_copy.c — dbi_fetch_ints on PostgreSQL: a block of integer rows
 * asked for as COPY (SELECT ...) TO STDOUT and its text rows parsed
 * straight into numbers. With an ordinary result libpq copies every value
 * into a PGresult (with its per-value bookkeeping) and we parse it back
 * from there: for the run CSV's ~33 integer columns that was ~8k of the
 * daemon's ~12k instructions a row (bench/LIMITS.md). COPY's own binary
 * format was tried and is slower where it matters: the server's int8send
 * allocates a buffer per value and each int8 is 12 bytes on the wire, so
 * the server, the export's bound, spent more CPU a row than with text.
 *
 * COPY takes no parameters, so the statement's bound values are written
 * into the COPY's text: only values this engine printed itself, the
 * integers of dbi_bind_i64 (and NULL), each checked to be one. A statement
 * with any other bound value (text from a request, a double), a column
 * that is not an integer, or a connection that is not up is read by
 * stepping (dbi_fetch_ints_steps: execute() reconnects a reader), so the
 * call works on any statement. The COPY is one statement in autocommit,
 * read to its end before the call returns: a block is still one short
 * read transaction, whatever the HTTP client does next.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbi_pg_conn.h"
#include "util.h"

/* 1 if parameter i's bound value may be written into SQL text: NULL, or
 * an integer dbi_bind_i64 printed (typed INT8, and [-]digits, at most 19,
 * whatever typed it: nothing else ever reaches the text). */
static int inlinable(const struct pg_stmt *st, int i)
{
	const char *v = st->val[i];
	size_t n;

	if (!v)
		return 1;
	if (st->type[i] != OID_INT8)
		return 0;
	v += *v == '-';
	n = strspn(v, "0123456789");
	return n >= 1 && n <= 19 && v[n] == 0;
}

/* Copies a quoted string, a quoted name or a comment starting at s (one
 * of ' " -- / *) to out: its length, 0 if s starts none. A $N inside one
 * is no parameter. */
static size_t copy_quoted(const char *s, struct buf *out)
{
	const char *e;

	if (*s == '\'' || *s == '"')
		e = strchr(s + 1, *s);
	else if (s[0] == '-' && s[1] == '-')
		e = strchr(s, '\n');
	else if (s[0] == '/' && s[1] == '*')
		e = (e = strstr(s + 2, "*/")) ? e + 1 : NULL;
	else
		return 0;
	e = e ? e + 1 : s + strlen(s);
	buf_add(out, s, (size_t)(e - s));
	return (size_t)(e - s);
}

/* "COPY (st's SQL, its $N replaced by their values) TO STDOUT" into
 * out: 0, or -1 when a bound value may not be inlined. Each
 * value goes in parentheses ("- (-5)" never becomes a "--" comment). */
static int copy_text(const struct pg_stmt *st, struct buf *out)
{
	const char *s = st->q.sql;

	for (int i = 1; i <= st->q.nparams; i++)
		if (st->q.used[i] && !inlinable(st, i))
			return -1;
	buf_addf(out, "COPY (");
	while (*s) {
		size_t n = copy_quoted(s, out);
		char *end;
		long i;

		if (n) {
			s += n;
			continue;
		}
		if (*s != '$' || s[1] < '0' || s[1] > '9') {
			buf_add(out, s++, 1);
			continue;
		}
		i = strtol(s + 1, &end, 10);
		if (i < 1 || i > st->q.nparams)
			return -1;
		if (st->val[i])
			buf_addf(out, "(%s)", st->val[i]);
		else
			buf_addf(out, "NULL");
		s = end;
	}
	buf_addf(out, ") TO STDOUT");
	return out->p ? 0 : -1;
}

/* 1 if st's first ncols result columns are integers (int2/4/8), asked of
 * the server once per statement (the unnamed statement, described: two
 * round trips a statement, not a block); 0 if not or if it cannot say. */
static int int_columns(struct pg *p, struct pg_stmt *st, int ncols)
{
	PGresult *r;
	int ok;

	if (st->copy_ints)
		return st->copy_ints > 0;
	r = PQprepare(p->c, "", st->q.sql, st->q.nparams, st->type + 1);
	ok = PQresultStatus(r) == PGRES_COMMAND_OK;
	PQclear(r);
	if (!ok)
		return 0; /* stepping says why */
	r = PQdescribePrepared(p->c, "");
	ok = PQresultStatus(r) == PGRES_COMMAND_OK && PQnfields(r) >= ncols;
	for (int c = 0; ok && c < ncols; c++) {
		Oid t = PQftype(r, c);

		ok = t == OID_INT2 || t == OID_INT4 || t == OID_INT8;
	}
	PQclear(r);
	st->copy_ints = ok ? 1 : -1;
	return ok;
}

/* The decoder of one COPY's rows, one CopyData message a row. */
struct copy_dec {
	int ncols, max, got;    /* the caller's; rows stored so far */
	int64_t *v;
	uint64_t *nulls;
	int bad;                /* not the text asked for */
};

/* One row of COPY's text ("v\tv\t...\n", \N a NULL; each v an integer
 * the server printed): its first ncols fields stored as row d->got when
 * there is room. Parsed here, not by strtoll: the row's ~33 numbers were
 * a third of the daemon's time with the ordinary result. */
static void dec_row(struct copy_dec *d, const char *b, size_t n)
{
	const char *e = b + n;
	int64_t *row = d->v + (size_t)d->got * (size_t)d->ncols;
	uint64_t m = 0;

	if (d->got >= d->max)
		return;
	for (int c = 0; c < d->ncols; c++, b++) { /* b++: past the tab or the newline */
		int neg = b < e && *b == '-';
		uint64_t u = 0;
		const char *digits;

		if (e - b >= 2 && b[0] == '\\' && b[1] == 'N') {
			m |= 1ull << c;
			row[c] = 0;
			b += 2;
		} else {
			for (digits = b += neg; b < e && *b >= '0' && *b <= '9'; b++)
				u = u * 10 + (uint64_t)(*b - '0');
			if (b == digits || b - digits > 19)
				d->bad = 1;
			row[c] = neg ? (int64_t)(0 - u) : (int64_t)u;
		}
		if (b >= e || (*b != '\t' && *b != '\n'))
			d->bad = 1;
		if (d->bad)
			return;
	}
	d->nulls[d->got++] = m;
}

/* Runs the COPY and decodes all of it (the rows past max dropped): DBI_OK,
 * or the failure. The connection is idle again on return. */
static int copy_run(struct pg *p, const char *sql, struct copy_dec *d)
{
	PGresult *r = PQexec(p->c, sql);
	int rc = DBI_OK, n;
	char *msg;

	if (PQresultStatus(r) != PGRES_COPY_OUT) {
		rc = pg_fail(p, r);
		PQclear(r);
		return rc;
	}
	PQclear(r);
	while ((n = PQgetCopyData(p->c, &msg, 0)) > 0) {
		if (!d->bad)
			dec_row(d, msg, (size_t)n);
		PQfreemem(msg);
	}
	/* The COPY's own end (its status), then the end of its answers. */
	while ((r = PQgetResult(p->c)) != NULL) {
		if (rc == DBI_OK && PQresultStatus(r) != PGRES_COMMAND_OK)
			rc = pg_fail(p, r);
		PQclear(r);
	}
	if (rc == DBI_OK && n == -2)
		rc = pg_fail(p, NULL);
	if (rc == DBI_OK && d->bad) {
		snprintf(p->err, sizeof(p->err), "COPY's rows not understood");
		rc = DBI_ERROR;
	}
	return rc;
}

/* dbi_fetch_ints: the block as one COPY when st and its connection allow
 * (copy_text, int_columns), else by stepping; st reset after either. */
int p_fetch_ints(struct dbi_stmt *s, int ncols, int max, int64_t *v, uint64_t *nulls, int *got)
{
	struct pg_stmt *st = PST(s);
	struct pg *p = PG(s->db);
	struct copy_dec d = { .ncols = ncols, .max = max, .v = v, .nulls = nulls };
	struct buf sql = { 0 };
	int rc;

	if (pg_pipe_wait(p))
		return p->pipe_err;
	if (PQstatus(p->c) != CONNECTION_OK || copy_text(st, &sql) || !int_columns(p, st, ncols)) {
		buf_free(&sql);
		return dbi_fetch_ints_steps(s, ncols, max, v, nulls, got);
	}
	rc = copy_run(p, sql.p, &d);
	buf_free(&sql);
	/* A reader's connection found dead (the server restarted): once
	 * more by stepping, which reconnects. */
	if (rc == DBI_IOERR && !(p->flags & DBI_RW))
		return dbi_fetch_ints_steps(s, ncols, max, v, nulls, got);
	*got = rc == DBI_OK ? d.got : 0;
	dbi_reset(s);
	return rc;
}
