/* Intel 8254x (e1000, QEMU -device e1000 = 82540EM) and 82574L (e1000e,
 * QEMU -device e1000e) driver, polled, legacy descriptors.
 *
 * One file for both because the 82574 keeps the 8254x programming model the
 * payload needs: the same register offsets for control, status, the RX/TX
 * descriptor rings and the receive address, and the same 16-byte legacy
 * descriptors (the 82574's extended formats are opt-in through RFCTL/TXDCTL
 * and stay off). What differs is small and keyed off a flag: the EEPROM read
 * register layout (EERD done/address bits) and which ids we claim. iPXE's
 * intel.c drives both families the same way. */
#include "intel_nic.h"
#include "netenv.h"
#include "bytes.h"

#define CTRL     INTEL_CTRL
#define STATUS   INTEL_STATUS
#define RCTL     INTEL_RCTL
#define TCTL     INTEL_TCTL
#define TIPG     0x0410
#define RDBAL    0x2800
#define RDBAH    0x2804
#define RDLEN    0x2808
#define RDH      0x2810
#define RDT      0x2818
#define TDBAL    0x3800
#define TDBAH    0x3804
#define TDLEN    0x3808
#define TDH      0x3810
#define TDT      0x3818

#define CTRL_LRST    (1u << 3)
#define CTRL_ASDE    (1u << 5)
#define CTRL_SLU     (1u << 6)
#define CTRL_ILOS    (1u << 7)
#define CTRL_PHY_RST (1u << 31)
#define STATUS_LU    (1u << 1)
#define RCTL_EN      (1u << 1)
#define RCTL_BAM     (1u << 15)   /* accept broadcast: ARP requests */
#define RCTL_SECRC   (1u << 26)   /* strip the FCS */
#define TCTL_EN      (1u << 1)
#define TCTL_PSP     (1u << 3)
#define TCTL_CT      (0x0fu << 4)
#define TCTL_COLD    (0x40u << 12)

#define TXD_CMD_EOP  0x01
#define TXD_CMD_IFCS 0x02
#define TXD_CMD_RS   0x08
#define DESC_DD      0x01

#define NDESC    64               /* ring bytes a multiple of 128, as required */
#define BUF_SIZE 2048             /* RCTL.BSIZE = 00 */

/* Legacy descriptors, 16 bytes each. */
struct rx_desc { uint64_t addr; uint16_t len, csum; uint8_t status, errors; uint16_t special; };
struct tx_desc { uint64_t addr; uint16_t len; uint8_t cso, cmd, status, css; uint16_t special; };

struct e1000 {
	volatile uint8_t *regs;
	int is_82574;
	volatile struct rx_desc *rx;
	volatile struct tx_desc *tx;
	uint8_t *rxbuf, *txbuf;
	unsigned rx_next, tx_next;
};

static inline uint32_t rd(struct e1000 *e, unsigned r) { return intel_rd(e->regs, r); }
static inline void wr(struct e1000 *e, unsigned r, uint32_t v) { intel_wr(e->regs, r, v); }

static const uint16_t ids_8254x[] = { 0x100e, 0x100f, 0x1004, 0x1015, 0x1016, 0x1017, 0x1075, 0x1076 };
static const uint16_t ids_82574[] = { 0x10d3, 0x10f6 };

static int match(const struct pci_device *pci)
{
	return pci->vendor == INTEL_VENDOR &&
	       (intel_id_in(ids_8254x, sizeof(ids_8254x) / 2, pci->device) ||
		intel_id_in(ids_82574, sizeof(ids_82574) / 2, pci->device));
}

static int e1k_open(struct netdev *nd)
{
	struct e1000 *e = nd->priv;
	intel_hw_reset(e->regs);
	wr(e, CTRL, (rd(e, CTRL) | CTRL_SLU | CTRL_ASDE) & ~(CTRL_LRST | CTRL_PHY_RST | CTRL_ILOS));
	intel_set_mac(e->regs, nd->mac);

	if (!e->rx) {
		e->rx = plat_alloc_zeroed(NDESC * sizeof(struct rx_desc));
		e->tx = plat_alloc_zeroed(NDESC * sizeof(struct tx_desc));
		e->rxbuf = plat_alloc_zeroed(NDESC * BUF_SIZE);
		e->txbuf = plat_alloc_zeroed(NDESC * BUF_SIZE);
		if (!e->rx || !e->tx || !e->rxbuf || !e->txbuf)
			return -1;
	}
	for (unsigned i = 0; i < NDESC; i++) {
		e->rx[i] = (struct rx_desc){ .addr = (uintptr_t)(e->rxbuf + BUF_SIZE * i) };
		e->tx[i] = (struct tx_desc){ .addr = (uintptr_t)(e->txbuf + BUF_SIZE * i),
					     .status = DESC_DD };   /* DD: slot free */
	}
	e->rx_next = e->tx_next = 0;
	/* Identity-mapped memory: the pointer is the bus address. */
	uint64_t rxpa = (uintptr_t)e->rx, txpa = (uintptr_t)e->tx;
	wr(e, RDBAL, (uint32_t)rxpa);
	wr(e, RDBAH, (uint32_t)(rxpa >> 32));
	wr(e, RDLEN, NDESC * sizeof(struct rx_desc));
	wr(e, RDH, 0);
	/* Tail one behind head: all descriptors but one belong to the NIC (head
	 * == tail would mean "none"). */
	wr(e, RDT, NDESC - 1);
	wr(e, TDBAL, (uint32_t)txpa);
	wr(e, TDBAH, (uint32_t)(txpa >> 32));
	wr(e, TDLEN, NDESC * sizeof(struct tx_desc));
	wr(e, TDH, 0);
	wr(e, TDT, 0);
	wr(e, TIPG, 10 | 8 << 10 | 6 << 20);   /* the datasheet's IEEE 802.3 values */
	wr(e, TCTL, TCTL_EN | TCTL_PSP | TCTL_CT | TCTL_COLD);
	wr(e, RCTL, RCTL_EN | RCTL_BAM | RCTL_SECRC);
	return 0;
}

