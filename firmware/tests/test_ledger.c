/*
 * test_ledger.c - host tests of what makes the harness's numbers trustworthy
 * (issue 13): the exactly-once ledger's layout (no two targets' entries on one
 * cache line) and its verdicts (a skipped plus a duplicated call no longer cancel),
 * and fairness as Jain's index over per-initiator throughput.
 */
#include <stdlib.h>
#include <string.h>
#include "tests/xcb_test.h"

#include "bench/ledger.h"
#include "lib/cpumask.h"
#include "bench/stats.h"

#define NCPU 16
#define SLOTS 4

/* 1 if no two of the n objects written by different CPUs share a 64-byte line.
 * writer[i] is the CPU that writes object i (its address addr[i], size sz). */
static int lines_private(const void *const *addr, const unsigned *writer, unsigned n, size_t sz)
{
	for (unsigned i = 0; i < n; i++)
		for (unsigned j = 0; j < n; j++) {
			if (writer[i] == writer[j])
				continue;
			uintptr_t a0 = (uintptr_t)addr[i] / 64, a1 = ((uintptr_t)addr[i] + sz - 1) / 64;
			uintptr_t b0 = (uintptr_t)addr[j] / 64, b1 = ((uintptr_t)addr[j] + sz - 1) / 64;
			if (a0 <= b1 && b0 <= a1)
				return 0;
		}
	return 1;
}

static void *ledger_mem(void)
{
	void *m = NULL;
	assert_int_equal(posix_memalign(&m, 64, ledger_bytes(NCPU, SLOTS)), 0);
	memset(m, 0, ledger_bytes(NCPU, SLOTS));
	ledger_setup(m, NCPU, SLOTS);
	return m;
}

/* The false-sharing layout check. It fails on the old ledger - a uint64_t
 * wd_done[initiator][target], 8 targets per line, written by each target inside
 * the timed call - and passes on the new one. */
static void test_ledger_layout(void **st)
{
	(void)st;
	static uint64_t old[NCPU][NCPU] __attribute__((aligned(64)));
	const void *addr[NCPU * SLOTS];
	unsigned writer[NCPU * SLOTS], n = 0;

	/* Old layout: initiator 0's column, one entry per target. */
	for (unsigned t = 0; t < NCPU; t++) {
		addr[n] = &old[0][t];
		writer[n++] = t;
	}
	assert_false(lines_private(addr, writer, n, sizeof(old[0][0])));

	/* New layout: every (target, slot) entry; the writer is the target. */
	void *m = ledger_mem();
	n = 0;
	for (unsigned t = 0; t < NCPU; t++)
		for (unsigned k = 0; k < SLOTS; k++) {
			addr[n] = ledger_at(t, k);
			writer[n++] = t;
		}
	assert_true(lines_private(addr, writer, n, sizeof(struct ledger_ent)));
	assert_int_equal(sizeof(struct ledger_ent) % 64, 0);
	free(m);
}

/* The verdict of one entry, judged alone, must be exactly (ran, lost, dup, ooo). */
static void expect_verdict(const struct ledger_ent *e, uint64_t issued, uint64_t last,
			   uint64_t ran, uint64_t lost, uint64_t dup, uint64_t ooo)
{
	struct ledger_verdict v = { 0 };
	ledger_judge(e, issued, last, &v);
	assert_int_equal(v.expected, issued);
	assert_int_equal(v.ran, ran);
	assert_int_equal(v.lost, lost);
	assert_int_equal(v.dup, dup);
	assert_int_equal(v.ooo, ooo);
}

/* A mask's verdict names the target: an algorithm that loses CPU 3's calls
 * (and runs CPU 5's twice) among targets 1..5 is judged per initiator, and
 * the sums alone said "30 lost" with no CPU for its author to look at. */
static void test_ledger_mask_names_target(void **st)
{
	(void)st;
	void *m = ledger_mem();
	struct cpumask targets;
	struct ledger_verdict v = { 0 };

	cpumask_clear_all(&targets);
	for (unsigned t = 1; t <= 5; t++) {
		cpumask_set(&targets, t);
		for (uint64_t seq = 1; seq <= 4; seq++) {
			if (t != 3)
				ledger_note(ledger_at(t, 0), seq);
			if (t == 5)
				ledger_note(ledger_at(t, 0), seq);
		}
	}
	ledger_judge_mask(&targets, 0, 4, &v);
	assert_int_equal(v.expected, 20);
	assert_int_equal(v.lost, 4);
	assert_int_equal(v.dup, 4);
	assert_int_equal(v.targets, 5);
	assert_int_equal(v.bad_targets, 2);
	assert_int_equal(v.bad_target, 3);	/* the first in CPU order */

	/* Clean: no bad target. */
	v = (struct ledger_verdict){ 0 };
	cpumask_clear_all(&targets);
	cpumask_set(&targets, 1);
	ledger_judge_mask(&targets, 0, 4, &v);
	assert_int_equal(v.bad_targets, 0);
	assert_int_equal(v.targets, 1);
	free(m);
}

