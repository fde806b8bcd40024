/*
 * dbi_pg_sql.h — the daemon's SQL made PostgreSQL's (dbi_pg_sql.c): the
 * parameters renumbered ($N), the few spellings without a common form
 * translated. Internal to the PostgreSQL engine.
 */
#ifndef XCB_DBI_PG_SQL_H
#define XCB_DBI_PG_SQL_H

struct pg_sql {
	char *sql;              /* PostgreSQL's text */
	int nparams;            /* the highest parameter number */
	char **names;           /* [1..nparams]: ":name" of a named one, else NULL */
	char *is_limit;         /* [1..nparams]: 1 if a LIMIT's value */
	char *used;             /* [1..nparams]: 1 if the text refers to it (?2 alone leaves 1 unused) */
};

/* Rewrites sql into *q: 0, or -1 (out of memory, too many parameters). */
int pg_sql_rewrite(const char *sql, struct pg_sql *q);
void pg_sql_free(struct pg_sql *q);
/* The number of parameter name (":name"), or 0. */
int pg_sql_param_index(const struct pg_sql *q, const char *name);

#endif
