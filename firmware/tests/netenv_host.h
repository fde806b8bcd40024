/* tests/netenv_host.h — what tests/netenv_host.c gives the net host tests
 * besides net/netenv.h itself: a view of, and a failure switch for, the DMA
 * allocator. Time and the command line stay in each test (they steer them). */
#ifndef TESTS_NETENV_HOST_H
#define TESTS_NETENV_HOST_H

/* How many plat_alloc_zeroed calls have returned memory (and not been freed). */
extern unsigned dma_nallocs;
/* When non-zero: allocation number dma_fail_at (1-based, as dma_nallocs
 * counts) returns NULL, once; the switch then resets to 0. */
extern unsigned dma_fail_at;
/* Frees every allocation (the payload never frees: the tests do, per case). */
void dma_free_all(void);

#endif
