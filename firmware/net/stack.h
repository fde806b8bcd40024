/* The payload's IPv4 host: one interface (the chosen NIC), its addresses, the
 * ARP cache, UDP send and the receive dispatch. Everything is polled from the
 * caller's thread (the BSP); nothing here runs in interrupt context. */
#ifndef NET_STACK_H
#define NET_STACK_H

#include <stdint.h>
#include "net/netdev.h"
#include "net/arp.h"
#include "net/dhcp.h"

typedef void (*net_udp_rx_fn)(void *ctx, uint32_t src, uint16_t sport, uint16_t dport,
			      const uint8_t *payload, unsigned len);

struct net_stack {
	struct netdev *nd;
	uint32_t ip, netmask, gateway;       /* host order; ip 0 = not configured */
	struct arp_cache arp;
	uint16_t ip_id;
	uint64_t last_arp_req_us;            /* rate limit for unresolved next hops */
	net_udp_rx_fn udp_rx;                /* UDP datagrams for us go here */
	void *udp_ctx;
	/* DHCP exchange in progress (net_dhcp) */
	uint32_t dhcp_xid;
	int dhcp_type;
	struct dhcp_lease dhcp_lease;
	uint8_t rxbuf[ETH_MAX_FRAME + 18], txbuf[ETH_MAX_FRAME + 18];
	/* counters */
	uint64_t rx_bad, arp_replies;
};

void net_stack_init(struct net_stack *s, struct netdev *nd);

/* Handles every frame waiting in the NIC (at most a bounded batch). */
void net_poll(struct net_stack *s);

/* The next hop for dst: dst itself on our subnet, else the gateway. */
uint32_t net_next_hop(const struct net_stack *s, uint32_t dst);

/* Sends one UDP datagram. 0 sent; -1 next hop not yet resolved (an ARP
 * request went out, rate-limited: retry later); -2 the NIC's TX ring stayed
 * full; -3 too long. Broadcast (255.255.255.255) needs no ARP. */
int net_udp_send(struct net_stack *s, uint32_t dst, uint16_t sport, uint16_t dport,
		 const void *payload, unsigned len);

/* Resolves ip's MAC, polling, for up to timeout_us. 0 or -1. */
int net_resolve(struct net_stack *s, uint32_t ip, uint64_t timeout_us);

/* Obtains an address by DHCP (DISCOVER, OFFER, REQUEST, ACK with retries)
 * for up to timeout_us; fills s->ip/netmask/gateway. 0 or -1. */
int net_dhcp(struct net_stack *s, uint64_t timeout_us);

#endif
