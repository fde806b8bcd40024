/*
 * histo.h - filling one log-linear latency histogram (bucket scheme: proto/xcb_histo.h,
 * shared with the daemon so both sides agree on bucket boundaries), reading
 * percentiles from it, and cutting it into HISTO frame chunks.
 *
 * Buckets stop at 2^40 cycles (minutes on any TSC); a larger sample lands in the last
 * bucket - its exact value is still kept by stats (max). 4352 u32 counts = 17 KiB.
 */
#ifndef XCB_BENCH_HISTO_H
#define XCB_BENCH_HISTO_H

#include <stdint.h>
#include "xcb_histo.h"

#define HISTO_MAX_LOG2 40
#define HISTO_NB ((HISTO_MAX_LOG2 - XCB_HISTO_SUB_BITS + 1) * XCB_HISTO_SUB) /* 4352 */

struct histo {
	uint64_t total;
	uint32_t lo, hi;		/* occupied bucket range [lo, hi]; lo > hi when empty */
	uint32_t counts[HISTO_NB];
};

void histo_init(struct histo *h);
static inline void histo_add(struct histo *h, uint64_t v)
{
	uint32_t b = xcb_histo_bucket(v);
	if (b >= HISTO_NB)
		b = HISTO_NB - 1;
	h->counts[b]++;
	h->total++;
	if (b < h->lo)
		h->lo = b;
	if (b > h->hi)
		h->hi = b;
}
void histo_merge(struct histo *a, const struct histo *b);

/*
 * The value at quantile ppm/10^6: the midpoint of the bucket holding the sample of
 * rank ceil(total * ppm / 10^6) (at least 1), clamped to the exact [min, max] seen
 * (so p0 = min, p100 = max, and a one-bucket histogram reports a real value).
 * Returns 0 for an empty histogram.
 */
uint64_t histo_percentile(const struct histo *h, uint32_t ppm, uint64_t min, uint64_t max);

/*
 * Chunks for HISTO frames: runs of buckets holding data, split where more than
 * `gap` empty buckets lie between two occupied ones or at `max_n` counts. Start with
 * *pos = 0; each call sets *first and *n (counts are h->counts + *first) and returns
 * 1, or 0 when no chunk is left.
 */
int histo_next_chunk(const struct histo *h, uint32_t *pos, unsigned gap, unsigned max_n,
		     uint32_t *first, unsigned *n);

#endif /* XCB_BENCH_HISTO_H */
