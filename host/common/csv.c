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

/* Digits written from the end of a 24-byte scratch: what "%lld," prints,
 * without printf's format parsing (an export writes ~30 numbers a row). */
void csv_i64(struct buf *b, int64_t v)
{
	char t[24], *e = t + sizeof(t), *p = e;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	*--p = ',';
	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--p = '-';
	buf_add(b, p, (size_t)(e - p));
}

/* Below this magnitude x / 1000.0 is within a fraction of 0.0005 of a
 * multiple of 0.001, so "%.3f" of it prints exactly x's digits. */
#define MILLI_EXACT 1000000000000LL

void csv_milli(struct buf *b, int64_t x)
{
	char t[32], *e = t + sizeof(t), *p = e;
	uint64_t u;

	if (x <= -MILLI_EXACT || x >= MILLI_EXACT) {
		csv_f(b, x / 1000.0, 3);
		return;
	}
	u = x < 0 ? (uint64_t)-x : (uint64_t)x;
	*--p = ',';
	for (int i = 0; i < 3; i++, u /= 10)
		*--p = (char)('0' + u % 10);
	*--p = '.';
	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (x < 0)
		*--p = '-';
	buf_add(b, p, (size_t)(e - p));
}

/* "%.*f," of v for 0 <= v < 1e9 and up to 3 decimals, without printf: 0
 * done, -1 where printf must decide. v scaled by 10^decimals is off by at
 * most a few units in its last place (~1e-7 here), so its rounding is
 * certain unless its fraction is within 1e-6 of a half (a tie, which
 * printf breaks on v's exact binary value). */
static int fixed_fast(struct buf *b, double v, int decimals)
{
	static const double scale[] = { 1, 10, 100, 1000 };
	char t[40], *e = t + sizeof(t), *p = e;
	double x, r, f;
	uint64_t u;

	if (!(v >= 0 && v < 1e9) || decimals < 0 || decimals > 3)
		return -1;
	x = v * scale[decimals];
	r = floor(x);
	f = x - r;
	if (fabs(f - 0.5) < 1e-6)
		return -1;
	u = (uint64_t)r + (f > 0.5);
	*--p = ',';
	for (int i = 0; i < decimals; i++, u /= 10)
		*--p = (char)('0' + u % 10);
	if (decimals)
		*--p = '.';
	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	buf_add(b, p, (size_t)(e - p));
	return 0;
}

void csv_f(struct buf *b, double v, int decimals)
{
	if (isnan(v) || isinf(v))
		buf_add(b, ",", 1);
	else if (fixed_fast(b, v, decimals))
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
