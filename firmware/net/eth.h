/* Ethernet II framing: build and parse the 14-byte header. */
#ifndef NET_ETH_H
#define NET_ETH_H

#include <stdint.h>

#define ETH_ALEN      6
#define ETH_HLEN      14
#define ETH_MIN_FRAME 60    /* without FCS; shorter frames are zero-padded */
#define ETH_MAX_FRAME 1514  /* without FCS */
#define ETH_P_IP      0x0800
#define ETH_P_ARP     0x0806

extern const uint8_t eth_broadcast[ETH_ALEN];

/* Writes the header at buf; the payload follows at buf + ETH_HLEN. */
void eth_build(uint8_t *buf, const uint8_t dst[ETH_ALEN], const uint8_t src[ETH_ALEN],
	       uint16_t type);

struct eth_hdr_view {
	const uint8_t *dst, *src;
	uint16_t type;
	const uint8_t *payload;
	unsigned payload_len;
};

/* 0 and *v filled on success, -1 for a runt frame. */
int eth_parse(const uint8_t *frame, unsigned len, struct eth_hdr_view *v);

/* "52:54:00:12:34:56" or "52-54-00-12-34-56" (iPXE's ${mac:hexhyp}) → mac.
 * 0 on success, -1 when the text is not exactly six hex bytes. */
int eth_parse_mac(const char *text, uint8_t mac[ETH_ALEN]);

#endif