/* A skipped and a duplicated call in one stress round: the old check compared
 * counts (calls executed == calls expected) and passed; the ledger catches both. */
static void test_ledger_skipped_and_duplicated(void **st)
{
	(void)st;
	void *m = ledger_mem();
	static const uint64_t seqs[] = { 1, 2, 4, 4, 5 };	/* 3 skipped, 4 twice */
	struct ledger_ent *e = ledger_at(3, 1);
	for (unsigned i = 0; i < 5; i++)
		ledger_note(e, seqs[i]);

	uint64_t issued = 5;
	/* the old rule: runs counted, 5 == 5 - looks fine */
	assert_true(e->runs == issued);

	expect_verdict(e, issued, issued, 4, 1, 1, 0);

	/* Out of order (queued's FIFO broken): 1 3 2 - nothing lost or doubled. */
	e = ledger_at(4, 0);
	ledger_note(e, 1);
	ledger_note(e, 3);
	ledger_note(e, 2);
	expect_verdict(e, 3, 3, 3, 0, 0, 1);

	/* Clean, and per initiator: slot 2's entries do not see slot 1's. */
	e = ledger_at(3, 2);
	for (uint64_t s = 1; s <= 1000; s++)
		ledger_note(e, s);
	expect_verdict(e, 1000, 1000, 1000, 0, 0, 0);
	assert_int_equal(ledger_hi(3, 2), 1000);

	/* A call that never arrived at all (last one lost). */
	expect_verdict(e, 1001, 1001, 1000, 1, 0, 0);

	ledger_reset();
	assert_int_equal(ledger_hi(3, 2), 0);
	free(m);
}

/* A target that sees a subset of an initiator's numbers (a mask that changes per
 * call: the smoke test, the algorithms' host test): gaps are not losses, a number
 * above the last one issued is a wrong number, and dup / order still show. */
static void test_ledger_subset(void **st)
{
	(void)st;
	void *m = ledger_mem();
	struct ledger_ent *e = ledger_at(5, 0);
	static const uint64_t got[] = { 2, 7, 9, 30 };	/* 4 of the 40 issued went here */
	for (unsigned i = 0; i < 4; i++)
		ledger_note(e, got[i]);
	expect_verdict(e, 4, 40, 4, 0, 0, 0);
	/* One of the five sent never ran. */
	expect_verdict(e, 5, 40, 4, 1, 0, 0);
	/* The initiator issued only up to 20: number 30 cannot be a real call. */
	expect_verdict(e, 4, 20, 3, 1, 1, 0);
	/* 7 again and 8 after 9: a duplicate and one out of order. */
	ledger_note(e, 7);
	ledger_note(e, 8);
	expect_verdict(e, 5, 40, 5, 0, 1, 1);
	free(m);
}

/* Random masks (issue 21): call 3 was sent to this target and lost, call 4 went
 * to another target but ran here. By count the two cancel (3 sent, 3 ran: "ok");
 * with the numbers sent (bits of last - d) one is lost and one a wrong run. */
static void test_ledger_wrong_target_and_lost(void **st)
{
	(void)st;
	void *m = ledger_mem();
	struct ledger_ent *e = ledger_at(2, 0);
	ledger_note(e, 1);
	ledger_note(e, 2);
	ledger_note(e, 4);
	struct ledger_verdict v = { 0 };
	ledger_judge(e, 3, 4, &v);
	assert_int_equal(v.lost + v.dup, 0);	/* the blind spot */
	/* sent: 1, 2, 3 of last = 4 -> bits d = 3, 2, 1 */
	uint64_t sent = 1ull << 3 | 1ull << 2 | 1ull << 1;
	v = (struct ledger_verdict){ 0 };
	ledger_judge_sent(e, 3, 4, sent, &v);
	assert_int_equal(v.expected, 3);
	assert_int_equal(v.ran, 2);
	assert_int_equal(v.lost, 1);
	assert_int_equal(v.dup, 1);
	/* The honest case: what was sent ran, nothing else. */
	v = (struct ledger_verdict){ 0 };
	ledger_judge_sent(e, 3, 4, 1ull << 3 | 1ull << 2 | 1ull, &v);
	assert_int_equal(v.lost + v.dup + v.ooo, 0);
	assert_int_equal(v.ran, 3);
	free(m);
}

