/* DHCP client messages (RFC 2131): DISCOVER/REQUEST built, OFFER/ACK parsed.
 * Used only when the command line carries no ip= (iPXE normally passes the
 * address it already obtained). The exchange itself (retries, timeouts) lives
 * in net/stack.c; this file only encodes and decodes byte buffers. */
#ifndef NET_DHCP_H
#define NET_DHCP_H

#include <stdint.h>
#include "net/eth.h"

#define DHCP_SERVER_PORT 67
#define DHCP_CLIENT_PORT 68
#define DHCP_MAX_LEN     548   /* minimum every server must accept */

#define DHCPDISCOVER 1
#define DHCPOFFER    2
#define DHCPREQUEST  3
#define DHCPDECLINE  4
#define DHCPACK      5
#define DHCPNAK      6

struct dhcp_lease {
	uint32_t ip;         /* yiaddr */
	uint32_t netmask;    /* option 1, 0 if absent */
	uint32_t gateway;    /* first address of option 3, 0 if absent */
	uint32_t server_id;  /* option 54 */
};

/* Writes a DISCOVER (requested_ip and server_id 0) or REQUEST (both set, as in
 * the SELECTING state) into buf (≥ DHCP_MAX_LEN bytes); returns its length. */
unsigned dhcp_build(uint8_t *buf, uint8_t type, uint32_t xid, const uint8_t mac[ETH_ALEN],
		    uint32_t requested_ip, uint32_t server_id);

/* Parses a server reply for our xid and MAC. Returns the DHCP message type
 * (DHCPOFFER, DHCPACK, DHCPNAK…) with *lease filled, or -1 when the message
 * is malformed or not meant for us. */
int dhcp_parse(const uint8_t *buf, unsigned len, uint32_t xid, const uint8_t mac[ETH_ALEN],
	       struct dhcp_lease *lease);

#endif
