/* virtio-net driver, polled, for both PCI transports: legacy (I/O BAR 0,
 * virtio 0.9.5 — QEMU's transitional default and disable-modern=on) and
 * modern (virtio 1.0: register blocks found through vendor capabilities in
 * memory BARs — disable-legacy=on, and virtio devices on real clouds).
 *
 * One RX queue (0) and one TX queue (1), split virtqueues. Each packet is a
 * two-descriptor chain: the virtio-net header, then the frame; that layout is
 * valid without VIRTIO_F_ANY_LAYOUT, so any legacy device accepts it. No
 * interrupts: VRING_AVAIL_F_NO_INTERRUPT is set and the used rings are polled. */
#include "netdev.h"
#include "netenv.h"
#include "bytes.h"
#include "../arch/io.h"

#define VIRTIO_VENDOR          0x1af4
#define VIRTIO_NET_LEGACY_ID   0x1000   /* transitional: 0x1000, subsystem id 1 */
#define VIRTIO_NET_MODERN_ID   0x1041   /* 0x1040 + device type 1 */

/* device status */
#define VS_ACK        1
#define VS_DRIVER     2
#define VS_DRIVER_OK  4
#define VS_FEATURES_OK 8
#define VS_FAILED     128

/* feature bits */
#define VNET_F_MAC        5
#define VNET_F_STATUS     16
#define VIRTIO_F_VERSION_1 32

/* legacy I/O registers */
#define VL_DEV_FEATURES   0x00
#define VL_DRV_FEATURES   0x04
#define VL_QUEUE_PFN      0x08
#define VL_QUEUE_NUM      0x0c
#define VL_QUEUE_SEL      0x0e
#define VL_QUEUE_NOTIFY   0x10
#define VL_STATUS         0x12
#define VL_ISR            0x13
#define VL_CONFIG         0x14   /* device config without MSI-X */
#define VL_CONFIG_MSIX    0x18   /* ... and with MSI-X enabled (two vector registers) */
#define PCI_CAP_ID_MSIX   0x11

/* modern common configuration (virtio 1.0, 4.1.4.3) */
#define VM_DFSELECT  0x00
#define VM_DF        0x04
#define VM_GFSELECT  0x08
#define VM_GF        0x0c
#define VM_STATUS    0x14
#define VM_Q_SELECT  0x16
#define VM_Q_SIZE    0x18
#define VM_Q_MSIX    0x1a
#define VM_Q_ENABLE  0x1c
#define VM_Q_NOFF    0x1e
#define VM_Q_DESC    0x20
#define VM_Q_AVAIL   0x28
#define VM_Q_USED    0x30

/* virtio PCI capability types */
#define VCAP_COMMON  1
#define VCAP_NOTIFY  2
#define VCAP_ISR     3
#define VCAP_DEVICE  4

#define VRING_DESC_F_NEXT   1
#define VRING_DESC_F_WRITE  2
#define VRING_AVAIL_F_NO_INTERRUPT 1

#define NSLOTS   64          /* buffers posted per queue, at most (2 descriptors each) */
#define BUF_SIZE 1536
#define MAX_QSIZE 256        /* modern: we ask for at most this many entries */

struct vring_desc { uint64_t addr; uint32_t len; uint16_t flags, next; };

struct vq {
	uint16_t num, id;
	unsigned nslots;              /* packet slots: min(NSLOTS, num / 2) */
	volatile struct vring_desc *desc;
	volatile uint16_t *avail;     /* flags, idx, ring[num], used_event */
	volatile uint8_t *used;       /* flags, idx, {u32 id, u32 len}[num], avail_event */
	uint16_t avail_idx, last_used;
	volatile uint16_t *notify;    /* modern only */
};

struct vnet {
	int modern;
	uint16_t io;                              /* legacy */
	uint16_t cfg_off;                         /* legacy: VL_CONFIG or VL_CONFIG_MSIX */
	volatile uint8_t *common, *devcfg;        /* modern */
	volatile uint8_t *notify_base;
	uint32_t notify_mult;
	unsigned hdr_len;                         /* 10 legacy, 12 with VERSION_1 */
	int has_status;
	struct vq rx, tx;
	uint8_t *rxhdr, *rxbuf, *txhdr, *txbuf;
	uint8_t tx_busy[NSLOTS];
	unsigned tx_next;
};

