/*
 * jsontext.h — JSON text of a jansson value, as jansson's own dump lays it
 * out (compact, or indented as JSON_INDENT(n)), but with every real in
 * the shortest form that reads back to the same double: 0.95, where
 * jansson's "%.17g" writes 0.94999999999999996. The daemon's answers
 * (reply_json, jsonw.c) and the CLI's --json output are written here, so
 * a number reads the same in both.
 */
#ifndef XCB_JSONTEXT_H
#define XCB_JSONTEXT_H

#include <jansson.h>
#include <stddef.h>

#include "util.h"

/* Room for any text json_real_text writes, its NUL included. */
#define JSON_REAL_TEXT_MAX 32

/* The real v in t (JSON_REAL_TEXT_MAX bytes): the first of "%.15g",
 * "%.16g", "%.17g" that strtod reads back as v, written as jansson writes
 * a real (".0" after an integral value, the exponent without '+' and
 * leading zeros: 1e20, 1e-7). Its length, or -1 for NaN and infinity
 * (no JSON number). */
int json_real_text(char *t, double v);

/* The length of s when it is printable ASCII without '"' or '\\' (a
 * string JSON writes as it is, in quotes), else -1. */
long json_plain_len(const char *s);

/* v's JSON text appended to b: compact as JSON_COMPACT when indent is 0,
 * else as JSON_INDENT(indent) (members in their order, no sort). 0, or
 * -1 where jansson has no text either (v NULL, a real NaN or infinite,
 * a string it cannot encode); b may then hold part of it. */
int json_text(struct buf *b, const json_t *v, int indent);

#endif
