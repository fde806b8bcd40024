/* arch/tsc.h — the time-stamp counter: reads, frequency, delays.
 * tsc_init() takes the frequency from CPUID 15h (crystal ratio) or 16h (base
 * MHz) when they are valid, else calibrates against the ACPI PM timer or the
 * PIT (best of several tries, ~50 ms each, so a loaded host does not skew
 * it). tsc_source says which: "cpuid15", "cpuid16", "pmtimer" or "pit";
 * tsc=pit|pmtimer|cpuid on the command line forces a method. */
#ifndef XCB_ARCH_TSC_H
#define XCB_ARCH_TSC_H
#include <stdint.h>

extern uint64_t tsc_khz;
extern const char *tsc_source;

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

/* Serialised read for timing: LFENCE keeps earlier instructions from being
 * still in flight (and later ones from starting) around the read. */
static inline uint64_t rdtsc_ordered(void)
{
	uint32_t lo, hi;
	__asm__ __volatile__("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* RDTSCP: waits for earlier instructions; also returns TSC_AUX in *aux. */
static inline uint64_t rdtscp(uint32_t *aux)
{
	uint32_t lo, hi, c;
	__asm__ __volatile__("rdtscp" : "=a"(lo), "=d"(hi), "=c"(c) :: "memory");
	if (aux)
		*aux = c;
	return ((uint64_t)hi << 32) | lo;
}

int tsc_init(void);
static inline uint64_t tsc_to_ns(uint64_t cycles) { return tsc_khz ? cycles * 1000000ULL / tsc_khz : 0; }
void udelay(uint64_t us);
void mdelay(uint64_t ms);

#endif
