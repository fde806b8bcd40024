/* PCI configuration mechanism 1, bus scan, BARs and capability walk. */
#include "arch/pci.h"
#include "arch/io.h"
#include "lib/printf.h"

#define PCI_CONF_ADDR 0xcf8
#define PCI_CONF_DATA 0xcfc

/* Config accesses are two port operations (address, then data): only the BSP
 * probes PCI, before any other CPU could touch it, so no lock is needed. */
static uint32_t addr(const struct pci_device *d, unsigned off)
{
	return 0x80000000u | (uint32_t)d->bus << 16 | (uint32_t)d->dev << 11 |
	       (uint32_t)d->fn << 8 | (off & 0xfc);
}

uint32_t pci_read32(const struct pci_device *d, unsigned off)
{
	outl(PCI_CONF_ADDR, addr(d, off));
	return inl(PCI_CONF_DATA);
}

uint16_t pci_read16(const struct pci_device *d, unsigned off)
{
	return (uint16_t)(pci_read32(d, off) >> ((off & 2) * 8));
}

uint8_t pci_read8(const struct pci_device *d, unsigned off)
{
	return (uint8_t)(pci_read32(d, off) >> ((off & 3) * 8));
}

void pci_write32(const struct pci_device *d, unsigned off, uint32_t v)
{
	outl(PCI_CONF_ADDR, addr(d, off));
	outl(PCI_CONF_DATA, v);
}

/* Narrow writes as read-modify-write of the dword: mechanism 1 can do byte
 * enables through port offsets, but a dword RMW is simpler and the registers
 * we write (command, BARs, virtio notify fields) have no write-1-to-clear bits
 * in the same dword except PCI_STATUS, which pci_write16 masks off. */
void pci_write16(const struct pci_device *d, unsigned off, uint16_t v)
{
	uint32_t w = pci_read32(d, off), sh = (off & 2) * 8;
	if ((off & ~3u) == PCI_COMMAND)
		w &= 0x0000ffff;     /* never write back status' RW1C bits */
	w = (w & ~(0xffffu << sh)) | (uint32_t)v << sh;
	pci_write32(d, off, w);
}

int pci_scan(int (*fn)(struct pci_device *d, void *ctx), void *ctx)
{
	for (unsigned bus = 0; bus < 256; bus++) {
		for (unsigned dev = 0; dev < 32; dev++) {
			for (unsigned fn_ = 0; fn_ < 8; fn_++) {
				struct pci_device d = { (uint8_t)bus, (uint8_t)dev, (uint8_t)fn_, 0, 0, 0 };
				uint32_t id = pci_read32(&d, PCI_VENDOR_ID);
				if ((id & 0xffff) == 0xffff) {
					if (fn_ == 0)
						break;   /* no device in this slot */
					continue;
				}
				d.vendor = (uint16_t)id;
				d.device = (uint16_t)(id >> 16);
				d.class_rev = pci_read32(&d, PCI_CLASS_REV);
				int r = fn(&d, ctx);
				if (r)
					return r;
				if (fn_ == 0 && !(pci_read8(&d, PCI_HEADER_TYPE) & 0x80))
					break;   /* single-function device */
			}
		}
	}
	return 0;
}

/* 1 when a BAR whose low dword is lo is a 64-bit memory BAR (memory type 2
 * in bits 2:1): the next BAR holds its high half. Bit 0 set is I/O space. */
static int bar_is64(uint32_t lo)
{
	return !(lo & 1) && ((lo >> 1) & 3) == 2;
}

uint64_t pci_bar(const struct pci_device *d, unsigned n, int *is_io)
{
	uint32_t lo = pci_read32(d, PCI_BAR0 + 4 * n);
	if (lo & 1) {
		if (is_io)
			*is_io = 1;
		return lo & ~3u;
	}
	if (is_io)
		*is_io = 0;
	uint64_t base = lo & ~0xfu;
	if (bar_is64(lo) && n < 5)
		base |= (uint64_t)pci_read32(d, PCI_BAR0 + 4 * (n + 1)) << 32;
	return base;
}

uint64_t pci_bar_size(const struct pci_device *d, unsigned n)
{
	unsigned off = PCI_BAR0 + 4 * n;
	uint16_t cmd = pci_read16(d, PCI_COMMAND);
	/* Decoding off while the BAR holds all-ones, so nothing answers there. */
	pci_write16(d, PCI_COMMAND, cmd & ~(PCI_CMD_IO | PCI_CMD_MEM));
	uint32_t lo = pci_read32(d, off);
	pci_write32(d, off, 0xffffffffu);
	uint32_t mlo = pci_read32(d, off);
	pci_write32(d, off, lo);
	uint64_t mask;
	if ((mlo & ~0xfu) == 0 && !bar_is64(lo)) {
		pci_write16(d, PCI_COMMAND, cmd);
		return 0;    /* not implemented: no address bit sticks */
	}
	if (lo & 1) {
		mask = 0xffff0000u | (mlo & ~3u);
		mask |= 0xffffffff00000000ull;
	} else if (bar_is64(lo) && n < 5) {
		uint32_t hi = pci_read32(d, off + 4);
		pci_write32(d, off + 4, 0xffffffffu);
		uint32_t mhi = pci_read32(d, off + 4);
		pci_write32(d, off + 4, hi);
		mask = (uint64_t)mhi << 32 | (mlo & ~0xfu);
		if (mask == 0) {
			pci_write16(d, PCI_COMMAND, cmd);
			return 0;
		}
	} else {
		mask = 0xffffffff00000000ull | (mlo & ~0xfu);
	}
	pci_write16(d, PCI_COMMAND, cmd);
	return mask ? ~mask + 1 : 0;
}

