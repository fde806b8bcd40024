/* sqljson.c — stored values as JSON (see sqljson.h). */
#include "sqljson.h"
#include "util.h"

json_t *col_json(sqlite3_stmt *st, int col)
{
	switch (sqlite3_column_type(st, col)) {
	case SQLITE_INTEGER: return json_integer(sqlite3_column_int64(st, col));
	case SQLITE_FLOAT: return json_real(sqlite3_column_double(st, col));
	case SQLITE_TEXT: return json_string((const char *)sqlite3_column_text(st, col));
	default: return json_null();
	}
}

json_t *iso_or_null(sqlite3_stmt *st, int col)
{
	char b[32];

	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		return json_null();
	return json_string(iso_time(sqlite3_column_int64(st, col), b, sizeof(b)));
}

json_t *dbval_json(const struct dbval *v)
{
	switch (v->type) {
	case SQLITE_INTEGER: return json_integer(v->i);
	case SQLITE_FLOAT: return json_real(v->d);
	case SQLITE_TEXT: return json_string(v->s);
	default: return json_null();
	}
}

json_t *dbval_iso(const struct dbval *v)
{
	char b[32];

	return v->type == SQLITE_NULL ? json_null() : json_string(iso_time(v->i, b, sizeof(b)));
}

json_t *json_text_or_empty(const char *text)
{
	json_t *o = text ? json_loads(text, 0, NULL) : NULL;

	return o ? o : json_object();
}
