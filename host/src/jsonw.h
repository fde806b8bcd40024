/*
 * jsonw.h — JSON text written straight into a buffer, byte for byte what
 * reply_json writes for the same value (jansson's compact layout, reals
 * in their shortest round-trip form: common/jsontext.h), for the
 * answers too large to build as a jansson tree first (the run list: a
 * tree of 30,000 values built, dumped and freed was 80 % of its time; a
 * run page's cases, ~6,000 numbers: half of its cold build).
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
/* The integer v as json_integer(v)'s dump ("%lld", without printf: the
 * run page writes ~6,000 of them). */
int jsonw_i64(struct buf *b, int64_t v);
/* The real v as json_real_text writes it (the shortest text that reads
 * back as v, in jansson's marks: 0.95, 3.0, 1e20); -1 (nothing written)
 * where JSON has no value (NaN, infinity). */
int jsonw_real(struct buf *b, double v);
/* Ends b at len: what was written after it is dropped (a member or value
 * that turned out not to be JSON, left out as jansson leaves out a NULL). */
void jsonw_cut(struct buf *b, size_t len);

/* A stored JSON object text read without a parse when it is what the store
 * writes: a flat, compact object of plain strings ({"key":"value",...},
 * printable ASCII without '"' or '\\'). fn gets each member in text order
 * (key and value as spans of t, without quotes). 1 when t is such an
 * object (fn called for every member), else 0: the caller then parses it
 * with jansson (fn may have been called for some members). */
typedef void (*jsonw_member_fn)(const char *k, size_t kn, const char *v, size_t vn, void *ctx);
int jsonw_flat_each(const char *t, jsonw_member_fn fn, void *ctx);

#endif
