/* arch/tsc.c — TSC frequency discovery and delays (arch/tsc.h). */
#include "arch/tsc.h"
#include "arch/acpi.h"
#include "arch/cpu.h"
#include "arch/cpuid.h"
#include "arch/io.h"
#include "lib/cmdline.h"
#include "lib/cmdline_words.h"
#include "lib/printf.h"
#include "lib/string.h"

uint64_t tsc_khz;
const char *tsc_source = "none";

#define PIT_HZ 1193182u
#define PM_HZ 3579545u

void udelay(uint64_t us)
{
	uint64_t khz = tsc_khz ? tsc_khz : 1000000; /* before calibration: assume 1 GHz */
	uint64_t end = rdtsc() + us * khz / 1000;
	while ((int64_t)(rdtsc() - end) < 0)
		cpu_relax();
}

void mdelay(uint64_t ms)
{
	udelay(ms * 1000);
}

/* Reads a counter with the TSC taken just before and after; retries until
 * the pair is tight, so a vCPU descheduled mid-read is not counted. */
struct stamp {
	uint64_t tsc;
	uint32_t count;
};

static uint32_t pm_read(void)
{
	return inl((uint16_t)acpi.fadt.pm_tmr_port);
}

/* The tight-pair bound for a timer read: how long the fastest of 20 reads
 * takes between two serialised TSC reads, times 4, plus slack. */
static uint64_t pair_bound(uint32_t (*read)(void))
{
	uint64_t best = ~0ULL;
	for (int i = 0; i < 20; i++) {
		uint64_t a = rdtsc_ordered();
		(void)read();
		uint64_t b = rdtsc_ordered();
		if (b - a < best)
			best = b - a;
	}
	return best * 4 + 200;
}

static int stamp_pm(struct stamp *s, uint64_t max_gap)
{
	for (int i = 0; i < 100; i++) {
		uint64_t a = rdtsc_ordered();
		uint32_t c = pm_read();
		uint64_t b = rdtsc_ordered();
		if (b - a <= max_gap) {
			s->tsc = a + (b - a) / 2;
			s->count = c;
			return 0;
		}
	}
	return -1;
}

static uint64_t try_pmtimer(uint64_t ms)
{
	uint32_t mask = acpi.fadt.pm_tmr_32bit ? 0xffffffffu : 0xffffffu;
	uint64_t gap = pair_bound(pm_read);
	struct stamp s0, s1;
	if (stamp_pm(&s0, gap))
		return 0;
	uint32_t want = (uint32_t)(PM_HZ / 1000 * ms), elapsed = 0;
	uint32_t prev = s0.count;
	/* Poll so a 24-bit wrap (4.7 s) cannot be missed. */
	while (elapsed < want) {
		uint32_t c = pm_read();
		elapsed += (c - prev) & mask;
		prev = c;
	}
	if (stamp_pm(&s1, gap))
		return 0;
	uint64_t ticks = (s1.count - s0.count) & mask;
	if (!ticks)
		return 0;
	return (s1.tsc - s0.tsc) * PM_HZ / ticks / 1000;
}

static uint32_t pit_read(void)
{
	outb(0x43, 0x80); /* latch channel 2 */
	uint8_t lo = inb(0x42), hi = inb(0x42);
	return (uint32_t)(lo | hi << 8);	/* 16 bits */
}

