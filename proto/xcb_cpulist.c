/*
 * xcb_cpulist.c - CPU lists of CASE text, written short (the payload) and
 * read back into the canonical form (the daemon): xcb_cpulist.h says the
 * syntax. One file holds both directions so the short form has one
 * definition.
 */
#include "xcb_cpulist.h"

/* The first CPU set in bits at or after from, or nbits. */
static unsigned next_set(const uint64_t *bits, unsigned nbits, unsigned from)
{
	while (from < nbits) {
		uint64_t w = bits[from / 64] >> (from % 64);

		if (w) {
			while (!(w & 1)) {
				w >>= 1;
				from++;
			}
			return from < nbits ? from : nbits;
		}
		from = (from / 64 + 1) * 64;
	}
	return nbits;
}

/* An output cursor that counts what does not fit (snprintf-like). */
struct out {
	char *p;
	size_t cap, len;
};

/* One character, or only counted past the room (its NUL's byte kept). */
static void put_c(struct out *o, char c)
{
	if (o->len + 1 < o->cap)
		o->p[o->len] = c;
	o->len++;
}

/* A decimal. */
static void put_u(struct out *o, unsigned v)
{
	char t[12];
	unsigned i = 0;

	do {
		t[i++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (i)
		put_c(o, t[--i]);
}

/* NUL after what was written, when there is room for any of it. */
static size_t put_end(struct out *o)
{
	if (o->cap)
		o->p[o->len < o->cap ? o->len : o->cap - 1] = 0;
	return o->len;
}

/* The list of bits[0..nbits) onto o (xcb_cpulist_put). Greedy from each
 * CPU c not yet written: the run of CPUs an equal step d apart that starts
 * there is a-b when d is 1 and it holds three or more, a-b:1/d (stride) when
 * d > 1 and it holds five or more, else c alone. Five: a-b:1/d is then
 * never longer than the CPUs one by one (each middle one has at least d's
 * digits, plus its comma). Canonical mode takes d = 1 runs only. */
static void list_put(struct out *o, const uint64_t *bits, unsigned nbits, int stride)
{
	unsigned c = next_set(bits, nbits, 0);
	int first = 1;

	while (c < nbits) {
		unsigned c2 = next_set(bits, nbits, c + 1), last = c, len = 1, d = 0;

		if (c2 < nbits) {
			d = c2 - c;
			last = c2;
			len = 2;
			/* canonical: d = 1 runs only (a long d > 1 run measured
			 * at each of its CPUs would be quadratic) */
			while ((d == 1 || stride) && last + d < nbits &&
			       next_set(bits, nbits, last + 1) == last + d) {
				last += d;
				len++;
			}
		}
		if (!first)
			put_c(o, ',');
		first = 0;
		put_u(o, c);
		if ((d == 1 && len >= 3) || (stride && d > 1 && len >= 5)) {
			put_c(o, '-');
			put_u(o, last);
			if (d > 1) {
				put_c(o, ':');
				put_c(o, '1');
				put_c(o, '/');
				put_u(o, d);
			}
			c = next_set(bits, nbits, last + 1);
		} else {
			c = c2;
		}
	}
}

size_t xcb_cpulist_put(char *out, size_t cap, const uint64_t *bits, unsigned nbits, int stride)
{
	struct out o = { out, cap, 0 };

	list_put(&o, bits, nbits, stride);
	return put_end(&o);
}

/* A decimal at s[*i..n) (at most 5 digits: no overflow), advancing *i. */
static int get_u(const char *s, size_t n, size_t *i, unsigned *v)
{
	size_t start = *i;

	*v = 0;
	while (*i < n && s[*i] >= '0' && s[*i] <= '9' && *i - start < 5)
		*v = *v * 10 + (unsigned)(s[(*i)++] - '0');
	return *i > start && !(*i < n && s[*i] >= '0' && s[*i] <= '9');
}

int xcb_cpulist_get(const char *s, size_t n, uint64_t *bits)
{
	size_t i = 0;

	for (unsigned w = 0; w < XCB_CPULIST_WORDS; w++)
		bits[w] = 0;
	while (i < n) {
		unsigned a, b, u = 1, g = 1;

		if (!get_u(s, n, &i, &a))
			return -1;
		b = a;
		if (i < n && s[i] == '-') {
			i++;
			if (!get_u(s, n, &i, &b))
				return -1;
			if (i < n && s[i] == ':') {
				i++;
				if (!get_u(s, n, &i, &u) || i >= n || s[i++] != '/' || !get_u(s, n, &i, &g))
					return -1;
			}
		}
		if (a > b || b >= XCB_CPULIST_CPUS || u == 0 || g == 0 || u > g)
			return -1;
		for (unsigned c = a; c <= b; c++)
			if ((c - a) % g < u)
				bits[c / 64] |= 1ull << (c % 64);
		if (i < n && s[i++] != ',')
			return -1;
		if (i == n && s[n - 1] == ',')
			return -1;	/* a trailing comma */
	}
	return 0;
}

size_t xcb_cpulist_canon(const char *s, size_t n, char *out, size_t cap)
{
	uint64_t bits[XCB_CPULIST_WORDS];

	if (xcb_cpulist_get(s, n, bits))
		return (size_t)-1;
	return xcb_cpulist_put(out, cap, bits, XCB_CPULIST_CPUS, 0);
}

size_t xcb_cpus_canon(const char *s, size_t n, char *out, size_t cap)
{
	uint64_t bits[XCB_CPULIST_WORDS];
	struct out o = { out, cap, 0 };
	size_t i = 0;
	int have = 0;	/* bits holds the previous initiator's targets */

	while (i < n) {
		size_t end = i;
		unsigned init;

		while (end < n && s[end] != ';')
			end++;
		if (!get_u(s, end, &i, &init) || i >= end || s[i++] != ':')
			return (size_t)-1;
		if (end - i == 1 && s[i] == '=') {
			if (!have)
				return (size_t)-1;	/* the same as no initiator */
		} else if (xcb_cpulist_get(s + i, end - i, bits)) {
			return (size_t)-1;
		}
		have = 1;
		if (o.len)
			put_c(&o, ';');
		put_u(&o, init);
		put_c(&o, ':');
		list_put(&o, bits, XCB_CPULIST_CPUS, 0);
		i = end + (end < n);
		if (end < n && i == n)
			return (size_t)-1;	/* a trailing ';' */
	}
	return put_end(&o);
}
