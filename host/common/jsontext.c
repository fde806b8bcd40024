/*
 * jsontext.c — JSON text of a jansson value with reals in their shortest
 * round-trip form (jsontext.h). jansson writes a real with "%.17g", which
 * reads back exactly but shows 0.95 as 0.94999999999999996 to everyone
 * who reads the answer (a script's diff, a person's eye); it has no hook
 * for another format, so the tree is walked here. Everything but reals
 * is jansson's layout byte for byte (checked against json_dumps in
 * test_jsontext); strings with escapes or UTF-8 go through jansson itself,
 * one value at a time, so their bytes cannot drift from its.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsontext.h"

int json_real_text(char *t, double v)
{
	char *e;
	int n = -1;

	if (!isfinite(v))
		return -1;
	/* 15 digits read back for most figures (DBL_DIG); 17 always do */
	for (int prec = 15; prec <= 17; prec++) {
		n = snprintf(t, JSON_REAL_TEXT_MAX, "%.*g", prec, v);
		if (n < 0 || n >= JSON_REAL_TEXT_MAX)
			return -1;
		if (strtod(t, NULL) == v)
			break;
	}
	/* jansson's marks of a real: a '.' or an exponent, else ".0" */
	if (!strchr(t, '.') && !strchr(t, 'e')) {
		if (n + 3 > JSON_REAL_TEXT_MAX)
			return -1;
		memcpy(t + n, ".0", 3);
		n += 2;
	}
	/* "1e+20" -> "1e20", "1e-07" -> "1e-7", as jansson's jsonp_dtostr
	 * (the '+' dropped, then the zeros after the sign). */
	if ((e = strchr(t, 'e'))) {
		char *start = e + 1, *end = start + 1;

		if (*start == '-')
			start++;
		while (*end == '0')
			end++;
		if (end != start)
			memmove(start, end, strlen(end) + 1);
		n = (int)strlen(t);
	}
	return n;
}

long json_plain_len(const char *s)
{
	long n = 0;

	for (; s[n]; n++)
		if ((unsigned char)s[n] < 0x20 || (unsigned char)s[n] > 0x7e || s[n] == '"' || s[n] == '\\')
			return -1;
	return n;
}

/* The string s (n bytes): in quotes as it is when plain, else jansson's
 * text of it (its escapes). */
static int text_string(struct buf *b, const char *s, size_t n)
{
	long plain = json_plain_len(s);
	json_t *j;
	char *t;
	int rc;

	if (plain >= 0 && (size_t)plain == n)
		return buf_add(b, "\"", 1) || buf_add(b, s, n) || buf_add(b, "\"", 1) ? -1 : 0;
	j = json_stringn(s, n);
	t = j ? json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
	rc = t ? buf_add(b, t, strlen(t)) : -1;
	free(t);
	json_decref(j);
	return rc;
}

/* jansson's dump_indent: with an indent, a newline and depth levels of
 * it; without, nothing (compact). */
static int newline(struct buf *b, int indent, int depth)
{
	char *p;

	if (!indent)
		return 0;
	if (!(p = buf_room(b, 1 + (size_t)indent * (size_t)depth)))
		return -1;
	*p++ = '\n';
	memset(p, ' ', (size_t)indent * (size_t)depth);
	buf_wrote(b, p + (size_t)indent * (size_t)depth);
	return 0;
}

static int text_at(struct buf *b, const json_t *v, int indent, int depth)
{
	char t[JSON_REAL_TEXT_MAX];
	const char *key;
	json_t *m;
	size_t i;
	int n;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		if (!json_object_size(v))
			return buf_add(b, "{}", 2);
		if (buf_add(b, "{", 1))
			return -1;
		i = 0;
		json_object_foreach((json_t *)v, key, m)
			if ((i++ && buf_add(b, ",", 1)) || newline(b, indent, depth + 1) ||
			    text_string(b, key, strlen(key)) || buf_add(b, indent ? ": " : ":", indent ? 2 : 1) ||
			    text_at(b, m, indent, depth + 1))
				return -1;
		return newline(b, indent, depth) || buf_add(b, "}", 1) ? -1 : 0;
	case JSON_ARRAY:
		if (!json_array_size(v))
			return buf_add(b, "[]", 2);
		if (buf_add(b, "[", 1))
			return -1;
		json_array_foreach(v, i, m)
			if ((i && buf_add(b, ",", 1)) || newline(b, indent, depth + 1) || text_at(b, m, indent, depth + 1))
				return -1;
		return newline(b, indent, depth) || buf_add(b, "]", 1) ? -1 : 0;
	case JSON_STRING: return text_string(b, json_string_value(v), json_string_length(v));
	case JSON_INTEGER: return buf_addf(b, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	case JSON_REAL:
		n = json_real_text(t, json_real_value(v));
		return n < 0 ? -1 : buf_add(b, t, (size_t)n);
	case JSON_TRUE: return buf_add(b, "true", 4);
	case JSON_FALSE: return buf_add(b, "false", 5);
	case JSON_NULL: return buf_add(b, "null", 4);
	}
	return -1;
}

int json_text(struct buf *b, const json_t *v, int indent)
{
	return v ? text_at(b, v, indent, 0) : -1;
}
