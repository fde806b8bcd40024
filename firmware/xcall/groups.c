/*
 * xcall/groups.c — the topology domains hierarchical algorithms group by,
 * and their grouping rule as a pure function (see groups.h, xcall.h).
 */
#include "xcall/groups.h"
#include "xcall/xcall.h"

/* Written once before any call (runner_init), read by initiators only. */
static const unsigned *domains;

void xcall_set_domains(const unsigned *dom_of)
{
	domains = dom_of;
}

const unsigned *xcall_domains(void)
{
	return domains;
}

unsigned xcall_group_leaders(const struct amask *targets, unsigned nwords, unsigned g,
			     const unsigned *dom, struct amask *leaders)
{
	unsigned t, in = 0, lead = 0, n = 0;

	for (unsigned k = 0; k < nwords; k++)
		leaders->w[k] = 0;
	amask_for_each(t, targets, nwords) {
		if (xcall_group_starts(in, g, dom, t, lead)) {
			lead = t;
			in = 0;
			leaders->w[t / 64] |= amask_bit(t);
			n++;
		}
		in++;
	}
	return n;
}
