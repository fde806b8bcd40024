/*
 * jsonw.h — JSON text written straight into a buffer, byte for byte what
 * jansson's compact dump (reply_json) writes for the same value, for the
 * answers too large to build as a jansson tree first (the run list: a
 * tree of 30,000 values built, dumped and freed was 80 % of its time).
 * Every writer returns 0, or -1 with nothing written where jansson would
 * have no value (a string that is not UTF-8: json_string refuses it).
 */
#ifndef XCB_JSONW_H
#define XCB_JSONW_H

#include <jansson.h>
#include <stdint.h>

#include "dbi.h"
#include "util.h"

/* Appends the string literal lit as it is (JSON text already). 0 or -1. */
#define jsonw_lit(b, lit) buf_add((b), lit, sizeof(lit) - 1)
/* The string s (json_string(s)'s dump). */
int jsonw_str(struct buf *b, const char *s);
/* Any jansson value v (NULL is an error, as in json_pack's "o"). */
int jsonw_val(struct buf *b, const json_t *v);
/* A stored value as dbval_json gives it: null, an integer, a real, a string. */
int jsonw_dbval(struct buf *b, const struct dbval *v);
/* A stored time as dbval_iso gives it: null or an ISO 8601 string. */
int jsonw_iso(struct buf *b, const struct dbval *v);
/* ,"key": (no comma right after a '{' or '['): the start of a member. */
int jsonw_key(struct buf *b, const char *key);

#endif
