/* Host unit tests of the payload's IPv4 host (net/stack.c) and the reliable
 * UDP transport (net/udp_transport.c) end to end, over a NIC simulated in
 * this file: a "wire" whose far end is a peer host (ARP, a DHCP server, and
 * a collector that stores frames by seq and ACKs cumulatively with SACK bits,
 * like xcbenchd). The peer can lose, duplicate and go silent; time is a fake
 * clock that advances whenever the code under test waits (plat_cpu_relax). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/errno.h"
#include "net/stack.h"
#include "net/udp_transport.h"
#include "net/ipv4.h"
#include "net/udp.h"
#include "net/bytes.h"
#include "net/netenv.h"
#include "tests/netenv_host.h"
#include "xcb_proto.h"

/* ---- netenv for the host ---- */
static uint64_t now_us;
static const char *cmd_keys[8], *cmd_vals[8];
uint64_t plat_now_us(void) { return now_us; }
void plat_cpu_relax(void) { now_us += 250; }
static int teardown(void **state)
{
	(void)state;
	dma_free_all();
	return 0;
}
/* plat_alloc_zeroed, net_log, net_map_mmio: tests/netenv_host.c */
const char *net_cmdline(const char *key)
{
	for (int i = 0; i < 8 && cmd_keys[i]; i++)
		if (!strcmp(cmd_keys[i], key))
			return cmd_vals[i];
	return NULL;
}

/* No PCI on the host: an empty bus, and drivers that match nothing. */
int pci_scan(int (*fn)(struct pci_device *d, void *ctx), void *ctx) { (void)fn; (void)ctx; return 0; }
static int match_none(const struct pci_device *pci) { (void)pci; return 0; }
const struct net_driver virtio_net_driver = { "virtio-net", match_none, NULL };
const struct net_driver e1000_driver = { "e1000", match_none, NULL };
const struct net_driver igb_driver = { "igb", match_none, NULL };

/* ---- the simulated wire and peer ---- */
static const uint8_t our_mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
static const uint8_t peer_mac[6] = { 0x52, 0x55, 0x0a, 0x00, 0x02, 0x02 };
#define OUR_IP  IP4(10, 0, 2, 15)
#define PEER_IP IP4(10, 0, 2, 2)
#define PORT    8080

#define RXQ 256
static struct { uint8_t f[1514]; unsigned len; } rxq[RXQ];
static unsigned rx_head, rx_count;

static struct {
	unsigned loss_pct, ack_loss_pct, dup_pct;
	uint64_t silent_until;      /* the daemon is "down" until then */
	int refuse;
	uint32_t rnd;
	/* collector */
	uint8_t have[4096];
	uint32_t next;              /* every seq < next stored */
	unsigned stored, dups, arp_requests, dhcp_msgs, tx_frames;
	/* what the peer learnt by asking ARP for us */
	int asked_us, got_reply;
} peer;

static unsigned rnd100(void)
{
	peer.rnd = peer.rnd * 1103515245u + 12345u;
	return (peer.rnd >> 16) % 100;
}

static void rx_enqueue(const uint8_t *f, unsigned len)
{
	assert_true(rx_count < RXQ);
	unsigned k = (rx_head + rx_count++) % RXQ;
	memcpy(rxq[k].f, f, len);
	rxq[k].len = len;
}

static void peer_send_udp(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport,
			  const void *p, unsigned len)
{
	uint8_t f[1514];
	eth_build(f, dst == 0xffffffffu ? eth_broadcast : our_mac, peer_mac, ETH_P_IP);
	memcpy(f + 14 + 20 + 8, p, len);
	udp_build(f + 14 + 20, src, dst, sport, dport, len);
	ipv4_build(f + 14, IP_PROTO_UDP, src, dst, 8 + len, 7);
	rx_enqueue(f, 14 + 20 + 8 + len);
}

