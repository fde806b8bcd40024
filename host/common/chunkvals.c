/* chunkvals.c — a stored chunk's values as text and back (see chunkvals.h). */
#include "chunkvals.h"

size_t chunk_vals_put(char *p, const int64_t *v, unsigned n)
{
	char *e = p;

	for (unsigned i = 0; i < n; i++)
		e = csv_put_i64(e, v[i]); /* each value and its comma */
	if (e > p)
		e--; /* the last comma dropped */
	*e = '\0';
	return (size_t)(e - p);
}

/* One decimal at *s (an optional '-', then digits), within int64: 0 and
 * *s past it, or -1. */
static int get_one(const char **s, int64_t *v)
{
	const char *p = *s;
	int neg = *p == '-';
	uint64_t u = 0, lim;

	p += neg;
	lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');

		if (u > (lim - d) / 10)
			return -1;
		u = u * 10 + d;
	}
	*v = neg ? (int64_t)(0 - u) : (int64_t)u;
	*s = p;
	return 0;
}

int chunk_vals_get(const char *s, int64_t *v, unsigned max)
{
	unsigned n = 0;

	if (!s || !*s)
		return s ? 0 : -1;
	for (;;) {
		if (n == max || get_one(&s, &v[n]))
			return -1;
		n++;
		if (*s == '\0')
			return (int)n;
		if (*s++ != ',')
			return -1;
	}
}
