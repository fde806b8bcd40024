/*
 * tree.c — "tree": a two-level fan-out for machines where one CPU sending
 * 1023 IPIs is the bottleneck. The initiator IPIs one leader per group of G
 * targets (G = the `group` setting, default 8; groups are runs of targets in
 * CPU order that never cross a package where the topology is known,
 * xcall/groups.h), each leader forwards the IPI to the rest of its group, and
 * completion is aggregated per group: the last member of a group to check
 * in clears the group's bit, and the initiator waits for the group mask
 * only — G times fewer writers of the initiator's line than a flat scheme.
 *
 * It is also the guide's worked example (docs/ADDING-AN-ALGORITHM.md).
 *
 * Shared state per initiator (one descriptor, as lockless.c): fn/arg/wait,
 * the targets and leaders of the call in flight (plain: written only while
 * `groups` is empty, read by a target only after it saw its `pending` bit
 * with acquire), `pending` (targets that have not picked the call up; each
 * clears its own bit, so a later scan skips it), and `groups` (leaders whose
 * group has not finished). A global `tasks` mask of initiators with a call
 * in flight is what a receiver scans, as in lockless.c, so a target served
 * early by another IPI of this vector is fine: its leader's forward then
 * finds nothing for it.
 *
 * Ordering the framework does not give and this file does:
 *   initiator: data, targets, leaders, counters -> release pending -> seq_cst
 *     tasks bit -> IPIs to leaders;
 *   target: acquire pending bit -> read data -> clear own pending bit (before
 *     the check-in: after it the initiator may store the next call's bits) ->
 *     acq_rel decrement of its group's counter -> the last one releases the
 *     group bit, carrying every member's effects (release sequence) to the
 *     initiator's acquire of the empty group mask.
 * No CPU ever waits inside the handler, so a leader that is also a member
 * of another initiator's group cannot deadlock the two calls.
 */
#include "xcall/xcall.h"
#include "xcall/platform.h"
#include "xcall/amask.h"
#include "xcall/groups.h"
#include "xcall/xcall_internal.h"

#define TREE_G_DEFAULT 8

struct tree_call {
	/* Written by the owning CPU only while `groups` is empty. */
	struct xcall_req req;
	struct amask targets;
	struct amask leaders;
	/* Every target writes these: lines of their own. */
	struct amask pending __attribute__((aligned(64)));
	struct amask groups __attribute__((aligned(64)));
} __attribute__((aligned(64)));

static struct tree_call *calls;		/* [initiator] */
static uint32_t *left;			/* [initiator * ncpus + leader]: members to check in */
static struct amask tasks;		/* initiators whose descriptor may hold a call */
static unsigned nwords, ncpus_t, tree_ipi, group_size = TREE_G_DEFAULT;

static int tree_init(unsigned ncpus, const unsigned *ipi)
{
	if (amask_nwords(ncpus, &nwords))
		return -1;
	if (!calls || ncpus_t != ncpus) {
		calls = plat_alloc_zeroed((unsigned long)ncpus * sizeof(*calls));
		left = plat_alloc_zeroed((unsigned long)ncpus * ncpus * sizeof(*left));
		if (!calls || !left)
			return -1;
	}
	ncpus_t = ncpus;
	tree_ipi = ipi[0];
	return 0;
}

/* Group size: between cases (quiescent), on CPU 0. 0 = the default. */
static unsigned tree_set_group(unsigned g)
{
	group_size = g ? g : TREE_G_DEFAULT;
	return group_size;
}

/* The leader of `me`'s group: the highest leader bit at or below me. */
static unsigned leader_of(const struct amask *l, unsigned me)
{
	for (int w = (int)(me / 64); w >= 0; w--) {
		uint64_t b = l->w[w];
		if ((unsigned)w == me / 64 && me % 64 != 63)
			b &= (2ull << (me % 64)) - 1;
		if (b)
			return (unsigned)w * 64 + 63 - (unsigned)__builtin_clzll(b);
	}
	return me;	/* not reached: every target lies in a group */
}

