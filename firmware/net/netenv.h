/* What only net/ needs from the rest of the payload, in one place: MMIO
 * mappings, a log line and the command line. The clock (plat_now_us), DMA-able
 * memory (plat_alloc_zeroed: identity-mapped) and the polling pause
 * (plat_cpu_relax) are the common platform layer, lib/platform.h, included
 * here. The firmware implementation (net/netenv.c) maps these onto arch/ and
 * lib/; host unit tests provide their own, so stack and transport logic runs
 * under ASan. */
#ifndef NET_NETENV_H
#define NET_NETENV_H

#include <stdint.h>
#include "lib/platform.h"

/* Uncached virtual address for a device's register window. */
volatile void *net_map_mmio(uint64_t phys, uint64_t size);

/* One console line (printf-style, no trailing newline needed). */
void net_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Looks up key=value on the payload command line; NULL when absent. The
 * returned string is NUL-terminated and stays valid. */
const char *net_cmdline(const char *key);

#endif
