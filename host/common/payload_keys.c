/*
 * payload_keys.c — one key=value of the payload's command line checked
 * against the payload's own table (payload_keys.h): the key by the lookup
 * and suggestion the payload uses itself (firmware/lib/cmdline_key.c); its
 * value by what the table says it is (firmware/lib/cmdline.h enum
 * cmdline_value) as the key's parser takes it: a vocabulary key's words by
 * the schema (proto/xcb_schema.h) or the payload's own lists
 * (firmware/lib/cmdline_words.h), a list's items being words or the wire's
 * names, or "all", empty items skipped (firmware/bench/suite.c); a number
 * by the payload's own parser (cmdline_parse_u64) and the bounds its
 * parsers put (cmdline_words.h's constants); a run token as 16 hex digits.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/cmdline.h"
#include "lib/cmdline_words.h"
#include "lib/string.h"
#include "payload_keys.h"
#include "xcb_proto.h"
#include "xcb_schema.h"

/* 1 when item is one of c's words (or wire names). */
static int is_word(const struct cmdline_key *c, const char *item, size_t len)
{
	for (unsigned i = 0; i < c->nwords; i++)
		if ((strlen(c->words[i]) == len && strncmp(c->words[i], item, len) == 0) ||
		    (c->names && strlen(c->names[i]) == len && strncmp(c->names[i], item, len) == 0))
			return 1;
	return 0;
}

/* "payload key 'K': 'ITEM' is not one of W, W, ...; did you mean 'W'?"
 * into why: the suggestion by the measure the payload's own refusal uses
 * (lib/cmdline.c cmdline_refuse: the nearest word, else the nearest wire
 * name), so a typo caught here names what the boot would have named. */
static void not_one_of(const struct cmdline_key *c, const char *item, size_t len, char *why, size_t n)
{
	char v[CMDLINE_MAX];
	const char *const *nw = c->words;
	int near;
	size_t at;

	snprintf(why, n, "payload key '%s': '%.*s' is not one of ", c->key, (int)len, item);
	for (unsigned i = 0; i < c->nwords; i++) {
		at = strlen(why);
		snprintf(why + at, n - at, "%s%s", i ? ", " : "", c->words[i]);
	}
	at = strlen(why);
	if (c->value == CMDLINE_V_WORDS)
		snprintf(why + at, n - at, ", all");
	snprintf(v, sizeof(v), "%.*s", (int)len, item);
	near = cmdline_nearest(v, c->words, c->nwords);
	if (near < 0 && c->names)
		near = cmdline_nearest(v, c->names, c->nwords), nw = c->names;
	at = strlen(why);
	if (near >= 0)
		snprintf(why + at, n - at, "; did you mean '%s'?", nw[near]);
}

/* What a number of c must be, into out: "a number", "a number from 1 to
 * 1000", "0 or a number of at least 1000"; a list's item: "or pow2" after. */
static void number_wanted(const struct cmdline_key *c, char *out, size_t n)
{
	size_t at;

	if (c->zero)
		snprintf(out, n, "0 or a number of at least %" PRIu64, c->min);
	else if (c->max != UINT64_MAX)
		snprintf(out, n, "a number from %" PRIu64 " to %" PRIu64, c->min, c->max);
	else if (c->min)
		snprintf(out, n, "a number of at least %" PRIu64, c->min);
	else
		snprintf(out, n, "a number");
	if (!c->alts)
		return;
	/* "all|pow2" said as ", all or pow2" */
	for (const char *w = c->alts; *w;) {
		size_t len = strcspn(w, "|");

		at = strlen(out);
		snprintf(out + at, n - at, "%s%.*s", w[len] ? ", " : " or ", (int)len, w);
		w += len + (w[len] == '|');
	}
}

/* One number (or, in a list, one item) of c: 0, or -1 with why, which says
 * what it should be ("payload key 'reps': '-1' is not a number from 1 to
 * 1000 (decimal or 0x hex, k/m/g suffix)"). */
static int number_check(const struct cmdline_key *c, const char *item, size_t len, char *why, size_t n)
{
	char text[CMDLINE_MAX], wanted[160];	/* longer than the payload's whole line: never taken */
	uint64_t v;
	int parsed = 0;

	if (len < sizeof(text)) {
		memcpy(text, item, len);
		text[len] = 0;
		if (c->alts && cmdline_word_index(c->alts, text) >= 0)
			return 0;
		parsed = cmdline_parse_u64(text, &v) == 0;
		if (parsed && ((v >= c->min && v <= c->max) || (c->zero && v == 0)))
			return 0;
	}
	number_wanted(c, wanted, sizeof(wanted));
	/* How a number is written, only to one that is none (1e3, -1) */
	snprintf(why, n, "payload key '%s': '%.*s' is not %s%s", c->key, (int)len, item, wanted,
		 parsed ? "" : " (decimal or 0x hex, k/m/g suffix)");
	return -1;
}

/* The items of list key c's value, each by ok (empty items skipped, as the
 * payload skips them): 0, or -1 with why. */
static int items_check(const struct cmdline_key *c, const char *value,
		       int (*ok)(const struct cmdline_key *, const char *, size_t, char *, size_t), char *why,
		       size_t n)
{
	for (const char *p = value; *p;) {
		size_t len = strcspn(p, ",");

		if (len && ok(c, p, len, why, n))
			return -1;
		p += len + (p[len] == ',');
	}
	return 0;
}

/* One item of a word list: a word, a wire name or "all". */
static int word_item(const struct cmdline_key *c, const char *item, size_t len, char *why, size_t n)
{
	if ((len == 3 && strncmp(item, "all", 3) == 0) || is_word(c, item, len))
		return 0;
	not_one_of(c, item, len, why, n);
	return -1;
}

