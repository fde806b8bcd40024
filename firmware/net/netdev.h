/* The NIC driver interface, in the style of iPXE's net_device_operations:
 * a driver claims a PCI function (probe), then the stack drives it through
 * open/transmit/poll/close. Everything is polled: the payload runs with the
 * benchmark owning the CPUs and takes no NIC interrupts.
 *
 * Drivers copy frames in and out of their own DMA buffers, so the stack's
 * buffers never need to be DMA-able and a transmitted frame can be reused at
 * once. */
#ifndef NET_NETDEV_H
#define NET_NETDEV_H

#include <stdint.h>
#include "net/eth.h"
#include "arch/pci.h"

struct netdev;

struct netdev_ops {
	/* Rings set up, receiver and transmitter on. 0, or a negative
	 * lib/errno.h code with the device left quiet. */
	int  (*open)(struct netdev *nd);
	/* Queues one frame (len ≤ ETH_MAX_FRAME, no FCS; the driver pads short
	 * ones). 0, or -1 when the TX ring is full (the caller polls and retries). */
	int  (*transmit)(struct netdev *nd, const void *frame, unsigned len);
	/* Copies one received frame into buf (cap ≥ ETH_MAX_FRAME) and returns its
	 * length; 0 when nothing is waiting. Also reclaims finished TX slots. */
	unsigned (*poll)(struct netdev *nd, void *buf, unsigned cap);
	/* 1 when the link is up. */
	int  (*link_up)(struct netdev *nd);
	/* Receiver and transmitter off, device quiet (no more DMA). */
	void (*close)(struct netdev *nd);
};

struct netdev {
	char name[32];                  /* "virtio-net(1.0) 00:03.0" (netdev_set_name) */
	const struct netdev_ops *op;
	uint8_t mac[ETH_ALEN];
	struct pci_device pci;
	void *priv;                     /* the driver's state */
	/* counters, for the log line at the end */
	uint64_t tx_frames, rx_frames, tx_busy;
};

struct net_driver {
	const char *name;
	/* 1 when this driver handles the PCI function. */
	int (*match)(const struct pci_device *pci);
	/* Fills nd (op, mac, priv, name) for a matched function; 0, or a
	 * negative lib/errno.h code with the function's command register as
	 * it was. */
	int (*probe)(struct netdev *nd, const struct pci_device *pci);
};

/* The drivers we have (net/netdev.c lists them). */
extern const struct net_driver virtio_net_driver, e1000_driver, igb_driver;

/* A driver's DMA buffers, allocated on its first open and kept for reopens
 * (the page allocator never frees): one block cut into n parts of bytes[i]
 * each, in order, *parts[i] pointing at each; nothing when *parts[0] is set
 * already. One block, so a failure leaves none half made. 0 or -ENOMEM. */
int netdev_dma_once(uint8_t **const parts[], const unsigned bytes[], unsigned n);

/* nd->name = "FAMILY(MODEL) BB:DD.F": the driver's family, the model or
 * transport it found, and nd->pci's address ("igb(i350) 01:00.0"). */
void netdev_set_name(struct netdev *nd, const char *family, const char *model);

/* Probes every PCI function with every driver. Returns the device to use:
 * the one whose MAC equals want_mac (when given), else the first with link,
 * else the first found; NULL when no supported NIC exists. The chosen device
 * is opened; the others are left closed. Network controllers (PCI class 2)
 * no driver claims are named on the console as vendor:device. */
struct netdev *netdev_select(const uint8_t *want_mac);

#endif
