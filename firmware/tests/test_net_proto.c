/* Host unit tests of net/ packet code: Ethernet, ARP (frames, reply for our
 * address, cache), IPv4 and UDP (build, parse, checksums against vectors
 * computed independently with Python's struct module), DHCP messages, and
 * address/MAC text parsing. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "net/eth.h"
#include "lib/errno.h"
#include "net/arp.h"
#include "net/ipv4.h"
#include "net/udp.h"
#include "net/dhcp.h"
#include "net/bytes.h"

static const uint8_t mac_a[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
static const uint8_t mac_b[6] = { 0x52, 0x55, 0x0a, 0x00, 0x02, 0x02 };
#define IP_A IP4(10, 0, 2, 15)
#define IP_B IP4(10, 0, 2, 2)

static void test_eth_roundtrip(void **state)
{
	(void)state;
	uint8_t f[64] = { 0 };
	struct eth_hdr_view v;
	eth_build(f, mac_b, mac_a, ETH_P_IP);
	assert_int_equal(f[12], 0x08);
	assert_int_equal(f[13], 0x00);
	assert_int_equal(eth_parse(f, 60, &v), 0);
	assert_memory_equal(v.dst, mac_b, 6);
	assert_memory_equal(v.src, mac_a, 6);
	assert_int_equal(v.type, ETH_P_IP);
	assert_int_equal(v.payload_len, 46);
	assert_int_equal(eth_parse(f, 13, &v), -EBADMSG);
}

static void test_mac_parse(void **state)
{
	(void)state;
	uint8_t m[6];
	assert_int_equal(eth_parse_mac("52:54:00:12:34:56", m), 0);
	assert_memory_equal(m, mac_a, 6);
	assert_int_equal(eth_parse_mac("52-54-00-12-34-56", m), 0);
	assert_memory_equal(m, mac_a, 6);
	assert_int_equal(eth_parse_mac("52:54:00:12:34", m), -EBADMSG);
	assert_int_equal(eth_parse_mac("52:54:00:12:34:56:", m), -EBADMSG);
	assert_int_equal(eth_parse_mac("52:54:00:12:34:5g", m), -EBADMSG);
	assert_int_equal(eth_parse_mac("", m), -EBADMSG);
}

static void test_ip_addr_parse(void **state)
{
	(void)state;
	uint32_t ip;
	const char *end;
	assert_int_equal(ipv4_parse_addr("10.0.2.15", &ip, NULL), 0);
	assert_int_equal(ip, IP_A);
	assert_int_equal(ipv4_parse_addr("255.255.255.0", &ip, NULL), 0);
	assert_int_equal(ip, 0xffffff00u);
	assert_int_equal(ipv4_parse_addr("10.0.2.2:8080", &ip, &end), 0);
	assert_int_equal(ip, IP_B);
	assert_string_equal(end, ":8080");
	assert_int_equal(ipv4_parse_addr("10.0.2.2:8080", &ip, NULL), -EBADMSG);
	assert_int_equal(ipv4_parse_addr("10.0.2", &ip, NULL), -EBADMSG);
	assert_int_equal(ipv4_parse_addr("10.0.2.256", &ip, NULL), -EBADMSG);
	assert_int_equal(ipv4_parse_addr("1.2.3.4.5", &ip, NULL), -EBADMSG);
	assert_int_equal(ipv4_parse_addr("a.b.c.d", &ip, NULL), -EBADMSG);
}

static void test_arp_request_frame(void **state)
{
	(void)state;
	uint8_t f[ETH_MIN_FRAME];
	assert_int_equal(arp_build(f, ARP_OP_REQUEST, mac_a, IP_A, NULL, IP_B), 60);
	assert_memory_equal(f, eth_broadcast, 6);
	assert_memory_equal(f + 6, mac_a, 6);
	assert_int_equal(get_be16(f + 12), ETH_P_ARP);
	const uint8_t *p = f + 14;
	assert_int_equal(get_be16(p), 1);
	assert_int_equal(get_be16(p + 2), 0x0800);
	assert_int_equal(get_be16(p + 6), ARP_OP_REQUEST);
	assert_int_equal(get_be32(p + 14), IP_A);
	assert_int_equal(get_be32(p + 24), IP_B);
	static const uint8_t zero[6];
	assert_memory_equal(p + 18, zero, 6);
}

static void test_arp_reply_for_us(void **state)
{
	(void)state;
	struct arp_cache c = { 0 };
	uint8_t req[60], reply[60];
	/* B asks who has A: we answer and learn B. */
	arp_build(req, ARP_OP_REQUEST, mac_b, IP_B, NULL, IP_A);
	assert_int_equal(arp_input(&c, req + 14, 46, mac_a, IP_A, reply), 60);
	assert_memory_equal(reply, mac_b, 6);
	assert_memory_equal(reply + 6, mac_a, 6);
	assert_int_equal(get_be16(reply + 14 + 6), ARP_OP_REPLY);
	assert_memory_equal(reply + 14 + 8, mac_a, 6);
	assert_int_equal(get_be32(reply + 14 + 14), IP_A);
	assert_memory_equal(reply + 14 + 18, mac_b, 6);
	assert_int_equal(get_be32(reply + 14 + 24), IP_B);
	assert_non_null(arp_cache_get(&c, IP_B));
	assert_memory_equal(arp_cache_get(&c, IP_B), mac_b, 6);

	/* A request for someone else: no reply, and an unknown sender is not learnt. */
	struct arp_cache c2 = { 0 };
	arp_build(req, ARP_OP_REQUEST, mac_b, IP_B, NULL, IP4(10, 0, 2, 99));
	assert_int_equal(arp_input(&c2, req + 14, 46, mac_a, IP_A, reply), 0);
	assert_null(arp_cache_get(&c2, IP_B));
	/* Malformed: short, or not Ethernet/IPv4. */
	assert_int_equal(arp_input(&c2, req + 14, 27, mac_a, IP_A, reply), -EBADMSG);
	req[14 + 1] = 2;
	assert_int_equal(arp_input(&c2, req + 14, 46, mac_a, IP_A, reply), -EBADMSG);
}

