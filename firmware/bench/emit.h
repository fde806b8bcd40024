/*
 * emit.h - what a case says (emit.c): its CASE frame, its RESULT rows and LOG
 * lines. The repetition's RESULT frames as a whole are rep_emit (rep.h).
 */
#ifndef XCB_BENCH_EMIT_H
#define XCB_BENCH_EMIT_H

#include <stdint.h>

struct bcase;
struct case_cpus;
struct histo;
struct stats;
struct xcb_result;

/* Sends the case's CASE frame (or frames: x_cpus in pieces, casetext.h): 0,
 * or -1 after an ERROR frame when its keys but x_cpus do not fit one frame
 * (nothing of it sent; the run must stop). */
int emit_case_frame(const struct bcase *c, const struct case_cpus *cpus);
/* A RESULT's statistics fields from stats and histogram (sync.c's rows too), with
 * the repetition's `ipi` floor (0: none measured). */
void emit_fill_result(struct xcb_result *r, const struct bcase *c, unsigned rep,
		      unsigned initiator, const struct stats *st, const struct histo *h,
		      uint64_t ipi_floor);
/* A LOG line, printf-style. */
void emit_logf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
