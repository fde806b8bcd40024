/*
 * sqljson.h — stored values as JSON (sqljson.c): a column keeps its type
 * (number, text, null), a time column becomes an ISO time or null.
 */
#ifndef XCB_SQLJSON_H
#define XCB_SQLJSON_H

#include <jansson.h>
#include "dbi.h"

#include "runs_db.h"

/* Column col of st: integer, real, text or null. */
json_t *col_json(struct dbi_stmt *st, int col);
/* Column col of st (unix seconds) as an ISO time, or null. */
json_t *iso_or_null(struct dbi_stmt *st, int col);
/* The same for a value read by runs_db.c. */
json_t *dbval_json(const struct dbval *v);
json_t *dbval_iso(const struct dbval *v);
/* A stored JSON text (an object: params, hello, config), {} if NULL or
 * unreadable. */
json_t *json_text_or_empty(const char *text);

#endif