static void collector(const uint8_t *p, unsigned len)
{
	struct xcb_hdr h;
	const uint8_t *pl;
	assert_int_equal(xcb_decode(p, len, &h, &pl), XCB_OK);
	if (now_us < peer.silent_until)
		return;
	if (h.seq < sizeof(peer.have)) {
		if (peer.have[h.seq])
			peer.dups++;
		else
			peer.stored++;
		peer.have[h.seq] = 1;
	}
	while (peer.next < sizeof(peer.have) && peer.have[peer.next])
		peer.next++;
	if (rnd100() < peer.ack_loss_pct)
		return;
	struct xcb_hdr ah = { .token = h.token, .seq = peer.next };
	struct xcb_ack a = { .status = peer.refuse ? XCB_ACK_REFUSED : XCB_ACK_OK };
	for (unsigned i = 0; i < 256; i++)
		if (peer.next + 1 + i < sizeof(peer.have) && peer.have[peer.next + 1 + i])
			a.sack[i / 8] |= (uint8_t)(1 << (i % 8));
	uint8_t out[128];
	size_t n = xcb_enc_ack(out, sizeof(out), &ah, &a);
	assert_true(n > 0);
	peer_send_udp(PEER_IP, OUR_IP, PORT, UDPT_LOCAL_PORT, out, (unsigned)n);
}

static void dhcp_server(const uint8_t *p, unsigned len)
{
	assert_true(len >= 300);
	peer.dhcp_msgs++;
	uint8_t type = p[242];
	uint8_t r[400] = { 0 };
	r[0] = 2; r[1] = 1; r[2] = 6;
	memcpy(r + 4, p + 4, 4);
	put_be32(r + 16, OUR_IP);
	memcpy(r + 28, p + 28, 6);
	put_be32(r + 236, 0x63825363u);
	uint8_t *o = r + 240;
	*o++ = 53; *o++ = 1; *o++ = type == DHCPDISCOVER ? DHCPOFFER : DHCPACK;
	*o++ = 1; *o++ = 4; put_be32(o, 0xffffff00u); o += 4;
	*o++ = 3; *o++ = 4; put_be32(o, PEER_IP); o += 4;
	*o++ = 54; *o++ = 4; put_be32(o, PEER_IP); o += 4;
	*o++ = 255;
	peer_send_udp(PEER_IP, 0xffffffffu, 67, 68, r, 300);
}

/* Everything the payload transmits lands here. */
static void wire(const uint8_t *f, unsigned len)
{
	struct eth_hdr_view e;
	peer.tx_frames++;
	assert_true(len >= ETH_MIN_FRAME && len <= ETH_MAX_FRAME);
	assert_int_equal(eth_parse(f, len, &e), 0);
	assert_memory_equal(e.src, our_mac, 6);
	if (e.type == ETH_P_ARP) {
		uint8_t reply[60];
		struct arp_cache c = { 0 };
		uint16_t op = get_be16(e.payload + 6);
		if (op == ARP_OP_REQUEST) {
			peer.arp_requests++;
			if (arp_input(&c, e.payload, e.payload_len, peer_mac, PEER_IP, reply) > 0)
				rx_enqueue(reply, 60);
		} else {
			peer.got_reply++;
			assert_int_equal(get_be32(e.payload + 14), OUR_IP);
		}
		return;
	}
	assert_int_equal(e.type, ETH_P_IP);
	struct ipv4_view ip;
	struct udp_view u;
	assert_int_equal(ipv4_parse(e.payload, e.payload_len, &ip), 0);
	assert_int_equal(ip.proto, IP_PROTO_UDP);
	assert_int_equal(udp_parse(ip.payload, ip.payload_len, ip.src, ip.dst, &u), 0);
	if (u.dport == 67) {
		dhcp_server(u.payload, u.payload_len);
		return;
	}
	assert_memory_equal(e.dst, peer_mac, 6);
	if (u.dport != PORT)
		return;                 /* some other test datagram: delivered, not collected */
	assert_int_equal(ip.dst, PEER_IP);
	if (rnd100() < peer.loss_pct)
		return;
	collector(u.payload, u.payload_len);
	if (rnd100() < peer.dup_pct)
		collector(u.payload, u.payload_len);
}

