/* Helpers shared by the Intel gigabit drivers (net/intel_nic.h). */
#include "net/intel_nic.h"
#include "net/netenv.h"
#include "net/bytes.h"
#include "lib/errno.h"

#define STATUS_LU    (1u << 1)
#define RCTL_EN      (1u << 1)
#define RCTL_BAM     (1u << 15)   /* accept broadcast: ARP requests */
#define RCTL_SECRC   (1u << 26)   /* strip the FCS */
#define TCTL_EN      (1u << 1)
#define TCTL_PSP     (1u << 3)
#define TCTL_CT      (0x0fu << 4)
#define TCTL_COLD    (0x40u << 12)

#define DESC_BYTES   16           /* every descriptor format we use */
#define MMIO_BYTES   (128 * 1024) /* BAR 0's register window */

void intel_wait_us(uint64_t us)
{
	uint64_t t0 = plat_now_us();
	while (plat_now_us() - t0 < us)
		plat_cpu_relax();
}

void intel_hw_reset(volatile uint8_t *regs)
{
	intel_wr(regs, INTEL_IMC, 0xffffffffu);
	intel_wr(regs, INTEL_RCTL, 0);
	intel_wr(regs, INTEL_TCTL, 0);
	intel_wr(regs, INTEL_CTRL, intel_rd(regs, INTEL_CTRL) | INTEL_CTRL_RST);
	/* RST self-clears; the datasheets ask for >= 1 us before any access and
	 * the EEPROM auto-load takes a few ms after. */
	intel_wait_us(10000);
	for (int i = 0; i < 1000 && (intel_rd(regs, INTEL_CTRL) & INTEL_CTRL_RST); i++)
		intel_wait_us(100);
	intel_wr(regs, INTEL_IMC, 0xffffffffu);
	(void)intel_rd(regs, INTEL_ICR); /* read-to-clear anything pending */
}

int intel_eeprom_read(volatile uint8_t *regs, enum intel_eerd layout, unsigned word)
{
	uint32_t done = layout == INTEL_EERD_82574 ? 1u << 1 : 1u << 4;
	unsigned shift = layout == INTEL_EERD_82574 ? 2 : 8;
	intel_wr(regs, INTEL_EERD, (uint32_t)word << shift | 1);
	for (int i = 0; i < 10000; i++) {
		uint32_t v = intel_rd(regs, INTEL_EERD);
		if (v & done)
			return (int)(v >> 16);
		intel_wait_us(1);
	}
	return -ETIMEDOUT;
}

/* The station address: RAL0/RAH0 as the NVM loaded them, else EEPROM words
 * 0-2. 0, or -ENODEV when neither has it. */
static int read_mac(volatile uint8_t *regs, enum intel_eerd layout, uint8_t mac[ETH_ALEN])
{
	uint32_t lo = intel_rd(regs, INTEL_RAL0), hi = intel_rd(regs, INTEL_RAH0);
	if (hi & INTEL_RAH_AV) {
		for (int i = 0; i < 4; i++)
			mac[i] = (uint8_t)(lo >> (8 * i));
		mac[4] = (uint8_t)hi;
		mac[5] = (uint8_t)(hi >> 8);
		return 0;
	}
	for (unsigned w = 0; w < 3; w++) {
		int v = intel_eeprom_read(regs, layout, w);
		if (v < 0)
			return -ENODEV;
		mac[2 * w] = (uint8_t)v;
		mac[2 * w + 1] = (uint8_t)(v >> 8);
	}
	return 0;
}

/* Our address in receive-address slot 0, and no multicast. */
static void set_mac(volatile uint8_t *regs, const uint8_t mac[ETH_ALEN])
{
	const uint8_t *m = mac;
	intel_wr(regs, INTEL_RAL0, (uint32_t)m[0] | (uint32_t)m[1] << 8 | (uint32_t)m[2] << 16 | (uint32_t)m[3] << 24);
	intel_wr(regs, INTEL_RAH0, (uint32_t)m[4] | (uint32_t)m[5] << 8 | INTEL_RAH_AV);
	for (unsigned i = 0; i < 128; i++)
		intel_wr(regs, INTEL_MTA + 4 * i, 0);
}

int intel_id_in(const uint16_t *ids, unsigned n, uint16_t id)
{
	for (unsigned i = 0; i < n; i++)
		if (ids[i] == id)
			return 1;
	return 0;
}