/* What the wait=done check reads (ledger_shows): a call shows once it ran,
 * not before, not because a neighbour ran, and a skipped number never shows
 * although later ones do. */
static void test_ledger_shows(void **st)
{
	(void)st;
	void *m = ledger_mem();
	struct ledger_ent *e = ledger_at(1, 0);
	assert_false(ledger_shows(e, 1));	/* nothing ran yet */
	ledger_note(e, 1);
	assert_true(ledger_shows(e, 1));
	assert_false(ledger_shows(e, 2));	/* the next call has not run */
	assert_false(ledger_shows(e, 0));	/* numbers start at 1 */
	ledger_note(e, 3);			/* 2 skipped */
	assert_true(ledger_shows(e, 3));
	assert_false(ledger_shows(e, 2));
	assert_true(ledger_shows(e, 1));
	ledger_note(e, 2);			/* late, out of order: now it shows */
	assert_true(ledger_shows(e, 2));
	assert_false(ledger_shows(ledger_at(1, 1), 1));	/* another slot's entry */
	assert_false(ledger_shows(ledger_at(2, 0), 1));	/* another target's */
	free(m);
}

/* The call argument carries (slot, number) as a value, both ways. */
static void test_ledger_arg(void **st)
{
	(void)st;
	void *a = ledger_arg(LEDGER_MAX_SLOTS - 1, 123456789);
	assert_int_equal(ledger_arg_slot(a), LEDGER_MAX_SLOTS - 1);
	assert_int_equal(ledger_arg_seq(a), 123456789);
	assert_int_equal(ledger_arg_slot(ledger_arg(0, 1)), 0);
	assert_int_equal(ledger_arg_seq(ledger_arg(0, 1)), 1);
}

/* A callee handed an arg no call passed (an algorithm's bug: a stale or
 * wrong field read as fn's argument) gets no entry: the run is counted, its
 * first arg kept, and nothing is written - the old callees indexed the
 * ledger with the arg's slot, past its end for a slot >= SLOTS. */
static void test_ledger_wild_arg(void **st)
{
	(void)st;
	void *m = ledger_mem();
	const void *first = (const void *)1;

	ledger_reset();
	assert_int_equal(ledger_wild(&first), 0);
	assert_ptr_equal(ledger_entry_of(2, ledger_arg(1, 7)), ledger_at(2, 1));
	void *wild[] = { ledger_arg(SLOTS, 1), ledger_arg(LEDGER_MAX_SLOTS - 1, 5), ledger_arg(0, 0), NULL };
	for (unsigned i = 0; i < sizeof(wild) / sizeof(wild[0]); i++)
		assert_null(ledger_entry_of(1, wild[i]));
	assert_null(ledger_entry_of(NCPU, ledger_arg(0, 1)));	/* no such target */
	assert_int_equal(ledger_wild(&first), 5);
	assert_ptr_equal(first, wild[0]);
	/* nothing booked anywhere */
	for (unsigned t = 0; t < NCPU; t++)
		for (unsigned k = 0; k < SLOTS; k++)
			assert_int_equal(ledger_at(t, k)->runs, 0);
	ledger_reset();
	assert_int_equal(ledger_wild(NULL), 0);
	free(m);
}

/* Jain over throughput, across all repetitions: two initiators with the SAME
 * median latency, but one made 4x the calls per cycle (the other waited behind
 * it). The old index, over medians of the last repetition, said 1.000. */
static void test_jain_over_throughput(void **st)
{
	(void)st;
	const uint64_t meds[2] = { 5000, 5000 };
	/* summed over 3 reps: 300 calls in 3e6 cycles vs 300 calls in 12e6 */
	const uint64_t calls[2] = { 300, 300 }, cycles[2] = { 3000000, 12000000 };
	struct fairness f;

	fairness_compute(meds, 2, &f);
	assert_int_equal(f.jain_ppm, 1000000);	/* the old figure: "perfectly fair" */

	fairness_from_runs(calls, cycles, meds, 2, &f);
	/* x = (1, 0.25): (1.25)^2 / (2 * 1.0625) = 0.735294 */
	assert_true(f.jain_ppm >= 735290 && f.jain_ppm <= 735300);
	assert_int_equal(f.spread_ppm, 1000000);	/* medians alike: max/min 1 */

	/* Equal throughput: 1; medians 2:1 show in the spread, not in Jain. */
	const uint64_t meds2[2] = { 4000, 8000 }, calls2[2] = { 100, 200 }, cyc2[2] = { 1000, 2000 };
	fairness_from_runs(calls2, cyc2, meds2, 2, &f);
	assert_int_equal(f.jain_ppm, 1000000);
	assert_int_equal(f.spread_ppm, 2000000);
}