/* run=: 16 hex digits, as bench/report.c reads it (anything else is
 * replaced by a made-up token: the run would not be the daemon's). */
static int token_check(const struct cmdline_key *c, const char *value, char *why, size_t n)
{
	size_t i = 0;

	while (value[i] && xcb_digit(value[i], 16) >= 0)
		i++;
	if (i == 16 && !value[i])
		return 0;
	snprintf(why, n, "payload key '%s': '%s' is not 16 hex digits", c->key, value);
	return -1;
}

/* The value of key c by its kind: 0, or -1 with why. */
static int value_check(const struct cmdline_key *c, const char *value, char *why, size_t n)
{
	switch (c->value) {
	case CMDLINE_V_WORD:
		if (is_word(c, value, strlen(value)))
			return 0;
		not_one_of(c, value, strlen(value), why, n);
		return -1;
	case CMDLINE_V_WORDS:
		return items_check(c, value, word_item, why, n);
	case CMDLINE_V_NUM:
		return number_check(c, value, strlen(value), why, n);
	case CMDLINE_V_NUMS:
		return items_check(c, value, number_check, why, n);
	case CMDLINE_V_TOKEN:
		return token_check(c, value, why, n);
	case CMDLINE_V_TEXT:
		break;
	}
	return 0;
}

int payload_key_check(const char *key, const char *value, char *why, size_t n)
{
	const struct cmdline_key *c = cmdline_key_find(key), *near;

	if (!c) {
		near = cmdline_key_nearest(key);
		if (near)
			snprintf(why, n, "unknown payload key '%s'; did you mean '%s'?", key, near->key);
		else
			snprintf(why, n, "unknown payload key '%s' (firmware/cmdline_keys.c lists them)", key);
		return -1;
	}
	return value_check(c, value, why, n);
}

/* ---- algos=: the names the served image carries (firmware/build/algos.txt) ---- */

#define ALGOS_FILE "algos.txt"
#define ALGOS_MAX 64

/* The CRC-32 of the file at path into crc: 0, or -1 when it cannot be read. */
static int file_crc(const char *path, uint32_t *crc)
{
	FILE *f = fopen(path, "rb");
	char buf[8192];
	size_t got;

	if (!f)
		return -1;
	*crc = 0;
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
		*crc = xcb_crc32(*crc, buf, got);
	int bad = ferror(f);
	fclose(f);
	return bad ? -1 : 0;
}

/* 1 when the list's image lines (text) hold crc. */
static int list_has_image(const char *text, uint32_t crc)
{
	for (const char *p = text; (p = strstr(p, "image ")) != NULL; p++) {
		unsigned long c;
		char name[64];

		if ((p == text || p[-1] == '\n') && sscanf(p, "image %63s %lx", name, &c) == 2 && c == crc)
			return 1;
	}
	return 0;
}

int payload_algos_load(const char *const *images, char *text, size_t size, const char **names, unsigned max)
{
	char path[4096];
	const char *slash;
	int dir;
	uint32_t crc;
	unsigned n = 0;
	size_t got;
	FILE *f;

	if (!images[0])
		return -1;
	slash = strrchr(images[0], '/');
	dir = slash ? (int)(slash - images[0] + 1) : 0;
	snprintf(path, sizeof(path), "%.*s%s", dir, images[0], ALGOS_FILE);
	f = fopen(path, "r");
	if (!f)
		return -1;
	got = fread(text, 1, size - 1, f);
	fclose(f);
	text[got] = 0;
	/* Every image that may be served must be the list's: a rebuilt or
	 * copied image with an old list beside it is not checked. One that
	 * is absent is served by nobody (its boot fails on its own). */
	for (unsigned i = 0; images[i]; i++)
		if (access(images[i], F_OK) == 0 && (file_crc(images[i], &crc) || !list_has_image(text, crc)))
			return -1;
	char *save = NULL;

	for (char *line = strtok_r(text, "\n", &save); line && n < max; line = strtok_r(NULL, "\n", &save))
		if (strncmp(line, "algo ", 5) == 0 && line[5])
			names[n++] = line + 5;
	return n ? (int)n : -1;
}

int payload_algos_check(const char *const *images, const char *value, char *why, size_t n)
{
	char text[8192];	/* on the stack: the daemon checks jobs on several threads */
	const char *names[ALGOS_MAX];
	int na = payload_algos_load(images, text, sizeof(text), names, ALGOS_MAX);

	if (na < 0)
		return 0;	/* not known: the payload says, at boot */
	for (const char *p = value; *p;) {
		size_t len = strcspn(p, ","), at;
		char item[CMDLINE_MAX];
		int i, near;

		snprintf(item, sizeof(item), "%.*s", (int)len, p);
		p += len + (p[len] == ',');
		if (!len || strcmp(item, "all") == 0)
			continue;
		for (i = 0; i < na && strcmp(item, names[i]); i++)
			;
		if (i < na)
			continue;
		near = cmdline_nearest(item, names, (unsigned)na);
		snprintf(why, n, "payload key 'algos': '%s' is not an algorithm of the payload image", item);
		at = strlen(why);
		if (near >= 0)
			snprintf(why + at, n - at, "; did you mean '%s'?", names[near]);
		at = strlen(why);
		snprintf(why + at, n - at, " (it has: ");
		for (i = 0; i < na; i++) {
			at = strlen(why);
			snprintf(why + at, n - at, "%s%s", i ? ", " : "", names[i]);
		}
		at = strlen(why);
		snprintf(why + at, n - at, ", all)");
		return -1;
	}
	return 0;
}
