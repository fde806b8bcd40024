/*
 * seqset.h — the set of sequence numbers received for one run, as the
 * collector needs it: "next" (every seq below it is present) plus a bitmap of
 * the seqs present above it. Answers the three questions of the protocol's
 * ACK rules: is this a duplicate, what is the cumulative ACK, and which later
 * frames to mark in the selective bitmap. Not thread-safe: the caller locks.
 */
#ifndef XCB_SEQSET_H
#define XCB_SEQSET_H

#include <stdint.h>

/* How far ahead of next a seq may be; beyond it a frame is refused (a
 * payload never has that many unacked frames, a forged seq cannot make us
 * allocate gigabytes). 2^20 frames = 128 KiB of bitmap at most. */
#define SEQSET_WINDOW (1u << 20)

struct seqset {
	uint32_t window;  /* how far ahead of next a seq may be; 0 = SEQSET_WINDOW */
	uint32_t next;    /* every seq < next is present */
	uint32_t base;    /* seq of bit 0 of bits[0]; multiple of 64, <= next */
	uint32_t nwords;
	uint64_t *bits;
	uint64_t count;   /* seqs present */
};

/* 1: added, 0: already present, -1: outside the window or out of memory. */
int seqset_add(struct seqset *s, uint32_t seq);
int seqset_has(const struct seqset *s, uint32_t seq);
/* Marks all seqs < n present (a completed run loaded from the database). */
void seqset_fill(struct seqset *s, uint32_t n);
/* Selective-ACK bitmap: bit i set = seq next+1+i present (32 bytes). */
void seqset_sack(const struct seqset *s, uint8_t sack[32]);
/* Forgets seq (>= next only; used when a frame could not be queued). */
void seqset_remove(struct seqset *s, uint32_t seq);
/* Makes dst the same set as src (its own window kept). 0, or -1 (no memory:
 * dst is then src's contiguous part only, never more than src). */
int seqset_copy(struct seqset *dst, const struct seqset *src);
/* Frees the bitmap of a set that will not change again (nothing above next). */
void seqset_shrink(struct seqset *s);
void seqset_free(struct seqset *s);

#endif
