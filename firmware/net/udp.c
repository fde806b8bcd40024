/* UDP header and checksum (RFC 768, with the IPv4 pseudo-header). */
#include "net/udp.h"
#include "lib/errno.h"
#include "net/ipv4.h"
#include "net/bytes.h"

static uint32_t pseudo_sum(uint32_t src, uint32_t dst, unsigned udp_len)
{
	return (src >> 16) + (src & 0xffff) + (dst >> 16) + (dst & 0xffff) +
	       IP_PROTO_UDP + udp_len;
}

void udp_build(uint8_t *u, uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport,
	       unsigned payload_len)
{
	unsigned len = UDP_HLEN + payload_len;
	put_be16(u + 0, sport);
	put_be16(u + 2, dport);
	put_be16(u + 4, (uint16_t)len);
	put_be16(u + 6, 0);
	uint16_t c = csum_fold(csum_add(pseudo_sum(src, dst, len), u, len));
	/* A computed 0 is sent as 0xffff: 0 on the wire means "no checksum". */
	put_be16(u + 6, c ? c : 0xffff);
}

int udp_parse(const uint8_t *u, unsigned len, uint32_t src, uint32_t dst, struct udp_view *v)
{
	if (len < UDP_HLEN)
		return -EBADMSG;
	unsigned ulen = get_be16(u + 4);
	if (ulen < UDP_HLEN || ulen > len)
		return -EBADMSG;
	if (get_be16(u + 6) != 0 &&
	    csum_fold(csum_add(pseudo_sum(src, dst, ulen), u, ulen)) != 0)
		return -EBADMSG;
	v->sport = get_be16(u);
	v->dport = get_be16(u + 2);
	v->payload = u + UDP_HLEN;
	v->payload_len = ulen - UDP_HLEN;
	return 0;
}