static void test_arp_reply_learnt(void **state)
{
	(void)state;
	struct arp_cache c = { 0 };
	uint8_t rep[60], out[60];
	arp_build(rep, ARP_OP_REPLY, mac_b, IP_B, mac_a, IP_A);
	assert_memory_equal(rep, mac_a, 6);   /* unicast to the asker */
	assert_int_equal(arp_input(&c, rep + 14, 46, mac_a, IP_A, out), 0);
	assert_memory_equal(arp_cache_get(&c, IP_B), mac_b, 6);
}

static void test_arp_cache_replacement(void **state)
{
	(void)state;
	struct arp_cache c = { 0 };
	uint8_t m[6] = { 2, 0, 0, 0, 0, 0 };
	for (unsigned i = 0; i < ARP_CACHE_SIZE; i++) {
		m[5] = (uint8_t)i;
		arp_cache_put(&c, IP4(10, 0, 0, i), m);
	}
	for (unsigned i = 0; i < ARP_CACHE_SIZE; i++)
		assert_int_equal(arp_cache_get(&c, IP4(10, 0, 0, i))[5], i);
	/* Updating an entry does not take a slot. */
	m[5] = 0xaa;
	arp_cache_put(&c, IP4(10, 0, 0, 3), m);
	assert_int_equal(arp_cache_get(&c, IP4(10, 0, 0, 3))[5], 0xaa);
	assert_non_null(arp_cache_get(&c, IP4(10, 0, 0, 0)));
	/* A new one replaces the oldest. */
	arp_cache_put(&c, IP4(10, 0, 0, 100), m);
	assert_null(arp_cache_get(&c, IP4(10, 0, 0, 0)));
	assert_non_null(arp_cache_get(&c, IP4(10, 0, 0, 100)));
	assert_non_null(arp_cache_get(&c, IP4(10, 0, 0, 1)));
}

/* 10.0.2.15:49152 → 10.0.2.2:8080, "hello, xcbench!" (odd length). Expected
 * checksums from an independent RFC 1071 implementation in Python. */
static unsigned build_vector(uint8_t *pkt)
{
	static const char msg[] = "hello, xcbench!";
	unsigned n = sizeof(msg) - 1;
	memcpy(pkt + IPV4_HLEN + UDP_HLEN, msg, n);
	udp_build(pkt + IPV4_HLEN, IP_A, IP_B, 49152, 8080, n);
	ipv4_build(pkt, IP_PROTO_UDP, IP_A, IP_B, UDP_HLEN + n, 1);
	return IPV4_HLEN + UDP_HLEN + n;
}