/*
 * Jain over the shared window (issue 21): two initiators with fixed call counts
 * (100 each), contended rates 2:1 - A completes a call every 10 cycles, B every 20
 * while A runs; once A is done B runs uncontended, a call every 10. Over each one's
 * own elapsed time the index reads 0.96 ("fair"); over the window in which both
 * ran it is the true 0.90.
 */
/* Slow calls (a TCG boot: 100 calls in 2.3e9 cycles) are resolved: Jain
 * 0.93302 as the daemon computes it in doubles from the same RESULT fields
 * (tests/t-console-p99.sh compares the two); counted per 2^32 cycles the
 * rates were 186 and 107 and the index 0.93223, printed 0.932 beside the
 * API's 0.933. */
static void test_jain_slow_calls(void **st)
{
	(void)st;
	const uint64_t calls[2] = { 100, 58 }, cycles[2] = { 2298542547ull, 2309019657ull };
	const uint64_t meds[2] = { 1, 1 };
	struct fairness f;

	fairness_from_runs(calls, cycles, meds, 2, &f);
	print_message("# jain %llu ppm (933019 in doubles)\n", (unsigned long long)f.jain_ppm);
	assert_true(f.jain_ppm >= 933010 && f.jain_ppm <= 933020);
}

static void test_jain_shared_window(void **st)
{
	(void)st;
	const uint64_t meds[2] = { 10, 20 };
	struct fair_win w[2] = { { 0 } };
	uint64_t tot_calls[2] = { 0 }, tot_cyc[2] = { 0 };
	uint64_t t[2] = { 0 }, done[2] = { 0 };
	int closed = 0;

	/* Virtual time, one event at a time: whoever's next call completes first. */
	while (done[0] < 100 || done[1] < 100) {
		unsigned i = done[0] >= 100 ? 1 : done[1] >= 100 ? 0 : (t[0] + 10 <= t[1] + (closed ? 10 : 20) ? 0 : 1);
		t[i] += i == 0 || closed ? 10 : 20;
		done[i]++;
		fair_win_step(&w[i], done[i], t[i], closed);
		if (done[i] == 100 && !closed) {	/* the first finisher closes it */
			closed = 1;
			fair_win_step(&w[i], done[i], t[i], closed);
		}
	}
	for (unsigned i = 0; i < 2; i++) {
		fair_win_step(&w[i], done[i], t[i], 1);
		tot_calls[i] = done[i];
		tot_cyc[i] = t[i];
	}
	struct fairness f;
	fairness_from_runs(tot_calls, tot_cyc, meds, 2, &f);
	print_message("# own elapsed: jain %.3f; shared window: ", f.jain_ppm / 1e6);
	assert_true(f.jain_ppm > 950000);	/* the biased figure: 0.96 */
	uint64_t wc[2] = { w[0].calls, w[1].calls }, wy[2] = { w[0].cycles, w[1].cycles };
	fairness_from_runs(wc, wy, meds, 2, &f);
	print_message("jain %.3f\n", f.jain_ppm / 1e6);
	assert_true(f.jain_ppm <= 920000);	/* rates 2:1: 0.90 */
	assert_true(f.jain_ppm >= 890000);
}

XCB_TEST_MAIN(
	cmocka_unit_test(test_ledger_layout),
	cmocka_unit_test(test_ledger_skipped_and_duplicated),
	cmocka_unit_test(test_ledger_mask_names_target),
	cmocka_unit_test(test_ledger_subset),
	cmocka_unit_test(test_ledger_wrong_target_and_lost),
	cmocka_unit_test(test_ledger_shows),
	cmocka_unit_test(test_ledger_arg),
	cmocka_unit_test(test_ledger_wild_arg),
	cmocka_unit_test(test_jain_over_throughput),
	cmocka_unit_test(test_jain_shared_window),
	cmocka_unit_test(test_jain_slow_calls))
