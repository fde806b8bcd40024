/* seqset.c — received-sequence set of one run (see seqset.h). */
#include "seqset.h"

#include <stdlib.h>
#include <string.h>

static int bit(const struct seqset *s, uint32_t seq)
{
	uint32_t off;

	if (seq < s->base)
		return 1;
	off = seq - s->base;
	if (off / 64 >= s->nwords)
		return 0;
	return (s->bits[off / 64] >> (off % 64)) & 1;
}

int seqset_has(const struct seqset *s, uint32_t seq)
{
	return seq < s->next || bit(s, seq);
}

/* Drops whole words below next so the bitmap only spans the window. */
static void compact(struct seqset *s)
{
	uint32_t drop = (s->next - s->base) / 64;

	if (drop == 0)
		return;
	if (drop >= s->nwords) {
		if (s->nwords)
			memset(s->bits, 0, s->nwords * sizeof(uint64_t));
	} else {
		memmove(s->bits, s->bits + drop, (s->nwords - drop) * sizeof(uint64_t));
		memset(s->bits + s->nwords - drop, 0, drop * sizeof(uint64_t));
	}
	s->base += drop * 64;
}

int seqset_add(struct seqset *s, uint32_t seq)
{
	uint32_t off, w;

	if (seqset_has(s, seq))
		return 0;
	if (seq - s->next >= (s->window ? s->window : SEQSET_WINDOW))
		return -1;
	off = seq - s->base;
	w = off / 64;
	if (w >= s->nwords) {
		uint32_t n = s->nwords ? s->nwords : 4;
		uint64_t *p;

		while (n <= w)
			n *= 2;
		p = realloc(s->bits, n * sizeof(uint64_t));
		if (!p)
			return -1;
		memset(p + s->nwords, 0, (n - s->nwords) * sizeof(uint64_t));
		s->bits = p;
		s->nwords = n;
	}
	s->bits[w] |= 1ull << (off % 64);
	s->count++;
	while (bit(s, s->next) && s->next != UINT32_MAX)
		s->next++;
	compact(s);
	return 1;
}

void seqset_fill(struct seqset *s, uint32_t n)
{
	for (uint32_t q = s->next; q < n; q++)
		if (!bit(s, q))
			s->count++;
	if (n > s->next)
		s->next = n;
	while (bit(s, s->next) && s->next != UINT32_MAX)
		s->next++;
	compact(s);
}

void seqset_sack(const struct seqset *s, uint8_t sack[32])
{
	memset(sack, 0, 32);
	for (uint32_t i = 0; i < 256; i++)
		if (bit(s, s->next + 1 + i))
			sack[i / 8] |= (uint8_t)(1u << (i % 8));
}

void seqset_remove(struct seqset *s, uint32_t seq)
{
	uint32_t off;

	if (seq < s->next || !bit(s, seq))
		return;
	off = seq - s->base;
	s->bits[off / 64] &= ~(1ull << (off % 64));
	s->count--;
}

int seqset_copy(struct seqset *dst, const struct seqset *src)
{
	uint64_t *p = NULL;

	if (src->nwords) {
		p = malloc(src->nwords * sizeof(uint64_t));
		if (!p) {
			free(dst->bits);
			dst->bits = NULL;
			dst->nwords = 0;
			dst->next = dst->base = src->next;
			dst->count = src->next;
			return -1;
		}
		memcpy(p, src->bits, src->nwords * sizeof(uint64_t));
	}
	free(dst->bits);
	dst->bits = p;
	dst->nwords = src->nwords;
	dst->next = src->next;
	dst->base = src->base;
	dst->count = src->count;
	return 0;
}

void seqset_shrink(struct seqset *s)
{
	if (s->count > s->next)
		return; /* seqs above next are present: the bitmap is needed */
	free(s->bits);
	s->bits = NULL;
	s->nwords = 0;
	s->base = s->next;
}

void seqset_free(struct seqset *s)
{
	free(s->bits);
	memset(s, 0, sizeof(*s));
}
