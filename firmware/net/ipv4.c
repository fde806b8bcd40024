/* IPv4 header checksum, build and parse, and dotted-quad parsing. */
#include "net/ipv4.h"
#include "lib/errno.h"
#include "net/bytes.h"

uint32_t csum_add(uint32_t sum, const uint8_t *p, unsigned len)
{
	while (len >= 2) {
		sum += get_be16(p);
		p += 2;
		len -= 2;
	}
	if (len)
		sum += (uint32_t)p[0] << 8;
	return sum;
}

uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

void ipv4_build(uint8_t *h, uint8_t proto, uint32_t src, uint32_t dst,
		unsigned payload_len, uint16_t id)
{
	h[0] = 0x45;                 /* version 4, 5 words of header */
	h[1] = 0;                    /* DSCP/ECN */
	put_be16(h + 2, (uint16_t)(IPV4_HLEN + payload_len));
	put_be16(h + 4, id);
	put_be16(h + 6, 0x4000);     /* DF: we never fragment */
	h[8] = 64;
	h[9] = proto;
	put_be16(h + 10, 0);
	put_be32(h + 12, src);
	put_be32(h + 16, dst);
	put_be16(h + 10, csum_fold(csum_add(0, h, IPV4_HLEN)));
}

int ipv4_parse(const uint8_t *p, unsigned len, struct ipv4_view *v)
{
	if (len < IPV4_HLEN || (p[0] >> 4) != 4)
		return -EBADMSG;
	unsigned ihl = (p[0] & 0xf) * 4u, total = get_be16(p + 2);
	if (ihl < IPV4_HLEN || total < ihl || total > len)
		return -EBADMSG;
	/* A correct header sums (with its checksum field) to 0xffff. */
	if (csum_fold(csum_add(0, p, ihl)) != 0)
		return -EBADMSG;
	if (get_be16(p + 6) & 0x3fff)   /* MF set or a non-zero offset */
		return -EBADMSG;
	v->proto = p[9];
	v->src = get_be32(p + 12);
	v->dst = get_be32(p + 16);
	v->payload = p + ihl;
	v->payload_len = total - ihl;
	return 0;
}

int ipv4_parse_addr(const char *s, uint32_t *ip, const char **end)
{
	uint32_t a = 0;
	for (int i = 0; i < 4; i++) {
		unsigned n = 0, digits = 0;
		while (*s >= '0' && *s <= '9' && digits < 4) {
			n = n * 10 + (unsigned)(*s++ - '0');
			digits++;
		}
		if (digits == 0 || digits > 3 || n > 255)
			return -EBADMSG;
		a = a << 8 | n;
		if (i < 3 && *s++ != '.')
			return -EBADMSG;
	}
	if (end)
		*end = s;
	else if (*s)
		return -EBADMSG;
	*ip = a;
	return 0;
}
