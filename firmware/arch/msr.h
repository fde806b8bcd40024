/* arch/msr.h — model-specific registers: rdmsr/wrmsr and the numbers we use. */
#ifndef XCB_ARCH_MSR_H
#define XCB_ARCH_MSR_H
#include <stdint.h>

#define MSR_APIC_BASE      0x0000001bu
#define  APIC_BASE_BSP     (1u << 8)
#define  APIC_BASE_X2APIC  (1u << 10)
#define  APIC_BASE_ENABLE  (1u << 11)
#define MSR_XAPIC_DISABLE_STATUS 0x000000bdu /* bit 0: x2APIC locked on (legacy xAPIC disabled) */
#define MSR_ARCH_CAPABILITIES    0x0000010au /* bit 21: MSR_XAPIC_DISABLE_STATUS exists */
#define MSR_TSC_DEADLINE   0x000006e0u
#define MSR_X2APIC_BASE    0x00000800u /* + (xAPIC register offset >> 4) */
#define MSR_EFER           0xc0000080u
#define MSR_FS_BASE        0xc0000100u
#define MSR_GS_BASE        0xc0000101u
#define MSR_KERNEL_GS_BASE 0xc0000102u
#define MSR_TSC_AUX        0xc0000103u

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ __volatile__("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ __volatile__("wrmsr" :: "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)) : "memory");
}

#endif
