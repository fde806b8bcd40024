/* DHCP message encoding/decoding (BOOTP header + options). */
#include "net/dhcp.h"
#include "lib/errno.h"
#include "net/bytes.h"

#define BOOTP_LEN    236
#define DHCP_MAGIC   0x63825363u
#define OPT_PAD      0
#define OPT_NETMASK  1
#define OPT_ROUTER   3
#define OPT_REQ_IP   50
#define OPT_MSGTYPE  53
#define OPT_SERVERID 54
#define OPT_PARAMS   55
#define OPT_END      255

unsigned dhcp_build(uint8_t *b, uint8_t type, uint32_t xid, const uint8_t mac[ETH_ALEN],
		    uint32_t requested_ip, uint32_t server_id)
{
	net_memset(b, 0, DHCP_MAX_LEN);
	b[0] = 1;                    /* BOOTREQUEST */
	b[1] = 1;                    /* htype Ethernet */
	b[2] = ETH_ALEN;
	put_be32(b + 4, xid);
	/* Broadcast flag: we cannot take unicast IP before we have an address. */
	put_be16(b + 10, 0x8000);
	net_memcpy(b + 28, mac, ETH_ALEN);
	put_be32(b + BOOTP_LEN, DHCP_MAGIC);

	uint8_t *o = b + BOOTP_LEN + 4;
	*o++ = OPT_MSGTYPE; *o++ = 1; *o++ = type;
	if (requested_ip) {
		*o++ = OPT_REQ_IP; *o++ = 4; put_be32(o, requested_ip); o += 4;
	}
	if (server_id) {
		*o++ = OPT_SERVERID; *o++ = 4; put_be32(o, server_id); o += 4;
	}
	*o++ = OPT_PARAMS; *o++ = 2; *o++ = OPT_NETMASK; *o++ = OPT_ROUTER;
	*o++ = OPT_END;
	/* Some old relays drop BOOTP messages shorter than 300 bytes. */
	unsigned len = (unsigned)(o - b);
	return len < 300 ? 300 : len;
}

int dhcp_parse(const uint8_t *b, unsigned len, uint32_t xid, const uint8_t mac[ETH_ALEN],
	       struct dhcp_lease *l)
{
	if (len < BOOTP_LEN + 4 || b[0] != 2 || b[1] != 1 || b[2] != ETH_ALEN ||
	    get_be32(b + 4) != xid || net_memcmp(b + 28, mac, ETH_ALEN) != 0 ||
	    get_be32(b + BOOTP_LEN) != DHCP_MAGIC)
		return -EBADMSG;
	int type = -1;
	l->ip = get_be32(b + 16);
	l->netmask = l->gateway = l->server_id = 0;

	const uint8_t *o = b + BOOTP_LEN + 4, *end = b + len;
	while (o < end) {
		uint8_t code = *o++;
		if (code == OPT_PAD)
			continue;
		if (code == OPT_END)
			break;
		if (o >= end || o + 1 + *o > end)
			return -EBADMSG;           /* option runs past the message */
		uint8_t olen = *o++;
		switch (code) {
		case OPT_MSGTYPE: if (olen >= 1) type = o[0]; break;
		case OPT_NETMASK: if (olen >= 4) l->netmask = get_be32(o); break;
		case OPT_ROUTER:  if (olen >= 4) l->gateway = get_be32(o); break;
		case OPT_SERVERID: if (olen >= 4) l->server_id = get_be32(o); break;
		}
		o += olen;
	}
	return type;
}
