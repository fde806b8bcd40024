/*
 * xcall.c — the registry of cross-call algorithms (each on its own IPI
 * vector) and wait-mode names.
 */
#include "xcall/xcall.h"
#include "xcb_schema.h"
#include "xcall/platform.h"
#include "xcall/amask.h"
#include "xcall/xcall_internal.h"
#include "lib/cpumask.h"

const struct xcall_ops *const xcall_algos[] = {
	&xcall_locked, &xcall_lockless, &xcall_queued, NULL,
};

/* Which algorithms are initialised. Set once at init, before any IPI can
 * arrive. */
static const struct xcall_ops *live[4];
static unsigned nlive, ncpus_all;

static int streq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

const struct xcall_ops *xcall_find(const char *name)
{
	for (unsigned i = 0; xcall_algos[i]; i++)
		if (streq(xcall_algos[i]->name, name))
			return xcall_algos[i];
	return NULL;
}


int xcall_init_all(unsigned ncpus)
{
	if (nlive && ncpus_all == ncpus)
		return 0;		/* already done (smoke test and bench both call it) */
	nlive = 0;
	ncpus_all = ncpus;
	for (unsigned i = 0; xcall_algos[i]; i++) {
		if (xcall_algos[i]->init(ncpus) < 0)
			return -1;
		live[nlive++] = xcall_algos[i];
	}
	xcall_raw_init_state();
	for (unsigned i = 0; i < nlive; i++)
		plat_ipi_register((enum plat_ipi)live[i]->ipi, live[i]->handle_ipi);
	plat_ipi_register(PLAT_IPI_RAW, xcall_raw_ipi);
	return 0;
}

int xcall_prepare_targets(struct amask *out, const struct cpumask *mask)
{
	unsigned me = plat_cpu_id(), nw = amask_words(ncpus_all), any = 0;

	amask_from_cpumask(out, mask, ncpus_all);
	out->w[me / 64] &= ~amask_bit(me);	/* never call ourselves */
	for (unsigned i = 0; i < nw; i++)
		any |= out->w[i] != 0;
	return !any;
}

_Static_assert((int)AMASK_MAX_CPUS == (int)XCB_MAX_CPUS, "amask and cpumask must agree");

void amask_from_cpumask(struct amask *dst, const struct cpumask *src, unsigned ncpus)
{
	for (unsigned i = 0; i < AMASK_WORDS; i++) {
		uint64_t w = src->bits[i];
		if (ncpus <= i * 64)
			w = 0;
		else if (ncpus < (i + 1) * 64)
			w &= (1ull << (ncpus - i * 64)) - 1;	/* online CPUs only */
		dst->w[i] = w;
	}
}