static void test_ipv4_udp_vector(void **state)
{
	(void)state;
	uint8_t pkt[128];
	unsigned len = build_vector(pkt);
	assert_int_equal(len, 43);
	assert_int_equal(get_be16(pkt + 10), 0x22b1);
	assert_int_equal(get_be16(pkt + IPV4_HLEN + 6), 0x566f);
	assert_int_equal(pkt[0], 0x45);
	assert_int_equal(get_be16(pkt + 2), 43);
	assert_int_equal(get_be16(pkt + 6), 0x4000);

	struct ipv4_view ip;
	struct udp_view u;
	/* Trailing Ethernet padding is ignored. */
	assert_int_equal(ipv4_parse(pkt, len + 3, &ip), 0);
	assert_int_equal(ip.src, IP_A);
	assert_int_equal(ip.dst, IP_B);
	assert_int_equal(ip.proto, IP_PROTO_UDP);
	assert_int_equal(ip.payload_len, 23);
	assert_int_equal(udp_parse(ip.payload, ip.payload_len, ip.src, ip.dst, &u), 0);
	assert_int_equal(u.sport, 49152);
	assert_int_equal(u.dport, 8080);
	assert_int_equal(u.payload_len, 15);
	assert_memory_equal(u.payload, "hello, xcbench!", 15);
}

static void test_ipv4_rejects(void **state)
{
	(void)state;
	uint8_t pkt[128], bad[128];
	struct ipv4_view ip;
	unsigned len = build_vector(pkt);
	assert_int_equal(ipv4_parse(pkt, len - 1, &ip), -EBADMSG);       /* truncated */
	assert_int_equal(ipv4_parse(pkt, 19, &ip), -EBADMSG);
	memcpy(bad, pkt, len); bad[8] ^= 1;                           /* header bit flip */
	assert_int_equal(ipv4_parse(bad, len, &ip), -EBADMSG);
	memcpy(bad, pkt, len); bad[0] = 0x65;                         /* version 6 */
	assert_int_equal(ipv4_parse(bad, len, &ip), -EBADMSG);
	/* A fragment (MF set), with a correct checksum, is still refused. */
	memcpy(bad, pkt, len);
	put_be16(bad + 6, 0x2000);
	put_be16(bad + 10, 0);
	put_be16(bad + 10, csum_fold(csum_add(0, bad, 20)));
	assert_int_equal(ipv4_parse(bad, len, &ip), -EBADMSG);
}

static void test_udp_rejects(void **state)
{
	(void)state;
	uint8_t pkt[128];
	struct udp_view u;
	unsigned len = build_vector(pkt);
	uint8_t *up = pkt + IPV4_HLEN;
	unsigned ulen = len - IPV4_HLEN;
	up[10] ^= 0x40;                                  /* payload corrupted */
	assert_int_equal(udp_parse(up, ulen, IP_A, IP_B, &u), -EBADMSG);
	up[10] ^= 0x40;
	assert_int_equal(udp_parse(up, ulen, IP_A, IP4(10, 0, 2, 3), &u), -EBADMSG); /* wrong pseudo-header */
	assert_int_equal(udp_parse(up, ulen - 1, IP_A, IP_B, &u), -EBADMSG);         /* shorter than its length */
	assert_int_equal(udp_parse(up, 7, IP_A, IP_B, &u), -EBADMSG);
	/* Checksum 0 means "none": accepted even with other bytes changed. */
	put_be16(up + 6, 0);
	up[10] ^= 0x40;
	assert_int_equal(udp_parse(up, ulen, IP_A, IP_B, &u), 0);
}

static void test_udp_zero_checksum_sent_as_ffff(void **state)
{
	(void)state;
	/* Search for a payload whose checksum computes to 0: it must go out as
	 * 0xffff (RFC 768) and still verify. */
	uint8_t u[UDP_HLEN + 2];
	int found = 0;
	for (unsigned v = 0; v < 65536 && !found; v++) {
		put_be16(u + UDP_HLEN, (uint16_t)v);
		udp_build(u, IP_A, IP_B, 1, 2, 2);
		if (get_be16(u + 6) == 0xffff) {
			struct udp_view view;
			assert_int_equal(udp_parse(u, sizeof(u), IP_A, IP_B, &view), 0);
			found = 1;
		}
		assert_int_not_equal(get_be16(u + 6), 0);
	}
	assert_true(found);
}

