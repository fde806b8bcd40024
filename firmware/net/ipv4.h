/* IPv4: the Internet checksum, header build and parse. No fragmentation:
 * every frame the payload sends fits one datagram (≤ 1472 bytes of UDP
 * payload), and fragments received are dropped. */
#ifndef NET_IPV4_H
#define NET_IPV4_H

#include <stdint.h>

#define IPV4_HLEN     20
#define IP_PROTO_ICMP 1
#define IP_PROTO_UDP  17

/* One's-complement sum of len bytes (big-endian 16-bit words, an odd last
 * byte padded with zero) added to sum; fold with csum_fold(). */
uint32_t csum_add(uint32_t sum, const uint8_t *p, unsigned len);
/* Folds the carries and complements: the value to store in a header. */
uint16_t csum_fold(uint32_t sum);

/* Writes a 20-byte header (no options, DF set, TTL 64) at hdr. */
void ipv4_build(uint8_t *hdr, uint8_t proto, uint32_t src, uint32_t dst,
		unsigned payload_len, uint16_t id);

struct ipv4_view {
	uint32_t src, dst;
	uint8_t proto;
	const uint8_t *payload;
	unsigned payload_len;
};

/* 0 and *v filled for a valid, unfragmented datagram; -1 otherwise (bad
 * version/length/checksum, or a fragment). Ethernet padding past the IP
 * total length is ignored. */
int ipv4_parse(const uint8_t *pkt, unsigned len, struct ipv4_view *v);

/* "10.0.2.15" → host-order address; 0 on success, -1 for anything else.
 * end (optional) receives the character after the address (for "IP:PORT"). */
int ipv4_parse_addr(const char *text, uint32_t *ip, const char **end);

#endif
