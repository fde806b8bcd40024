/* What the Intel gigabit families share — 8254x and 82574 (e1000.c),
 * 82576/I350/I210 (igb.c): the control registers at the same offsets, the
 * global reset, EEPROM words through EERD, the MAC address in receive-address
 * slot 0, queue registers in the same order from a family-specific base, the
 * receiver/transmitter settings, 64-slot rings of 16-byte descriptors with
 * 2 KiB buffers, and probe, link and close. The drivers keep what differs:
 * descriptor formats and how a queue is switched on. */
#ifndef NET_INTEL_NIC_H
#define NET_INTEL_NIC_H

#include <stdint.h>
#include "net/netdev.h"

#define INTEL_VENDOR 0x8086

#define INTEL_CTRL     0x0000
#define INTEL_STATUS   0x0008
#define INTEL_EERD     0x0014
#define INTEL_ICR      0x00c0
#define INTEL_IMC      0x00d8
#define INTEL_RCTL     0x0100
#define INTEL_TCTL     0x0400
#define INTEL_MTA      0x5200
#define INTEL_RAL0     0x5400
#define INTEL_RAH0     0x5404
#define INTEL_CTRL_RST (1u << 26)
#define INTEL_CTRL_SLU (1u << 6)
#define INTEL_RAH_AV   (1u << 31)

/* Queue registers, from the queue's base (e1000 RX 0x2800 / TX 0x3800,
 * igb RX 0xc000 / TX 0xe000). */
#define INTEL_Q_BAL  0x00
#define INTEL_Q_BAH  0x04
#define INTEL_Q_LEN  0x08
#define INTEL_Q_HEAD 0x10
#define INTEL_Q_TAIL 0x18

#define INTEL_NDESC    64          /* ring bytes a multiple of 128, as required */
#define INTEL_BUF_SIZE 2048        /* e1000 RCTL.BSIZE = 00; igb SRRCTL 2 KiB */
#define INTEL_DESC_DD  1u          /* descriptor done, in both families' status */

/* The two EERD layouts: 8254x (done bit 4, address << 8) and the one of the
 * 82574 and every igb part (done bit 1, address << 2). */
enum intel_eerd { INTEL_EERD_8254X, INTEL_EERD_82574 };

/* The start of each driver's state (nd->priv points at it). */
struct intel_nic {
	volatile uint8_t *regs;
	uint8_t *rx, *tx;               /* INTEL_NDESC 16-byte descriptors each */
	uint8_t *rxbuf, *txbuf;         /* INTEL_NDESC buffers of INTEL_BUF_SIZE each */
	unsigned rx_next, tx_next;
	unsigned rx_base, tx_base;      /* the queues' register bases */
};

static inline uint32_t intel_rd(volatile uint8_t *regs, unsigned r) { return *(volatile uint32_t *)(regs + r); }
static inline void intel_wr(volatile uint8_t *regs, unsigned r, uint32_t v) { *(volatile uint32_t *)(regs + r) = v; }

/* Busy-waits us microseconds. */
void intel_wait_us(uint64_t us);
/* Interrupts masked, RX/TX off, CTRL.RST, then the NVM auto-load (a few ms)
 * that restores RAL0/RAH0; pending causes cleared. */
void intel_hw_reset(volatile uint8_t *regs);
/* One EEPROM word; -ETIMEDOUT when EERD never says done. */
int intel_eeprom_read(volatile uint8_t *regs, enum intel_eerd layout, unsigned word);
/* 1 when id is among ids[0..n). */
int intel_id_in(const uint16_t *ids, unsigned n, uint16_t id);

/* Enables the function, maps BAR 0, allocates priv_size bytes of driver
 * state (a struct intel_nic first) with the queue bases, resets, reads the
 * MAC (RAL0/RAH0 as the NVM loaded them, else EEPROM words 0-2) and fills
 * nd's op, priv, mac and name (netdev_set_name). 0 or -E, the command register restored. */
int intel_probe(struct netdev *nd, const struct pci_device *pci, unsigned priv_size,
		enum intel_eerd eerd, unsigned rx_base, unsigned tx_base,
		const struct netdev_ops *ops, const char *family, const char *model);
/* The first half of open: reset, CTRL |= set & ~clear, our address in slot
 * 0 and no multicast, the rings (allocated on the first open, kept) with
 * both indices at 0. 0, or -ENOMEM with the device still quiet. */
int intel_open_begin(struct netdev *nd, uint32_t ctrl_set, uint32_t ctrl_clear);
/* The ring at base's address and length, head 0 (tail: the caller's). */
void intel_ring_program(struct intel_nic *n, unsigned base, const uint8_t *ring);
/* The last step of open: transmitter and receiver on. */
void intel_rxtx_on(struct intel_nic *n);

/* The buffer of TX slot tx_next with frame copied in (len ≤ INTEL_BUF_SIZE). */
uint8_t *intel_tx_copy(struct intel_nic *n, const void *frame, unsigned len);
/* Hands TX slot tx_next (its descriptor written) to the NIC. */
void intel_tx_kick(struct intel_nic *n);
/* RX slot rx_next, whose descriptor says done with len bytes (good: EOP and
 * no errors), copied to buf (at most cap); returns what poll returns: the
 * length, or 1 for a bad frame (a runt eth_parse drops: the caller keeps
 * polling). The descriptor is the caller's to rewrite, then intel_rx_return. */
unsigned intel_rx_copy(struct intel_nic *n, void *buf, unsigned cap, unsigned len, int good);
/* Gives RX slot rx_next (its descriptor rewritten) back to the NIC. */
void intel_rx_return(struct intel_nic *n);

/* netdev_ops link_up and close, for both families. */
int intel_link_up(struct netdev *nd);
void intel_close(struct netdev *nd);

#endif
