/* The driver registry and the choice of the NIC the payload talks through. */
#include "net/netdev.h"
#include "net/netenv.h"
#include "net/bytes.h"
#include "lib/hex.h"
#include "lib/errno.h"

static const struct net_driver *const drivers[] = { &virtio_net_driver, &e1000_driver, &igb_driver };
#define NDRIVERS (sizeof(drivers) / sizeof(drivers[0]))
#define MAX_NICS 8

static struct netdev nics[MAX_NICS];
static unsigned nnics;

/* Appends s at p, stopping at end; returns where it stopped. */
static char *put_str(char *p, const char *s, const char *end)
{
	while (*s && p < end)
		*p++ = *s++;
	return p;
}

void netdev_set_name(struct netdev *nd, const char *family, const char *model)
{
	const struct pci_device *pci = &nd->pci;
	/* Room for ") BB:DD.F" and the NUL after the family and model. */
	char *p = nd->name, *end = nd->name + sizeof(nd->name) - 11;
	p = put_str(p, family, end);
	*p++ = '(';
	p = put_str(p, model, end);
	*p++ = ')';
	*p++ = ' ';
	p = hex_byte(p, pci->bus);
	*p++ = ':';
	p = hex_byte(p, pci->dev);
	*p++ = '.';
	*p++ = hex_digit(pci->fn & 7, 0);
	*p = 0;
}

int netdev_dma_once(uint8_t **const parts[], const unsigned bytes[], unsigned n)
{
	if (*parts[0])
		return 0;
	unsigned long total = 0;
	for (unsigned i = 0; i < n; i++)
		total += bytes[i];
	uint8_t *p = plat_alloc_zeroed(total);
	if (!p)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		*parts[i] = p;
		p += bytes[i];
	}
	return 0;
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
		int rc = drivers[i]->probe(nd, pci);
		if (rc == 0) {
			net_log("net: %s mac %02x:%02x:%02x:%02x:%02x:%02x", nd->name,
				nd->mac[0], nd->mac[1], nd->mac[2], nd->mac[3], nd->mac[4], nd->mac[5]);
			nnics++;
		} else {
			net_log("net: %s %02x:%02x.%x: probe failed (%d)", drivers[i]->name,
				pci->bus, pci->dev, pci->fn, rc);
		}
		break;
	}
	return 0;
}

/* Opens nd and waits up to wait_us for its link. 1 link up, 0 down, -1 open failed. */
static int open_and_wait(struct netdev *nd, uint64_t wait_us)
{
	int rc = nd->op->open(nd);
	if (rc) {
		net_log("net: %s: open failed (%d)", nd->name, rc);
		return rc < 0 ? rc : -EIO;
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
