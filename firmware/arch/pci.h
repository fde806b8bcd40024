/* PCI configuration space (mechanism 1, ports 0xCF8/0xCFC), device discovery,
 * BARs, bus mastering and the capability list (virtio 1.0 finds its register
 * blocks through vendor capabilities). Enough for the NIC drivers in net/. */
#ifndef ARCH_PCI_H
#define ARCH_PCI_H

#include <stdint.h>

#define PCI_VENDOR_ID      0x00
#define PCI_DEVICE_ID      0x02
#define PCI_COMMAND        0x04
#define PCI_STATUS         0x06
#define PCI_CLASS_REV      0x08
#define PCI_HEADER_TYPE    0x0e
#define PCI_BAR0           0x10
#define PCI_SUBSYS_ID      0x2e
#define PCI_CAP_PTR        0x34

#define PCI_CMD_IO         0x1
#define PCI_CMD_MEM        0x2
#define PCI_CMD_MASTER     0x4
#define PCI_CMD_INTX_OFF   0x400
#define PCI_STATUS_CAPS    0x10

#define PCI_CAP_ID_VNDR    0x09

struct pci_device {
	uint8_t bus, dev, fn;
	uint16_t vendor, device;
	uint32_t class_rev;     /* class << 8 | revision */
};

uint8_t  pci_read8(const struct pci_device *d, unsigned off);
uint16_t pci_read16(const struct pci_device *d, unsigned off);
uint32_t pci_read32(const struct pci_device *d, unsigned off);
void     pci_write16(const struct pci_device *d, unsigned off, uint16_t v);
void     pci_write32(const struct pci_device *d, unsigned off, uint32_t v);

/* Calls fn for every function present on every bus, until fn returns
 * non-zero (that value is returned; 0 when the scan ran to the end). */
int pci_scan(int (*fn)(struct pci_device *d, void *ctx), void *ctx);

/* BAR n: its base (memory: physical address, 64-bit BARs joined; I/O: port)
 * and whether it is I/O space. 0 when the BAR is absent or unassigned. */
uint64_t pci_bar(const struct pci_device *d, unsigned n, int *is_io);
/* Size of BAR n in bytes (probes with all-ones, restores the value). */
uint64_t pci_bar_size(const struct pci_device *d, unsigned n);

/* Places BARs the firmware left unassigned (qboot assigns none) in a free
 * window above those already assigned. Returns how many were placed, -1 when
 * the window is full. */
int pci_assign_bars(const struct pci_device *d);

/* Assigns missing BARs (pci_assign_bars), then enables memory and I/O
 * decoding and bus mastering (DMA), INTx off: our drivers poll. Call before
 * reading BARs. Returns the command register as it was, which a probe that
 * fails writes back (pci_write16(d, PCI_COMMAND, old)): no DMA from a
 * device nobody drives. */
uint16_t pci_enable(const struct pci_device *d);

/* Offset of the first capability with id at or after `from` (0 = start of
 * the list), or 0 when there is none. Next one: pci_find_cap(d, id, off). */
unsigned pci_find_cap(const struct pci_device *d, uint8_t id, unsigned from);

#endif
