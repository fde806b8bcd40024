/* What the Intel gigabit families share below their rings — 8254x and
 * 82574 (e1000.c), 82576/I350/I210 (igb.c): the control registers at the
 * same offsets, the global reset, EEPROM words through EERD, and the MAC
 * address in receive-address slot 0. */
#ifndef NET_INTEL_NIC_H
#define NET_INTEL_NIC_H

#include <stdint.h>
#include "netdev.h"

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
#define INTEL_RAH_AV   (1u << 31)

/* The two EERD layouts: 8254x (done bit 4, address << 8) and the one of the
 * 82574 and every igb part (done bit 1, address << 2). */
enum intel_eerd { INTEL_EERD_8254X, INTEL_EERD_82574 };

static inline uint32_t intel_rd(volatile uint8_t *regs, unsigned r) { return *(volatile uint32_t *)(regs + r); }
static inline void intel_wr(volatile uint8_t *regs, unsigned r, uint32_t v) { *(volatile uint32_t *)(regs + r) = v; }

/* Busy-waits us microseconds. */
void intel_wait_us(uint64_t us);
/* Interrupts masked, RX/TX off, CTRL.RST, then the NVM auto-load (a few ms)
 * that restores RAL0/RAH0; pending causes cleared. */
void intel_hw_reset(volatile uint8_t *regs);
/* One EEPROM word; -1 on timeout. */
int intel_eeprom_read(volatile uint8_t *regs, enum intel_eerd layout, unsigned word);
/* The station address: RAL0/RAH0 as the NVM loaded them, else EEPROM words
 * 0-2. 0, or -1 when neither has it. */
int intel_read_mac(volatile uint8_t *regs, enum intel_eerd layout, uint8_t mac[ETH_ALEN]);
/* Our address in receive-address slot 0, and no multicast. */
void intel_set_mac(volatile uint8_t *regs, const uint8_t mac[ETH_ALEN]);
/* 1 when id is among ids[0..n). */
int intel_id_in(const uint16_t *ids, unsigned n, uint16_t id);

#endif
