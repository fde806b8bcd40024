/* What net/ needs from the rest of the payload, in one place: a microsecond
 * clock, DMA-able memory, MMIO mappings, a log line and a pause. The firmware
 * implementation (net/netenv.c) maps these onto arch/ and lib/; host unit
 * tests provide their own, so stack and transport logic runs under ASan. */
#ifndef NET_NETENV_H
#define NET_NETENV_H

#include <stdint.h>

/* Monotonic time in microseconds (TSC-based in the payload). */
uint64_t net_now_us(void);

/* Zeroed, page-aligned memory that devices can DMA to: the payload's memory
 * is identity-mapped, so the returned pointer is also the bus address.
 * NULL when memory is exhausted. */
void *net_dma_alloc(unsigned long bytes);

/* Uncached virtual address for a device's register window. */
volatile void *net_map_mmio(uint64_t phys, uint64_t size);

/* One console line (printf-style, no trailing newline needed). */
void net_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Looks up key=value on the payload command line; NULL when absent. The
 * returned string is NUL-terminated and stays valid. */
const char *net_cmdline(const char *key);

/* Body of a polling wait loop. */
void net_relax(void);

#endif
