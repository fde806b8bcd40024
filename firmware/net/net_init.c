/* Brings the network up for the UDP transport: reads server=, ip=, gw=,
 * netmask=, mac= from the command line, chooses and opens the NIC, takes the
 * address from the command line (iPXE passes what it got) or from DHCP, finds
 * the server's next hop, and returns the transport. bench/report.c calls
 * transport_udp() when transport=udp|both. */
#include "net/net_init.h"
#include "lib/errno.h"
#include "net/udp_transport.h"
#include "net/ipv4.h"
#include "net/netenv.h"
#include "net/bytes.h"

#define DEFAULT_PORT      8080
#define DHCP_TIMEOUT_US   15000000ull
#define ARP_TIMEOUT_US    5000000ull

static struct net_stack stack;
static struct udp_transport udpt;

static void fmt_ip(char *b, uint32_t ip)
{
	unsigned n = 0;
	for (int i = 3; i >= 0; i--) {
		unsigned v = (ip >> (8 * i)) & 0xff;
		if (v >= 100) b[n++] = (char)('0' + v / 100);
		if (v >= 10) b[n++] = (char)('0' + v / 10 % 10);
		b[n++] = (char)('0' + v % 10);
		if (i) b[n++] = '.';
	}
	b[n] = 0;
}

/* "IP[:PORT]" → ip, port. 0 or -1. */
static int parse_server(const char *s, uint32_t *ip, uint16_t *port)
{
	const char *end;
	if (ipv4_parse_addr(s, ip, &end) != 0)
		return -EINVAL;
	*port = DEFAULT_PORT;
	if (*end == 0)
		return 0;
	if (*end++ != ':' || *end == 0)
		return -EINVAL;
	unsigned p = 0;
	for (; *end; end++) {
		if (*end < '0' || *end > '9' || p > 65535)
			return -EINVAL;
		p = p * 10 + (unsigned)(*end - '0');
	}
	if (p == 0 || p > 65535)
		return -EINVAL;
	*port = (uint16_t)p;
	return 0;
}

/* ip=, gw=, netmask= as given by iPXE: an empty value means "not known". */
static int addr_key(const char *key, uint32_t *out)
{
	const char *v = net_cmdline(key);
	*out = 0;
	if (!v || !*v)
		return 0;
	if (ipv4_parse_addr(v, out, 0) != 0) {
		net_log("net: error: %s=%s is not an IPv4 address", key, v);
		return -EINVAL;
	}
	return 1;
}

struct transport *transport_udp(void)
{
	uint32_t server;
	uint16_t port;
	const char *srv = net_cmdline("server");
	if (!srv || !*srv) {
		net_log("net: no server= on the command line: no UDP transport");
		return 0;
	}
	if (parse_server(srv, &server, &port) != 0) {
		net_log("net: error: server=%s is not IP[:PORT]: no UDP transport", srv);
		return 0;
	}

	uint8_t mac[ETH_ALEN];
	const uint8_t *want = 0;
	const char *m = net_cmdline("mac");
	if (m && *m) {
		if (eth_parse_mac(m, mac) == 0)
			want = mac;
		else
			net_log("net: warning: mac=%s is not a MAC address; ignored", m);
	}

	struct netdev *nd = netdev_select(want);
	if (!nd) {
		net_log("net: no supported NIC (virtio-net, e1000, e1000e, igb) came up");
		net_log("net: collect the results over the serial console instead (serial-over-LAN): "
			"ipmitool -I lanplus -H BMC -U USER sol activate | xcbench ingest -");
		return 0;
	}
	net_stack_init(&stack, nd);

	uint32_t ip, gw, mask;
	int have_ip = addr_key("ip", &ip);
	if (have_ip < 0 || addr_key("gw", &gw) < 0 || addr_key("netmask", &mask) < 0)
		return 0;
	if (have_ip) {
		stack.ip = ip;
		stack.gateway = gw;
		/* No netmask: treat the server as on-link unless a gateway says otherwise. */
		stack.netmask = mask ? mask : (gw ? 0xffffff00u : 0);
	} else {
		net_log("net: no ip= on the command line: asking DHCP");
		if (net_dhcp(&stack, DHCP_TIMEOUT_US) != 0) {
			net_log("net: DHCP got no address: no UDP transport");
			nd->op->close(nd);
			return 0;
		}
	}

	char a[16], g[16], n[16], s[16];
	fmt_ip(a, stack.ip); fmt_ip(g, stack.gateway); fmt_ip(n, stack.netmask); fmt_ip(s, server);
	net_log("net: %s ip %s netmask %s gw %s (%s) server %s:%u", nd->name, a, n, g,
		have_ip ? "cmdline" : "dhcp", s, port);

	/* Not fatal: the transport keeps asking while it retransmits. */
	if (net_resolve(&stack, server, ARP_TIMEOUT_US) != 0)
		net_log("net: warning: no ARP answer for the next hop to %s yet", s);

	struct transport *t = udp_transport_init(&udpt, &stack, server, port);
	if (!t)
		net_log("net: out of memory for the retransmit window: no UDP transport");
	return t;
}

void net_report_stats(void)
{
	if (!stack.nd)
		return;
	net_log("net: %s: tx %llu rx %llu rx-bad %llu tx-busy %llu; udp: sent %llu retransmitted %llu "
		"timeouts %llu acks %llu bad-acks %llu window-full %llu",
		stack.nd->name, (unsigned long long)stack.nd->tx_frames,
		(unsigned long long)stack.nd->rx_frames, (unsigned long long)stack.rx_bad,
		(unsigned long long)stack.nd->tx_busy,
		(unsigned long long)udpt.rtx.sent, (unsigned long long)udpt.rtx.retransmitted,
		(unsigned long long)udpt.rtx.timeouts, (unsigned long long)udpt.acks,
		(unsigned long long)udpt.bad_acks, (unsigned long long)udpt.window_waits);
}
