/*
 * answer_shape.h — what an xcbenchd answer must hold before the CLI reads
 * it: for each route the CLI calls, the members it reads and their JSON
 * types (answer_shape.c's table). An answer without them is another
 * server's (something else on the port answering JSON), or a daemon of
 * another version: said in one line and exit 1, where the commands read
 * such an answer's absent fields as empty (an empty table, exit 0), as
 * NULL strings ("(null)"), or as 0.
 */
#ifndef XCB_ANSWER_SHAPE_H
#define XCB_ANSWER_SHAPE_H

#include <jansson.h>
#include <stddef.h>

/* 0 when o (a 2xx answer of method path, its query ignored) has the
 * members its route's answer has, or the route is not in the table;
 * else -1 with why ("'runs[2].id' is not an integer") in why. */
int answer_shape_check(const char *method, const char *path, json_t *o, char *why, size_t len);

#endif
