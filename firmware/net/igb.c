/* Intel igb family driver: 82576 (QEMU -device igb), I350, I210/I211 —
 * the NICs on 2020s server boards. Polled, one RX and one TX queue.
 *
 * Why not e1000.c: the igb parts keep the 8254x control registers (CTRL,
 * STATUS, RCTL, TCTL, RAL/RAH, EERD with the 82574's layout) but move the
 * queue registers to 0xC000 (RX) / 0xE000 (TX), need each queue switched on
 * (RXDCTL/TXDCTL.ENABLE), and use "advanced" descriptors: SRRCTL selects
 * them for RX (QEMU's igb model writes nothing else back), and an advanced
 * data descriptor is what all three families document for TX.
 *
 * Register and descriptor layouts: Intel 82576 datasheet §8 and §7.1.5/7.2.2;
 * I350 and I210 keep them for queue 0. */
#include "intel_nic.h"
#include "netenv.h"
#include "bytes.h"

#define CTRL     INTEL_CTRL
#define STATUS   INTEL_STATUS
#define MDIC     0x0020
#define RCTL     INTEL_RCTL
#define TCTL     INTEL_TCTL
#define RDBAL    0xc000           /* RX queue 0 */
#define RDBAH    0xc004
#define RDLEN    0xc008
#define SRRCTL   0xc00c
#define RDH      0xc010
#define RDT      0xc018
#define RXDCTL   0xc028
#define TDBAL    0xe000           /* TX queue 0 */
#define TDBAH    0xe004
#define TDLEN    0xe008
#define TDH      0xe010
#define TDT      0xe018
#define TXDCTL   0xe028

#define CTRL_SLU     (1u << 6)
#define STATUS_LU    (1u << 1)
#define RCTL_EN      (1u << 1)
#define RCTL_BAM     (1u << 15)
#define RCTL_SECRC   (1u << 26)
#define TCTL_EN      (1u << 1)
#define TCTL_PSP     (1u << 3)
#define TCTL_CT      (0x0fu << 4)
#define TCTL_COLD    (0x40u << 12)
#define MDIC_PHY1    (1u << 21)   /* the internal PHY is at MDIO address 1 */
#define MDIC_WRITE   (1u << 26)
#define MDIC_READY   (1u << 28)
#define BMCR_RESTART_AN 0x1340    /* autoneg on + restart, full duplex, 1000 Mb/s */
#define QUEUE_ENABLE (1u << 25)   /* RXDCTL / TXDCTL */
#define SRRCTL_ADV_ONEBUF (1u << 25)   /* DESCTYPE = 001 */
#define SRRCTL_BSIZE_2K   2u           /* BSIZEPACKET, 1 KiB units */

/* Advanced TX data descriptor (cmd_type_len) and its write-back (status). */
#define TXD_DTYP_DATA (3u << 20)
#define TXD_EOP       (1u << 24)
#define TXD_IFCS      (1u << 25)
#define TXD_RS        (1u << 27)
#define TXD_DEXT      (1u << 29)
#define TXD_PAYLEN_SHIFT 14
#define DESC_DD       1u
#define RXD_EOP       2u
#define RXD_ERR_MASK  0xfff00000u /* extended errors, status_error[31:20] */

#define NDESC    64               /* ring bytes a multiple of 128, as required */
#define BUF_SIZE 2048

/* Advanced RX descriptor: read format (we write) and write-back format (the
 * NIC writes over the same 16 bytes). */
union rx_desc {
	struct { uint64_t pkt_addr, hdr_addr; } rd;
	struct { uint32_t info, rss; uint32_t status_error; uint16_t len, vlan; } wb;
};
union tx_desc {
	struct { uint64_t addr; uint32_t cmd_type_len, olinfo_status; } rd;
	struct { uint64_t rsvd; uint32_t nxtseq, status; } wb;
};

struct igb {
	volatile uint8_t *regs;
	volatile union rx_desc *rx;
	volatile union tx_desc *tx;
	uint8_t *rxbuf, *txbuf;
	unsigned rx_next, tx_next;
	uint8_t tx_free[NDESC];       /* 1: slot done (the NIC set DD), or never used */
};

static inline uint32_t rd(struct igb *e, unsigned r) { return intel_rd(e->regs, r); }
static inline void wr(struct igb *e, unsigned r, uint32_t v) { intel_wr(e->regs, r, v); }

/* 82576: 10c9 (QEMU) 10e6 10e7 10e8 1526 150a 1518 150d; I350: 1521-1524;
 * I210: 1533 1536-1538 157b 157c; I211: 1539. */
