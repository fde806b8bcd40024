/*
 * histo.c - log-linear histogram: merge, percentiles, frame chunking.
 * Pure integer code, shared by the payload and the host tests.
 */
#include "bench/histo.h"

void histo_init(struct histo *h)
{
	h->total = 0;
	h->lo = HISTO_NB;
	h->hi = 0;
	for (unsigned i = 0; i < HISTO_NB; i++)
		h->counts[i] = 0;
}

void histo_merge(struct histo *a, const struct histo *b)
{
	if (b->total == 0)
		return;
	for (uint32_t i = b->lo; i <= b->hi; i++)
		a->counts[i] += b->counts[i];
	a->total += b->total;
	if (b->lo < a->lo)
		a->lo = b->lo;
	if (b->hi > a->hi)
		a->hi = b->hi;
}

uint64_t histo_percentile(const struct histo *h, uint32_t ppm, uint64_t min, uint64_t max)
{
	if (h->total == 0)
		return 0;
	if (ppm > 1000000)
		ppm = 1000000;
	/* rank = ceil(total * ppm / 1e6); total < 2^44 so the product fits 64 bits. */
	uint64_t rank = (h->total * ppm + 999999) / 1000000;
	if (rank == 0)
		rank = 1;
	uint64_t cum = 0, v = 0;
	for (uint32_t i = h->lo; i <= h->hi; i++) {
		cum += h->counts[i];
		if (cum >= rank) {
			v = xcb_histo_mid(i);
			break;
		}
	}
	if (v < min)
		v = min;
	if (v > max)
		v = max;
	return v;
}

int histo_next_chunk(const struct histo *h, uint32_t *pos, unsigned gap, unsigned max_n,
		     uint32_t *first, unsigned *n)
{
	if (h->total == 0 || max_n == 0)
		return 0;
	uint32_t i = *pos < h->lo ? h->lo : *pos;
	while (i <= h->hi && h->counts[i] == 0)
		i++;
	if (i > h->hi)
		return 0;
	uint32_t start = i, last = i;	/* last occupied bucket in the chunk */
	while (i <= h->hi && i - start < max_n) {
		if (h->counts[i]) {
			last = i;
		} else if (i - last > gap) {
			break;
		}
		i++;
	}
	*first = start;
	*n = last - start + 1;
	*pos = last + 1;
	return 1;
}
