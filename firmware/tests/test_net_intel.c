/* Host unit tests of the Intel gigabit drivers (net/e1000.c, net/igb.c) and
 * what they share (net/intel_nic.c): probe's unwinding (the PCI command
 * register put back), open's rings allocated once and reused, and a frame
 * each way through each family's descriptors and tail registers.
 *
 * BAR 0 is a 128 KiB array standing in for the register file: the NVM's
 * MAC sits in RAL0/RAH0 (Address Valid), and the "device side" of a test
 * reads and writes descriptors as the datasheets lay them out. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "net/intel_nic.h"
#include "net/netenv.h"
#include "tests/netenv_host.h"
#include "lib/errno.h"

/* ---- netenv for the host: a clock that runs while the driver waits ---- */
static uint64_t now_us;
uint64_t plat_now_us(void) { return now_us; }
void plat_cpu_relax(void) { now_us += 50; }
const char *net_cmdline(const char *key) { (void)key; return NULL; }
/* plat_alloc_zeroed, net_log, net_map_mmio: tests/netenv_host.c */

/* ---- PCI: one function whose BAR 0 is regs ---- */
static _Alignas(4096) uint8_t regs[128 * 1024];
static uint16_t pci_cmd;        /* the command register */
static int bar0_is_io;
uint16_t pci_enable(const struct pci_device *d)
{
	(void)d;
	uint16_t old = pci_cmd;
	pci_cmd |= PCI_CMD_IO | PCI_CMD_MEM | PCI_CMD_MASTER;
	return old;
}
uint64_t pci_bar(const struct pci_device *d, unsigned n, int *is_io)
{
	(void)d;
	assert_int_equal(n, 0);
	*is_io = bar0_is_io;
	return (uintptr_t)regs;
}
void pci_write16(const struct pci_device *d, unsigned off, uint16_t v)
{
	(void)d;
	assert_int_equal(off, PCI_COMMAND);
	pci_cmd = v;
}
int pci_scan(int (*fn)(struct pci_device *d, void *ctx), void *ctx) { (void)fn; (void)ctx; return 0; }
static int match_none(const struct pci_device *pci) { (void)pci; return 0; }
const struct net_driver virtio_net_driver = { "virtio-net", match_none, NULL };

static uint32_t reg(unsigned r) { return *(volatile uint32_t *)(regs + r); }
static void set_reg(unsigned r, uint32_t v) { *(volatile uint32_t *)(regs + r) = v; }

static const uint8_t nvm_mac[6] = { 0x52, 0x54, 0x00, 0x11, 0x22, 0x33 };
static struct netdev nd;

static int setup(void **state)
{
	(void)state;
	memset(regs, 0, sizeof(regs));
	set_reg(INTEL_RAL0, 0x11005452u);
	set_reg(INTEL_RAH0, 0x3322u | INTEL_RAH_AV);
	pci_cmd = 0;
	bar0_is_io = 0;
	dma_fail_at = 0;
	memset(&nd, 0, sizeof(nd));
	return 0;
}
static int teardown(void **state)
{
	(void)state;
	dma_free_all();
	return 0;
}

/* Probes pci with drv: its result. */
static int probe(const struct net_driver *drv, uint16_t device)
{
	struct pci_device pci = { 1, 0, 0, INTEL_VENDOR, device, 0x02000000 };
	nd.pci = pci;
	assert_true(drv->match(&pci));
	return drv->probe(&nd, &pci);
}

static void test_probe_names_and_mac(void **state)
{
	(void)state;
	assert_int_equal(probe(&e1000_driver, 0x10d3), 0);
	assert_string_equal(nd.name, "e1000e(82574) 01:00.0");
	assert_memory_equal(nd.mac, nvm_mac, 6);
	assert_true(pci_cmd & PCI_CMD_MASTER);
	assert_int_equal(probe(&igb_driver, 0x1521), 0);
	assert_string_equal(nd.name, "igb(i350) 01:00.0");
}

/* A failed probe leaves the function as it found it: no bus mastering. */
static void test_probe_failures_restore_command(void **state)
{
	(void)state;
	bar0_is_io = 1;
	assert_int_equal(probe(&e1000_driver, 0x100e), -ENODEV);
	assert_int_equal(pci_cmd, 0);
	bar0_is_io = 0;
	dma_fail_at = dma_nallocs + 1;
	assert_int_equal(probe(&igb_driver, 0x10c9), -ENOMEM);
	assert_int_equal(pci_cmd, 0);
	/* No MAC anywhere: RAH0 not valid, and EERD never says done. */
	set_reg(INTEL_RAH0, 0);
	assert_int_equal(probe(&e1000_driver, 0x100e), -ENODEV);
	assert_int_equal(pci_cmd, 0);
}

/* Open: -ENOMEM with receiver and transmitter off when the rings cannot be
 * had; then the rings once, and a reopen takes no more memory. */
