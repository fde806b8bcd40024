/*
 * casetext.h - a CASE's x_cpus written short and the CASE onto the wire,
 * in one frame or, when x_cpus is too wide for one, in pieces the daemon
 * merges (casetext.c; proto/README.md "CASE pieces"). Host-built by
 * firmware/tests (test_stats_report) over report.c's recording transports.
 */
#ifndef XCB_BENCH_CASETEXT_H
#define XCB_BENCH_CASETEXT_H

#include <stdint.h>

struct cpumask;
struct strbuf;

/* The most bytes x_cpus may take (its text is built whole before it is
 * cut in pieces): 99 pieces of a frame hold less, so this never limits. */
#define CASE_CPUS_MAX (99u * 1448u)

/* Appends x_cpus's value for n initiators: "init:targets;..." with the
 * targets in xcb_cpulist.h's short form, and "=" for an initiator whose
 * targets are the previous one's. */
void case_cpus_value(struct strbuf *sb, unsigned n, const unsigned *init_cpus,
		     const struct cpumask *targets);
/* Sends case id's CASE: head (its other keys, '\n'-ended lines, id among
 * them) with x_cpus=xc; in one frame when that fits, else the head and
 * x_cpus's first piece (x_cpus+1/N) in the first and "id=ID" with piece I
 * in each other. Returns the frames sent, or 0 with nothing sent when
 * x_cpus takes more than XCB_PIECES_MAX pieces or the head leaves no room
 * for one. */
unsigned case_text_send(uint32_t id, const char *head, unsigned hlen, const char *xc, unsigned xlen);

#endif
