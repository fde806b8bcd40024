/*
 * registry.c — the cross-call algorithms linked in: the linker table that
 * XCALL_ALGO() entries fill (section `xcall_algos`), sorted by name once,
 * and lookup by name. No platform code here, so suite tests can link it
 * with stand-in entries.
 */
#include "xcall/xcall.h"

/* Defined by the linker: GNU ld for any section named like a C identifier
 * (host), boot/linker.ld for the payload. */
extern const struct xcall_ops *const __start_xcall_algos[];
extern const struct xcall_ops *const __stop_xcall_algos[];

/* Sorted copy, NULL-terminated. Written once by the first xcall_algo_list()
 * (CPU 0, before the APs run: xcall.h), read-only after. */
static const struct xcall_ops *sorted[XCALL_MAX_ALGOS + 1];
static unsigned nsorted, overflow;
static int ready;

static int cmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

const struct xcall_ops *const *xcall_algo_list(void)
{
	if (ready)
		return sorted;
	for (const struct xcall_ops *const *e = __start_xcall_algos; e < __stop_xcall_algos; e++) {
		if (nsorted == XCALL_MAX_ALGOS) {
			overflow++;	/* xcall_init_all() refuses to start */
			continue;
		}
		/* insertion by name */
		unsigned i = nsorted++;
		while (i > 0 && cmp(sorted[i - 1]->name, (*e)->name) > 0) {
			sorted[i] = sorted[i - 1];
			i--;
		}
		sorted[i] = *e;
	}
	sorted[nsorted] = 0;
	ready = 1;
	return sorted;
}

unsigned xcall_algo_count(void)
{
	xcall_algo_list();
	return nsorted;
}

/* Entries that did not fit XCALL_MAX_ALGOS (0 normally). */
unsigned xcall_algo_overflow(void)
{
	xcall_algo_list();
	return overflow;
}

const struct xcall_ops *xcall_find(const char *name)
{
	for (const struct xcall_ops *const *a = xcall_algo_list(); *a; a++)
		if (!cmp((*a)->name, name))
			return *a;
	return 0;
}
