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

/* Set once at init, before any IPI can arrive. */
static unsigned inited, ncpus_all;
/* The pool kinds each algorithm got, by its place in xcall_algos. */
static unsigned kinds[XCALL_MAX_ALGOS][XCALL_MAX_IPI];
static char init_err[160];

const char *xcall_init_error(void)
{
	return init_err;
}

/* init_err = "xcall: <algo>: <what>" (a tiny formatter: xcall/ has no printf). */
static int init_fail(const char *algo, const char *what, unsigned n)
{
	char *p = init_err, *end = init_err + sizeof(init_err) - 1;
	const char *parts[] = { "xcall: ", algo, ": ", what };

	for (unsigned i = 0; i < 4; i++)
		for (const char *s = parts[i]; *s && p < end; s++)
			*p++ = *s;
	if (n != XCALL_IPI_NONE) {
		char d[12];
		int k = 0;
		do
			d[k++] = (char)('0' + n % 10);
		while ((n /= 10) && k < 11);
		while (k && p < end)
			*p++ = d[--k];
	}
	*p = 0;
	return -1;
}

int xcall_init_all(unsigned ncpus)
{
	if (inited && ncpus_all == ncpus)
		return 0;		/* already done (smoke test and bench both call it) */
	ncpus_all = ncpus;
	init_err[0] = 0;
	if (xcall_algo_overflow())
		return init_fail("registry", "more algorithms than XCALL_MAX_ALGOS: raise it, extra ", xcall_algo_overflow());
	plat_ipi_pool_reset();
	for (unsigned ai = 0; xcall_algos[ai]; ai++) {
		const struct xcall_ops *o = xcall_algos[ai];
		unsigned *ipi = kinds[ai];

		/* the declaration first: a missing name is said as such */
		if (xcall_decl_error(o))
			return init_fail(o->name ? o->name : "(no name)", xcall_decl_error(o), XCALL_IPI_NONE);
		if (xcall_name_reserved(o->name))
			return init_fail(o->name, xcall_name_reserved(o->name), XCALL_IPI_NONE);
		if (o->nipi < 1 || o->nipi > XCALL_MAX_IPI)
			return init_fail(o->name, "nipi must be 1..XCALL_MAX_IPI, is ", o->nipi);
		if (!o->waits || (o->waits & ~XCALL_WAITS_ALL))
			return init_fail(o->name, "waits must be a non-empty XCALL_WAIT_BIT() set", XCALL_IPI_NONE);
		/* Vectors first: a pool that ran out is an error naming the
		 * algorithm, never a silent vector 0. */
		for (unsigned k = 0; k < o->nipi; k++) {
			int kind = plat_ipi_alloc();
			if (kind < 0)
				return init_fail(o->name, "IPI vector pool exhausted (platform.h PLAT_IPI_POOL), in use: ",
						 PLAT_IPI_POOL);
			if (!o->handle_ipi[k])
				return init_fail(o->name, "no handle_ipi for vector ", k);
			ipi[k] = (unsigned)kind;
		}
		if (o->init(ncpus, ipi) < 0)
			return init_fail(o->name, "init failed at cpus=", ncpus);
		for (unsigned k = 0; k < o->nipi; k++)
			plat_ipi_register((enum plat_ipi)ipi[k], o->handle_ipi[k]);
	}
	xcall_raw_init_state();
	plat_ipi_register(PLAT_IPI_RAW, xcall_raw_ipi);
	inited = 1;
	return 0;
}

int xcall_algo_ipi(const struct xcall_ops *ops, unsigned k)
{
	for (unsigned ai = 0; inited && xcall_algos[ai]; ai++)
		if (xcall_algos[ai] == ops && k < ops->nipi)
			return (int)kinds[ai][k];
	return -1;
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
