/*
 * console.h — a machine's console text as run events of kind "console"
 * (api_console.c): the upload route and the serial-over-LAN capture
 * (sol.c) store it the same way.
 */
#ifndef XCB_CONSOLE_H
#define XCB_CONSOLE_H

#include "dbi.h"
#include <stddef.h>
#include <stdint.h>

/* Console lines sit at CONSOLE_SEQ0 + line number in the run's events, a
 * range frame sequence numbers (32 bits) never reach. */
#define CONSOLE_SEQ0 (INT64_C(1) << 40)
#define CONSOLE_LINES_MAX 1000000

/* In the writer: stores text's lines as lines first, first+1, ... of run's
 * console (replacing what those lines held), up to the run's console limit
 * (run_limits.h; the limit event noted once reached). How many were
 * stored; *refused (if not NULL): how many lines the limit refused. */
int64_t console_store(struct dbi *db, int64_t run, int64_t first, const char *text, size_t len,
		      int64_t *refused);

#endif
