/* arch/topology.c — APIC ID → package/core/thread (see arch/topology.h). */
#include "arch/topology.h"

#define LEVEL_TYPE(r) (((r).ecx >> 8) & 0xff)
#define LEVEL_SHIFT(r) ((r).eax & 0x1f)
#define TYPE_SMT 1
#define TYPE_CORE 2

int topo_from_extended_leaf(const struct cpuid_regs *levels, unsigned n, struct topo_shifts *out)
{
	unsigned smt = 0, last = 0, count = 0;
	int have_smt = 0;
	for (unsigned i = 0; i < n; i++) {
		unsigned type = LEVEL_TYPE(levels[i]);
		if (type == 0)
			break;
		unsigned shift = LEVEL_SHIFT(levels[i]);
		if (shift < last)
			return -1; /* levels must nest outwards */
		if (type == TYPE_SMT) {
			smt = shift;
			have_smt = 1;
		}
		last = shift;
		count++;
	}
	if (count == 0)
		return -1;
	out->smt_shift = have_smt ? smt : 0;
	out->pkg_shift = last; /* everything above the outermost level is the package */
	if (out->smt_shift > out->pkg_shift)
		return -1;
	return 0;
}

static unsigned order(uint32_t n)
{
	unsigned s = 0;
	while ((1u << s) < n && s < 31)
		s++;
	return s;
}

void topo_from_legacy(uint32_t logical_per_pkg, uint32_t cores_per_pkg, struct topo_shifts *out)
{
	if (logical_per_pkg == 0)
		logical_per_pkg = 1;
	if (cores_per_pkg == 0 || cores_per_pkg > logical_per_pkg)
		cores_per_pkg = logical_per_pkg;
	out->pkg_shift = order(logical_per_pkg);
	out->smt_shift = order(logical_per_pkg / cores_per_pkg);
}

void topo_decode(const struct topo_shifts *s, uint32_t apic_id, struct topo *out)
{
	unsigned smt = s->smt_shift, pkg = s->pkg_shift;
	out->thread = smt ? apic_id & ((1u << smt) - 1) : 0;
	out->core = pkg > smt ? (apic_id >> smt) & ((1u << (pkg - smt)) - 1) : 0;
	out->pkg = pkg >= 32 ? 0 : apic_id >> pkg;
}
