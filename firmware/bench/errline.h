/* bench/errline.h — the payload's first "xcbench: error: " console line, kept
 * while the command line is read, so the run's ERROR can carry it.
 *
 * The keys' parsers (suite.c, faults.c, lib/cmdline.c) say what is wrong on the
 * console only — the key, the bad value, what it accepts — and the host saw a
 * bare "bad command line" (the useful line was in the console file alone).
 * errline listens on the console's tee between errline_begin() and
 * errline_end() and keeps the first such line. */
#ifndef XCB_BENCH_ERRLINE_H
#define XCB_BENCH_ERRLINE_H

/* Start listening on the console's tee (the tee is bench's while it lasts). */
void errline_begin(void);
/* Stop listening; the first line seen stays. */
void errline_end(void);
/* The first error line seen without its "xcbench: error: " prefix and newline
 * (cut to the buffer), or "" when none was. */
const char *errline_first(void);

#endif
