/*
 * termsafe.c — an answer made safe for a terminal before the CLI prints it
 * as text. The daemon stores a label, notes or a machine's fact verbatim,
 * and each sink escapes for itself (the web HTML-escapes, the CSV quotes);
 * a terminal is the CLI's sink, and obeys ESC [ ... and its 8-bit twin
 * CSI: `xcbench runs` printing a label "evil\e[31m..." would recolour,
 * move the cursor or retitle the window of whoever lists the runs. So
 * every string of a text answer has its control characters (C0 but
 * newline and tab, DEL, C1) shown as '?'. --json prints the answer as
 * JSON, which escapes them itself.
 */
#include <stdlib.h>
#include <string.h>

#include "client.h"

/* 1 if the UTF-8 text s (jansson's strings are valid UTF-8) holds a
 * control character a terminal may act on. */
static int has_controls(const unsigned char *s)
{
	for (; *s; s++)
		if ((*s < 0x20 && *s != '\n' && *s != '\t') || *s == 0x7f ||
		    (s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f))
			return 1;
	return 0;
}

/* A copy of s with each control character (one byte, or C1's two) as '?'. */
static char *masked(const unsigned char *s)
{
	char *out = malloc(strlen((const char *)s) + 1), *o = out;

	if (!out)
		return NULL;
	for (; *s; s++) {
		if (s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f) {
			*o++ = '?';
			s++;
		} else {
			*o++ = (*s < 0x20 && *s != '\n' && *s != '\t') || *s == 0x7f ? '?' : (char)*s;
		}
	}
	*o = 0;
	return out;
}

void term_safe(json_t *v)
{
	const char *k;
	json_t *e;
	size_t i;

	if (json_is_object(v)) {
		json_object_foreach(v, k, e)
			term_safe(e);
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, e)
			term_safe(e);
	} else if (json_is_string(v) && has_controls((const unsigned char *)json_string_value(v))) {
		char *m = masked((const unsigned char *)json_string_value(v));

		if (m)
			json_string_set(v, m);
		free(m);
	}
}