static uint64_t try_pit(uint64_t ms)
{
	/* Channel 2, gate on, speaker off, mode 2 (rate generator) from 0xffff:
	 * free-running count-down we sample with latched reads. */
	outb(0x61, (inb(0x61) & ~0x02) | 0x01);
	outb(0x43, 0xb4);
	outb(0x42, 0xff);
	outb(0x42, 0xff);
	uint64_t gap = pair_bound(pit_read);
	struct stamp s0 = { 0, 0 };
	int ok = 0;
	for (int i = 0; i < 100 && !ok; i++) {
		uint64_t a = rdtsc_ordered();
		uint16_t c = pit_read();
		uint64_t b = rdtsc_ordered();
		if (b - a <= gap) {
			s0.tsc = a + (b - a) / 2;
			s0.count = c;
			ok = 1;
		}
	}
	if (!ok)
		return 0;
	uint64_t want = PIT_HZ / 1000 * ms, elapsed = 0;
	uint16_t prev = (uint16_t)s0.count;
	uint64_t last_tsc = 0, prev_tsc = s0.tsc;
	for (;;) {
		uint64_t a = rdtsc_ordered();
		uint16_t c = pit_read();
		uint64_t b = rdtsc_ordered();
		/* A vCPU stalled for more than a counter period (55 ms) between two
		 * reads would lose a wrap: once the rate is roughly known, give up
		 * this try if two reads are more than ~25 ms apart. */
		if (elapsed > 5000 && (a - prev_tsc) > (a - s0.tsc) / elapsed * 30000)
			return 0;
		prev_tsc = a;
		/* The counter counts down and reloads at 0xffff (period 65535). */
		uint32_t d = prev >= c ? (uint32_t)(prev - c) : (uint32_t)(prev + 0xffffu - c);
		elapsed += d;
		prev = c;
		if (elapsed >= want && b - a <= gap) {
			last_tsc = a + (b - a) / 2;
			break;
		}
	}
	return elapsed ? (last_tsc - s0.tsc) * PIT_HZ / elapsed / 1000 : 0;
}

/* Median of up to five good tries: robust to a disturbed one either way. */
static uint64_t best_of(uint64_t (*fn)(uint64_t), uint64_t ms)
{
	uint64_t v[5];
	int n = 0;
	for (int i = 0; i < 10 && n < 5; i++) { /* tries may be refused */
		uint64_t k = fn(ms);
		if (k)
			v[n++] = k;
	}
	if (!n)
		return 0;
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (v[j] < v[i]) {
				uint64_t t = v[i];
				v[i] = v[j];
				v[j] = t;
			}
	return v[n / 2];
}

static uint64_t from_cpuid(const char **src)
{
	struct cpuid_regs r;
	if (cpu_facts.max_leaf >= 0x15) {
		cpuid(0x15, &r);
		/* EAX/EBX = TSC/crystal ratio; ECX = crystal Hz (0 when not enumerated). */
		if (r.eax && r.ebx && r.ecx) {
			*src = "cpuid15";
			return (uint64_t)r.ecx * r.ebx / r.eax / 1000;
		}
	}
	if (cpu_facts.max_leaf >= 0x16) {
		cpuid(0x16, &r);
		if (r.eax & 0xffff) {
			*src = "cpuid16";
			return (uint64_t)(r.eax & 0xffff) * 1000;
		}
	}
	return 0;
}

int tsc_init(void)
{
	const char *force = cmdline_str("tsc", "auto");
	/* A word that is none of them was refused at boot (main.c); here it
	 * would read as pit. */
	int how = cmdline_word_index(CMDLINE_ALTS(CMDLINE_VOCAB_TSC), force);
	uint64_t khz = 0;
	if (how == CMDLINE_TSC_AUTO || how == CMDLINE_TSC_CPUID)
		khz = from_cpuid(&tsc_source);
	if (!khz && (how == CMDLINE_TSC_AUTO || how == CMDLINE_TSC_PMTIMER) && acpi.fadt.pm_tmr_port) {
		khz = best_of(try_pmtimer, 50);
		tsc_source = "pmtimer";
	}
	if (!khz && how != CMDLINE_TSC_CPUID) {
		khz = best_of(try_pit, 50);
		tsc_source = "pit";
	}
	if (!khz) {
		kprintf("xcbench: error: could not determine the TSC frequency (tsc=%s)\n", force);
		tsc_source = "none";
		return -1;
	}
	tsc_khz = khz;
	return 0;
}
