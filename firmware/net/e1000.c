/* Intel 8254x (e1000, QEMU -device e1000 = 82540EM) and 82574L (e1000e,
 * QEMU -device e1000e) driver, polled, legacy descriptors.
 *
 * One file for both because the 82574 keeps the 8254x programming model the
 * payload needs: the same register offsets for control, status, the RX/TX
 * descriptor rings and the receive address, and the same 16-byte legacy
 * descriptors (the 82574's extended formats are opt-in through RFCTL/TXDCTL
 * and stay off). What differs is small and keyed off a flag: the EEPROM read
 * register layout (EERD done/address bits) and which ids we claim. iPXE's
 * intel.c drives both families the same way. What igb shares with both is in
 * net/intel_nic.c. */
#include "net/intel_nic.h"
#include "lib/errno.h"

#define TIPG     0x0410
#define RX_BASE  0x2800           /* RDBAL; RDT at +INTEL_Q_TAIL */
#define TX_BASE  0x3800

#define CTRL_LRST    (1u << 3)
#define CTRL_ASDE    (1u << 5)
#define CTRL_ILOS    (1u << 7)
#define CTRL_PHY_RST (1u << 31)

#define TXD_CMD_EOP  0x01
#define TXD_CMD_IFCS 0x02
#define TXD_CMD_RS   0x08
#define RXD_EOP      0x02

/* Legacy descriptors, 16 bytes each. */
struct rx_desc { uint64_t addr; uint16_t len, csum; uint8_t status, errors; uint16_t special; };
struct tx_desc { uint64_t addr; uint16_t len; uint8_t cso, cmd, status, css; uint16_t special; };

static volatile struct rx_desc *rx_desc(struct intel_nic *n, unsigned i)
{
	return (volatile struct rx_desc *)n->rx + i;
}

static volatile struct tx_desc *tx_desc(struct intel_nic *n, unsigned i)
{
	return (volatile struct tx_desc *)n->tx + i;
}

static const uint16_t ids_8254x[] = { 0x100e, 0x100f, 0x1004, 0x1015, 0x1016, 0x1017, 0x1075, 0x1076 };
static const uint16_t ids_82574[] = { 0x10d3, 0x10f6 };

static int is_82574(uint16_t id)
{
	return intel_id_in(ids_82574, sizeof(ids_82574) / 2, id);
}

/* 1 when this driver handles the PCI function. */
static int match(const struct pci_device *pci)
{
	return pci->vendor == INTEL_VENDOR &&
	       (intel_id_in(ids_8254x, sizeof(ids_8254x) / 2, pci->device) || is_82574(pci->device));
}

/* Reset, link forced up, rings (every RX slot the NIC's, every TX slot free:
 * DD set), receiver and transmitter on. 0 or -ENOMEM. */
static int e1k_open(struct netdev *nd)
{
	struct intel_nic *n = nd->priv;
	int rc = intel_open_begin(nd, INTEL_CTRL_SLU | CTRL_ASDE, CTRL_LRST | CTRL_PHY_RST | CTRL_ILOS);
	if (rc)
		return rc;
	for (unsigned i = 0; i < INTEL_NDESC; i++) {
		*rx_desc(n, i) = (struct rx_desc){ .addr = (uintptr_t)(n->rxbuf + INTEL_BUF_SIZE * i) };
		*tx_desc(n, i) = (struct tx_desc){ .addr = (uintptr_t)(n->txbuf + INTEL_BUF_SIZE * i),
						   .status = INTEL_DESC_DD };
	}
	intel_ring_program(n, RX_BASE, n->rx);
	/* Tail one behind head: all descriptors but one belong to the NIC (head
	 * == tail would mean "none"). */
	intel_wr(n->regs, RX_BASE + INTEL_Q_TAIL, INTEL_NDESC - 1);
	intel_ring_program(n, TX_BASE, n->tx);
	intel_wr(n->regs, TX_BASE + INTEL_Q_TAIL, 0);
	intel_wr(n->regs, TIPG, 10 | 8 << 10 | 6 << 20);   /* the datasheet's IEEE 802.3 values */
	intel_rxtx_on(n);
	return 0;
}

/* Queues one frame in the next slot; -1 while the NIC still owns it. */
static int e1k_transmit(struct netdev *nd, const void *frame, unsigned len)
{
	struct intel_nic *n = nd->priv;
	volatile struct tx_desc *d = tx_desc(n, n->tx_next);
	if (len > INTEL_BUF_SIZE || !(d->status & INTEL_DESC_DD))
		return -EAGAIN;   /* the NIC has not finished with this slot yet */
	intel_tx_copy(n, frame, len);
	d->len = (uint16_t)len;
	d->cso = 0;
	d->css = 0;
	d->special = 0;
	d->status = 0;
	d->cmd = TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS;
	intel_tx_kick(n);
	return 0;
}

/* One received frame into buf, 0 when none. TX slots are reclaimed through
 * their DD bit, so a poll without buf does nothing. */
static unsigned e1k_poll(struct netdev *nd, void *buf, unsigned cap)
{
	struct intel_nic *n = nd->priv;
	if (!buf)
		return 0;
	volatile struct rx_desc *d = rx_desc(n, n->rx_next);
	if (!(d->status & INTEL_DESC_DD))
		return 0;
	/* The length and data are read only after DD was seen set: pairs with
	 * the NIC writing the descriptor back after the data. */
	__asm__ volatile("" ::: "memory");
	unsigned r = intel_rx_copy(n, buf, cap, d->len, (d->status & RXD_EOP) && d->errors == 0);
	d->status = 0;
	intel_rx_return(n);
	return r;
}

static const struct netdev_ops e1k_ops = {
	.open = e1k_open, .transmit = e1k_transmit, .poll = e1k_poll,
	.link_up = intel_link_up, .close = intel_close,
};

static int e1k_probe(struct netdev *nd, const struct pci_device *pci)
{
	int e82574 = is_82574(pci->device);
	return intel_probe(nd, pci, sizeof(struct intel_nic), e82574 ? INTEL_EERD_82574 : INTEL_EERD_8254X,
			   RX_BASE, TX_BASE, &e1k_ops, e82574 ? "e1000e" : "e1000", e82574 ? "82574" : "8254x");
}

const struct net_driver e1000_driver = { "e1000", match, e1k_probe };
