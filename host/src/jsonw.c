/*
 * jsonw.c — JSON text straight into a buffer (jsonw.h). Plain ASCII, the
 * common case, is written here; anything else (escapes, UTF-8, reals) goes
 * through jansson itself, one small value at a time, so the bytes cannot
 * drift from reply_json's.
 */
#include <stdlib.h>
#include <string.h>

#include "jsonw.h"

int jsonw_val(struct buf *b, const json_t *v)
{
	char *s = v ? json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
	int rc = s ? buf_add(b, s, strlen(s)) : -1;

	free(s);
	return rc;
}

int jsonw_str(struct buf *b, const char *s)
{
	size_t n = 0;
	json_t *j;
	int rc;

	/* Printable ASCII but the two characters JSON escapes is written as
	 * it is by jansson too (no JSON_ESCAPE_SLASH, no JSON_ENSURE_ASCII). */
	for (; s[n]; n++)
		if ((unsigned char)s[n] < 0x20 || (unsigned char)s[n] > 0x7e || s[n] == '"' || s[n] == '\\')
			break;
	if (!s[n])
		return jsonw_lit(b, "\"") || buf_add(b, s, n) || jsonw_lit(b, "\"") ? -1 : 0;
	j = json_string(s);
	rc = jsonw_val(b, j);
	json_decref(j);
	return rc;
}

int jsonw_dbval(struct buf *b, const struct dbval *v)
{
	json_t *j;
	int rc;

	switch (v->type) {
	case DBI_INT: return buf_addf(b, "%lld", (long long)v->i);
	case DBI_TEXT: return jsonw_str(b, v->s);
	case DBI_FLOAT:
		j = json_real(v->d);
		rc = jsonw_val(b, j);
		json_decref(j);
		return rc;
	default: return jsonw_lit(b, "null");
	}
}

int jsonw_iso(struct buf *b, const struct dbval *v)
{
	char t[32];

	return v->type == DBI_NULL ? jsonw_lit(b, "null") : jsonw_str(b, iso_time(v->i, t, sizeof(t)));
}

int jsonw_key(struct buf *b, const char *key)
{
	char last = b->len ? b->p[b->len - 1] : '{';

	if (last != '{' && last != '[' && jsonw_lit(b, ","))
		return -1;
	return jsonw_str(b, key) || jsonw_lit(b, ":") ? -1 : 0;
}