static int fake_open(struct netdev *nd) { (void)nd; return 0; }
static int fake_link(struct netdev *nd) { (void)nd; return 1; }
static void fake_close(struct netdev *nd) { (void)nd; }
static int fake_tx(struct netdev *nd, const void *f, unsigned len)
{
	(void)nd;
	wire(f, len);
	return 0;
}
static unsigned fake_poll(struct netdev *nd, void *buf, unsigned cap)
{
	(void)nd;
	if (!rx_count || !buf)
		return 0;
	unsigned len = rxq[rx_head].len < cap ? rxq[rx_head].len : cap;
	memcpy(buf, rxq[rx_head].f, len);
	rx_head = (rx_head + 1) % RXQ;
	rx_count--;
	return len;
}
static const struct netdev_ops fake_ops = { fake_open, fake_tx, fake_poll, fake_link, fake_close };
static struct netdev nic;
static struct net_stack ns;
static struct udp_transport ut;

static int setup(void **state)
{
	(void)state;
	memset(&peer, 0, sizeof(peer));
	peer.rnd = 4242;
	rx_head = rx_count = 0;
	now_us = 1000000;
	memset(&nic, 0, sizeof(nic));
	strcpy(nic.name, "fake");
	nic.op = &fake_ops;
	memcpy(nic.mac, our_mac, 6);
	net_stack_init(&ns, &nic);
	ns.ip = OUR_IP;
	ns.netmask = 0xffffff00u;
	ns.gateway = PEER_IP;
	return 0;
}

static unsigned make_frame(uint8_t *buf, uint32_t seq)
{
	char text[200];
	int n = snprintf(text, sizeof(text), "frame %u %s", seq,
			 "padding padding padding padding padding padding padding padding");
	struct xcb_hdr h = { .type = XCB_T_LOG, .token = 0x1122334455667788ull, .seq = seq };
	size_t len = xcb_enc_text(buf, XCB_FRAME_MAX, &h, text, (size_t)n);
	assert_true(len > 0);
	return (unsigned)len;
}

static void test_arp_answered_while_polling(void **state)
{
	(void)state;
	uint8_t req[60];
	arp_build(req, ARP_OP_REQUEST, peer_mac, PEER_IP, NULL, OUR_IP);
	rx_enqueue(req, 60);
	net_poll(&ns);
	assert_int_equal(peer.got_reply, 1);
	/* ...and the asker was learnt: no ARP needed to send to it. */
	assert_int_equal(net_udp_send(&ns, PEER_IP, 1234, 9, "x", 1), 0);
	assert_int_equal(peer.arp_requests, 0);
}

static void test_udp_send_resolves_first(void **state)
{
	(void)state;
	assert_int_equal(net_udp_send(&ns, PEER_IP, 1234, 9, "x", 1), -EAGAIN);   /* ARP went out */
	assert_int_equal(peer.arp_requests, 1);
	assert_int_equal(net_udp_send(&ns, PEER_IP, 1234, 9, "x", 1), -EAGAIN);   /* rate-limited */
	assert_int_equal(peer.arp_requests, 1);
	net_poll(&ns);                                                          /* the reply */
	assert_int_equal(net_udp_send(&ns, PEER_IP, 1234, 9, "x", 1), 0);
	static uint8_t big[1473];
	assert_int_equal(net_udp_send(&ns, PEER_IP, 1234, 9, big, 1472), 0);
	assert_int_equal(net_udp_send(&ns, PEER_IP, 1234, 9, big, 1473), -3);
}

static void test_off_subnet_goes_to_gateway(void **state)
{
	(void)state;
	ns.gateway = PEER_IP;
	assert_int_equal(net_next_hop(&ns, IP4(192, 168, 1, 1)), PEER_IP);
	assert_int_equal(net_next_hop(&ns, IP4(10, 0, 2, 99)), IP4(10, 0, 2, 99));
	assert_int_equal(net_resolve(&ns, IP4(192, 168, 1, 1), 1000000), 0);
}