static void test_open_memory_once(void **state)
{
	(void)state;
	assert_int_equal(probe(&e1000_driver, 0x100e), 0);
	unsigned base = dma_nallocs;
	dma_fail_at = base + 1;
	assert_int_equal(nd.op->open(&nd), -ENOMEM);
	assert_int_equal(reg(INTEL_RCTL), 0);
	assert_int_equal(reg(INTEL_TCTL), 0);
	assert_int_equal(nd.op->open(&nd), 0);
	assert_int_equal(dma_nallocs, base + 1);
	assert_true(reg(INTEL_RCTL) & 2);       /* RCTL.EN */
	nd.op->close(&nd);
	assert_int_equal(reg(INTEL_RCTL), 0);
	assert_int_equal(nd.op->open(&nd), 0);
	assert_int_equal(dma_nallocs, base + 1);
	/* Our address back in slot 0 after the reset. */
	assert_int_equal(reg(INTEL_RAH0), 0x3322u | INTEL_RAH_AV);
}

/* Legacy descriptors (e1000): the frame in the slot's buffer, EOP|IFCS|RS,
 * the tail moved; a received frame copied out and its slot handed back. */
static void test_e1000_frames(void **state)
{
	(void)state;
	assert_int_equal(probe(&e1000_driver, 0x100e), 0);
	assert_int_equal(nd.op->open(&nd), 0);
	uint8_t *tx = (uint8_t *)(uintptr_t)(reg(0x3800) | (uint64_t)reg(0x3804) << 32);
	uint8_t *rx = (uint8_t *)(uintptr_t)(reg(0x2800) | (uint64_t)reg(0x2804) << 32);
	assert_int_equal(reg(0x2818), INTEL_NDESC - 1);     /* RDT one behind head */
	assert_int_equal(reg(0x3818), 0);
	assert_int_equal(nd.op->transmit(&nd, "outgoing-frame", 14), 0);
	uint64_t addr;
	memcpy(&addr, tx, 8);
	assert_memory_equal((void *)(uintptr_t)addr, "outgoing-frame", 14);
	assert_int_equal(tx[8] | tx[9] << 8, 14);           /* length */
	assert_int_equal(tx[11], 0x01 | 0x02 | 0x08);       /* cmd: EOP IFCS RS */
	assert_int_equal(reg(0x3818), 1);                   /* TDT */

	uint8_t buf[1514];
	assert_int_equal(nd.op->poll(&nd, buf, sizeof(buf)), 0);
	memcpy(&addr, rx, 8);
	memcpy((void *)(uintptr_t)addr, "incoming-frame", 14);
	rx[8] = 14;
	rx[12] = 0x01 | 0x02;                               /* DD EOP */
	assert_int_equal(nd.op->poll(&nd, buf, sizeof(buf)), 14);
	assert_memory_equal(buf, "incoming-frame", 14);
	assert_int_equal(rx[12], 0);
	assert_int_equal(reg(0x2818), 0);                   /* slot 0 back to the NIC */
	/* A frame with an error reads as a 1-byte runt. */
	rx[16 + 8] = 60;
	rx[16 + 12] = 0x01 | 0x02;
	rx[16 + 13] = 0x01;                                 /* CE */
	assert_int_equal(nd.op->poll(&nd, buf, sizeof(buf)), 1);
}

/* Advanced descriptors (igb): queue 0 switched on, the data descriptor's
 * length fields, and the RX write-back format over the read format. */
static void test_igb_frames(void **state)
{
	(void)state;
	assert_int_equal(probe(&igb_driver, 0x10c9), 0);
	/* No PHY behind a memory MDIC: open says so and goes on. */
	assert_int_equal(nd.op->open(&nd), 0);
	assert_true(reg(0xc028) & (1u << 25));              /* RXDCTL.ENABLE */
	assert_true(reg(0xe028) & (1u << 25));              /* TXDCTL.ENABLE */
	uint8_t *tx = (uint8_t *)(uintptr_t)(reg(0xe000) | (uint64_t)reg(0xe004) << 32);
	uint8_t *rx = (uint8_t *)(uintptr_t)(reg(0xc000) | (uint64_t)reg(0xc004) << 32);
	assert_int_equal(nd.op->transmit(&nd, "outgoing-frame", 14), 0);
	uint64_t addr;
	uint32_t w;
	memcpy(&addr, tx, 8);
	assert_memory_equal((void *)(uintptr_t)addr, "outgoing-frame", 14);
	memcpy(&w, tx + 8, 4);
	assert_int_equal(w & 0xffff, 14);                   /* cmd_type_len: length */
	memcpy(&w, tx + 12, 4);
	assert_int_equal(w >> 14, 14);                      /* olinfo: PAYLEN */
	assert_int_equal(reg(0xe018), 1);

	memcpy(&addr, rx, 8);
	memcpy((void *)(uintptr_t)addr, "incoming-frame", 14);
	w = 0x01 | 0x02;                                    /* write-back: DD EOP */
	memcpy(rx + 8, &w, 4);
	rx[12] = 14;
	rx[13] = 0;
	uint8_t buf[1514];
	assert_int_equal(nd.op->poll(&nd, buf, sizeof(buf)), 14);
	assert_memory_equal(buf, "incoming-frame", 14);
	uint64_t again;
	memcpy(&again, rx, 8);
	assert_int_equal(again, addr);                      /* buffer address rewritten */
	assert_int_equal(reg(0xc018), 0);
}

int main(void)
{
#define NIC(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		NIC(test_probe_names_and_mac),
		NIC(test_probe_failures_restore_command),
		NIC(test_open_memory_once),
		NIC(test_e1000_frames),
		NIC(test_igb_frames),
	};
	return cmocka_run_group_tests_name("net_intel", tests, NULL, NULL);
}