static void tree_call(const struct cpumask *mask, xcall_fn_t fn, void *arg, enum xcb_wait w)
{
	unsigned me = plat_cpu_id(), t, in = 0, lead = 0;
	const unsigned *dom = xcall_domains();
	struct tree_call *d = &calls[me];
	struct amask targets, leaders = { { 0 } };

	if (xcall_prepare_targets(&targets, mask))
		return;

	/* Reuse rule: every group of the previous call checked in (acquire:
	 * pairs with the last member's release clear), so no target still
	 * reads the fields rewritten below. Interrupts on meanwhile. A slow
	 * wait names a target that never picked the call up (`pending`), not
	 * only its group's leader (xcall_wait_empty_naming). */
	xcall_wait_empty_naming(&d->groups, &d->pending, nwords,
				"tree: previous call's group not done");

	d->req = (struct xcall_req){ fn, arg, w };
	d->targets = targets;
	/* A target leads the group from it on when the last one is full (G) or
	 * lies in another package (groups.h: xcall_group_starts). */
	amask_for_each(t, &targets, nwords) {
		if (xcall_group_starts(in, group_size, dom, t, lead)) {
			in = 0;
			lead = t;
			leaders.w[t / 64] |= amask_bit(t);
			/* relaxed: published by the release on pending below. */
			__atomic_store_n(&left[me * ncpus_t + t], 0, __ATOMIC_RELAXED);
		}
		in++;
		__atomic_store_n(&left[me * ncpus_t + lead],
				 __atomic_load_n(&left[me * ncpus_t + lead], __ATOMIC_RELAXED) + 1,
				 __ATOMIC_RELAXED);
	}
	d->leaders = leaders;
	/* relaxed: the release on pending below publishes it too. */
	amask_store(&d->groups, &leaders, nwords, __ATOMIC_RELAXED);
	/* release on pending: a target that sees its bit (acquire) sees all
	 * the above; then the seq_cst RMW, a full barrier: pending before the
	 * tasks bit, the tasks bit before the IPIs (lockless.c's two barriers,
	 * same reasons: xcall_publish). */
	xcall_publish(&d->pending, &targets, &tasks, me, nwords);

	amask_for_each(t, &leaders, nwords)
		plat_send_ipi(t, (enum plat_ipi)tree_ipi);	/* one unicast per leader */

	if (w == XCB_WAIT_NONE)
		return;	/* tasks bit stays: cleared by a later waited call */
	/* acquire: pairs with each group's last release clear (ack: all read
	 * fn/arg; done: all finished fn, effects visible); then the release
	 * clear of our tasks bit, after the empty groups was seen (lockless.c:
	 * Jan's rule; xcall_finish). A slow wait names, as above, a target
	 * that never picked the call up, else a leader whose group is out. */
	xcall_finish(&d->groups, &d->pending, &tasks, me, nwords, "tree: group not done");
}

/* A leader's forward: the IPI to the rest of its group (the targets after
 * it, up to the next leader). */
static void forward(const struct tree_call *d, unsigned me)
{
	unsigned t;

	amask_for_each(t, &d->targets, nwords) {
		if (t <= me)
			continue;
		if (d->leaders.w[t / 64] & amask_bit(t))
			return;	/* the next group's leader: ours ends here (a break
				 * leaves only this word of amask_for_each) */
		plat_send_ipi(t, (enum plat_ipi)tree_ipi);
	}
}

/* Check in with our group; the last one in completes it. */
static void check_in(struct tree_call *d, unsigned initiator, unsigned lead)
{
	/* acq_rel: each member's release joins the release sequence the last
	 * one's acquire sees, and its release clear below hands all of them on
	 * to the initiator's acquire of the empty mask. */
	if (__atomic_sub_fetch(&left[initiator * ncpus_t + lead], 1, __ATOMIC_ACQ_REL) == 0)
		amask_clear(&d->groups, lead, __ATOMIC_RELEASE);
}

/* Initiator i's call, if it has one for us: forward it if we lead our
 * group, run it and check in. */
static void tree_serve(unsigned i, unsigned me)
{
	struct tree_call *d = &calls[i];

	/* acquire: the data is read only after we saw our bit. */
	if (!amask_test(&d->pending, me, __ATOMIC_ACQUIRE))
		return;
	struct xcall_req c = d->req;
	unsigned lead = leader_of(&d->leaders, me);

	if (lead == me)
		forward(d, me);
	/* relaxed: only we clear our bit, and the check-in's release below
	 * orders it before the initiator's next store of it. */
	amask_clear(&d->pending, me, __ATOMIC_RELAXED);
	if (c.wait == XCB_WAIT_DONE) {
		xcall_run(c.fn, c.arg);
		check_in(d, i, lead);
	} else {
		check_in(d, i, lead);	/* after our reads of fn/arg */
		xcall_run(c.fn, c.arg);
	}
}

static void tree_handle_ipi(void)
{
	/* acquire (xcall_serve_tasks): pairs with the initiators' seq_cst set
	 * of their tasks bit. */
	xcall_serve_tasks(&tasks, nwords, tree_serve);
}

/* Quiescent: drop the tasks bits wait=none calls left (lockless.c says why). */
static void tree_reset(void)
{
	xcall_reset_tasks(&tasks, ncpus_t, nwords, &calls[0].groups, sizeof(calls[0]));
}

XCALL_ALGO(tree,
	.desc = "two-level fan-out: one IPI per leader of G targets, leaders forward, completion per group",
	.nipi = 1, .waits = XCALL_WAITS_ALL, .sends = XCALL_SENDS_UNICAST,
	.set_group = tree_set_group, .reset = tree_reset);
