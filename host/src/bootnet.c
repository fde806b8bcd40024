/*
 * bootnet.c — the allowed boot networks (bootnet.h). Written at start-up
 * only (main.c, before the HTTP threads), read by them afterwards: no lock.
 */
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bootnet.h"

#define BOOTNET_MAX 32

static struct cidr {
	uint32_t net, mask; /* host byte order */
} nets[BOOTNET_MAX];
static int nnets;

static uint32_t prefix_mask(unsigned len)
{
	return len == 0 ? 0 : 0xffffffffu << (32 - len);
}

static int add(uint32_t net, uint32_t mask)
{
	for (int i = 0; i < nnets; i++)
		if (nets[i].net == (net & mask) && nets[i].mask == mask)
			return 0;
	if (nnets == BOOTNET_MAX)
		return -1;
	nets[nnets++] = (struct cidr){ net & mask, mask };
	return 0;
}

int bootnet_add(const char *spec, char *err, size_t errlen)
{
	char addr[32];
	const char *slash = strchr(spec, '/');
	unsigned long len = 32;
	struct in_addr a;
	char *end;

	if (strlen(spec) >= sizeof(addr))
		goto bad;
	snprintf(addr, sizeof(addr), "%.*s", slash ? (int)(slash - spec) : (int)strlen(spec), spec);
	if (inet_pton(AF_INET, addr, &a) != 1)
		goto bad;
	if (slash) {
		len = strtoul(slash + 1, &end, 10);
		if (!slash[1] || *end || len > 32)
			goto bad;
	}
	if (add(ntohl(a.s_addr), prefix_mask((unsigned)len))) {
		snprintf(err, errlen, "--boot-from: at most %d networks", BOOTNET_MAX);
		return -1;
	}
	return 0;
bad:
	snprintf(err, errlen, "--boot-from: '%s' is not an IPv4 network like 10.77.0.0/24", spec);
	return -1;
}

void bootnet_default(int lab)
{
	struct ifaddrs *ifs, *i;

	if (nnets)
		return; /* --boot-from given: exactly those */
	if (getifaddrs(&ifs) == 0) {
		for (i = ifs; i; i = i->ifa_next) {
			if (!i->ifa_addr || !i->ifa_netmask || i->ifa_addr->sa_family != AF_INET ||
			    (i->ifa_flags & IFF_LOOPBACK))
				continue;
			add(ntohl(((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr),
			    ntohl(((struct sockaddr_in *)i->ifa_netmask)->sin_addr.s_addr));
		}
		freeifaddrs(ifs);
	}
	/* QEMU user networking connects from the daemon's own host, always
	 * 127.0.0.1; another loopback address is some local process, not a
	 * machine. A lab daemon takes boots from its lab only. */
	if (!lab)
		add(0x7f000001u, 0xffffffffu);
}

int bootnet_allows(uint32_t addr)
{
	uint32_t a = ntohl(addr);

	for (int i = 0; i < nnets; i++)
		if ((a & nets[i].mask) == nets[i].net)
			return 1;
	return 0;
}

void bootnet_describe(char *out, size_t n)
{
	size_t at = 0;

	out[0] = 0;
	for (int i = 0; i < nnets && at < n; i++) {
		struct in_addr a = { htonl(nets[i].net) };
		unsigned len = (unsigned)__builtin_popcount(nets[i].mask);
		char s[INET_ADDRSTRLEN];

		inet_ntop(AF_INET, &a, s, sizeof(s));
		at += (size_t)snprintf(out + at, n - at, "%s%s/%u", i ? ", " : "", s, len);
	}
	if (!nnets)
		snprintf(out, n, "none");
}
