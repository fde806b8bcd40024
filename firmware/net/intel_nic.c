/* Helpers shared by the Intel gigabit drivers (net/intel_nic.h). */
#include "intel_nic.h"
#include "netenv.h"

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
	return -1;
}

int intel_read_mac(volatile uint8_t *regs, enum intel_eerd layout, uint8_t mac[ETH_ALEN])
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
			return -1;
		mac[2 * w] = (uint8_t)v;
		mac[2 * w + 1] = (uint8_t)(v >> 8);
	}
	return 0;
}

void intel_set_mac(volatile uint8_t *regs, const uint8_t mac[ETH_ALEN])
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
