/* csv.c — RFC 4180 field quoting (see csv.h). */
#include <math.h>
#include <stdio.h>
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

/* Decimal digits of u (1 for 0). */
static int digits(uint64_t u)
{
	int n = 1;

	while (u >= 10000) {
		n += 4;
		u /= 10000;
	}
	return n + (u >= 10) + (u >= 100) + (u >= 1000);
}

/* "00" .. "99": two digits per division. */
static const char pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* u's n digits ending at e (written backwards: no scratch, no copy). */
static void put_digits(char *e, uint64_t u, int n)
{
	for (; n >= 2; n -= 2, u /= 100) {
		e -= 2;
		memcpy(e, pairs + 2 * (u % 100), 2);
	}
	if (n)
		e[-1] = (char)('0' + u % 10);
}

/* What "%lld," prints, without printf's format parsing (an export writes
 * ~30 numbers a row). */
char *csv_put_i64(char *p, int64_t v)
{
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	int n;

	if (v < 0)
		*p++ = '-';
	if (u < 10) { /* most of a run's counters are 0 */
		p[0] = (char)('0' + u);
		p[1] = ',';
		return p + 2;
	}
	n = digits(u);
	put_digits(p + n, u, n);
	p[n] = ',';
	return p + n + 1;
}

void csv_i64(struct buf *b, int64_t v)
{
	char *p = buf_room(b, CSV_NUM_MAX);

	if (p)
		buf_wrote(b, csv_put_i64(p, v));
}

/* Below this magnitude x / 1000.0 is within a fraction of 0.0005 of a
 * multiple of 0.001, so "%.3f" of it prints exactly x's digits. */
#define MILLI_EXACT 1000000000000LL

char *csv_put_milli(char *p, int64_t x)
{
	uint64_t u;
	int n;

	if (x <= -MILLI_EXACT || x >= MILLI_EXACT) /* printf decides */
		return p + snprintf(p, CSV_NUM_MAX + 1, "%.3f,", x / 1000.0);
	u = x < 0 ? (uint64_t)-x : (uint64_t)x;
	n = digits(u / 1000);
	if (x < 0)
		*p++ = '-';
	put_digits(p + n, u / 1000, n);
	p[n] = '.';
	put_digits(p + n + 4, u % 1000, 3);
	p[n + 4] = ',';
	return p + n + 5;
}

void csv_milli(struct buf *b, int64_t x)
{
	char *p = buf_room(b, CSV_NUM_MAX);

	if (p)
		buf_wrote(b, csv_put_milli(p, x));
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