/* MMIO accessors: volatile, so each is exactly one access of that width. */
static inline void w8(volatile uint8_t *b, unsigned o, uint8_t v)   { *(volatile uint8_t *)(b + o) = v; }
static inline void w16(volatile uint8_t *b, unsigned o, uint16_t v) { *(volatile uint16_t *)(b + o) = v; }
static inline void w32(volatile uint8_t *b, unsigned o, uint32_t v) { *(volatile uint32_t *)(b + o) = v; }
static inline uint8_t r8(volatile uint8_t *b, unsigned o)   { return *(volatile uint8_t *)(b + o); }
static inline uint16_t r16(volatile uint8_t *b, unsigned o) { return *(volatile uint16_t *)(b + o); }
static inline uint32_t r32(volatile uint8_t *b, unsigned o) { return *(volatile uint32_t *)(b + o); }
static inline void w64(volatile uint8_t *b, unsigned o, uint64_t v)
{
	/* Two 32-bit halves, low first: the spec allows it and not every
	 * transport takes a 64-bit MMIO write. */
	w32(b, o, (uint32_t)v);
	w32(b, o + 4, (uint32_t)(v >> 32));
}

static uint8_t get_status(struct vnet *v)
{
	return v->modern ? r8(v->common, VM_STATUS) : inb(v->io + VL_STATUS);
}

static void set_status(struct vnet *v, uint8_t s)
{
	if (v->modern)
		w8(v->common, VM_STATUS, s);
	else
		outb(v->io + VL_STATUS, s);
}

static void reset(struct vnet *v)
{
	set_status(v, 0);
	/* Modern devices may finish the reset later: 0 reads back once done. */
	for (int i = 0; i < 1000000 && get_status(v) != 0; i++)
		plat_cpu_relax();
}

static uint8_t cfg8(struct vnet *v, unsigned off)
{
	return v->modern ? r8(v->devcfg, off) : inb(v->io + v->cfg_off + off);
}

static int match(const struct pci_device *pci)
{
	if (pci->vendor != VIRTIO_VENDOR)
		return 0;
	if (pci->device == VIRTIO_NET_MODERN_ID)
		return 1;
	/* Transitional ids 0x1000-0x103f carry the device type in the subsystem id. */
	return pci->device == VIRTIO_NET_LEGACY_ID && pci_read16(pci, PCI_SUBSYS_ID) == 1;
}

/* Maps the region a virtio capability at cap points to. */
static volatile uint8_t *map_cap(const struct pci_device *pci, unsigned cap)
{
	uint8_t bar = pci_read8(pci, cap + 4);
	uint32_t off = pci_read32(pci, cap + 8), len = pci_read32(pci, cap + 12);
	int io;
	if (bar > 5)
		return 0;
	uint64_t base = pci_bar(pci, bar, &io);
	if (!base || io) {
		net_log("net: virtio %02x:%02x.%x: capability BAR %u is %s", pci->bus, pci->dev,
			pci->fn, bar, io ? "I/O space" : "unassigned");
		return 0;
	}
	volatile uint8_t *p = (volatile uint8_t *)net_map_mmio(base + off, len);
	if (!p)
		net_log("net: virtio: cannot map 0x%llx+0x%x", (unsigned long long)(base + off), len);
	return p;
}

static int find_modern(struct vnet *v, const struct pci_device *pci)
{
	for (unsigned cap = pci_find_cap(pci, PCI_CAP_ID_VNDR, 0); cap;
	     cap = pci_find_cap(pci, PCI_CAP_ID_VNDR, cap)) {
		uint8_t type = pci_read8(pci, cap + 3);
		/* The first capability of each type is the preferred one (4.1.4). */
		if (type == VCAP_COMMON && !v->common)
			v->common = map_cap(pci, cap);
		else if (type == VCAP_DEVICE && !v->devcfg)
			v->devcfg = map_cap(pci, cap);
		else if (type == VCAP_NOTIFY && !v->notify_base) {
			v->notify_base = map_cap(pci, cap);
			v->notify_mult = pci_read32(pci, cap + 16);
		}
	}
	return v->common && v->devcfg && v->notify_base ? 0 : -1;
}

