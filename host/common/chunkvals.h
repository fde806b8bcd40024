/*
 * chunkvals.h — the text of a stored chunk's values (sample_chunks.vals,
 * histogram_chunks.counts, migrations 011 and 013): n decimal integers
 * separated by commas, written and read by these two functions only, so
 * both tables and both engines hold the same bytes.
 */
#ifndef XCB_CHUNKVALS_H
#define XCB_CHUNKVALS_H

#include <stddef.h>
#include <stdint.h>

#include "csv.h"

/* Bytes chunk_vals_put writes at most for n values, NUL included. */
#define CHUNK_VALS_MAX(n) ((size_t)(n) * CSV_NUM_MAX + 1)
/* Writes v[0..n) at p as the chunk's text, NUL-terminated (room for
 * CHUNK_VALS_MAX(n)); returns its length. */
size_t chunk_vals_put(char *p, const int64_t *v, unsigned n);
/* Reads the chunk's text s into v (at most max values): how many it
 * held, or -1 when s is not such text or holds more than max. */
int chunk_vals_get(const char *s, int64_t *v, unsigned max);

#endif
