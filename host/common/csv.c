/* csv.c — RFC 4180 field quoting (see csv.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"

/* A spreadsheet reads a cell starting with one of these as a formula (TAB
 * and CR: some importers strip them and then see the formula). A text that
 * is a plain number ("-5", "+1.5e3") is data, not a formula: it stays. */
static int formula_like(const char *s)
{
	char *end;

	if (!s[0] || !strchr("=+-@\t\r", s[0]))
		return 0;
	strtod(s, &end);
	return end == s || *end != 0 || s[0] == '\t' || s[0] == '\r';
}

void csv_str(struct buf *b, const char *s)
{
	int guard;

	if (!s) {
		buf_add(b, ",", 1);
		return;
	}
	guard = formula_like(s);
	if (strpbrk(s, ",\"\r\n") == NULL) {
		if (guard)
			buf_add(b, "'", 1);
		buf_add(b, s, strlen(s));
	} else {
		buf_add(b, "\"", 1);
		if (guard)
			buf_add(b, "'", 1);
		for (const char *p = s; *p; p++) {
			if (*p == '"')
				buf_add(b, "\"\"", 2);
			else
				buf_add(b, p, 1);
		}
		buf_add(b, "\"", 1);
	}
	buf_add(b, ",", 1);
}

void csv_i64(struct buf *b, int64_t v)
{
	buf_addf(b, "%lld,", (long long)v);
}

void csv_f(struct buf *b, double v, int decimals)
{
	if (isnan(v) || isinf(v))
		buf_add(b, ",", 1);
	else
		buf_addf(b, "%.*f,", decimals, v);
}

void csv_empty(struct buf *b)
{
	buf_add(b, ",", 1);
}

void csv_end(struct buf *b)
{
	if (b->len && b->p[b->len - 1] == ',')
		b->len--;
	buf_add(b, "\r\n", 2);
}