/* Negotiates features; only what the driver uses is accepted. */
static int negotiate(struct vnet *v)
{
	uint64_t want = 1ull << VNET_F_MAC | 1ull << VNET_F_STATUS;
	uint64_t have;
	if (v->modern) {
		w32(v->common, VM_DFSELECT, 0);
		have = r32(v->common, VM_DF);
		w32(v->common, VM_DFSELECT, 1);
		have |= (uint64_t)r32(v->common, VM_DF) << 32;
		if (!(have & 1ull << VIRTIO_F_VERSION_1))
			return -1;
		want |= 1ull << VIRTIO_F_VERSION_1;
		uint64_t g = have & want;
		w32(v->common, VM_GFSELECT, 0);
		w32(v->common, VM_GF, (uint32_t)g);
		w32(v->common, VM_GFSELECT, 1);
		w32(v->common, VM_GF, (uint32_t)(g >> 32));
		set_status(v, VS_ACK | VS_DRIVER | VS_FEATURES_OK);
		if (!(get_status(v) & VS_FEATURES_OK))
			return -1;
		v->hdr_len = 12;    /* num_buffers is always present in 1.0 */
		have = g;
	} else {
		have = inl(v->io + VL_DEV_FEATURES) & want;
		outl(v->io + VL_DRV_FEATURES, (uint32_t)have);
		v->hdr_len = 10;
	}
	v->has_status = !!(have & 1ull << VNET_F_STATUS);
	return have & 1ull << VNET_F_MAC ? 0 : -1;
}

static unsigned ring_bytes(unsigned num, unsigned *used_off)
{
	unsigned avail_end = 16 * num + 6 + 2 * num;
	/* Legacy layout: the used ring starts on the next 4 KiB boundary. */
	*used_off = (avail_end + 4095) & ~4095u;
	return *used_off + 6 + 8 * num;
}

static int setup_queue(struct vnet *v, struct vq *q, uint16_t id)
{
	unsigned num, used_off;
	q->id = id;
	if (v->modern) {
		w16(v->common, VM_Q_SELECT, id);
		num = r16(v->common, VM_Q_SIZE);
		if (num == 0)
			return -1;
		if (num > MAX_QSIZE)
			num = MAX_QSIZE;     /* any size ≤ the maximum is allowed in 1.0 */
		w16(v->common, VM_Q_SIZE, (uint16_t)num);
	} else {
		outw(v->io + VL_QUEUE_SEL, id);
		num = inw(v->io + VL_QUEUE_NUM);   /* fixed by a legacy device */
		if (num == 0)
			return -1;
	}
	if (num < 2)
		return -1;
	q->nslots = num / 2 < NSLOTS ? num / 2 : NSLOTS;
	uint8_t *mem = plat_alloc_zeroed(ring_bytes(num, &used_off));
	if (!mem)
		return -1;
	q->num = (uint16_t)num;
	q->desc = (volatile struct vring_desc *)mem;
	q->avail = (volatile uint16_t *)(mem + 16 * num);
	q->used = mem + used_off;
	q->avail[0] = VRING_AVAIL_F_NO_INTERRUPT;
	uint64_t pa = (uint64_t)(uintptr_t)mem;    /* identity-mapped: virt == phys */
	if (v->modern) {
		w16(v->common, VM_Q_MSIX, 0xffff);  /* VIRTIO_MSI_NO_VECTOR: we poll */
		w64(v->common, VM_Q_DESC, pa);
		w64(v->common, VM_Q_AVAIL, pa + 16 * num);
		w64(v->common, VM_Q_USED, pa + used_off);
		uint16_t noff = r16(v->common, VM_Q_NOFF);
		q->notify = (volatile uint16_t *)(v->notify_base + (uint64_t)noff * v->notify_mult);
		w16(v->common, VM_Q_ENABLE, 1);
	} else {
		outl(v->io + VL_QUEUE_PFN, (uint32_t)(pa >> 12));
	}
	return 0;
}

