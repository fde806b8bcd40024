/*
 * xcb_schema.c — the name tables of xcb_schema.h's vocabularies, which the
 * firmware's name and parse functions use (so each word exists once in the
 * image) as well as the host. The descriptors the daemon walks are in
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
#undef NAME_TABLES
