/* ARP for IPv4 over Ethernet: request/reply frames, a small cache, and the
 * answer for our own address (the daemon's host, or slirp, asks for us). */
#ifndef NET_ARP_H
#define NET_ARP_H

#include <stdint.h>
#include "net/eth.h"

#define ARP_OP_REQUEST 1
#define ARP_OP_REPLY   2
#define ARP_PKT_LEN    28
#define ARP_CACHE_SIZE 8

struct arp_entry {
	uint32_t ip;
	uint8_t mac[ETH_ALEN];
	uint8_t valid;
};

/* Tiny: the payload talks to one server through at most one gateway. Full
 * cache: the oldest slot is replaced (round robin). */
struct arp_cache {
	struct arp_entry e[ARP_CACHE_SIZE];
	unsigned next;
};

void arp_cache_put(struct arp_cache *c, uint32_t ip, const uint8_t mac[ETH_ALEN]);
/* The MAC for ip, or NULL when unknown. */
const uint8_t *arp_cache_get(const struct arp_cache *c, uint32_t ip);

/* Builds a whole Ethernet frame (padded to ETH_MIN_FRAME) into buf; returns
 * its length. A request goes to broadcast with an all-zero target MAC. */
unsigned arp_build(uint8_t *buf, uint16_t op, const uint8_t smac[ETH_ALEN], uint32_t sip,
		   const uint8_t tmac[ETH_ALEN], uint32_t tip);

/* Handles one ARP packet (the Ethernet payload). Learns the sender's mapping
 * when it targets us or is already cached (RFC 826's merge rule); when it is a
 * request for our_ip, writes a reply frame into reply (≥ ETH_MIN_FRAME bytes)
 * and returns its length. Returns 0 when there is nothing to send, -1 for a
 * malformed or non-IPv4/Ethernet packet. */
int arp_input(struct arp_cache *c, const uint8_t *pkt, unsigned len,
	      const uint8_t our_mac[ETH_ALEN], uint32_t our_ip, uint8_t *reply);

#endif