static void kick(struct vnet *v, struct vq *q)
{
	/* The avail idx store must be visible to the device before it is told
	 * to look: a full fence orders the ring writes before the doorbell (an
	 * I/O or uncached MMIO write). */
	__asm__ volatile("mfence" ::: "memory");
	if (v->modern)
		*q->notify = q->id;
	else
		outw(v->io + VL_QUEUE_NOTIFY, q->id);
}

/* Publishes the chain starting at descriptor head. */
static void add_avail(struct vq *q, uint16_t head)
{
	q->avail[2 + q->avail_idx % q->num] = head;
	/* Ring entry before index: the device reads the entry once idx covers
	 * it. x86 keeps stores in order; the compiler barrier keeps GCC from
	 * reordering them. */
	__asm__ volatile("" ::: "memory");
	q->avail_idx++;
	q->avail[1] = q->avail_idx;
}

/* Next used element (head id, bytes written), or 0 when none. */
static int get_used(struct vq *q, uint32_t *id, uint32_t *len)
{
	uint16_t used_idx = *(volatile uint16_t *)(q->used + 2);
	if (used_idx == q->last_used)
		return 0;
	/* The element is read after the index that published it (x86 keeps
	 * loads in order; this stops the compiler hoisting them). */
	__asm__ volatile("" ::: "memory");
	volatile uint8_t *e = q->used + 4 + 8 * (q->last_used % q->num);
	*id = *(volatile uint32_t *)e;
	*len = *(volatile uint32_t *)(e + 4);
	q->last_used++;
	return 1;
}

static void post_rx(struct vnet *v, unsigned i)
{
	volatile struct vring_desc *d = v->rx.desc;
	d[2 * i] = (struct vring_desc){ (uintptr_t)(v->rxhdr + 16 * i), v->hdr_len,
					VRING_DESC_F_WRITE | VRING_DESC_F_NEXT, (uint16_t)(2 * i + 1) };
	d[2 * i + 1] = (struct vring_desc){ (uintptr_t)(v->rxbuf + BUF_SIZE * i), BUF_SIZE,
					    VRING_DESC_F_WRITE, 0 };
	add_avail(&v->rx, (uint16_t)(2 * i));
}

static int vnet_open(struct netdev *nd)
{
	struct vnet *v = nd->priv;
	reset(v);
	set_status(v, VS_ACK);
	set_status(v, VS_ACK | VS_DRIVER);
	if (negotiate(v) != 0 || setup_queue(v, &v->rx, 0) != 0 || setup_queue(v, &v->tx, 1) != 0) {
		set_status(v, VS_FAILED);
		return -1;
	}
	v->rxhdr = plat_alloc_zeroed(16 * NSLOTS);
	v->txhdr = plat_alloc_zeroed(16 * NSLOTS);
	v->rxbuf = plat_alloc_zeroed(BUF_SIZE * NSLOTS);
	v->txbuf = plat_alloc_zeroed(BUF_SIZE * NSLOTS);
	if (!v->rxhdr || !v->txhdr || !v->rxbuf || !v->txbuf)
		return -1;
	for (unsigned i = 0; i < v->rx.nslots; i++)
		post_rx(v, i);
	set_status(v, get_status(v) | VS_DRIVER_OK);
	kick(v, &v->rx);
	return 0;
}

static int vnet_transmit(struct netdev *nd, const void *frame, unsigned len)
{
	struct vnet *v = nd->priv;
	unsigned i = v->tx_next;
	if (len > BUF_SIZE)
		return -1;
	if (v->tx_busy[i]) {
		nd->op->poll(nd, 0, 0);   /* reclaim, then look again */
		if (v->tx_busy[i])
			return -1;
	}
	v->tx_next = (i + 1) % v->tx.nslots;
	v->tx_busy[i] = 1;
	net_memset(v->txhdr + 16 * i, 0, 16);   /* no offloads */
	net_memcpy(v->txbuf + BUF_SIZE * i, frame, len);
	volatile struct vring_desc *d = v->tx.desc;
	d[2 * i] = (struct vring_desc){ (uintptr_t)(v->txhdr + 16 * i), v->hdr_len,
					VRING_DESC_F_NEXT, (uint16_t)(2 * i + 1) };
	d[2 * i + 1] = (struct vring_desc){ (uintptr_t)(v->txbuf + BUF_SIZE * i), len, 0, 0 };
	add_avail(&v->tx, (uint16_t)(2 * i));
	kick(v, &v->tx);
	return 0;
}

