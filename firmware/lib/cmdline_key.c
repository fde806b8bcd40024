/* lib/cmdline_key.c — one key against THE table of known keys
 * (cmdline_keys.c): is it there, and if not, which key was meant; and a
 * number as every numeric key takes it. A file of its own, without libc,
 * so that the host's builds link the same lookup over the same table and
 * the same number parser (host/common/payload_keys.c: xcbench and xcbenchd
 * refuse an unknown key, or reps=1e3, before a machine boots) and the
 * payload and the host can never disagree about a key, its suggestion or
 * what a number is. */
#include "lib/cmdline.h"
#include "lib/string.h"

/* Lower-case ASCII. */
static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static size_t len(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

static bool same(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

const struct cmdline_key *cmdline_key_find(const char *k)
{
	for (const struct cmdline_key *c = cmdline_keys; c->key; c++)
		if (same(c->key, k))
			return c;
	return NULL;
}

/* Edit distance between a and b, ignoring case: insert, delete,
 * substitute, and swap two adjacent letters, one edit each (optimal string
 * alignment, Damerau's measure): `mnie` is one edit from `mine`, as a typist
 * sees it, where counting the swap as two substitutions left a short name
 * without its suggestion (a third of 4 letters is 1). KEY_FAR when either
 * is longer than a word may be: keys, and algorithm names (xcall/xcall.h's
 * XCALL_NAME_MAX, 59: the host's "did you mean" for algos=). Three rows of
 * the usual table on the stack, no allocation (the payload has none here). */
#define KEY_MAX 64
#define KEY_FAR 99
static unsigned distance(const char *a, const char *b)
{
	size_t na = len(a), nb = len(b);
	unsigned rows[3][KEY_MAX + 1];
	unsigned *two = rows[0], *one = rows[1], *row = rows[2];	/* table[i-2], [i-1], [i] */

	if (na > KEY_MAX || nb > KEY_MAX)
		return KEY_FAR;
	for (size_t j = 0; j <= nb; j++)
		row[j] = (unsigned)j;
	for (size_t i = 1; i <= na; i++) {
		unsigned *t = two;
		two = one, one = row, row = t;
		row[0] = (unsigned)i;
		for (size_t j = 1; j <= nb; j++) {
			char ca = lower(a[i - 1]), cb = lower(b[j - 1]);
			unsigned best = one[j - 1] + (ca != cb);
			if (one[j] + 1 < best)
				best = one[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			/* ab against ba: one swap from table[i-2][j-2] */
			if (i > 1 && j > 1 && ca == lower(b[j - 2]) && lower(a[i - 2]) == cb && two[j - 2] + 1 < best)
				best = two[j - 2] + 1;
			row[j] = best;
		}
	}
	return row[nb];
}

/* The edit-distance bound of a suggestion for k: a third of its length,
 * at least 1. */
static unsigned near_limit(const char *k)
{
	unsigned limit = (unsigned)(len(k) + 1) / 3;
	return limit < 1 ? 1 : limit;
}

int cmdline_nearest(const char *k, const char *const *words, unsigned n)
{
	unsigned bd = KEY_FAR;
	int best = -1;

	for (unsigned i = 0; i < n; i++) {
		if (!words[i])
			continue;	/* a vocabulary's gap (no command-line word) */
		unsigned d = distance(k, words[i]);
		if (d < bd)
			bd = d, best = (int)i;
	}
	return bd <= near_limit(k) ? best : -1;
}

/* A typo'd key is ignored by the payload, so its run quietly uses the
 * default: the hint is what tells the user which key to fix. */
const struct cmdline_key *cmdline_key_nearest(const char *k)
{
	const struct cmdline_key *best = NULL;
	unsigned bd = KEY_FAR, limit = near_limit(k);

	for (const struct cmdline_key *c = cmdline_keys; c->key; c++) {
		unsigned d = distance(k, c->key);
		if (d < bd)
			bd = d, best = c;
	}
	return bd <= limit ? best : NULL;
}

/* Decimal or 0x hex, a k/m/g suffix (powers of 1024); no sign, no
 * overflow (lib/cmdline.h). */
int cmdline_parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	unsigned base = 10;
	if (!s || !*s)
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		if (!*s)
			return -1;
	}
	for (; *s; s++) {
		int dv = xcb_digit(*s, base);
		if (dv < 0)
			break;
		unsigned d = (unsigned)dv;
		if (v > (UINT64_MAX - d) / base)
			return -1; /* overflow */
		v = v * base + d;
	}
	if (*s) {
		unsigned shift;
		switch (*s) {
		case 'k': case 'K': shift = 10; break;
		case 'm': case 'M': shift = 20; break;
		case 'g': case 'G': shift = 30; break;
		default: return -1;
		}
		if (s[1] || (v >> (64 - shift)))
			return -1;
		v <<= shift;
	}
	*out = v;
	return 0;
}