static void test_resolve_times_out(void **state)
{
	(void)state;
	uint64_t t0 = now_us;
	assert_int_equal(net_resolve(&ns, IP4(10, 0, 2, 77), 1000000), -ETIMEDOUT);
	assert_true(now_us - t0 >= 1000000);
	assert_true(peer.arp_requests >= 4);   /* retried, rate-limited */
}

static void test_dhcp(void **state)
{
	(void)state;
	ns.ip = ns.netmask = ns.gateway = 0;
	assert_int_equal(net_dhcp(&ns, 5000000), 0);
	assert_int_equal(ns.ip, OUR_IP);
	assert_int_equal(ns.netmask, 0xffffff00u);
	assert_int_equal(ns.gateway, PEER_IP);
	assert_int_equal(peer.dhcp_msgs, 2);   /* DISCOVER + REQUEST */
}

/* Sends n frames through the transport, then flushes. */
static void run_transport(unsigned n, unsigned flush_ms)
{
	struct transport *t = udp_transport_init(&ut, &ns, PEER_IP, PORT);
	assert_non_null(t);
	uint8_t f[XCB_FRAME_MAX];
	for (uint32_t s = 0; s < n; s++) {
		unsigned len = make_frame(f, s);
		assert_int_equal(t->send(t, f, len), 0);
		if (s % 7 == 0)
			t->poll(t);
	}
	assert_int_equal(t->flush(t, flush_ms), 0);
	assert_int_equal(rtx_inflight(&ut.rtx), 0);
}

static void assert_all_stored(unsigned n)
{
	assert_int_equal(peer.next, n);
	assert_int_equal(peer.stored, n);
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(peer.have[i], 1);
}

static void test_transport_lossless(void **state)
{
	(void)state;
	net_resolve(&ns, PEER_IP, 1000000);
	run_transport(1000, 10000);
	assert_all_stored(1000);
	assert_int_equal(ut.rtx.retransmitted, 0);
}

static void test_transport_lossy(void **state)
{
	(void)state;
	peer.loss_pct = 20;
	peer.ack_loss_pct = 20;
	peer.dup_pct = 5;
	net_resolve(&ns, PEER_IP, 1000000);
	run_transport(2000, 0);
	assert_all_stored(2000);
	assert_true(ut.rtx.retransmitted > 0);
}

static void test_transport_daemon_away(void **state)
{
	(void)state;
	/* The daemon is gone for 5 simulated minutes right from the start: the
	 * window fills, send blocks (the clock runs on in plat_cpu_relax), and when it
	 * comes back everything arrives. */
	peer.silent_until = now_us + 300ull * 1000000;
	net_resolve(&ns, PEER_IP, 1000000);
	run_transport(UDPT_WINDOW * 3, 0);
	assert_true(now_us >= peer.silent_until);
	assert_all_stored(UDPT_WINDOW * 3);
	/* Backoff capped at rto_max: a few hundred timeouts in 5 minutes, not thousands. */
	assert_true(ut.rtx.timeouts >= 300 * 1000000ull / UDPT_RTO_MAX_US / 2);
	assert_true(ut.rtx.timeouts <= 300 * 1000000ull / UDPT_RTO_MAX_US + 20);
}

/* A transport to the peer with frame 0 sent and a flush of flush_ms that
 * must fail: the peer is silent, or refuses (set up by the caller). */
static struct transport *send_one_unacked(unsigned flush_ms)
{
	net_resolve(&ns, PEER_IP, 1000000);
	struct transport *t = udp_transport_init(&ut, &ns, PEER_IP, PORT);
	uint8_t f[XCB_FRAME_MAX];
	assert_int_equal(t->send(t, f, make_frame(f, 0)), 0);
	assert_int_equal(t->flush(t, flush_ms), peer.refuse ? -ECONNREFUSED : -ETIMEDOUT);
	return t;
}

static void test_transport_flush_timeout(void **state)
{
	(void)state;
	peer.silent_until = UINT64_MAX;
	send_one_unacked(2000);
	assert_int_equal(rtx_inflight(&ut.rtx), 1);   /* still kept */
}