static unsigned vnet_poll(struct netdev *nd, void *buf, unsigned cap)
{
	struct vnet *v = nd->priv;
	uint32_t id, len;
	while (get_used(&v->tx, &id, &len))
		if (id / 2 < v->tx.nslots)
			v->tx_busy[id / 2] = 0;
	if (!buf || !get_used(&v->rx, &id, &len))
		return 0;
	unsigned i = id / 2, n = 0;
	if (i < v->rx.nslots && len > v->hdr_len) {
		n = len - v->hdr_len;
		if (n > cap)
			n = cap;
		net_memcpy(buf, v->rxbuf + BUF_SIZE * i, n);
	}
	if (i < v->rx.nslots) {
		post_rx(v, i);
		kick(v, &v->rx);
	}
	/* A zero-length frame would read as "nothing waiting": report 1 byte of
	 * garbage instead, which eth_parse rejects as a runt. */
	return n ? n : 1;
}

static int vnet_link_up(struct netdev *nd)
{
	struct vnet *v = nd->priv;
	if (!v->has_status)
		return 1;
	return (cfg8(v, 6) | cfg8(v, 7) << 8) & 1;  /* VIRTIO_NET_S_LINK_UP */
}

static void vnet_close(struct netdev *nd)
{
	reset(nd->priv);   /* a reset device does no more DMA */
}

static const struct netdev_ops vnet_ops = {
	.open = vnet_open, .transmit = vnet_transmit, .poll = vnet_poll,
	.link_up = vnet_link_up, .close = vnet_close,
};

static void fmt_name(char *dst, const char *prefix, const struct pci_device *pci)
{
	static const char hex[] = "0123456789abcdef";
	unsigned n = 0;
	while (*prefix)
		dst[n++] = *prefix++;
	dst[n++] = ' ';
	dst[n++] = hex[pci->bus >> 4]; dst[n++] = hex[pci->bus & 15]; dst[n++] = ':';
	dst[n++] = hex[pci->dev >> 4]; dst[n++] = hex[pci->dev & 15]; dst[n++] = '.';
	dst[n++] = hex[pci->fn & 7];
	dst[n] = 0;
}

static int vnet_probe(struct netdev *nd, const struct pci_device *pci)
{
	struct vnet *v = plat_alloc_zeroed(sizeof(*v));
	if (!v)
		return -1;
	pci_enable(pci);                 /* assigns BARs when the firmware did not */
	int io = 0;
	uint64_t bar0 = pci_bar(pci, 0, &io);
	/* Prefer 1.0 when the device offers it; the legacy I/O BAR otherwise. */
	if (find_modern(v, pci) == 0) {
		v->modern = 1;
	} else if (pci->device == VIRTIO_NET_LEGACY_ID && io && bar0) {
		v->io = (uint16_t)bar0;
		/* The device config moves when MSI-X is on (an earlier loader, or
		 * firmware, may have left it enabled; we never turn it on). */
		unsigned msix = pci_find_cap(pci, PCI_CAP_ID_MSIX, 0);
		v->cfg_off = msix && (pci_read16(pci, msix + 2) & 0x8000) ? VL_CONFIG_MSIX : VL_CONFIG;
	} else {
		return -1;
	}
	nd->priv = v;
	nd->op = &vnet_ops;
	fmt_name(nd->name, v->modern ? "virtio-net(1.0)" : "virtio-net(legacy)", pci);
	/* The MAC is read from device config; features are negotiated in open,
	 * and a device without VIRTIO_NET_F_MAC fails there. */
	reset(v);
	for (int i = 0; i < ETH_ALEN; i++)
		nd->mac[i] = cfg8(v, (unsigned)i);
	return 0;
}

const struct net_driver virtio_net_driver = { "virtio-net", match, vnet_probe };
