/* UDP: header build with the pseudo-header checksum, and parse/verify. */
#ifndef NET_UDP_H
#define NET_UDP_H

#include <stdint.h>

#define UDP_HLEN 8

/* The payload (payload_len bytes) must already sit at udp + UDP_HLEN; writes
 * the header and the checksum over pseudo-header, header and payload. */
void udp_build(uint8_t *udp, uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport,
	       unsigned payload_len);

struct udp_view {
	uint16_t sport, dport;
	const uint8_t *payload;
	unsigned payload_len;
};

/* 0 and *v filled when the datagram (len bytes of IP payload) is well formed
 * and its checksum is right (or absent, i.e. zero); -1 otherwise. */
int udp_parse(const uint8_t *udp, unsigned len, uint32_t src, uint32_t dst, struct udp_view *v);

#endif
