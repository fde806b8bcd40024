/* Ethernet II framing: header build/parse and MAC-address text parsing. */
#include "net/eth.h"
#include "lib/errno.h"
#include "net/bytes.h"
#include "lib/string.h"

const uint8_t eth_broadcast[ETH_ALEN] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

void eth_build(uint8_t *buf, const uint8_t dst[ETH_ALEN], const uint8_t src[ETH_ALEN],
	       uint16_t type)
{
	net_memcpy(buf, dst, ETH_ALEN);
	net_memcpy(buf + ETH_ALEN, src, ETH_ALEN);
	put_be16(buf + 12, type);
}

int eth_parse(const uint8_t *frame, unsigned len, struct eth_hdr_view *v)
{
	if (len < ETH_HLEN)
		return -EBADMSG;
	v->dst = frame;
	v->src = frame + ETH_ALEN;
	v->type = get_be16(frame + 12);
	v->payload = frame + ETH_HLEN;
	v->payload_len = len - ETH_HLEN;
	return 0;
}

int eth_parse_mac(const char *s, uint8_t mac[ETH_ALEN])
{
	for (int i = 0; i < ETH_ALEN; i++) {
		int hi = xcb_digit(s[0], 16), lo = hi < 0 ? -1 : xcb_digit(s[1], 16);
		if (hi < 0 || lo < 0)
			return -EBADMSG;
		mac[i] = (uint8_t)(hi << 4 | lo);
		s += 2;
		if (i < ETH_ALEN - 1) {
			if (*s != ':' && *s != '-')
				return -EBADMSG;
			s++;
		}
	}
	return *s == '\0' ? 0 : -EBADMSG;
}
