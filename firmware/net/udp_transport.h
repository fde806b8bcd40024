/* The reliable UDP transport of proto/ over a net_stack: frames kept until a
 * cumulative ACK covers them, retransmitted with backoff (net/rtx.c), the
 * sender blocks, polling, while the window is full. */
#ifndef NET_UDP_TRANSPORT_H
#define NET_UDP_TRANSPORT_H

#include <stdint.h>
#include "lib/transport.h"
#include "net/stack.h"
#include "net/rtx.h"

#define UDPT_WINDOW     128        /* frames kept unacked (× 1472 B = 184 KiB) */
#define UDPT_RTO_MIN_US 50000      /* first retransmit after 50 ms */
#define UDPT_RTO_MAX_US 1000000    /* backoff cap: a returning daemon is found within 1 s */
#define UDPT_BURST      32         /* retransmits per poll, so one poll stays short */
#define UDPT_LOCAL_PORT 49152

struct udp_transport {
	struct transport t;
	struct net_stack *ns;
	uint32_t server;
	uint16_t port;
	uint64_t token;
	int have_token;
	int refused;                 /* the daemon said: unknown run, stop */
	int lock;                    /* see take() in udp_transport.c */
	uint32_t next_seq;           /* one past the last seq pushed */
	struct rtx rtx;
	uint64_t acks, bad_acks;
	uint64_t window_waits;       /* sends that waited for a full window to drain */
};

/* Sets up t over ns (storage from plat_alloc_zeroed); returns &u->t or NULL. */
struct transport *udp_transport_init(struct udp_transport *u, struct net_stack *ns,
				     uint32_t server, uint16_t port);

#endif
