/* IPv4 host on one NIC: receive dispatch (ARP, UDP), UDP send with ARP
 * next-hop resolution, and the DHCP exchange. */
#include "net/stack.h"
#include "lib/errno.h"
#include "net/ipv4.h"
#include "net/udp.h"
#include "net/netenv.h"
#include "net/bytes.h"

#define RX_BATCH        32
#define ARP_RETRY_US    200000u  /* one request per 200 ms per unresolved hop */

void net_stack_init(struct net_stack *s, struct netdev *nd)
{
	net_memset(s, 0, sizeof(*s));
	s->nd = nd;
	s->ip_id = 1;
}

uint32_t net_next_hop(const struct net_stack *s, uint32_t dst)
{
	if (s->netmask == 0 || ((dst ^ s->ip) & s->netmask) == 0 || s->gateway == 0)
		return dst;
	return s->gateway;
}

/* Transmit with a few polls to reclaim TX slots when the ring is full. */
static int xmit(struct net_stack *s, const void *frame, unsigned len)
{
	for (int tries = 0; tries < 1000; tries++) {
		if (s->nd->op->transmit(s->nd, frame, len) == 0) {
			s->nd->tx_frames++;
			return 0;
		}
		s->nd->tx_busy++;
		net_poll(s);
		plat_cpu_relax();
	}
	return -2;
}

static void dhcp_input(struct net_stack *s, const uint8_t *p, unsigned len)
{
	struct dhcp_lease l;
	int type = dhcp_parse(p, len, s->dhcp_xid, s->nd->mac, &l);
	if (type < 0)
		return;
	/* Keep the first OFFER; an ACK/NAK always wins (it ends the exchange). */
	if (type == DHCPOFFER && s->dhcp_type == DHCPOFFER)
		return;
	s->dhcp_type = type;
	s->dhcp_lease = l;
}

static void ip_input(struct net_stack *s, const uint8_t *p, unsigned len)
{
	struct ipv4_view ip;
	struct udp_view u;
	if (ipv4_parse(p, len, &ip) != 0) {
		s->rx_bad++;
		return;
	}
	/* Ours, broadcast, or anything while unconfigured (DHCP answers). */
	if (s->ip != 0 && ip.dst != s->ip && ip.dst != 0xffffffffu &&
	    ip.dst != (s->ip | ~s->netmask))
		return;
	if (ip.proto != IP_PROTO_UDP)
		return;
	if (udp_parse(ip.payload, ip.payload_len, ip.src, ip.dst, &u) != 0) {
		s->rx_bad++;
		return;
	}
	if (u.dport == DHCP_CLIENT_PORT && s->dhcp_xid) {
		dhcp_input(s, u.payload, u.payload_len);
		return;
	}
	if (s->udp_rx)
		s->udp_rx(s->udp_ctx, ip.src, u.sport, u.dport, u.payload, u.payload_len);
}

void net_poll(struct net_stack *s)
{
	for (int n = 0; n < RX_BATCH; n++) {
		unsigned len = s->nd->op->poll(s->nd, s->rxbuf, sizeof(s->rxbuf));
		if (len == 0)
			return;
		s->nd->rx_frames++;
		struct eth_hdr_view e;
		if (eth_parse(s->rxbuf, len, &e) != 0) {
			s->rx_bad++;
			continue;
		}
		if (net_memcmp(e.dst, s->nd->mac, ETH_ALEN) != 0 &&
		    net_memcmp(e.dst, eth_broadcast, ETH_ALEN) != 0)
			continue;
		if (e.type == ETH_P_ARP) {
			/* The reply is built in a buffer of its own: rxbuf still holds
			 * the request and txbuf may be mid-use by a caller. */
			uint8_t reply[ETH_MIN_FRAME];
			if (arp_input(&s->arp, e.payload, e.payload_len, s->nd->mac, s->ip, reply) > 0) {
				s->arp_replies++;
				s->nd->op->transmit(s->nd, reply, ETH_MIN_FRAME);
			}
		} else if (e.type == ETH_P_IP) {
			ip_input(s, e.payload, e.payload_len);
		}
	}
}

static void arp_request(struct net_stack *s, uint32_t ip)
{
	uint8_t req[ETH_MIN_FRAME];
	arp_build(req, ARP_OP_REQUEST, s->nd->mac, s->ip, 0, ip);
	s->last_arp_req_us = plat_now_us();
	xmit(s, req, sizeof(req));
}

