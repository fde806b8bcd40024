/* ARP: frame building, the reply for our own address, and a small cache. */
#include "net/arp.h"
#include "lib/errno.h"
#include "net/bytes.h"

void arp_cache_put(struct arp_cache *c, uint32_t ip, const uint8_t mac[ETH_ALEN])
{
	for (unsigned i = 0; i < ARP_CACHE_SIZE; i++) {
		if (c->e[i].valid && c->e[i].ip == ip) {
			net_memcpy(c->e[i].mac, mac, ETH_ALEN);
			return;
		}
	}
	struct arp_entry *e = &c->e[c->next];
	c->next = (c->next + 1) % ARP_CACHE_SIZE;
	e->ip = ip;
	net_memcpy(e->mac, mac, ETH_ALEN);
	e->valid = 1;
}

const uint8_t *arp_cache_get(const struct arp_cache *c, uint32_t ip)
{
	for (unsigned i = 0; i < ARP_CACHE_SIZE; i++)
		if (c->e[i].valid && c->e[i].ip == ip)
			return c->e[i].mac;
	return 0;
}

unsigned arp_build(uint8_t *buf, uint16_t op, const uint8_t smac[ETH_ALEN], uint32_t sip,
		   const uint8_t tmac[ETH_ALEN], uint32_t tip)
{
	static const uint8_t zero[ETH_ALEN];
	const uint8_t *edst = op == ARP_OP_REQUEST ? eth_broadcast : tmac;
	uint8_t *p = buf + ETH_HLEN;

	eth_build(buf, edst, smac, ETH_P_ARP);
	put_be16(p + 0, 1);          /* hardware: Ethernet */
	put_be16(p + 2, ETH_P_IP);   /* protocol: IPv4 */
	p[4] = ETH_ALEN;
	p[5] = 4;
	put_be16(p + 6, op);
	net_memcpy(p + 8, smac, ETH_ALEN);
	put_be32(p + 14, sip);
	net_memcpy(p + 18, op == ARP_OP_REQUEST ? zero : tmac, ETH_ALEN);
	put_be32(p + 24, tip);
	net_memset(p + ARP_PKT_LEN, 0, ETH_MIN_FRAME - ETH_HLEN - ARP_PKT_LEN);
	return ETH_MIN_FRAME;
}

int arp_input(struct arp_cache *c, const uint8_t *p, unsigned len,
	      const uint8_t our_mac[ETH_ALEN], uint32_t our_ip, uint8_t *reply)
{
	if (len < ARP_PKT_LEN || get_be16(p) != 1 || get_be16(p + 2) != ETH_P_IP ||
	    p[4] != ETH_ALEN || p[5] != 4)
		return -EBADMSG;
	uint16_t op = get_be16(p + 6);
	const uint8_t *smac = p + 8;
	uint32_t sip = get_be32(p + 14), tip = get_be32(p + 24);
	int for_us = our_ip != 0 && tip == our_ip;

	if (op != ARP_OP_REQUEST && op != ARP_OP_REPLY)
		return -EBADMSG;
	/* A zero sender address is an address probe (RFC 5227): nothing to learn. */
	if (sip != 0 && (for_us || arp_cache_get(c, sip)))
		arp_cache_put(c, sip, smac);
	if (op == ARP_OP_REQUEST && for_us)
		return (int)arp_build(reply, ARP_OP_REPLY, our_mac, our_ip, smac, sip);
	return 0;
}
