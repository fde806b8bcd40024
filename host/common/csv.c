/* csv.c — RFC 4180 field quoting (see csv.h). */
#include <math.h>
#include <string.h>

#include "csv.h"

void csv_str(struct buf *b, const char *s)
{
	if (!s) {
		buf_add(b, ",", 1);
		return;
	}
	if (strpbrk(s, ",\"\r\n") == NULL) {
		buf_add(b, s, strlen(s));
	} else {
		buf_add(b, "\"", 1);
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
