/*
 * termsafe.c — an answer made safe for a terminal before the CLI prints it
 * as text. The daemon stores a label, notes or a machine's fact verbatim,
 * and each sink escapes for itself (the web HTML-escapes, the CSV quotes);
 * a terminal is the CLI's sink, and obeys ESC [ ... and its 8-bit twin
 * CSI: `xcbench runs` printing a label "evil\e[31m..." would recolour,
 * move the cursor or retitle the window of whoever lists the runs. So
 * every string of a text answer has its control characters (C0 but
 * newline and tab, DEL, C1) shown as '?'. A one-line field (a run's label
 * and tags: ONE_LINE_KEYS) has its newlines and tabs shown as spaces: the
 * CLI prints it inside a line (show's header, compare's "A: run 1; label
 * ..."), which a label "x\ty\nz" broke in two; a run's error and notes keep
 * theirs (a watchdog's report is several lines). --json prints the answer
 * as JSON, which escapes them itself.
 */
#include <stdlib.h>
#include <string.h>

#include "client.h"

/* The keys whose strings (or arrays of strings) are one line of text. */
static const char *const ONE_LINE_KEYS[] = { "label", "tags" };

static int one_line_key(const char *k)
{
	for (size_t i = 0; i < sizeof(ONE_LINE_KEYS) / sizeof(ONE_LINE_KEYS[0]); i++)
		if (strcmp(k, ONE_LINE_KEYS[i]) == 0)
			return 1;
	return 0;
}

/* 1 if byte c (not C1's lead) is one to mask; one_line: newline and tab too. */
static int control(unsigned char c, int one_line)
{
	return (c < 0x20 && ((c != '\n' && c != '\t') || one_line)) || c == 0x7f;
}

/* 1 if s[0..] starts a C1 control (U+0080..U+009F: 0xc2 0x80..0x9f). */
static int c1(const unsigned char *s)
{
	return s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f;
}

/* 1 if the UTF-8 text s (jansson's strings are valid UTF-8) holds a
 * control character a terminal may act on. */
static int has_controls(const unsigned char *s, int one_line)
{
	for (; *s; s++)
		if (control(*s, one_line) || c1(s))
			return 1;
	return 0;
}

/* A copy of s with each control character (one byte, or C1's two) as '?'. */
static char *masked(const unsigned char *s, int one_line)
{
	char *out = malloc(strlen((const char *)s) + 1), *o = out;

	if (!out)
		return NULL;
	for (; *s; s++) {
		if (c1(s)) {
			*o++ = '?';
			s++;
		} else {
			/* (a one-line field's line breaks and tabs read as the
			 * spaces they stand for, as the runs table has joined a
			 * label's lines since t-labels; other controls as '?') */
			*o++ = one_line && (*s == '\n' || *s == '\t') ? ' ' : control(*s, one_line) ? '?' : (char)*s;
		}
	}
	*o = 0;
	return out;
}

/* term_safe of v; one_line: v is (in) a one-line field. */
static void safe(json_t *v, int one_line)
{
	const char *k;
	json_t *e;
	size_t i;

	if (json_is_object(v)) {
		json_object_foreach(v, k, e)
			safe(e, one_line_key(k));
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, e)
			safe(e, one_line);
	} else if (json_is_string(v) && has_controls((const unsigned char *)json_string_value(v), one_line)) {
		char *m = masked((const unsigned char *)json_string_value(v), one_line);

		if (m)
			json_string_set(v, m);
		free(m);
	}
}

void term_safe(json_t *v)
{
	safe(v, 0);
}
