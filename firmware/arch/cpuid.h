/* arch/cpuid.h — facts about the CPU from CPUID, collected once on the BSP
 * (the bench layer sends them in the HELLO frame). */
#ifndef XCB_ARCH_CPUID_H
#define XCB_ARCH_CPUID_H
#include <stdbool.h>
#include <stdint.h>
#include "arch/topology.h"

struct cpu_facts {
	char vendor[13];
	char brand[49];
	char hypervisor[13];         /* "" when CPUID.1:ECX[31] is clear */
	uint32_t family, model, stepping;
	uint32_t max_leaf, max_ext_leaf;
	bool x2apic, pcid, invpcid, invariant_tsc, tsc_deadline, rdtscp, pdpe1gb;
	bool monitor;                /* MONITOR/MWAIT (CPUID.1:ECX[3]): idle=mwait */
	struct topo_shifts topo;     /* how APIC IDs split into pkg/core/thread */
	const char *topo_source;     /* "leaf1f", "leaf0b", "legacy" */
};

extern struct cpu_facts cpu_facts;
void cpuid_collect(void);
/* One line: "xcbench: cpu vendor ... family ... model ..." etc. */
void cpuid_report(void);

#endif
