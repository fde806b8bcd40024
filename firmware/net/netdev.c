/* The driver registry and the choice of the NIC the payload talks through. */
#include "netdev.h"
#include "netenv.h"
#include "bytes.h"

static const struct net_driver *const drivers[] = { &virtio_net_driver, &e1000_driver, &igb_driver };
#define NDRIVERS (sizeof(drivers) / sizeof(drivers[0]))
#define MAX_NICS 8

static struct netdev nics[MAX_NICS];
static unsigned nnics;

void netdev_set_name(struct netdev *nd, const char *prefix)
{
	static const char hex[] = "0123456789abcdef";
	const struct pci_device *pci = &nd->pci;
	unsigned n = 0;
	while (prefix[n] && n < sizeof(nd->name) - 10) {
		nd->name[n] = prefix[n];
		n++;
	}
	nd->name[n++] = ' ';
	nd->name[n++] = hex[pci->bus >> 4]; nd->name[n++] = hex[pci->bus & 15]; nd->name[n++] = ':';
	nd->name[n++] = hex[pci->dev >> 4]; nd->name[n++] = hex[pci->dev & 15]; nd->name[n++] = '.';
	nd->name[n++] = hex[pci->fn & 7];
	nd->name[n] = 0;
}

static int probe_one(struct pci_device *pci, void *ctx)
{
	(void)ctx;
	if (nnics == MAX_NICS)
		return 1;
	unsigned i;
	for (i = 0; i < NDRIVERS && !drivers[i]->match(pci); i++)
		;
	if (i == NDRIVERS && pci->class_rev >> 24 == 0x02)
		net_log("net: %02x:%02x.%x: network controller %04x:%04x: no driver for it here",
			pci->bus, pci->dev, pci->fn, pci->vendor, pci->device);
	for (i = 0; i < NDRIVERS; i++) {
		if (!drivers[i]->match(pci))
			continue;
		struct netdev *nd = &nics[nnics];
		net_memset(nd, 0, sizeof(*nd));
		nd->pci = *pci;
		if (drivers[i]->probe(nd, pci) == 0) {
			net_log("net: %s mac %02x:%02x:%02x:%02x:%02x:%02x", nd->name,
				nd->mac[0], nd->mac[1], nd->mac[2], nd->mac[3], nd->mac[4], nd->mac[5]);
			nnics++;
		} else {
			net_log("net: %s %02x:%02x.%x: probe failed", drivers[i]->name,
				pci->bus, pci->dev, pci->fn);
		}
		break;
	}
	return 0;
}

/* Opens nd and waits up to wait_us for its link. 1 link up, 0 down, -1 open failed. */
static int open_and_wait(struct netdev *nd, uint64_t wait_us)
{
	if (nd->op->open(nd) != 0) {
		net_log("net: %s: open failed", nd->name);
		return -1;
	}
	uint64_t t0 = plat_now_us();
	while (!nd->op->link_up(nd)) {
		if (plat_now_us() - t0 >= wait_us)
			return 0;
		plat_cpu_relax();
	}
	return 1;
}

struct netdev *netdev_select(const uint8_t *want_mac)
{
	nnics = 0;
	pci_scan(probe_one, 0);
	if (nnics == 0)
		return 0;
	if (want_mac) {
		for (unsigned i = 0; i < nnics; i++) {
			if (net_memcmp(nics[i].mac, want_mac, ETH_ALEN) == 0) {
				/* The NIC iPXE booted from: its link was up a moment ago. */
				if (open_and_wait(&nics[i], 3000000) < 0)
					return 0;
				return &nics[i];
			}
		}
		net_log("net: no NIC has the mac= of the command line; taking the first with link");
	}
	struct netdev *fallback = 0;
	for (unsigned i = 0; i < nnics; i++) {
		int up = open_and_wait(&nics[i], 1000000);
		if (up > 0) {
			if (fallback)
				fallback->op->close(fallback);
			return &nics[i];
		}
		if (up == 0 && !fallback)
			fallback = &nics[i];   /* keep it open: link may come later */
		else if (up == 0)
			nics[i].op->close(&nics[i]);
	}
	return fallback;
}