int net_udp_send(struct net_stack *s, uint32_t dst, uint16_t sport, uint16_t dport,
		 const void *payload, unsigned len)
{
	if (len > ETH_MAX_FRAME - ETH_HLEN - IPV4_HLEN - UDP_HLEN)
		return -3;
	const uint8_t *mac;
	if (dst == 0xffffffffu) {
		mac = eth_broadcast;
	} else {
		uint32_t hop = net_next_hop(s, dst);
		mac = arp_cache_get(&s->arp, hop);
		if (!mac) {
			if (plat_now_us() - s->last_arp_req_us >= ARP_RETRY_US || s->last_arp_req_us == 0)
				arp_request(s, hop);
			return -EAGAIN;
		}
	}
	/* A local copy of the MAC: net_poll inside xmit may rewrite the cache. */
	uint8_t dmac[ETH_ALEN];
	net_memcpy(dmac, mac, ETH_ALEN);
	uint8_t *f = s->txbuf;
	uint8_t *ip = f + ETH_HLEN, *u = ip + IPV4_HLEN;
	net_memcpy(u + UDP_HLEN, payload, len);
	udp_build(u, s->ip, dst, sport, dport, len);
	ipv4_build(ip, IP_PROTO_UDP, s->ip, dst, UDP_HLEN + len, s->ip_id++);
	eth_build(f, dmac, s->nd->mac, ETH_P_IP);
	unsigned flen = ETH_HLEN + IPV4_HLEN + UDP_HLEN + len;
	if (flen < ETH_MIN_FRAME) {
		net_memset(f + flen, 0, ETH_MIN_FRAME - flen);
		flen = ETH_MIN_FRAME;
	}
	return xmit(s, f, flen);
}

int net_resolve(struct net_stack *s, uint32_t ip, uint64_t timeout_us)
{
	uint32_t hop = net_next_hop(s, ip);
	uint64_t t0 = plat_now_us();
	s->last_arp_req_us = 0;
	while (!arp_cache_get(&s->arp, hop)) {
		if (plat_now_us() - t0 >= timeout_us)
			return -ETIMEDOUT;
		if (s->last_arp_req_us == 0 || plat_now_us() - s->last_arp_req_us >= ARP_RETRY_US)
			arp_request(s, hop);
		net_poll(s);
		plat_cpu_relax();
	}
	return 0;
}

/* Sends one DHCP message and polls for an answer of a wanted type. */
static int dhcp_step(struct net_stack *s, uint8_t type, uint32_t req_ip, uint32_t server_id,
		     uint64_t deadline)
{
	uint8_t msg[DHCP_MAX_LEN];
	uint64_t wait = 500000;   /* 0.5 s, doubling per retry (RFC 2131 4.1, shorter) */
	while (plat_now_us() < deadline) {
		s->dhcp_type = 0;
		unsigned len = dhcp_build(msg, type, s->dhcp_xid, s->nd->mac, req_ip, server_id);
		net_udp_send(s, 0xffffffffu, DHCP_CLIENT_PORT, DHCP_SERVER_PORT, msg, len);
		uint64_t t0 = plat_now_us();
		while (plat_now_us() - t0 < wait && plat_now_us() < deadline) {
			net_poll(s);
			if (type == DHCPDISCOVER && s->dhcp_type == DHCPOFFER)
				return 0;
			if (type == DHCPREQUEST && (s->dhcp_type == DHCPACK || s->dhcp_type == DHCPNAK))
				return s->dhcp_type == DHCPACK ? 0 : -ECONNREFUSED;
			plat_cpu_relax();
		}
		if (wait < 4000000)
			wait *= 2;
	}
	return -ETIMEDOUT;
}

int net_dhcp(struct net_stack *s, uint64_t timeout_us)
{
	uint64_t deadline = plat_now_us() + timeout_us;
	const uint8_t *m = s->nd->mac;
	s->ip = 0;
	while (plat_now_us() < deadline) {
		/* xid from the MAC and the clock: distinct per machine and attempt. */
		s->dhcp_xid = (uint32_t)plat_now_us() ^ (uint32_t)(m[2] << 24 | m[3] << 16 | m[4] << 8 | m[5]);
		if (s->dhcp_xid == 0)
			s->dhcp_xid = 1;
		if (dhcp_step(s, DHCPDISCOVER, 0, 0, deadline) != 0)
			break;
		struct dhcp_lease offer = s->dhcp_lease;
		if (dhcp_step(s, DHCPREQUEST, offer.ip, offer.server_id, deadline) == 0) {
			s->ip = s->dhcp_lease.ip;
			s->netmask = s->dhcp_lease.netmask ? s->dhcp_lease.netmask : 0xffffff00u;
			s->gateway = s->dhcp_lease.gateway;
			s->dhcp_xid = 0;
			return 0;
		}
		/* NAK or no answer to REQUEST: start over. */
	}
	s->dhcp_xid = 0;
	return -ETIMEDOUT;
}
