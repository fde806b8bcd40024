/*
 * xcb_cpulist.h - the CPU lists of CASE text (x_cpus, x_readers): the short
 * form the payload writes, and the one canonical form the daemon stores, so
 * every reader downstream (API, CLI, dashboard, CSV, compare) sees one
 * spelling. Freestanding (no libc), like the rest of proto/.
 *
 * A list: items separated by ',', CPUs ascending.
 *   a          one CPU
 *   a-b        every CPU from a to b
 *   a-b:u/g    Linux's cpulist stride (kernel-parameters "CPU lists"): from
 *              a to b, of each group of g CPUs the first u; the payload
 *              writes u = 1 only: 1-1023:1/2 is 1,3,...,1023
 * x_cpus: "init:list;init:list;..."; a list of exactly "=" names the same
 * targets as the initiator before it (32 initiators aimed at one mask).
 *
 * Canonical (what the daemon stores): no stride and no "=", a run of three
 * or more consecutive CPUs as a-b, everything else one by one - exactly
 * what payloads before the short form wrote.
 */
#ifndef XCB_CPULIST_H
#define XCB_CPULIST_H

#include <stddef.h>
#include <stdint.h>

/* One more than the highest CPU a list may name (the daemon's bitmaps). */
#define XCB_CPULIST_CPUS 4096
#define XCB_CPULIST_WORDS (XCB_CPULIST_CPUS / 64)

/* Writes the CPUs set in bits[0..nbits) as a list into out (cap bytes; NUL
 * after it when it fits); returns the length the whole list needs, as
 * snprintf does: it fits when that is < cap. stride: 1 the short form
 * (a-b:1/g for five or more CPUs g apart), 0 the canonical one. */
size_t xcb_cpulist_put(char *out, size_t cap, const uint64_t *bits, unsigned nbits, int stride);
/* Parses list s[0..n) into bits (XCB_CPULIST_WORDS words, cleared first):
 * 0, or -1 when it is malformed or names a CPU >= XCB_CPULIST_CPUS. */
int xcb_cpulist_get(const char *s, size_t n, uint64_t *bits);
/* A list's canonical form into out (as xcb_cpulist_put); (size_t)-1 when
 * s[0..n) is no list. */
size_t xcb_cpulist_canon(const char *s, size_t n, char *out, size_t cap);
/* x_cpus's canonical form ("init:list;..." with each list canonical and no
 * "="), as xcb_cpulist_canon. */
size_t xcb_cpus_canon(const char *s, size_t n, char *out, size_t cap);

#endif /* XCB_CPULIST_H */