static const uint16_t igb_ids[] = {
	0x10c9, 0x10e6, 0x10e7, 0x10e8, 0x1526, 0x150a, 0x1518, 0x150d,
	0x1521, 0x1522, 0x1523, 0x1524,
	0x1533, 0x1536, 0x1537, 0x1538, 0x157b, 0x157c, 0x1539,
};

/* The family name for the console ("igb(82576)"). */
static const char *family(uint16_t id)
{
	if (id >= 0x1521 && id <= 0x1524)
		return "igb(i350)";
	if (id == 0x1539)
		return "igb(i211)";
	if (id >= 0x1533)
		return "igb(i210)";
	return "igb(82576)";
}

/* 1 when this driver handles the PCI function. */
static int match(const struct pci_device *pci)
{
	return pci->vendor == INTEL_VENDOR &&
	       intel_id_in(igb_ids, sizeof(igb_ids) / sizeof(igb_ids[0]), pci->device);
}

/* One PHY register write through MDIC; -1 when the PHY never answers. */
static int phy_write(struct igb *e, unsigned reg, uint16_t v)
{
	wr(e, MDIC, v | reg << 16 | MDIC_PHY1 | MDIC_WRITE);
	for (int i = 0; i < 1000; i++) {
		if (rd(e, MDIC) & MDIC_READY)
			return 0;
		intel_wait_us(10);
	}
	return -1;
}

/* Rings at their initial state: every RX slot given to the NIC with its
 * buffer (the write-back overwrote the address, so it is written again on
 * each refill), every TX slot free. */
static void rings_init(struct igb *e)
{
	for (unsigned i = 0; i < NDESC; i++) {
		e->rx[i].rd.pkt_addr = (uintptr_t)(e->rxbuf + BUF_SIZE * i);
		e->rx[i].rd.hdr_addr = 0;   /* also clears DD (bit 0 of status_error) */
		e->tx[i].rd.addr = (uintptr_t)(e->txbuf + BUF_SIZE * i);
		e->tx[i].rd.cmd_type_len = 0;
		e->tx[i].rd.olinfo_status = 0;
		e->tx_free[i] = 1;
	}
	e->rx_next = e->tx_next = 0;
}

/* Reset, address filter, rings, then each queue and the receiver and
 * transmitter on. 0 or -1 (no memory for the rings). */
static int igb_open(struct netdev *nd)
{
	struct igb *e = nd->priv;
	intel_hw_reset(e->regs);
	wr(e, CTRL, rd(e, CTRL) | CTRL_SLU);
	/* The reset took the link down with it: restart autonegotiation (what
	 * brings it back on the real parts, and the only thing that does on
	 * QEMU's model); link_up() reports when it is done. */
	if (phy_write(e, 0, BMCR_RESTART_AN))
		net_log("net: igb: the PHY does not answer MDIC writes");
	intel_set_mac(e->regs, nd->mac);

	if (!e->rx) {
		e->rx = plat_alloc_zeroed(NDESC * sizeof(union rx_desc));
		e->tx = plat_alloc_zeroed(NDESC * sizeof(union tx_desc));
		e->rxbuf = plat_alloc_zeroed(NDESC * BUF_SIZE);
		e->txbuf = plat_alloc_zeroed(NDESC * BUF_SIZE);
		if (!e->rx || !e->tx || !e->rxbuf || !e->txbuf)
			return -1;
	}
	rings_init(e);
	/* Identity-mapped memory: the pointer is the bus address. */
	uint64_t rxpa = (uintptr_t)e->rx, txpa = (uintptr_t)e->tx;
	wr(e, RDBAL, (uint32_t)rxpa);
	wr(e, RDBAH, (uint32_t)(rxpa >> 32));
	wr(e, RDLEN, NDESC * sizeof(union rx_desc));
	wr(e, SRRCTL, SRRCTL_ADV_ONEBUF | SRRCTL_BSIZE_2K);
	wr(e, RDH, 0);
	wr(e, RXDCTL, rd(e, RXDCTL) | QUEUE_ENABLE);
	/* Tail one behind head: all descriptors but one belong to the NIC. */
	wr(e, RDT, NDESC - 1);
	wr(e, TDBAL, (uint32_t)txpa);
	wr(e, TDBAH, (uint32_t)(txpa >> 32));
	wr(e, TDLEN, NDESC * sizeof(union tx_desc));
	wr(e, TDH, 0);
	wr(e, TDT, 0);
	wr(e, TXDCTL, rd(e, TXDCTL) | QUEUE_ENABLE);
	wr(e, TCTL, TCTL_EN | TCTL_PSP | TCTL_CT | TCTL_COLD);
	wr(e, RCTL, RCTL_EN | RCTL_BAM | RCTL_SECRC);
	return 0;
}