int intel_probe(struct netdev *nd, const struct pci_device *pci, unsigned priv_size,
		enum intel_eerd eerd, unsigned rx_base, unsigned tx_base,
		const struct netdev_ops *ops, const char *family, const char *model)
{
	int io, rc = -ENODEV;
	uint16_t cmd = pci_enable(pci);   /* assigns BARs when the firmware did not */
	uint64_t bar0 = pci_bar(pci, 0, &io);
	if (!bar0 || io)
		goto err_cmd;
	struct intel_nic *n = plat_alloc_zeroed(priv_size);
	rc = -ENOMEM;
	if (!n)
		goto err_cmd;
	/* From here on the memory and the mapping are kept (the allocator has
	 * no free; a mapping is page-table entries): the device is what the
	 * error path puts back. */
	n->regs = (volatile uint8_t *)net_map_mmio(bar0, MMIO_BYTES);
	if (!n->regs)
		goto err_cmd;
	n->rx_base = rx_base;
	n->tx_base = tx_base;
	intel_hw_reset(n->regs);
	rc = read_mac(n->regs, eerd, nd->mac);
	if (rc)
		goto err_cmd;
	nd->priv = n;
	nd->op = ops;
	netdev_set_name(nd, family, model);
	return 0;

err_cmd:
	pci_write16(pci, PCI_COMMAND, cmd);   /* no bus mastering by a NIC we do not drive */
	return rc;
}

/* The rings, then the buffers: from a page boundary, each ring starts on a
 * 1 KiB boundary and each buffer on 2 KiB. 0 or -ENOMEM. */
static int rings_alloc(struct intel_nic *n)
{
	uint8_t **const parts[] = { &n->rx, &n->tx, &n->rxbuf, &n->txbuf };
	static const unsigned bytes[] = { INTEL_NDESC * DESC_BYTES, INTEL_NDESC * DESC_BYTES,
					  INTEL_NDESC * INTEL_BUF_SIZE, INTEL_NDESC * INTEL_BUF_SIZE };
	return netdev_dma_once(parts, bytes, 4);
}

int intel_open_begin(struct netdev *nd, uint32_t ctrl_set, uint32_t ctrl_clear)
{
	struct intel_nic *n = nd->priv;
	intel_hw_reset(n->regs);
	intel_wr(n->regs, INTEL_CTRL, (intel_rd(n->regs, INTEL_CTRL) | ctrl_set) & ~ctrl_clear);
	set_mac(n->regs, nd->mac);
	n->rx_next = n->tx_next = 0;
	/* On failure the reset left receiver and transmitter off: quiet. */
	return rings_alloc(n);
}

void intel_ring_program(struct intel_nic *n, unsigned base, const uint8_t *ring)
{
	uint64_t pa = (uintptr_t)ring;   /* identity-mapped: the pointer is the bus address */
	intel_wr(n->regs, base + INTEL_Q_BAL, (uint32_t)pa);
	intel_wr(n->regs, base + INTEL_Q_BAH, (uint32_t)(pa >> 32));
	intel_wr(n->regs, base + INTEL_Q_LEN, INTEL_NDESC * DESC_BYTES);
	intel_wr(n->regs, base + INTEL_Q_HEAD, 0);
}

void intel_rxtx_on(struct intel_nic *n)
{
	intel_wr(n->regs, INTEL_TCTL, TCTL_EN | TCTL_PSP | TCTL_CT | TCTL_COLD);
	intel_wr(n->regs, INTEL_RCTL, RCTL_EN | RCTL_BAM | RCTL_SECRC);
}

uint8_t *intel_tx_copy(struct intel_nic *n, const void *frame, unsigned len)
{
	uint8_t *b = n->txbuf + INTEL_BUF_SIZE * n->tx_next;
	net_memcpy(b, frame, len);
	return b;
}

void intel_tx_kick(struct intel_nic *n)
{
	n->tx_next = (n->tx_next + 1) % INTEL_NDESC;
	/* Descriptor stores before the tail write that hands them to the NIC:
	 * x86 keeps stores in order (UC after WB included); this stops GCC.
	 * Pairs with the NIC's descriptor fetch after it sees the tail move. */
	__asm__ volatile("" ::: "memory");
	intel_wr(n->regs, n->tx_base + INTEL_Q_TAIL, n->tx_next);
}

unsigned intel_rx_copy(struct intel_nic *n, void *buf, unsigned cap, unsigned len, int good)
{
	if (len > cap)
		len = cap;
	if (good)
		net_memcpy(buf, n->rxbuf + INTEL_BUF_SIZE * n->rx_next, len);
	return good && len ? len : 1;
}

void intel_rx_return(struct intel_nic *n)
{
	unsigned i = n->rx_next;
	n->rx_next = (i + 1) % INTEL_NDESC;
	/* The rewritten descriptor before the tail write that returns it (as
	 * in intel_tx_kick). */
	__asm__ volatile("" ::: "memory");
	intel_wr(n->regs, n->rx_base + INTEL_Q_TAIL, i);
}

int intel_link_up(struct netdev *nd)
{
	struct intel_nic *n = nd->priv;
	return !!(intel_rd(n->regs, INTEL_STATUS) & STATUS_LU);
}

void intel_close(struct netdev *nd)
{
	struct intel_nic *n = nd->priv;
	intel_hw_reset(n->regs);   /* RX and TX off first, then a reset stops any DMA */
}