/* ---- BAR assignment, for firmware that leaves BARs unassigned ----
 * qboot (QEMU's fast -kernel BIOS) assigns no BARs at all; SeaBIOS, UEFI and
 * real firmware assign all of them (OVMF puts 64-bit ones above 4 GiB: the
 * whole 64-bit value counts, so a BAR at 0x8_0000_0000 is assigned). A BAR
 * the firmware assigned is never moved — the firmware may still route it
 * (bridge windows, SMM, an IOMMU map) — and sizing one restores it at once.
 * So only BARs still at 0 are placed, each said on the console, above
 * everything already assigned, inside windows that are free on both QEMU
 * chipsets and typical PCs: memory 0xe0000000-0xfe000000 (above q35's
 * MMCONFIG, below the IOAPIC/HPET/LAPIC/flash region) and I/O 0xc000-0xffff. */
#define MEM_WIN_LO 0xe0000000ull
#define MEM_WIN_HI 0xfe000000ull
#define IO_WIN_LO  0xc000ull
#define IO_WIN_HI  0x10000ull

static uint64_t next_mem, next_io;

/* pci_scan callback: raises next_mem / next_io above every BAR already
 * assigned inside the windows, so placed BARs never overlap them. */
static int note_assigned(struct pci_device *d, void *ctx)
{
	(void)ctx;
	if ((pci_read8(d, PCI_HEADER_TYPE) & 0x7f) != 0)
		return 0;    /* bridges: their windows are not BARs we place */
	for (unsigned n = 0; n < 6; n++) {
		int io;
		uint32_t lo = pci_read32(d, PCI_BAR0 + 4 * n);
		uint64_t base = pci_bar(d, n, &io), size;
		int is64 = bar_is64(lo);
		if (is64)
			n++;     /* the high half of a 64-bit BAR */
		if (!base)
			continue;
		size = pci_bar_size(d, is64 ? n - 1 : n);
		if (io && base >= IO_WIN_LO && base + size > next_io && base < IO_WIN_HI)
			next_io = base + size;
		if (!io && base >= MEM_WIN_LO && base < MEM_WIN_HI && base + size > next_mem)
			next_mem = base + size;
	}
	return 0;
}

int pci_assign_bars(const struct pci_device *d)
{
	if (!next_mem) {
		next_mem = MEM_WIN_LO;
		next_io = IO_WIN_LO;
		pci_scan(note_assigned, 0);
	}
	int placed = 0;
	for (unsigned n = 0; n < 6; n++) {
		uint32_t lo = pci_read32(d, PCI_BAR0 + 4 * n);
		int io = lo & 1, is64 = bar_is64(lo);
		uint64_t size = pci_bar_size(d, n);
		if (size && !pci_bar(d, n, 0)) {
			uint64_t *next = io ? &next_io : &next_mem;
			uint64_t hi = io ? IO_WIN_HI : MEM_WIN_HI;
			uint64_t base = (*next + size - 1) & ~(size - 1);   /* naturally aligned */
			if (base + size > hi)
				return -1;
			pci_write32(d, PCI_BAR0 + 4 * n, (uint32_t)base | (lo & (io ? 3u : 0xfu)));
			if (is64)
				pci_write32(d, PCI_BAR0 + 4 * (n + 1), 0);
			*next = base + size;
			kprintf("pci: %02x:%02x.%x bar %u placed at 0x%lx (left unassigned by the firmware)\n",
				d->bus, d->dev, d->fn, n, (unsigned long)base);
			placed++;
		}
		if (is64)
			n++;
	}
	return placed;
}

uint16_t pci_enable(const struct pci_device *d)
{
	pci_assign_bars(d);
	uint16_t cmd = pci_read16(d, PCI_COMMAND);
	pci_write16(d, PCI_COMMAND, cmd | PCI_CMD_IO | PCI_CMD_MEM | PCI_CMD_MASTER | PCI_CMD_INTX_OFF);
	return cmd;
}

unsigned pci_find_cap(const struct pci_device *d, uint8_t id, unsigned from)
{
	if (!(pci_read16(d, PCI_STATUS) & PCI_STATUS_CAPS))
		return 0;
	unsigned off = from ? pci_read8(d, from + 1) : pci_read8(d, PCI_CAP_PTR);
	/* At most 48 capabilities fit in 256 bytes: bounds a looping list. */
	for (int guard = 0; off >= 0x40 && guard < 48; guard++) {
		off &= 0xfc;
		if (pci_read8(d, off) == id)
			return off;
		off = pci_read8(d, off + 1);
	}
	return 0;
}
