/*
 * faults.c - the fault-injection keys (faults.h), parsed once at boot. A bad
 * value is refused, never taken as "off": a test that typed hang_cpu=x or
 * ipidrop_cpu=9 on 4 CPUs would otherwise pass without its fault ever
 * happening, and prove nothing.
 */
#include "bench/faults.h"
#include "lib/cmdline.h"
#include "lib/cmdline_words.h"
#include "lib/printf.h"
#include "xcall/platform.h"

struct bench_faults faults = { ~0u, ~0u, ~0u, ~0u };

/* ipidrop's words, in enum plat_lost's order (its index is the site):
 * xcall/platform.h makes the enum of the same list. */
static const char *const lost_words = CMDLINE_ALTS(CMDLINE_VOCAB_IPIDROP);

/* ipidrop=, ipidrop_cpu=, ipidrop_after= into *f; 0 or -1 (said). */
static int lost_keys(unsigned ncpus, struct plat_faults *f)
{
	int site = cmdline_choice("ipidrop", lost_words, PLAT_LOST_NONE);
	int rc = cmdline_cpu("ipidrop_cpu", ncpus, &f->lost_cpu) |
		 cmdline_u64("ipidrop_after", 0, &f->lost_after);

	if (site < 0 || rc < 0)
		return -1;
	/* One without the other loses nothing: say so rather than run a
	 * fault test whose fault never happens. */
	if ((site != PLAT_LOST_NONE) != cmdline_has("ipidrop_cpu")) {
		kprintf("xcbench: error: cmdline key '%s': needs %s too (ipidrop=SITE ipidrop_cpu=N)\n",
			site != PLAT_LOST_NONE ? "ipidrop" : "ipidrop_cpu",
			site != PLAT_LOST_NONE ? "ipidrop_cpu=N" : "ipidrop=SITE");
		return -1;
	}
	if (cmdline_has("ipidrop_after") && site != PLAT_LOST_MASK && site != PLAT_LOST_VECTOR) {
		kprintf("xcbench: error: cmdline key 'ipidrop_after': applies to ipidrop=mask|vector only\n");
		return -1;
	}
	f->lost_site = (enum plat_lost)site;
	return 0;
}

/* rawwait_ms= into *f (0: not given); 0 or -1 (said). */
static int rawwait_key(struct plat_faults *f)
{
	if (cmdline_u64("rawwait_ms", 0, &f->raw_wait_ms) < 0)
		return -1;
	if (cmdline_has("rawwait_ms") && f->raw_wait_ms < CMDLINE_RAWWAIT_MIN_MS) {
		kprintf("xcbench: error: cmdline key 'rawwait_ms': %llu ms is below %u ms "
			"(a slow answer would read as a lost one)\n",
			(unsigned long long)f->raw_wait_ms, CMDLINE_RAWWAIT_MIN_MS);
		f->raw_wait_ms = 0;
		return -1;
	}
	return 0;
}

int faults_init(unsigned ncpus)
{
	struct bench_faults b;
	struct plat_faults p = { PLAT_LOST_NONE, ~0u, 0, ~0u, 0 };
	/* Every key read (|, not ||), so each bad one is said at once. */
	int rc = cmdline_cpu("hang_cpu", ncpus, &b.hang_cpu) | cmdline_cpu("fault_cpu", ncpus, &b.fault_cpu) |
		 cmdline_cpu("dupskip_cpu", ncpus, &b.dupskip_cpu) |
		 cmdline_cpu("startfail_cpu", ncpus, &b.startfail_cpu) |
		 cmdline_cpu("fwddrop_cpu", ncpus, &p.fwddrop_cpu) | lost_keys(ncpus, &p) |
		 rawwait_key(&p);

	if (rc < 0) {
		b = (struct bench_faults){ ~0u, ~0u, ~0u, ~0u };
		p = (struct plat_faults){ PLAT_LOST_NONE, ~0u, 0, ~0u, 0 };
	}
	faults = b;
	plat_faults_set(&p);
	return rc < 0 ? -1 : 0;
}
