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
 * I350 and I210 keep them for queue 0. What e1000.c shares is in
 * net/intel_nic.c. */
#include "net/intel_nic.h"
#include "net/netenv.h"
#include "lib/errno.h"

#define MDIC     0x0020
#define RX_BASE  0xc000           /* RX queue 0: RDBAL; RDT at +INTEL_Q_TAIL */
#define SRRCTL   0xc00c
#define RXDCTL   0xc028
#define TX_BASE  0xe000           /* TX queue 0 */
#define TXDCTL   0xe028

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
#define RXD_EOP       2u
#define RXD_ERR_MASK  0xfff00000u /* extended errors, status_error[31:20] */

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
	struct intel_nic nic;           /* first: nd->priv is also a struct intel_nic */
	uint8_t tx_free[INTEL_NDESC];   /* 1: slot done (the NIC set DD), or never used */
};

static volatile union rx_desc *rx_desc(struct igb *e, unsigned i)
{
	return (volatile union rx_desc *)e->nic.rx + i;
}

static volatile union tx_desc *tx_desc(struct igb *e, unsigned i)
{
	return (volatile union tx_desc *)e->nic.tx + i;
}

static inline uint32_t rd(struct igb *e, unsigned r) { return intel_rd(e->nic.regs, r); }
static inline void wr(struct igb *e, unsigned r, uint32_t v) { intel_wr(e->nic.regs, r, v); }

/* 82576: 10c9 (QEMU) 10e6 10e7 10e8 1526 150a 1518 150d; I350: 1521-1524;
 * I210: 1533 1536-1538 157b 157c; I211: 1539. */
static const uint16_t igb_ids[] = {
	0x10c9, 0x10e6, 0x10e7, 0x10e8, 0x1526, 0x150a, 0x1518, 0x150d,
	0x1521, 0x1522, 0x1523, 0x1524,
	0x1533, 0x1536, 0x1537, 0x1538, 0x157b, 0x157c, 0x1539,
};

/* The model, for the console ("igb(82576)"). */
static const char *model(uint16_t id)
{
	if (id >= 0x1521 && id <= 0x1524)
		return "i350";
	if (id == 0x1539)
		return "i211";
	if (id >= 0x1533)
		return "i210";
	return "82576";
}

/* 1 when this driver handles the PCI function. */
static int match(const struct pci_device *pci)
{
	return pci->vendor == INTEL_VENDOR &&
	       intel_id_in(igb_ids, sizeof(igb_ids) / sizeof(igb_ids[0]), pci->device);
}

/* One PHY register write through MDIC; -ETIMEDOUT when the PHY never answers. */
static int phy_write(struct igb *e, unsigned reg, uint16_t v)
{
	wr(e, MDIC, v | reg << 16 | MDIC_PHY1 | MDIC_WRITE);
	for (int i = 0; i < 1000; i++) {
		if (rd(e, MDIC) & MDIC_READY)
			return 0;
		intel_wait_us(10);
	}
	return -ETIMEDOUT;
}

/* Rings at their initial state: every RX slot given to the NIC with its
 * buffer (the write-back overwrote the address, so it is written again on
 * each refill), every TX slot free. */
static void rings_init(struct igb *e)
{
	for (unsigned i = 0; i < INTEL_NDESC; i++) {
		rx_desc(e, i)->rd.pkt_addr = (uintptr_t)(e->nic.rxbuf + INTEL_BUF_SIZE * i);
		rx_desc(e, i)->rd.hdr_addr = 0;   /* also clears DD (bit 0 of status_error) */
		tx_desc(e, i)->rd.addr = (uintptr_t)(e->nic.txbuf + INTEL_BUF_SIZE * i);
		tx_desc(e, i)->rd.cmd_type_len = 0;
		tx_desc(e, i)->rd.olinfo_status = 0;
		e->tx_free[i] = 1;
	}
}

/* Reset, address filter, rings, then each queue and the receiver and
 * transmitter on. 0 or -ENOMEM (no memory for the rings). */
