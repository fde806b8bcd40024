/* The modern virtio PCI transport (virtio 1.0, 4.1.4): register blocks found
 * through vendor capabilities in memory BARs — disable-legacy=on, and virtio
 * devices on real clouds. 64 feature bits with VERSION_1 required, the
 * FEATURES_OK handshake, driver-chosen queue sizes, one doorbell per queue. */
#include "net/virtio.h"
#include "net/netenv.h"
#include "lib/errno.h"

/* common configuration (4.1.4.3) */
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
#define VCAP_DEVICE  4

#define VIRTIO_MSI_NO_VECTOR 0xffff

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

/* The device status register. */
static uint8_t get_status(struct virtio_dev *vd)
{
	return r8(vd->u.modern.common, VM_STATUS);
}

/* Writes the device status register (0 resets the device). */
static void set_status(struct virtio_dev *vd, uint8_t s)
{
	w8(vd->u.modern.common, VM_STATUS, s);
}

/* 64 feature bits through the select registers; VERSION_1 is required and
 * accepted, and the device must confirm the set with FEATURES_OK. */
static int negotiate(struct virtio_dev *vd, uint64_t want, uint64_t *got)
{
	volatile uint8_t *c = vd->u.modern.common;
	w32(c, VM_DFSELECT, 0);
	uint64_t have = r32(c, VM_DF);
	w32(c, VM_DFSELECT, 1);
	have |= (uint64_t)r32(c, VM_DF) << 32;
	if (!(have & 1ull << VIRTIO_F_VERSION_1))
		return -ENODEV;
	uint64_t g = have & (want | 1ull << VIRTIO_F_VERSION_1);
	w32(c, VM_GFSELECT, 0);
	w32(c, VM_GF, (uint32_t)g);
	w32(c, VM_GFSELECT, 1);
	w32(c, VM_GF, (uint32_t)(g >> 32));
	set_status(vd, get_status(vd) | VIRTIO_S_FEATURES_OK);
	if (!(get_status(vd) & VIRTIO_S_FEATURES_OK))
		return -EIO;      /* the device refused the subset */
	*got = g;
	return 0;
}

/* Byte off of the device-specific configuration block. */
static uint8_t config8(struct virtio_dev *vd, unsigned off)
{
	return r8(vd->u.modern.devcfg, off);
}

/* Any size up to the device's maximum is allowed in 1.0: we take at most max. */
static unsigned queue_size(struct virtio_dev *vd, uint16_t id, unsigned max)
{
	volatile uint8_t *c = vd->u.modern.common;
	w16(c, VM_Q_SELECT, id);
	unsigned num = r16(c, VM_Q_SIZE);
	if (num > max)
		num = max;
	w16(c, VM_Q_SIZE, (uint16_t)num);
	return num;
}

/* The three ring addresses, no MSI-X vector (we poll), the queue's doorbell,
 * then enable. */
static int queue_enable(struct virtio_dev *vd, struct virtqueue *q)
{
	volatile uint8_t *c = vd->u.modern.common;
	uint64_t desc = (uint64_t)(uintptr_t)q->desc;    /* identity-mapped: virt == phys */
	w16(c, VM_Q_SELECT, q->id);
	w16(c, VM_Q_MSIX, VIRTIO_MSI_NO_VECTOR);
	w64(c, VM_Q_DESC, desc);
	w64(c, VM_Q_AVAIL, (uint64_t)(uintptr_t)q->avail);
	w64(c, VM_Q_USED, (uint64_t)(uintptr_t)q->used);
	uint16_t noff = r16(c, VM_Q_NOFF);
	q->notify = (volatile uint16_t *)(vd->u.modern.notify_base + (uint64_t)noff * vd->u.modern.notify_mult);
	w16(c, VM_Q_ENABLE, 1);
	return 0;
}

/* The queue's own doorbell; the value is its id. */
static void notify(struct virtio_dev *vd, struct virtqueue *q)
{
	(void)vd;
	*q->notify = q->id;
}

static const struct virtio_ops modern_ops = {
	.name = "1.0", .get_status = get_status, .set_status = set_status,
	.negotiate = negotiate, .config8 = config8, .queue_size = queue_size,
	.queue_enable = queue_enable, .notify = notify,
};

/* Maps the region a virtio capability at cap points to; NULL when it cannot. */
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

int virtio_pci_modern_probe(struct virtio_dev *vd, const struct pci_device *pci)
{
	/* vd comes zeroed (plat_alloc_zeroed), so a capability not found is NULL. */
	for (unsigned cap = pci_find_cap(pci, PCI_CAP_ID_VNDR, 0); cap;
	     cap = pci_find_cap(pci, PCI_CAP_ID_VNDR, cap)) {
		uint8_t type = pci_read8(pci, cap + 3);
		/* The first capability of each type is the preferred one (4.1.4). */
		if (type == VCAP_COMMON && !vd->u.modern.common)
			vd->u.modern.common = map_cap(pci, cap);
		else if (type == VCAP_DEVICE && !vd->u.modern.devcfg)
			vd->u.modern.devcfg = map_cap(pci, cap);
		else if (type == VCAP_NOTIFY && !vd->u.modern.notify_base) {
			vd->u.modern.notify_base = map_cap(pci, cap);
			vd->u.modern.notify_mult = pci_read32(pci, cap + 16);
		}
	}
	/* Mappings cost only page-table entries, kept: nothing to unwind. */
	if (!vd->u.modern.common || !vd->u.modern.devcfg || !vd->u.modern.notify_base)
		return -ENODEV;
	vd->op = &modern_ops;
	return 0;
}
