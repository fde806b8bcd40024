/* virtio-net driver, polled, over any virtio transport (net/virtio.h: the
 * legacy and 1.0 PCI ones). It speaks only virtio-net: features, the
 * virtio-net header, the MAC and link status in device config.
 *
 * One RX queue (0) and one TX queue (1), split virtqueues. Each packet is a
 * two-descriptor chain: the virtio-net header, then the frame; that layout is
 * valid without VIRTIO_F_ANY_LAYOUT, so any legacy device accepts it. No
 * interrupts: VRING_AVAIL_F_NO_INTERRUPT is set and the used rings are polled. */
#include "net/netdev.h"
#include "net/netenv.h"
#include "net/bytes.h"
#include "net/virtio.h"
#include "lib/errno.h"

#define VIRTIO_NET_LEGACY_ID   0x1000   /* transitional: 0x1000, subsystem id 1 */
#define VIRTIO_NET_MODERN_ID   0x1041   /* 0x1040 + device type 1 */

/* feature bits */
#define VNET_F_MAC        5
#define VNET_F_STATUS     16

#define VNET_CFG_STATUS   6      /* device config: le16 status after the MAC */
#define VNET_S_LINK_UP    1

#define NSLOTS   64          /* buffers posted per queue, at most (2 descriptors each) */
#define BUF_SIZE 1536
#define HDR_SIZE 16          /* room per slot for the header (10 or 12 bytes) */
#define MAX_QSIZE 256        /* where the transport lets us choose */

struct vnet {
	struct virtio_dev vd;
	unsigned hdr_len;                         /* 10 legacy, 12 with VERSION_1 */
	int has_status;
	struct virtqueue rx, tx;
	unsigned rx_slots, tx_slots;              /* min(NSLOTS, queue size / 2) */
	uint8_t *rxhdr, *rxbuf, *txhdr, *txbuf;   /* allocated on the first open */
	uint8_t tx_busy[NSLOTS];
	unsigned tx_next;
};

/* 1 for a virtio-net function: the 1.0 id, or a transitional one of type 1. */
static int match(const struct pci_device *pci)
{
	if (pci->vendor != VIRTIO_VENDOR)
		return 0;
	if (pci->device == VIRTIO_NET_MODERN_ID)
		return 1;
	/* Transitional ids 0x1000-0x103f carry the device type in the subsystem id. */
	return pci->device == VIRTIO_NET_LEGACY_ID && pci_read16(pci, PCI_SUBSYS_ID) == 1;
}

/* Packet slots a queue of num entries holds: two descriptors each. */
static unsigned slots(const struct virtqueue *q)
{
	return q->num / 2 < NSLOTS ? q->num / 2 : NSLOTS;
}

/* The header and frame buffers, allocated once (netdev_dma_once). 0 or -ENOMEM. */
static int alloc_buffers(struct vnet *v)
{
	uint8_t **const parts[] = { &v->rxhdr, &v->txhdr, &v->rxbuf, &v->txbuf };
	static const unsigned bytes[] = { HDR_SIZE * NSLOTS, HDR_SIZE * NSLOTS,
					  BUF_SIZE * NSLOTS, BUF_SIZE * NSLOTS };
	return netdev_dma_once(parts, bytes, 4);
}

/* Gives RX slot i (header + frame buffer, device-writable) to the device. */
static void post_rx(struct vnet *v, unsigned i)
{
	volatile struct vring_desc *d = v->rx.desc;
	d[2 * i] = (struct vring_desc){ (uintptr_t)(v->rxhdr + HDR_SIZE * i), v->hdr_len,
					VRING_DESC_F_WRITE | VRING_DESC_F_NEXT, (uint16_t)(2 * i + 1) };
	d[2 * i + 1] = (struct vring_desc){ (uintptr_t)(v->rxbuf + BUF_SIZE * i), BUF_SIZE,
					    VRING_DESC_F_WRITE, 0 };
	virtq_add_avail(&v->rx, (uint16_t)(2 * i));
}

/* Reset, handshake, queues, RX buffers posted, DRIVER_OK. On any failure
 * the device is marked FAILED and reset (no DMA into half-made rings); the
 * memory stays ours for the next open. 0 or -E. */
static int vnet_open(struct netdev *nd)
{
	struct vnet *v = nd->priv;
	uint64_t got;
	int rc = virtio_reset(&v->vd);
	if (rc)
		return rc;
	rc = virtio_begin(&v->vd, 1ull << VNET_F_MAC | 1ull << VNET_F_STATUS, &got);
	if (rc)
		goto err_fail;
	rc = -ENODEV;
	if (!(got & 1ull << VNET_F_MAC))
		goto err_fail;    /* the MAC probe read would mean nothing */
	v->has_status = !!(got & 1ull << VNET_F_STATUS);
	v->hdr_len = got & 1ull << VIRTIO_F_VERSION_1 ? 12 : 10;   /* num_buffers in 1.0 */
	rc = alloc_buffers(v);
	if (rc)
		goto err_fail;
	rc = virtq_setup(&v->vd, &v->rx, 0, MAX_QSIZE);
	if (rc)
		goto err_fail;
	rc = virtq_setup(&v->vd, &v->tx, 1, MAX_QSIZE);
	if (rc)
		goto err_fail;
	v->rx_slots = slots(&v->rx);
	v->tx_slots = slots(&v->tx);
	net_memset(v->tx_busy, 0, sizeof(v->tx_busy));
	v->tx_next = 0;
	for (unsigned i = 0; i < v->rx_slots; i++)
		post_rx(v, i);
	virtio_add_status(&v->vd, VIRTIO_S_DRIVER_OK);
	virtq_kick(&v->vd, &v->rx);
	return 0;

err_fail:
	virtio_add_status(&v->vd, VIRTIO_S_FAILED);
	virtio_reset(&v->vd);
	return rc;
}

