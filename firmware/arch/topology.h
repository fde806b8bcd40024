/* arch/topology.h — package/core/thread decoding of APIC IDs from CPUID.
 * Pure functions over CPUID register values, so they are unit-tested on the
 * host (firmware/tests/test_topology.c) with register dumps of real CPUs. */
#ifndef XCB_ARCH_TOPOLOGY_H
#define XCB_ARCH_TOPOLOGY_H
#include <stdint.h>

struct cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

/* How an APIC ID splits: thread = id & ((1<<smt_shift)-1),
 * core = (id >> smt_shift) & ((1<<(pkg_shift-smt_shift))-1), pkg = id >> pkg_shift. */
struct topo_shifts {
	unsigned smt_shift, pkg_shift;
};

struct topo {
	uint32_t pkg, core, thread;
};

/* From the sub-leaves of CPUID leaf 0Bh or 1Fh (levels[0] = sub-leaf 0 ...),
 * n of them. Stops at the first level whose type is 0. Returns 0, or -1 when
 * the leaf is absent/invalid (no level, shifts going backwards). */
int topo_from_extended_leaf(const struct cpuid_regs *levels, unsigned n, struct topo_shifts *out);

/* Legacy fallback: leaf 1 EBX[23:16] (logical processors per package, valid
 * when EDX.HTT) and leaf 4 EAX[31:26]+1 (cores per package, Intel) or
 * 0x80000008 ECX (AMD). cores_per_pkg 0 means unknown. */
void topo_from_legacy(uint32_t logical_per_pkg, uint32_t cores_per_pkg, struct topo_shifts *out);

void topo_decode(const struct topo_shifts *s, uint32_t apic_id, struct topo *out);

#endif
