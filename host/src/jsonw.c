/*
 * jsonw.c — JSON text straight into a buffer (jsonw.h). Plain ASCII, the
 * common case, and integers (jansson's own format, checked against it in
 * test_casestats) are written here; reals and whole jansson values are
 * common/jsontext.c's, as reply_json writes them (reals in their shortest
 * round-trip form); anything else (escapes, UTF-8) goes through jansson
 * itself, one small value at a time, so the bytes cannot drift from
 * reply_json's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsontext.h"
#include "jsonw.h"

int jsonw_val(struct buf *b, const json_t *v)
{
	size_t len = b->len;

	if (json_text(b, v, 0) == 0)
		return 0;
	jsonw_cut(b, len); /* nothing written, as the other writers */
	return -1;
}

/* pre (0 for none), then s (n bytes) in quotes, then post (0 for none),
 * in one reservation: a run list writes ~40 of these a run. 0 or -1. */
static int quoted(struct buf *b, char pre, const char *s, size_t n, char post)
{
	char *p = buf_room(b, n + 4);

	if (!p)
		return -1;
	if (pre)
		*p++ = pre;
	*p++ = '"';
	memcpy(p, s, n);
	p += n;
	*p++ = '"';
	if (post)
		*p++ = post;
	buf_wrote(b, p);
	return 0;
}

int jsonw_str(struct buf *b, const char *s)
{
	long n = json_plain_len(s);
	json_t *j;
	int rc;

	if (n >= 0)
		return quoted(b, 0, s, (size_t)n, 0);
	j = json_string(s);
	rc = jsonw_val(b, j);
	json_decref(j);
	return rc;
}

int jsonw_dbval(struct buf *b, const struct dbval *v)
{
	switch (v->type) {
	case DBI_INT: return jsonw_i64(b, v->i);
	case DBI_TEXT: return jsonw_str(b, v->s);
	case DBI_FLOAT: return jsonw_real(b, v->d);
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
	long n = json_plain_len(key);
	char comma = last != '{' && last != '[' ? ',' : 0;

	if (n >= 0)
		return quoted(b, comma, key, (size_t)n, ':');
	if (comma && jsonw_lit(b, ","))
		return -1;
	return jsonw_str(b, key) || jsonw_lit(b, ":") ? -1 : 0;
}

int jsonw_i64(struct buf *b, int64_t v)
{
	char t[24], *e = t + sizeof(t), *p = e;
	/* the magnitude as unsigned: INT64_MIN has no positive twin */
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--p = '-';
	return buf_add(b, p, (size_t)(e - p));
}

int jsonw_real(struct buf *b, double v)
{
	char t[JSON_REAL_TEXT_MAX];
	int n = json_real_text(t, v);

	return n < 0 ? -1 : buf_add(b, t, (size_t)n);
}

void jsonw_cut(struct buf *b, size_t len)
{
	b->len = len;
	if (b->p)
		b->p[len] = 0;
}

/* The length of a plain string at s (after its opening quote) up to its
 * closing quote, or -1. */
static long plain(const char *s)
{
	long n = 0;

	for (; s[n] != '"'; n++)
		if ((unsigned char)s[n] < 0x20 || (unsigned char)s[n] > 0x7e || s[n] == '\\')
			return -1;
	return n;
}

int jsonw_flat_each(const char *t, jsonw_member_fn fn, void *ctx)
{
	if (!t || *t++ != '{')
		return 0;
	if (*t == '}')
		return t[1] == 0;
	for (;;) {
		long kn, vn;
		const char *k, *v;

		if (*t != '"' || (kn = plain(k = t + 1)) < 0)
			return 0;
		t = k + kn + 1;
		if (*t++ != ':' || *t != '"' || (vn = plain(v = t + 1)) < 0)
			return 0;
		t = v + vn + 1;
		fn(k, (size_t)kn, v, (size_t)vn, ctx);
		if (*t == '}')
			return t[1] == 0;
		if (*t++ != ',')
			return 0;
	}
}