static int e1k_transmit(struct netdev *nd, const void *frame, unsigned len)
{
	struct e1000 *e = nd->priv;
	unsigned i = e->tx_next;
	volatile struct tx_desc *d = &e->tx[i];
	if (len > BUF_SIZE || !(d->status & DESC_DD))
		return -1;   /* the NIC has not finished with this slot yet */
	net_memcpy(e->txbuf + BUF_SIZE * i, frame, len);
	d->len = (uint16_t)len;
	d->cso = 0;
	d->css = 0;
	d->special = 0;
	d->status = 0;
	d->cmd = TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS;
	e->tx_next = (i + 1) % NDESC;
	/* Descriptor stores before the tail write that hands them to the NIC:
	 * x86 keeps stores in order (UC after WB included); this stops GCC. */
	__asm__ volatile("" ::: "memory");
	wr(e, TDT, e->tx_next);
	return 0;
}

static unsigned e1k_poll(struct netdev *nd, void *buf, unsigned cap)
{
	struct e1000 *e = nd->priv;
	if (!buf)
		return 0;    /* TX slots are reclaimed through their DD bit */
	unsigned i = e->rx_next;
	volatile struct rx_desc *d = &e->rx[i];
	if (!(d->status & DESC_DD))
		return 0;
	/* The length and data are read only after DD was seen set. */
	__asm__ volatile("" ::: "memory");
	unsigned n = d->len;
	int good = (d->status & 0x02) && d->errors == 0;   /* EOP, no errors */
	if (n > cap)
		n = cap;
	if (good)
		net_memcpy(buf, e->rxbuf + BUF_SIZE * i, n);
	d->status = 0;
	e->rx_next = (i + 1) % NDESC;
	__asm__ volatile("" ::: "memory");
	wr(e, RDT, i);   /* this descriptor goes back to the NIC */
	/* A bad frame is reported as 1 byte: eth_parse drops it as a runt, and
	 * the caller keeps polling for the next one. */
	return good && n ? n : 1;
}

static int e1k_link_up(struct netdev *nd)
{
	struct e1000 *e = nd->priv;
	return !!(rd(e, STATUS) & STATUS_LU);
}

static void e1k_close(struct netdev *nd)
{
	struct e1000 *e = nd->priv;
	wr(e, RCTL, 0);
	wr(e, TCTL, 0);
	intel_hw_reset(e->regs);
}

static const struct netdev_ops e1k_ops = {
	.open = e1k_open, .transmit = e1k_transmit, .poll = e1k_poll,
	.link_up = e1k_link_up, .close = e1k_close,
};

static int e1k_probe(struct netdev *nd, const struct pci_device *pci)
{
	int io;
	pci_enable(pci);                 /* assigns BARs when the firmware did not */
	uint64_t bar0 = pci_bar(pci, 0, &io);
	if (!bar0 || io)
		return -1;
	struct e1000 *e = plat_alloc_zeroed(sizeof(*e));
	if (!e)
		return -1;
	e->is_82574 = intel_id_in(ids_82574, sizeof(ids_82574) / 2, pci->device);
	e->regs = (volatile uint8_t *)net_map_mmio(bar0, 128 * 1024);
	if (!e->regs)
		return -1;
	intel_hw_reset(e->regs);
	if (intel_read_mac(e->regs, e->is_82574 ? INTEL_EERD_82574 : INTEL_EERD_8254X, nd->mac))
		return -1;
	nd->priv = e;
	nd->op = &e1k_ops;
	netdev_set_name(nd, e->is_82574 ? "e1000e(82574)" : "e1000(8254x)");
	return 0;
}

const struct net_driver e1000_driver = { "e1000", match, e1k_probe };
