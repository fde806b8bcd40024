/* Byte-order helpers for packet building and parsing.
 *
 * Network headers are big-endian and may sit at any alignment inside a
 * receive buffer, so every field goes through these byte-wise accessors
 * instead of casting a struct over the buffer (no unaligned access, no
 * strict-aliasing surprises, same code on the host and in the payload). */
#ifndef NET_BYTES_H
#define NET_BYTES_H

#include <stdint.h>
#include <stddef.h>

static inline void put_be16(uint8_t *p, uint16_t v) { p[0] = v >> 8; p[1] = v; }
static inline void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = v;
}
static inline uint16_t get_be16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static inline uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The compiler's builtins: inline code for small constant sizes, a call to
 * lib's memcpy/memset otherwise, and no <string.h> needed in freestanding. */
#define net_memcpy(d, s, n) __builtin_memcpy((d), (s), (n))
#define net_memset(d, c, n) __builtin_memset((d), (c), (n))
#define net_memcmp(a, b, n) __builtin_memcmp((a), (b), (n))

/* IPv4 addresses are kept in host order as uint32_t (10.0.2.15 = 0x0a00020f). */
#define IP4(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

#endif
