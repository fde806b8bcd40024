/* sqljson.c — stored values as JSON (see sqljson.h). */
#include "sqljson.h"
#include "util.h"

json_t *col_json(struct dbi_stmt *st, int col)
{
	switch (dbi_column_type(st, col)) {
	case DBI_INT: return json_integer(dbi_column_i64(st, col));
	case DBI_FLOAT: return json_real(dbi_column_double(st, col));
	case DBI_TEXT: return json_string(dbi_column_text(st, col));
	default: return json_null();
	}
}

json_t *iso_or_null(struct dbi_stmt *st, int col)
{
	char b[32];

	if (dbi_column_type(st, col) == DBI_NULL)
		return json_null();
	return json_string(iso_time(dbi_column_i64(st, col), b, sizeof(b)));
}

json_t *dbval_json(const struct dbval *v)
{
	switch (v->type) {
	case DBI_INT: return json_integer(v->i);
	case DBI_FLOAT: return json_real(v->d);
	case DBI_TEXT: return json_string(v->s);
	default: return json_null();
	}
}

json_t *dbval_iso(const struct dbval *v)
{
	char b[32];

	return v->type == DBI_NULL ? json_null() : json_string(iso_time(v->i, b, sizeof(b)));
}

json_t *json_text_or_empty(const char *text)
{
	json_t *o = text ? json_loads(text, 0, NULL) : NULL;

	return o ? o : json_object();
}
