/*
 * xcb_secret.h — the command-line keys whose values are credentials or
 * routing (run= is the run's only credential on the wire, server= where its
 * results go) and the one function that masks them in any text: the payload
 * masks its HELLO cmdline fact and console log with it, the daemon masks
 * every fact, log line and console line again before storing them (a payload
 * from before the mask must not leak either). Freestanding like xcb_proto.c.
 */
#ifndef XCB_SECRET_H
#define XCB_SECRET_H

#include <stddef.h>

/* What a masked value reads as: "run=* server=*". */
#define XCB_SECRET_MASK '*'

/* Masks, in place, the value of every secret key word in s[0..len): a word
 * "run=..." or "server=..." (at the start, or after a space, tab, quote,
 * newline or '=') keeps its key and '=', its value becomes XCB_SECRET_MASK. Returns
 * the new length (never more than len); s[new length] is NUL if it fits in
 * len. Values end at whitespace, a quote or the end of the text. */
size_t xcb_mask_secrets(char *s, size_t len);
/* 1 if key[0..n) is a secret key ("run", "server"): a HELLO fact of that name
 * is stored masked. */
int xcb_is_secret_key(const char *key, size_t n);

#endif
