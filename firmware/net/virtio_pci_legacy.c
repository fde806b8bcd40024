/* The legacy virtio PCI transport (virtio 0.9.5; 1.0 section 4.1.4.8):
 * every register in I/O BAR 0 — QEMU's transitional default and
 * disable-modern=on. Queue sizes are the device's, 32 feature bits. */
#include "net/virtio.h"
#include "net/netenv.h"
#include "arch/io.h"
#include "lib/errno.h"

#define VL_DEV_FEATURES   0x00
#define VL_DRV_FEATURES   0x04
#define VL_QUEUE_PFN      0x08
#define VL_QUEUE_NUM      0x0c
#define VL_QUEUE_SEL      0x0e
#define VL_QUEUE_NOTIFY   0x10
#define VL_STATUS         0x12
#define VL_CONFIG         0x14   /* device config without MSI-X */
#define VL_CONFIG_MSIX    0x18   /* ... and with MSI-X enabled (two vector registers) */
#define PCI_CAP_ID_MSIX   0x11
#define TRANSITIONAL_LO   0x1000
#define TRANSITIONAL_HI   0x103f

/* Register r of this device's I/O window. */
static uint16_t port(struct virtio_dev *vd, unsigned r)
{
	return (uint16_t)(vd->u.legacy.io + r);
}

/* The device status register. */
static uint8_t get_status(struct virtio_dev *vd)
{
	return inb(port(vd, VL_STATUS));
}

/* Writes the device status register (0 resets the device). */
static void set_status(struct virtio_dev *vd, uint8_t s)
{
	outb(port(vd, VL_STATUS), s);
}

/* 32 feature bits, no FEATURES_OK step: the write is the agreement. */
static int negotiate(struct virtio_dev *vd, uint64_t want, uint64_t *got)
{
	uint32_t have = inl(port(vd, VL_DEV_FEATURES)) & (uint32_t)want;
	outl(port(vd, VL_DRV_FEATURES), have);
	*got = have;
	return 0;
}

/* Byte off of the device config, which moves when MSI-X is on. */
static uint8_t config8(struct virtio_dev *vd, unsigned off)
{
	return inb(port(vd, vd->u.legacy.cfg_off + off));
}

/* A legacy device fixes its queue sizes: max does not apply. */
static unsigned queue_size(struct virtio_dev *vd, uint16_t id, unsigned max)
{
	(void)max;
	outw(port(vd, VL_QUEUE_SEL), id);
	return inw(port(vd, VL_QUEUE_NUM));
}

/* The ring's page frame number; a legacy queue is live once it is set. */
static int queue_enable(struct virtio_dev *vd, struct virtqueue *q)
{
	/* Identity-mapped, below 4 GiB (arch/mem.h): the PFN fits 32 bits. */
	uint64_t pa = (uint64_t)(uintptr_t)q->desc;
	outw(port(vd, VL_QUEUE_SEL), q->id);
	outl(port(vd, VL_QUEUE_PFN), (uint32_t)(pa >> 12));
	return 0;
}

/* One doorbell register for every queue: the queue id is the value. */
static void notify(struct virtio_dev *vd, struct virtqueue *q)
{
	outw(port(vd, VL_QUEUE_NOTIFY), q->id);
}

static const struct virtio_ops legacy_ops = {
	.name = "legacy", .get_status = get_status, .set_status = set_status,
	.negotiate = negotiate, .config8 = config8, .queue_size = queue_size,
	.queue_enable = queue_enable, .notify = notify,
};

int virtio_pci_legacy_probe(struct virtio_dev *vd, const struct pci_device *pci)
{
	int io = 0;
	uint64_t bar0 = pci_bar(pci, 0, &io);
	if (pci->device < TRANSITIONAL_LO || pci->device > TRANSITIONAL_HI || !io || !bar0)
		return -ENODEV;
	vd->u.legacy.io = (uint16_t)bar0;
	/* The device config moves when MSI-X is on (an earlier loader, or
	 * firmware, may have left it enabled; we never turn it on). */
	unsigned msix = pci_find_cap(pci, PCI_CAP_ID_MSIX, 0);
	vd->u.legacy.cfg_off = msix && (pci_read16(pci, msix + 2) & 0x8000) ? VL_CONFIG_MSIX : VL_CONFIG;
	vd->op = &legacy_ops;
	return 0;
}
