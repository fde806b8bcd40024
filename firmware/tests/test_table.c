/*
 * test_table.c - host unit tests (cmocka) of the console's end-of-run tables
 * (bench/table.c) over hand-made case summaries: the % change against locked
 * rounded as the host rounds it (it truncated: -50.36 beside the daemon's
 * -50.37 for one run), a table only for an algorithm that ran (one of "-"
 * for each compiled-in algorithm), and a word when locked, the baseline of
 * every table, did not run; the count of skipped cases at the end, the
 * plan's (allbutself left out) with the runner's.
 */
#include <stdio.h>
#include <string.h>
#include "tests/xcb_test.h"

#include "bench/runner.h"
#include "bench/suite.h"
#include "bench/table.h"
#include "lib/printf.h"
#include "lib/platform.h"
#include "xcall/xcall_internal.h"

/* Stand-ins for the registry's algorithms (xcall/registry.c, the real one):
 * table.c needs their names only. */
static const struct xcall_ops xcall_locked = { .name = "locked", .waits = XCALL_WAITS_ALL };
static const struct xcall_ops xcall_lockless = { .name = "lockless", .waits = XCALL_WAITS_ALL };
static const struct xcall_ops xcall_queued = { .name = "queued", .waits = XCALL_WAITS_ALL };
XCALL_TABLE_ENTRY(locked);
XCALL_TABLE_ENTRY(lockless);
XCALL_TABLE_ENTRY(queued);

/* ---- what table.c needs from below ---- */
uint64_t plat_tsc_khz(void) { return 2000000; }
void runner_jain_text(char *buf, unsigned n, uint64_t jain_ppm)
{
	snprintf(buf, n, "%llu", (unsigned long long)jain_ppm);
}

static char out[1 << 16];
static size_t outlen;
static void sink(const char *s, size_t len)
{
	if (outlen + len < sizeof(out)) {
		memcpy(out + outlen, s, len);
		outlen += len;
		out[outlen] = 0;
	}
}

/* One cross-call case of algo at (inits, mask) with median p50, run. */
static void add(const struct xcall_ops *algo, unsigned inits, unsigned mask, uint64_t p50)
{
	struct case_summary s;

	memset(&s, 0, sizeof(s));
	s.c.kind = XCB_KIND_XCALL;
	s.c.algo = algo;
	s.c.inits = inits;
	s.c.mask = mask;
	s.ran = 1;
	s.p50 = p50;
	s.floor = 1000;
	table_add(&s);
}

static void printed_with(unsigned plan_skipped)
{
	outlen = 0;
	out[0] = 0;
	console_set_sink(sink);
	table_print(plan_skipped);
}

static void printed(void)
{
	printed_with(0);
}

/* The tests run in order and the rows accumulate (table_add keeps them
 * for the run): first a run without locked, then locked joins it. */
static void test_no_baseline_said(void **state)
{
	(void)state;
	add(&xcall_lockless, 1, 1, 49634);
	printed();
	assert_non_null(strstr(out, "no % change tables: they are against locked, which did not run"));
	assert_null(strstr(out, "vs locked"));
}

static void test_rounded_and_only_ran(void **state)
{
	(void)state;
	/* -50.366 %: 100000 -> 49634 (added above); +0.738 %: 100000 ->
	 * 100738; -1.489 %: 200000 -> 197022 */
	add(&xcall_locked, 1, 1, 100000);
	add(&xcall_locked, 1, 2, 100000);
	add(&xcall_lockless, 1, 2, 100738);
	add(&xcall_locked, 2, 1, 200000);
	add(&xcall_lockless, 2, 1, 197022);
	printed();
	assert_non_null(strstr(out, "-50.37"));
	assert_null(strstr(out, "-50.36"));
	assert_non_null(strstr(out, "+0.74"));
	assert_null(strstr(out, "+0.73"));
	assert_non_null(strstr(out, "-1.49"));
	/* the p50ns column: 100738 cycles at 2 GHz are 50369 ns */
	assert_non_null(strstr(out, " 50369 "));
	assert_non_null(strstr(out, "lockless vs locked"));
	/* queued is compiled in but did not run: no table of "-" for it */
	assert_null(strstr(out, "queued vs locked"));
	assert_null(strstr(out, "no % change tables"));
}

/* The ns of the table and the floor lines: rounded to the nearest, as
 * show and compare round them (the console's 51906 beside 51907). */
static void test_ns_rounded(void **state)
{
	(void)state;
	add(&xcall_queued, 4, 4, 197025);	/* 98512.5 ns at 2 GHz */
	printed();
	assert_non_null(strstr(out, " 98513 "));
	assert_null(strstr(out, " 98512 "));
}

/* The end-of-run count of skipped cases: the runner's (a row that did not
 * run) and the plan's (allbutself left out by the expansion: no row, the
 * "plan: K cases skipped" line), as the daemon's `skipped` counts them. It
 * counted the runner's alone: "(1 cases skipped ...)" beside a plan of 4,
 * and no line at all for the plan's alone. Last: its row stays. */
static void test_skipped_counts_the_plan(void **state)
{
	(void)state;
	printed_with(4);
	assert_non_null(strstr(out, "(4 cases skipped: see the LOG lines above)"));

	struct case_summary s;
	memset(&s, 0, sizeof(s));
	s.c.kind = XCB_KIND_TLB;
	s.c.algo = &xcall_locked;
	s.c.inits = 1;
	s.c.mask = 8;
	table_add(&s);	/* not run: the runner skipped it */
	printed_with(4);
	assert_non_null(strstr(out, "(5 cases skipped: see the LOG lines above)"));
	printed_with(0);
	assert_non_null(strstr(out, "(1 cases skipped: see the LOG lines above)"));
}

XCB_TEST_MAIN(cmocka_unit_test(test_no_baseline_said), cmocka_unit_test(test_rounded_and_only_ran),
	      cmocka_unit_test(test_ns_rounded), cmocka_unit_test(test_skipped_counts_the_plan))
