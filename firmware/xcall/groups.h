/*
 * xcall/groups.h — how hierarchical algorithms (tree) cut a call's targets
 * into groups: runs of targets in CPU order of at most G, and, where the
 * topology is known (xcall_domains()), never across a domain (package)
 * boundary, so a leader forwards only within its own package.
 */
#ifndef XCB_XCALL_GROUPS_H
#define XCB_XCALL_GROUPS_H

#include "xcall/amask.h"

/* Whether target t starts a new group: the current one (led by `lead`, `in`
 * members so far; 0 before the first target) is full, or t lies in another
 * domain than its leader. */
static inline int xcall_group_starts(unsigned in, unsigned g, const unsigned *dom, unsigned t, unsigned lead)
{
	return in == 0 || in >= g || (dom && dom[t] != dom[lead]);
}

/* The leaders of `targets` cut that way (a pure helper: host-tested, and
 * what tree.c's one loop computes along with the group sizes). Returns the
 * number of groups. */
unsigned xcall_group_leaders(const struct amask *targets, unsigned nwords, unsigned g,
			     const unsigned *dom, struct amask *leaders);

#endif