/* Queues one frame as a header + frame chain in the next TX slot; -1 while
 * the device still holds that slot (after one reclaiming poll). */
static int vnet_transmit(struct netdev *nd, const void *frame, unsigned len)
{
	struct vnet *v = nd->priv;
	unsigned i = v->tx_next;
	if (len > BUF_SIZE)
		return -EINVAL;
	if (v->tx_busy[i]) {
		nd->op->poll(nd, 0, 0);   /* reclaim, then look again */
		if (v->tx_busy[i])
			return -EAGAIN;
	}
	v->tx_next = (i + 1) % v->tx_slots;
	v->tx_busy[i] = 1;
	net_memset(v->txhdr + HDR_SIZE * i, 0, HDR_SIZE);   /* no offloads */
	net_memcpy(v->txbuf + BUF_SIZE * i, frame, len);
	volatile struct vring_desc *d = v->tx.desc;
	d[2 * i] = (struct vring_desc){ (uintptr_t)(v->txhdr + HDR_SIZE * i), v->hdr_len,
					VRING_DESC_F_NEXT, (uint16_t)(2 * i + 1) };
	d[2 * i + 1] = (struct vring_desc){ (uintptr_t)(v->txbuf + BUF_SIZE * i), len, 0, 0 };
	virtq_add_avail(&v->tx, (uint16_t)(2 * i));
	virtq_kick(&v->vd, &v->tx);
	return 0;
}

/* Reclaims finished TX slots; then one received frame, header stripped,
 * into buf (its slot posted again), or 0 when none. */
static unsigned vnet_poll(struct netdev *nd, void *buf, unsigned cap)
{
	struct vnet *v = nd->priv;
	uint32_t id, len;
	while (virtq_get_used(&v->tx, &id, &len))
		if (id / 2 < v->tx_slots)
			v->tx_busy[id / 2] = 0;
	if (!buf || !virtq_get_used(&v->rx, &id, &len))
		return 0;
	unsigned i = id / 2, n = 0;
	if (i < v->rx_slots && len > v->hdr_len) {
		n = len - v->hdr_len;
		if (n > cap)
			n = cap;
		net_memcpy(buf, v->rxbuf + BUF_SIZE * i, n);
	}
	if (i < v->rx_slots) {
		post_rx(v, i);
		virtq_kick(&v->vd, &v->rx);
	}
	/* A zero-length frame would read as "nothing waiting": report 1 byte of
	 * garbage instead, which eth_parse rejects as a runt. */
	return n ? n : 1;
}

/* The link bit of the config status; up when the device has no status. */
static int vnet_link_up(struct netdev *nd)
{
	struct vnet *v = nd->priv;
	if (!v->has_status)
		return 1;
	const struct virtio_ops *op = v->vd.op;
	return ((op->config8(&v->vd, VNET_CFG_STATUS) | op->config8(&v->vd, VNET_CFG_STATUS + 1) << 8) &
		VNET_S_LINK_UP) != 0;
}

/* Device reset: no more DMA into our rings. */
static void vnet_close(struct netdev *nd)
{
	struct vnet *v = nd->priv;
	virtio_reset(&v->vd);   /* a reset device does no more DMA */
}

static const struct netdev_ops vnet_ops = {
	.open = vnet_open, .transmit = vnet_transmit, .poll = vnet_poll,
	.link_up = vnet_link_up, .close = vnet_close,
};

/* The transport (1.0 preferred when the device offers it, else legacy),
 * then the MAC from device config; features are negotiated in open, and a
 * device without VIRTIO_NET_F_MAC fails there. 0, or -E with the command
 * register as it was. */
static int vnet_probe(struct netdev *nd, const struct pci_device *pci)
{
	struct vnet *v = plat_alloc_zeroed(sizeof(*v));
	if (!v)
		return -ENOMEM;
	uint16_t cmd = pci_enable(pci);  /* assigns BARs when the firmware did not */
	/* v stays the allocator's for good and mappings are page-table
	 * entries: the function's decoding and bus mastering are what a
	 * failure puts back. */
	int rc = virtio_pci_modern_probe(&v->vd, pci);
	if (rc)
		rc = virtio_pci_legacy_probe(&v->vd, pci);
	if (rc)
		goto err_cmd;
	rc = virtio_reset(&v->vd);
	if (rc)
		goto err_cmd;
	nd->priv = v;
	nd->op = &vnet_ops;
	netdev_set_name(nd, "virtio-net", v->vd.op->name);
	for (int i = 0; i < ETH_ALEN; i++)
		nd->mac[i] = v->vd.op->config8(&v->vd, (unsigned)i);
	return 0;

err_cmd:
	pci_write16(pci, PCI_COMMAND, cmd);
	return rc;
}

const struct net_driver virtio_net_driver = { "virtio-net", match, vnet_probe };
