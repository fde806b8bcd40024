/*
 * xcb_histo.h — the log-linear (HDR-style) latency histogram bucket scheme,
 * shared by the firmware (which fills histograms) and the host (which
 * computes percentiles from them), so both map a value to the same bucket.
 *
 * Values 0..255 get one bucket each (exact). Above that, every power of two
 * [2^e, 2^(e+1)) is split into 128 equal sub-buckets (7 sub-bucket bits), so
 * a bucket is at most 1/128 = 0.78% of its lower bound wide: any value read
 * back as its bucket's midpoint is within 0.4% of the truth. All of uint64_t
 * fits in XCB_HISTO_BUCKETS (7424) buckets; 2^40 cycles (minutes) needs 4352.
 *
 * Integer-only and header-only: usable freestanding without SSE or libgcc
 * (__builtin_clzll is a single BSR/LZCNT on x86-64).
 */
#ifndef XCB_HISTO_H
#define XCB_HISTO_H

#include <stdint.h>

#define XCB_HISTO_SUB_BITS 7
#define XCB_HISTO_SUB      (1u << XCB_HISTO_SUB_BITS)           /* 128 */
#define XCB_HISTO_BUCKETS  ((64 - XCB_HISTO_SUB_BITS + 1) * XCB_HISTO_SUB) /* 7424 */

/* Bucket index of value v. */
static inline uint32_t xcb_histo_bucket(uint64_t v)
{
	unsigned msb, shift;

	if (v < 2 * XCB_HISTO_SUB)
		return (uint32_t)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	shift = msb - XCB_HISTO_SUB_BITS;
	/* v >> shift lies in [128, 256): the sub-bucket, offset by one block. */
	return (uint32_t)((shift << XCB_HISTO_SUB_BITS) + (v >> shift));
}

/* Smallest value that lands in bucket idx (idx < XCB_HISTO_BUCKETS). */
static inline uint64_t xcb_histo_low(uint32_t idx)
{
	unsigned shift;

	if (idx < 2 * XCB_HISTO_SUB)
		return idx;
	shift = (idx >> XCB_HISTO_SUB_BITS) - 1;
	return (uint64_t)((idx & (XCB_HISTO_SUB - 1)) + XCB_HISTO_SUB) << shift;
}

/* Largest value that lands in bucket idx (inclusive). */
static inline uint64_t xcb_histo_high(uint32_t idx)
{
	unsigned shift;

	if (idx < 2 * XCB_HISTO_SUB)
		return idx;
	shift = (idx >> XCB_HISTO_SUB_BITS) - 1;
	return xcb_histo_low(idx) + ((uint64_t)1 << shift) - 1;
}

/* The value a percentile read from bucket idx reports: its midpoint. */
static inline uint64_t xcb_histo_mid(uint32_t idx)
{
	uint64_t lo = xcb_histo_low(idx);

	return lo + (xcb_histo_high(idx) - lo) / 2;
}

#endif /* XCB_HISTO_H */
