/* arch/cpuid.c — collect CPU facts (arch/cpuid.h). */
#include "arch/cpuid.h"
#include "arch/cpu.h"
#include "lib/printf.h"
#include "lib/string.h"

struct cpu_facts cpu_facts;

static void regs_str(char *dst, uint32_t a, uint32_t b, uint32_t c)
{
	memcpy(dst, &a, 4);
	memcpy(dst + 4, &b, 4);
	memcpy(dst + 8, &c, 4);
	dst[12] = 0;
}

static int extended_topo(uint32_t leaf, struct topo_shifts *out)
{
	struct cpuid_regs lv[8];
	unsigned n = 0;
	for (; n < 8; n++) {
		cpuid_count(leaf, n, &lv[n]);
		if (((lv[n].ecx >> 8) & 0xff) == 0)
			break;
	}
	return topo_from_extended_leaf(lv, n, out);
}

void cpuid_collect(void)
{
	struct cpu_facts *f = &cpu_facts;
	struct cpuid_regs r;
	cpuid(0, &r);
	f->max_leaf = r.eax;
	regs_str(f->vendor, r.ebx, r.edx, r.ecx);
	cpuid(1, &r);
	uint32_t fam = (r.eax >> 8) & 0xf, model = (r.eax >> 4) & 0xf;
	if (fam == 0xf)
		fam += (r.eax >> 20) & 0xff;
	if (fam >= 6)
		model |= ((r.eax >> 16) & 0xf) << 4;
	f->family = fam;
	f->model = model;
	f->stepping = r.eax & 0xf;
	f->x2apic = (r.ecx >> 21) & 1;
	f->pcid = (r.ecx >> 17) & 1;
	f->monitor = (r.ecx >> 3) & 1;
	f->tsc_deadline = (r.ecx >> 24) & 1;
	bool htt = (r.edx >> 28) & 1;
	uint32_t logical = htt ? (r.ebx >> 16) & 0xff : 1;
	if ((r.ecx >> 31) & 1) {
		struct cpuid_regs h;
		cpuid(0x40000000, &h);
		regs_str(f->hypervisor, h.ebx, h.ecx, h.edx);
	}
	if (f->max_leaf >= 7) {
		cpuid_count(7, 0, &r);
		f->invpcid = (r.ebx >> 10) & 1;
	}
	cpuid(0x80000000, &r);
	f->max_ext_leaf = r.eax;
	if (f->max_ext_leaf >= 0x80000001) {
		cpuid(0x80000001, &r);
		f->rdtscp = (r.edx >> 27) & 1;
		f->pdpe1gb = (r.edx >> 26) & 1;
	}
	if (f->max_ext_leaf >= 0x80000004) {
		uint32_t *b = (uint32_t *)f->brand;
		for (uint32_t l = 0; l < 3; l++) {
			cpuid(0x80000002 + l, &r);
			b[l * 4 + 0] = r.eax;
			b[l * 4 + 1] = r.ebx;
			b[l * 4 + 2] = r.ecx;
			b[l * 4 + 3] = r.edx;
		}
		f->brand[48] = 0;
		/* Trim the leading spaces some Intel parts pad with. */
		char *s = f->brand;
		while (*s == ' ')
			s++;
		memmove(f->brand, s, strlen(s) + 1);
	}
	if (f->max_ext_leaf >= 0x80000007) {
		cpuid(0x80000007, &r);
		f->invariant_tsc = (r.edx >> 8) & 1;
	}
	if (f->max_leaf >= 0x1f && !extended_topo(0x1f, &f->topo)) {
		f->topo_source = "leaf1f";
	} else if (f->max_leaf >= 0xb && !extended_topo(0xb, &f->topo)) {
		f->topo_source = "leaf0b";
	} else {
		uint32_t cores = 0;
		if (!strcmp(f->vendor, "GenuineIntel") && f->max_leaf >= 4) {
			cpuid_count(4, 0, &r);
			if (r.eax & 0x1f)
				cores = ((r.eax >> 26) & 0x3f) + 1;
		} else if (f->max_ext_leaf >= 0x80000008) {
			cpuid(0x80000008, &r);
			cores = (r.ecx & 0xff) + 1;
		}
		topo_from_legacy(logical, cores, &f->topo);
		f->topo_source = "legacy";
	}
}

static const char *yn(bool b) { return b ? "yes" : "no"; }

void cpuid_report(void)
{
	const struct cpu_facts *f = &cpu_facts;
	kprintf("xcbench: cpu vendor %s family 0x%x model 0x%x stepping %u brand \"%s\"\n", f->vendor,
		f->family, f->model, f->stepping, f->brand);
	kprintf("xcbench: hypervisor %s, x2apic %s, pcid %s, invpcid %s, invariant tsc %s, "
		"topology %s (smt shift %u, pkg shift %u)\n",
		f->hypervisor[0] ? f->hypervisor : "none", yn(f->x2apic), yn(f->pcid), yn(f->invpcid),
		yn(f->invariant_tsc), f->topo_source, f->topo.smt_shift, f->topo.pkg_shift);
}