static void test_transport_refused(void **state)
{
	(void)state;
	peer.refuse = 1;
	struct transport *t = send_one_unacked(1000);
	uint8_t f[XCB_FRAME_MAX];
	assert_int_equal(t->send(t, f, make_frame(f, 1)), -ECONNREFUSED);
}

static void test_transport_ignores_foreign_acks(void **state)
{
	(void)state;
	net_resolve(&ns, PEER_IP, 1000000);
	peer.silent_until = UINT64_MAX;
	struct transport *t = udp_transport_init(&ut, &ns, PEER_IP, PORT);
	uint8_t f[XCB_FRAME_MAX], out[128];
	assert_int_equal(t->send(t, f, make_frame(f, 0)), 0);
	/* An ACK for another run's token, and garbage: neither releases frame 0. */
	struct xcb_hdr ah = { .token = 0xdead, .seq = 1 };
	struct xcb_ack a = { .status = XCB_ACK_OK };
	size_t n = xcb_enc_ack(out, sizeof(out), &ah, &a);
	peer_send_udp(PEER_IP, OUR_IP, PORT, UDPT_LOCAL_PORT, out, (unsigned)n);
	peer_send_udp(PEER_IP, OUR_IP, PORT, UDPT_LOCAL_PORT, "garbage", 7);
	t->poll(t);
	assert_int_equal(rtx_inflight(&ut.rtx), 1);
	assert_int_equal(ut.bad_acks, 2);
	/* The right one does. */
	ah.token = 0x1122334455667788ull;
	n = xcb_enc_ack(out, sizeof(out), &ah, &a);
	peer_send_udp(PEER_IP, OUR_IP, PORT, UDPT_LOCAL_PORT, out, (unsigned)n);
	t->poll(t);
	assert_int_equal(rtx_inflight(&ut.rtx), 0);
}

static void test_transport_udp_from_cmdline(void **state)
{
	(void)state;
	/* transport_udp() needs PCI: here only its refusals are tested. */
	cmd_keys[0] = NULL;
	assert_null(transport_udp());
	cmd_keys[0] = "server"; cmd_vals[0] = "10.0.2.2:99999";
	cmd_keys[1] = NULL;
	assert_null(transport_udp());
	cmd_vals[0] = "10.0.2:8080";
	assert_null(transport_udp());
	cmd_vals[0] = "10.0.2.2:8080";          /* well formed, but no NIC on this bus */
	assert_null(transport_udp());
	cmd_keys[0] = NULL;
}

/* The console name: the driver's family and model, then the PCI address in
 * hex; names too long are cut so the address always fits. */
static void test_netdev_name(void **state)
{
	(void)state;
	static const struct {
		uint8_t bus, dev, fn;
		const char *family, *model, *want;
	} cases[] = {
		{ 0xab, 0x1f, 5, "virtio-net", "1.0", "virtio-net(1.0) ab:1f.5" },
		{ 0, 3, 0, "a-family-name-long", "than-the-room-left", "a-family-name-long(th) 00:03.0" },
	};
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct netdev nd;
		memset(&nd, 0, sizeof(nd));
		nd.pci.bus = cases[i].bus;
		nd.pci.dev = cases[i].dev;
		nd.pci.fn = cases[i].fn;
		netdev_set_name(&nd, cases[i].family, cases[i].model);
		assert_string_equal(nd.name, cases[i].want);
	}
}

int main(void)
{
	/* Every case but the name test runs on a fresh wire, peer and clock. */
#define WIRED(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		WIRED(test_arp_answered_while_polling),
		WIRED(test_udp_send_resolves_first),
		WIRED(test_off_subnet_goes_to_gateway),
		WIRED(test_resolve_times_out),
		WIRED(test_dhcp),
		WIRED(test_transport_lossless),
		WIRED(test_transport_lossy),
		WIRED(test_transport_daemon_away),
		WIRED(test_transport_flush_timeout),
		WIRED(test_transport_refused),
		WIRED(test_transport_ignores_foreign_acks),
		WIRED(test_transport_udp_from_cmdline),
		cmocka_unit_test(test_netdev_name),
	};
	return cmocka_run_group_tests_name("net_stack", tests, NULL, NULL);
}
