/*
 * payload_keys.c — one key=value of the payload's command line checked
 * against the payload's own table (payload_keys.h): the key by the lookup
 * and suggestion the payload uses itself (firmware/lib/cmdline_key.c), a
 * vocabulary key's words by the schema (proto/xcb_schema.h) as the payload
 * parses them (firmware/bench/suite.c: a list's items are words or the
 * wire's names, or "all"; empty items are skipped; suite= is one name).
 */
#include <stdio.h>
#include <string.h>

#include "lib/cmdline.h"
#include "payload_keys.h"
#include "xcb_schema.h"

/* 1 when item is one of c's words (or wire names). */
static int is_word(const struct cmdline_key *c, const char *item, size_t len)
{
	for (unsigned i = 0; i < c->nwords; i++)
		if ((strlen(c->words[i]) == len && strncmp(c->words[i], item, len) == 0) ||
		    (strlen(c->names[i]) == len && strncmp(c->names[i], item, len) == 0))
			return 1;
	return 0;
}

/* "payload key 'K': 'ITEM' is not one of W, W, ..." into why. */
static void not_one_of(const struct cmdline_key *c, const char *item, size_t len, char *why, size_t n)
{
	size_t at;

	snprintf(why, n, "payload key '%s': '%.*s' is not one of ", c->key, (int)len, item);
	for (unsigned i = 0; i < c->nwords; i++) {
		at = strlen(why);
		snprintf(why + at, n - at, "%s%s", i ? ", " : "", c->words[i]);
	}
	at = strlen(why);
	if (c->list)
		snprintf(why + at, n - at, ", all");
}

/* The value of vocabulary key c: 0, or -1 with why. */
static int words_check(const struct cmdline_key *c, const char *value, char *why, size_t n)
{
	if (!c->list) {
		if (is_word(c, value, strlen(value)))
			return 0;
		not_one_of(c, value, strlen(value), why, n);
		return -1;
	}
	for (const char *p = value; *p;) {
		size_t len = strcspn(p, ",");

		if (len && !(len == 3 && strncmp(p, "all", 3) == 0) && !is_word(c, p, len)) {
			not_one_of(c, p, len, why, n);
			return -1;
		}
		p += len + (p[len] == ',');
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
	return c->words ? words_check(c, value, why, n) : 0;
}