static int igb_open(struct netdev *nd)
{
	struct igb *e = nd->priv;
	int rc = intel_open_begin(nd, INTEL_CTRL_SLU, 0);
	if (rc)
		return rc;
	/* The reset took the link down with it: restart autonegotiation (what
	 * brings it back on the real parts, and the only thing that does on
	 * QEMU's model); link_up() reports when it is done. */
	if (phy_write(e, 0, BMCR_RESTART_AN))
		net_log("net: igb: the PHY does not answer MDIC writes");
	rings_init(e);
	intel_ring_program(&e->nic, RX_BASE, e->nic.rx);
	wr(e, SRRCTL, SRRCTL_ADV_ONEBUF | SRRCTL_BSIZE_2K);
	wr(e, RXDCTL, rd(e, RXDCTL) | QUEUE_ENABLE);
	/* Tail one behind head: all descriptors but one belong to the NIC. */
	wr(e, RX_BASE + INTEL_Q_TAIL, INTEL_NDESC - 1);
	intel_ring_program(&e->nic, TX_BASE, e->nic.tx);
	wr(e, TX_BASE + INTEL_Q_TAIL, 0);
	wr(e, TXDCTL, rd(e, TXDCTL) | QUEUE_ENABLE);
	intel_rxtx_on(&e->nic);
	return 0;
}

/* Queues one frame in the next slot; -1 while the NIC still owns it. */
static int igb_transmit(struct netdev *nd, const void *frame, unsigned len)
{
	struct igb *e = nd->priv;
	unsigned i = e->nic.tx_next;
	volatile union tx_desc *d = tx_desc(e, i);
	if (!e->tx_free[i] && (d->wb.status & INTEL_DESC_DD))
		e->tx_free[i] = 1;
	if (len > INTEL_BUF_SIZE || !e->tx_free[i])
		return -EAGAIN;
	e->tx_free[i] = 0;
	d->rd.addr = (uintptr_t)intel_tx_copy(&e->nic, frame, len);
	d->rd.cmd_type_len = len | TXD_DTYP_DATA | TXD_DEXT | TXD_EOP | TXD_IFCS | TXD_RS;
	d->rd.olinfo_status = (uint32_t)len << TXD_PAYLEN_SHIFT; /* also clears DD */
	intel_tx_kick(&e->nic);
	return 0;
}

/* One received frame into buf, 0 when none; a bad one reads as 1 byte (a
 * runt the stack drops). The slot goes straight back to the NIC. */
static unsigned igb_poll(struct netdev *nd, void *buf, unsigned cap)
{
	struct igb *e = nd->priv;
	if (!buf)
		return 0;
	unsigned i = e->nic.rx_next;
	volatile union rx_desc *d = rx_desc(e, i);
	uint32_t st = d->wb.status_error;
	if (!(st & INTEL_DESC_DD))
		return 0;
	/* The length and data are read only after DD was seen set: pairs with
	 * the NIC writing the descriptor back after the data. */
	__asm__ volatile("" ::: "memory");
	unsigned r = intel_rx_copy(&e->nic, buf, cap, d->wb.len, (st & RXD_EOP) && !(st & RXD_ERR_MASK));
	d->rd.pkt_addr = (uintptr_t)(e->nic.rxbuf + INTEL_BUF_SIZE * i);
	d->rd.hdr_addr = 0;
	intel_rx_return(&e->nic);
	return r;
}

static const struct netdev_ops igb_ops = {
	.open = igb_open, .transmit = igb_transmit, .poll = igb_poll,
	.link_up = intel_link_up, .close = intel_close,
};

/* I210/I211 without flash have only RAL0/RAH0 for the MAC, which
 * intel_probe reads first. 0 or -E. */
static int igb_probe(struct netdev *nd, const struct pci_device *pci)
{
	return intel_probe(nd, pci, sizeof(struct igb), INTEL_EERD_82574, RX_BASE, TX_BASE,
			   &igb_ops, "igb", model(pci->device));
}

const struct net_driver igb_driver = { "igb", match, igb_probe };