/* A server reply as dnsmasq/slirp would send it. */
static unsigned make_reply(uint8_t *b, uint8_t type, uint32_t xid, const uint8_t *mac)
{
	memset(b, 0, 400);
	b[0] = 2; b[1] = 1; b[2] = 6;
	put_be32(b + 4, xid);
	put_be32(b + 16, IP_A);
	memcpy(b + 28, mac, 6);
	put_be32(b + 236, 0x63825363u);
	uint8_t *o = b + 240;
	*o++ = 0;                                   /* a pad byte is skipped */
	*o++ = 53; *o++ = 1; *o++ = type;
	*o++ = 1; *o++ = 4; put_be32(o, 0xffffff00u); o += 4;
	*o++ = 3; *o++ = 8; put_be32(o, IP_B); put_be32(o + 4, IP4(10, 0, 2, 1)); o += 8;
	*o++ = 54; *o++ = 4; put_be32(o, IP_B); o += 4;
	*o++ = 255;
	return (unsigned)(o - b);
}

static void test_dhcp_build(void **state)
{
	(void)state;
	uint8_t b[DHCP_MAX_LEN];
	unsigned n = dhcp_build(b, DHCPDISCOVER, 0x11223344u, mac_a, 0, 0);
	assert_true(n >= 300 && n <= DHCP_MAX_LEN);
	assert_int_equal(b[0], 1);
	assert_int_equal(get_be32(b + 4), 0x11223344u);
	assert_int_equal(get_be16(b + 10), 0x8000);
	assert_memory_equal(b + 28, mac_a, 6);
	assert_int_equal(get_be32(b + 236), 0x63825363u);
	assert_int_equal(b[240], 53);
	assert_int_equal(b[242], DHCPDISCOVER);

	n = dhcp_build(b, DHCPREQUEST, 7, mac_a, IP_A, IP_B);
	assert_int_equal(b[242], DHCPREQUEST);
	assert_int_equal(b[243], 50);
	assert_int_equal(get_be32(b + 245), IP_A);
	assert_int_equal(b[249], 54);
	assert_int_equal(get_be32(b + 251), IP_B);
}

static void test_dhcp_parse(void **state)
{
	(void)state;
	uint8_t b[400];
	struct dhcp_lease l;
	unsigned n = make_reply(b, DHCPOFFER, 42, mac_a);
	assert_int_equal(dhcp_parse(b, n, 42, mac_a, &l), DHCPOFFER);
	assert_int_equal(l.ip, IP_A);
	assert_int_equal(l.netmask, 0xffffff00u);
	assert_int_equal(l.gateway, IP_B);
	assert_int_equal(l.server_id, IP_B);
	n = make_reply(b, DHCPACK, 42, mac_a);
	assert_int_equal(dhcp_parse(b, n, 42, mac_a, &l), DHCPACK);
	/* Not ours: other xid, other MAC. */
	assert_int_equal(dhcp_parse(b, n, 43, mac_a, &l), -EBADMSG);
	assert_int_equal(dhcp_parse(b, n, 42, mac_b, &l), -EBADMSG);
	/* An option running past the end is malformed, never read beyond. */
	n = make_reply(b, DHCPACK, 42, mac_a);
	assert_int_equal(dhcp_parse(b, 244, 42, mac_a, &l), DHCPACK);  /* ends after type */
	b[245] = 200;                                 /* netmask option claims 200 bytes */
	assert_int_equal(dhcp_parse(b, n, 42, mac_a, &l), -EBADMSG);
	assert_int_equal(dhcp_parse(b, 100, 42, mac_a, &l), -EBADMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eth_roundtrip),
		cmocka_unit_test(test_mac_parse),
		cmocka_unit_test(test_ip_addr_parse),
		cmocka_unit_test(test_arp_request_frame),
		cmocka_unit_test(test_arp_reply_for_us),
		cmocka_unit_test(test_arp_reply_learnt),
		cmocka_unit_test(test_arp_cache_replacement),
		cmocka_unit_test(test_ipv4_udp_vector),
		cmocka_unit_test(test_ipv4_rejects),
		cmocka_unit_test(test_udp_rejects),
		cmocka_unit_test(test_udp_zero_checksum_sent_as_ffff),
		cmocka_unit_test(test_dhcp_build),
		cmocka_unit_test(test_dhcp_parse),
	};
	return cmocka_run_group_tests_name("net_proto", tests, NULL, NULL);
}
