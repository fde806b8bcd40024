/*
 * ledger.h - the exactly-once ledger: every call carries its own sequence number
 * per (initiator, target), and each target records which numbers it ran.
 *
 * Why sequence numbers and not a count: every call of an initiator has the same fn,
 * so with counts one lost call and one duplicated call cancel out. Why per target
 * and padded: the callee writes its entry INSIDE the timed call; an entry that shared
 * a cache line with another target's (the old wd_done[from][*], eight targets per
 * line) made the harness's own cost grow with the mask size, the axis under study.
 *
 * The one exactly-once ledger of the tree: the runner's timed cases, the payload's
 * smoke test (bench/smoke.c) and the algorithms' host test (tests/test_xcall.c) all
 * book their calls here; the watchdog reads it to say who waits on whom. The
 * algorithms themselves keep no books (xcall/ runs fn and nothing else), so the
 * cost of checking is the harness's, in the callee it passes, never the
 * algorithm's. Numbers rise per initiator slot; a target may see a subset of them
 * (a mask that changes from call to call): ledger_judge() takes how many went to
 * this target and the highest number the slot issued.
 *
 * Layout: one 64-byte entry per (target CPU, initiator slot), a target's entries
 * contiguous, sized from the CPU count and allocated once at boot (no static N^2
 * array). Only the target writes an entry; its last store (the run count) is a
 * release that CPU 0's acquire load of it pairs with when it judges, after the timed
 * calls - so a call still landing (wait=ack/none) is seen whole or not at all.
 */
#ifndef XCB_BENCH_LEDGER_H
#define XCB_BENCH_LEDGER_H

#include <stdint.h>

#define LEDGER_LINE 64

struct ledger_ent {
	uint64_t hi;	/* highest sequence number run (they start at 1); 0: none */
	uint64_t win;	/* bit d set: number hi - d has run (d < 64) */
	uint64_t runs;	/* callee runs */
	uint64_t dup;	/* runs of a number that had run already */
	uint64_t ooo;	/* runs of a number after a later one had run */
	uint64_t old;	/* runs of a number more than 64 behind hi (not told apart) */
} __attribute__((aligned(LEDGER_LINE)));

/* Per initiator: what its targets' entries add up to against what it issued. */
struct ledger_verdict {
	uint64_t expected;	/* calls issued, summed over targets */
	uint64_t ran;		/* distinct calls run, summed over targets */
	uint64_t lost, dup, ooo;
	/* ledger_judge_mask: the targets with a call lost, duplicated or out
	 * of order, and the first of them in CPU order (valid when
	 * bad_targets > 0): the CPU an algorithm's author looks at, which
	 * the sums above do not name. */
	unsigned targets, bad_targets, bad_target;
};

/* A call's argument is a value, not a pointer: (sequence number << LEDGER_SLOT_BITS)
 * | the initiator's slot. So wait=none calls need no storage that outlives them, and
 * the callee reads nothing another CPU writes. */
#define LEDGER_SLOT_BITS 10	/* up to 1024 initiator slots; 54 bits of sequence number */
#define LEDGER_MAX_SLOTS (1u << LEDGER_SLOT_BITS)

static inline void *ledger_arg(unsigned slot, uint64_t seq)
{
	return (void *)(uintptr_t)(seq << LEDGER_SLOT_BITS | slot);
}
static inline unsigned ledger_arg_slot(const void *arg)
{
	return (unsigned)((uintptr_t)arg & (LEDGER_MAX_SLOTS - 1));
}
static inline uint64_t ledger_arg_seq(const void *arg)
{
	return (uint64_t)(uintptr_t)arg >> LEDGER_SLOT_BITS;
}

/* Use `mem` (>= ledger_bytes(), 64-byte aligned, zeroed) for ncpus x slots entries. */
unsigned long ledger_bytes(unsigned ncpus, unsigned slots);
void ledger_setup(void *mem, unsigned ncpus, unsigned slots);
/* Zero every entry (quiescent: no call in flight). */
void ledger_reset(void);
struct ledger_ent *ledger_at(unsigned target, unsigned slot);

/* The callee's entry for its `arg` on CPU `target`, or NULL for an arg no call
 * passed (a slot past the ledger's, or number 0): the algorithm handed fn a
 * wrong argument. Counted (ledger_wild), never written through: such an arg
 * indexed past the ledger and wrote over whatever lay beyond it, and the
 * verdict was of corrupted books. The call whose arg it was is then lost. */
struct ledger_ent *ledger_entry_of(unsigned target, const void *arg);
/* How many callee runs came with such an arg since ledger_reset/setup, and
 * the first of those args (*first, when not NULL). */
uint64_t ledger_wild(const void **first);
/* In the callee, on CPU `target`: call `seq` of initiator slot `slot` ran. */
void ledger_note(struct ledger_ent *e, uint64_t seq);
/* Adds to *v what entry e says about an initiator that issued `issued` calls to
 * this target, numbered at most `last` (a fixed mask: issued == last, numbers
 * 1..issued; a changing one: a subset of 1..last). */
void ledger_judge(const struct ledger_ent *e, uint64_t issued, uint64_t last,
		  struct ledger_verdict *v);
/* ledger_judge() for a mask that changes from call to call, with the numbers
 * too: bit d of sent_win set = number last - d was sent to this target (d < 64).
 * Within that window a number the target ran but was never sent counts as a
 * duplicate (a call delivered to the wrong target) and one sent but not run as
 * lost - the pair that cancels in a count of calls. Older numbers: by count. */
void ledger_judge_sent(const struct ledger_ent *e, uint64_t issued, uint64_t last,
		       uint64_t sent_win, struct ledger_verdict *v);
/* ledger_judge() over every target in the mask of slot `slot` (a fixed mask:
 * `issued` calls to each); also counts the targets and names the first bad. */
struct cpumask;
void ledger_judge_mask(const struct cpumask *targets, unsigned slot, uint64_t issued,
		       struct ledger_verdict *v);
/* Whether entry e shows that call `seq` ran: a number at most 64 behind the
 * highest by its bit of the window, an older one assumed (not told apart). For
 * wait=done, read by the initiator once call() returned (bench/initiator.c,
 * bench/smoke.c): relaxed loads, because a correct done ordered the callee's
 * note before that return (its check-in release, the initiator's acquire);
 * one that returned early is what the check looks for, and then the note
 * may be missing or half written. */
int ledger_shows(const struct ledger_ent *e, uint64_t seq);
/* Highest number this target has run for that slot (watchdog: who waits on whom). */
uint64_t ledger_hi(unsigned target, unsigned slot);

#endif