/* Queues one frame in the next slot; -1 while the NIC still owns it. */
static int igb_transmit(struct netdev *nd, const void *frame, unsigned len)
{
	struct igb *e = nd->priv;
	unsigned i = e->tx_next;
	volatile union tx_desc *d = &e->tx[i];
	if (!e->tx_free[i] && (d->wb.status & DESC_DD))
		e->tx_free[i] = 1;
	if (len > BUF_SIZE || !e->tx_free[i])
		return -1;
	net_memcpy(e->txbuf + BUF_SIZE * i, frame, len);
	e->tx_free[i] = 0;
	d->rd.addr = (uintptr_t)(e->txbuf + BUF_SIZE * i);
	d->rd.cmd_type_len = len | TXD_DTYP_DATA | TXD_DEXT | TXD_EOP | TXD_IFCS | TXD_RS;
	d->rd.olinfo_status = (uint32_t)len << TXD_PAYLEN_SHIFT; /* also clears DD */
	e->tx_next = (i + 1) % NDESC;
	/* Descriptor stores before the tail write that hands them to the NIC:
	 * x86 keeps stores in order (UC after WB included); this stops GCC. */
	__asm__ volatile("" ::: "memory");
	wr(e, TDT, e->tx_next);
	return 0;
}

/* One received frame into buf, 0 when none; a bad one reads as 1 byte (a
 * runt the stack drops). The slot goes straight back to the NIC. */
static unsigned igb_poll(struct netdev *nd, void *buf, unsigned cap)
{
	struct igb *e = nd->priv;
	if (!buf)
		return 0;
	unsigned i = e->rx_next;
	volatile union rx_desc *d = &e->rx[i];
	uint32_t st = d->wb.status_error;
	if (!(st & DESC_DD))
		return 0;
	/* The length and data are read only after DD was seen set. */
	__asm__ volatile("" ::: "memory");
	unsigned n = d->wb.len;
	int good = (st & RXD_EOP) && !(st & RXD_ERR_MASK);
	if (n > cap)
		n = cap;
	if (good)
		net_memcpy(buf, e->rxbuf + BUF_SIZE * i, n);
	d->rd.pkt_addr = (uintptr_t)(e->rxbuf + BUF_SIZE * i);
	d->rd.hdr_addr = 0;
	e->rx_next = (i + 1) % NDESC;
	__asm__ volatile("" ::: "memory");
	wr(e, RDT, i);
	return good && n ? n : 1;
}

/* 1 when the link is up. */
static int igb_link_up(struct netdev *nd)
{
	struct igb *e = nd->priv;
	return !!(rd(e, STATUS) & STATUS_LU);
}

/* Receiver, transmitter and queues off; a reset stops any DMA. */
static void igb_close(struct netdev *nd)
{
	struct igb *e = nd->priv;
	wr(e, RCTL, 0);
	wr(e, TCTL, 0);
	intel_hw_reset(e->regs);
}

static const struct netdev_ops igb_ops = {
	.open = igb_open, .transmit = igb_transmit, .poll = igb_poll,
	.link_up = igb_link_up, .close = igb_close,
};

/* Maps BAR0, resets, reads the MAC (RAL0/RAH0 as loaded from the NVM, else
 * EEPROM words 0-2; I210/I211 without flash have only the former). 0, or
 * -1 with nothing left enabled that matters. */
static int igb_probe(struct netdev *nd, const struct pci_device *pci)
{
	int io;
	pci_enable(pci);
	uint64_t bar0 = pci_bar(pci, 0, &io);
	if (!bar0 || io)
		return -1;
	struct igb *e = plat_alloc_zeroed(sizeof(*e));
	if (!e)
		return -1;
	e->regs = (volatile uint8_t *)net_map_mmio(bar0, 128 * 1024);
	if (!e->regs)
		return -1;
	intel_hw_reset(e->regs);
	if (intel_read_mac(e->regs, INTEL_EERD_82574, nd->mac))
		return -1;
	nd->priv = e;
	nd->op = &igb_ops;
	netdev_set_name(nd, family(pci->device));
	return 0;
}

const struct net_driver igb_driver = { "igb", match, igb_probe };
