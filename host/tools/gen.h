/*
 * gen.h — synthetic xcbench runs for the test tools (xcb-gen, xcb-load).
 *
 * Latencies are deterministic: p50 of a case = round(base(case) x factor x
 * (1 + 0.01 (rep - reps/2))) cycles, so the median over an odd number of
 * reps is round(base x factor), and comparing a run made with factor F to
 * one made with 1.0 must show (round(base F) - base)/base x 100 % per case.
 * 48 cases; reps must stay below 200 (p50 stays positive).
 */
#ifndef XCB_GEN_H
#define XCB_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "sender.h"

struct gen {
	struct sender_frame *f;   /* the run's frames, in seq order (malloc'd) */
	size_t n, cap;
	uint64_t token;
	uint32_t seq;
	uint64_t results, histos, samples;
	int no_tsc;               /* HELLO says tsc_khz=0: the payload found no TSC rate */
};

/* Appends one whole run (HELLO ... DONE) of token g->token to g. */
void gen_run(struct gen *g, double factor, int reps, int with_samples, int crash);

#endif
