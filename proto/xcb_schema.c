/*
 * xcb_schema.c — the name tables of xcb_schema.h's vocabularies and the one
 * name/parse over them (XCB_NAME, XCB_PARSE), used by the firmware (so each
 * word exists once in the image) as well as the host. The descriptors the daemon walks are in
 * xcb_schema_desc.c: a file of their own, so that their strings never reach
 * the firmware image (a string section is kept whole when one string of it
 * is used). Freestanding: no libc, no state.
 */
#include "xcb_schema.h"

/* Name tables: xcb_wait_names[], xcb_wait_words[], ... */
#define NAME_TABLES(name, LIST, tag) \
	const char *const xcb_##name##_names[XCB_N_##name] = { LIST(XCB_WIRE_NAME) }; \
	const char *const xcb_##name##_words[XCB_N_##name] = { LIST(XCB_CLI_WORD) };
XCB_VOCABS(NAME_TABLES)
NAME_TABLES(suite, XCB_VOCAB_SUITE, xcb_suite)
#undef NAME_TABLES

const char *xcb_vocab_name(const char *const *names, unsigned n, unsigned i)
{
	return i < n ? names[i] : "?";
}

/* s against each name, without libc (the firmware has none). */
int xcb_vocab_index(const char *const *names, unsigned n, const char *s)
{
	for (unsigned i = 0; i < n; i++) {
		const char *w = names[i], *p = s;
		while (*w && *w == *p)
			w++, p++;
		if (*w == *p)
			return (int)i;
	}
	return -1;
}
