/*
 * test_stats_suite.c - host unit tests (cmocka) of suite expansion (bench/suite.c)
 * and CPU placement (bench/placement.c): which cases a suite yields on a given CPU
 * count, command-line overrides and their errors, and which CPUs initiate and
 * target for each placement - all counted by hand; and the registry's limit on
 * an algorithm's name and its declaration (xcall_decl_error).
 */
#include <string.h>
#include "tests/xcb_test.h"

#include "bench/hello_algos.h"
#include "bench/placement.h"
#include "bench/suite.h"
#include "lib/cmdline.h"
#include "lib/printf.h"
#include "xcall/xcall_internal.h"

/* Stand-ins for the algorithms, in the real registry (xcall/registry.c):
 * suite.c only needs their names, waits and sends (tree sends its own
 * unicast IPIs: one delivery, test_unicast_sender). */
static const struct xcall_ops xcall_locked = { .name = "locked", .waits = XCALL_WAITS_ALL };
static const struct xcall_ops xcall_lockless = { .name = "lockless", .waits = XCALL_WAITS_ALL };
static const struct xcall_ops xcall_queued = { .name = "queued", .waits = XCALL_WAITS_ALL };
static const struct xcall_ops xcall_tree = { .name = "tree", .waits = XCALL_WAITS_ALL,
					     .sends = XCALL_SENDS_UNICAST };
XCALL_TABLE_ENTRY(locked);
XCALL_TABLE_ENTRY(lockless);
XCALL_TABLE_ENTRY(queued);
XCALL_TABLE_ENTRY(tree);

/* What a declaration needs besides its name and description, for the
 * xcall_decl_error() tests: an init and a call that do nothing. */
static int stub_init(unsigned ncpus, const unsigned *ipi)
{
	(void)ncpus, (void)ipi;
	return 0;
}
static void stub_call(const struct cpumask *m, xcall_fn_t fn, void *arg, enum xcb_wait w)
{
	(void)m, (void)fn, (void)arg, (void)w;
}
static void stub_ipi(void) { }
#define STUB_OPS .init = stub_init, .call = stub_call

#define MAXC 1024
static struct bcase got[MAXC];

/* A name the host cannot carry is refused at init, naming the limit: past
 * XCALL_NAME_MAX the daemon dropped HELLO's algo.NAME= line, and the
 * algorithm was missing from xcbench show's list with no word why. */
static void test_name_length(void **state)
{
	(void)state;
	char name[XCALL_NAME_MAX + 2];
	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = 0;		/* one past the limit */
	struct xcall_ops o = { .name = name, .desc = "a stand-in", STUB_OPS };
	const char *why = xcall_decl_error(&o);
	assert_non_null(why);
	assert_non_null(strstr(why, "name longer than 59 characters (XCALL_NAME_MAX)"));
	name[XCALL_NAME_MAX] = 0;		/* at the limit */
	assert_null(xcall_decl_error(&o));
}

/* A description HELLO's buffer is not sized for is refused at init, naming
 * the limit: past XCALL_DESC_MAX, 24 algorithms' lines cut HELLO off. */
static void test_desc_length(void **state)
{
	(void)state;
	char desc[XCALL_DESC_MAX + 2];
	memset(desc, 'd', sizeof(desc) - 1);
	desc[sizeof(desc) - 1] = 0;		/* one past the limit */
	struct xcall_ops o = { .name = "a_stand_in", .desc = desc, STUB_OPS };
	const char *why = xcall_decl_error(&o);
	assert_non_null(why);
	assert_string_equal(why, ".desc longer than 120 characters (XCALL_DESC_MAX)");
	desc[XCALL_DESC_MAX] = 0;		/* at the limit */
	assert_null(xcall_decl_error(&o));
}

/* A table written out by hand (XCALL_TABLE_ENTRY: two vectors) without an
 * init or a call is refused at init naming the field: a NULL one faulted
 * at init or at the first call, naming no algorithm. A handler past .nipi
 * (a second vector's, .nipi left at 1) is refused too: it never got a
 * vector, and the calls it serves hung. */
static void test_ops_missing(void **state)
{
	(void)state;
	struct xcall_ops o = { .name = "a_stand_in", .desc = "a stand-in", .nipi = 1, STUB_OPS,
			       .handle_ipi = { stub_ipi } };
	assert_null(xcall_decl_error(&o));
	o.call = 0;
	assert_non_null(xcall_decl_error(&o));
	assert_non_null(strstr(xcall_decl_error(&o), ".call missing"));
	o.call = stub_call, o.init = 0;
	assert_non_null(xcall_decl_error(&o));
	assert_non_null(strstr(xcall_decl_error(&o), ".init missing"));
	o.init = stub_init, o.handle_ipi[1] = stub_ipi;
	assert_non_null(xcall_decl_error(&o));
	assert_non_null(strstr(xcall_decl_error(&o), ".handle_ipi has a handler past .nipi"));
	o.nipi = 2;
	assert_null(xcall_decl_error(&o));
}

/* The most algorithms the registry takes, each at both limits, fill
 * HELLO_ALGOS_MAX exactly: the buffer bench.c sizes from it holds them. */
static void test_hello_algos_fit(void **state)
{
	(void)state;
	static char names[XCALL_MAX_ALGOS][XCALL_NAME_MAX + 1], desc[XCALL_DESC_MAX + 1];
	static struct xcall_ops ops[XCALL_MAX_ALGOS];
	static const struct xcall_ops *list[XCALL_MAX_ALGOS + 1];
	static char buf[HELLO_ALGOS_MAX + 1];	/* + strbuf's NUL */
	memset(desc, 'd', XCALL_DESC_MAX);
	for (unsigned a = 0; a < XCALL_MAX_ALGOS; a++) {
		memset(names[a], 'a', XCALL_NAME_MAX);
		names[a][XCALL_NAME_MAX - 2] = (char)('a' + a / 10);
		names[a][XCALL_NAME_MAX - 1] = (char)('0' + a % 10);
		ops[a] = (struct xcall_ops){ .name = names[a], .desc = desc, STUB_OPS };
		assert_null(xcall_decl_error(&ops[a]));	/* both at the limit: accepted */
		list[a] = &ops[a];
	}
	struct strbuf sb;
	sb_init(&sb, buf, sizeof(buf));
	hello_algos(&sb, list);
	assert_false(sb_overflowed(&sb));
	assert_int_equal(sb.len, HELLO_ALGOS_MAX);
	assert_int_equal(strlen(buf), HELLO_ALGOS_MAX);
}

static unsigned ngot;

static void collect(const struct bcase *c, void *ctx)
{
	(void)ctx;
	if (ngot < MAXC)
		got[ngot++] = *c;
}

static unsigned expand(const char *cmdline, unsigned ncpus, struct suite *s)
{
	cmdline_init(cmdline);
	const char *name = cmdline_str("suite", "default");
	assert_int_equal(suite_load(s, name), 0);
	ngot = 0;
	unsigned n = suite_for_each_case(s, ncpus, collect, NULL);
	assert_int_equal(n, ngot);
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(got[i].id, i + 1);
	return n;
}

static unsigned count(enum xcb_kind k)
{
	unsigned n = 0;
	for (unsigned i = 0; i < ngot; i++)
		n += got[i].kind == k;
	return n;
}

/* seed at 4 CPUs, 4 algorithms, wait done, delivery auto, 500 us:
 *   1 initiator:  masks pow2 up to 3 = {1, 2, 3}                -> 3
 *   2 initiators: disjoint: (4-2)/2 = 1 -> {1}; overlap: 2 -> {1, 2} -> 3
 *   4 initiators: nothing left to target                        -> 0
 * = 6 per algorithm, 24 xcall cases, plus 2 raw floors (ipi, roundtrip; placement
 * first) = 26. */
static void test_seed_at_4(void **state)
{
	(void)state;
	struct suite s;
	assert_int_equal(expand("suite=seed", 4, &s), 26);
	assert_int_equal(count(XCB_KIND_XCALL), 24);
	assert_int_equal(count(XCB_KIND_RAW), 2);
	for (unsigned i = 0; i < ngot; i++) {
		if (got[i].kind != XCB_KIND_XCALL)
			continue;
		assert_int_equal(got[i].work_us, 500);
		assert_int_equal(got[i].wait, XCB_WAIT_DONE);
		assert_true(got[i].inits == 1 || got[i].inits == 2);
		assert_true(got[i].inits * (got[i].overlap ? 1 : got[i].mask) + got[i].inits <= 4 ||
			    got[i].inits + got[i].mask <= 4);
	}
	/* at 16 CPUs: 1 init: 1,2,4,8,15 (5); 2: disjoint 7 -> 1,2,4,7 (4), overlap 14
	 * -> 1,2,4,8,14 (5); 4: disjoint 3 -> 1,2,3 (3), overlap 12 -> 1,2,4,8,12 (5)
	 * = 22 per algorithm, 88 + 2 raw floors. */
	assert_int_equal(expand("suite=seed", 16, &s), 90);
}

/* ept (seed 002) at 8 CPUs: one writer, masks pow2 up to 7 = {1, 2, 4, 7}, x 3 modes
 * (inside, after, lazy: the case's algo), xcall path through locked, invlpg, fair
 * lock; + 2 raw floors. The three modes of one mask are the same shape (bench.c
 * interleaves their repetitions, and compare matches them).
 * The default suite runs no sync case; inits= other than 1 gives none. */
static void test_ept_at_8(void **state)
{
	(void)state;
	static const char *const modes[] = { "inside", "after", "lazy" };
	struct suite s;
	assert_int_equal(expand("suite=ept", 8, &s), 14);
	assert_int_equal(count(XCB_KIND_SYNC), 12);
	for (unsigned i = 0; i < 12; i++) {
		assert_int_equal(got[i].kind, XCB_KIND_SYNC);
		assert_int_equal(got[i].inits, 1);
		if (got[i].mode == XCB_SYNC_LAZY) {	/* no shootdown: fixed, unlabelled */
			assert_null(got[i].algo);
			assert_int_equal(got[i].method, XCB_METHOD_CR3);
		} else {
			assert_ptr_equal(got[i].algo, xcall_find("locked"));
			assert_int_equal(got[i].flush, XCB_FLUSH_XCALL);
			assert_int_equal(got[i].method, XCB_METHOD_INVLPG);
		}
		assert_int_equal(got[i].rwlock, 0);
		assert_int_equal(got[i].batch_reads, 1024);
		assert_string_equal(case_algo_name(&got[i]), modes[got[i].mode]);
		for (unsigned j = 0; j < 12; j++)
			assert_int_equal(case_same_shape(&got[i], &got[j]), got[i].mask == got[j].mask);
	}
	expand("suite=ept modes=lazy rwlocks=fair,unfair batch_reads=64 entry_us=10", 8, &s);
	assert_int_equal(count(XCB_KIND_SYNC), 8);
	assert_int_equal(got[0].entry_us, 10);
	assert_int_equal(got[0].batch_reads, 64);
	/* Lazy once per mask (4), not once per method, path and algorithm it does
	 * not use (issue 21: 2 methods x 2 paths gave 4 identical cases per mask,
	 * labelled differently); inside still expands over all of them. */
	expand("suite=ept modes=lazy methods=invlpg,cr3 flush=xcall,vector algos=locked,lockless", 8, &s);
	assert_int_equal(count(XCB_KIND_SYNC), 4);
	expand("suite=ept modes=inside,lazy methods=invlpg,cr3 flush=xcall,vector algos=locked,lockless", 8, &s);
	assert_int_equal(count(XCB_KIND_SYNC), 4 * (2 * (2 + 1) + 1));	/* xcall x 2 algos + vector, x 2 methods */
	/* seed 002's writer and readers axes (issue 22): outermost, each with its
	 * own lazy cases; pow2 masks fit what the readers and a writer off the
	 * boot CPU leave: writer 0 readers 2 -> 5 targets at most {1,2,4,5};
	 * writer 3 readers 2 -> 4 {1,2,4} (the boot CPU supervises). */
	expand("suite=ept writer=0,3 readers=0,2", 8, &s);
	assert_int_equal(count(XCB_KIND_SYNC), 3 * (4 + 4 + 4 + 3));
	for (unsigned i = 0; i < 12; i++) {	/* the defaults first, as before */
		assert_int_equal(got[i].writer, 0);
		assert_int_equal(got[i].readers, 0);
	}
	assert_int_equal(got[12].readers, 2);
	assert_int_equal(got[12 + 12 + 12].writer, 3);
	assert_int_equal(got[12 + 12 + 12].readers, 2);
	assert_int_equal(got[12 + 12 + 12 + 8].mask, 4);
	assert_false(case_same_shape(&got[0], &got[12]));
	assert_true(case_same_shape(&got[12], &got[12 + 4]));	/* inside, after: one shape */
	expand("suite=ept inits=2", 8, &s);
	assert_int_equal(count(XCB_KIND_SYNC), 0);
	expand("suite=default", 8, &s);
	assert_int_equal(count(XCB_KIND_SYNC), 0);
}

/* quick at 4 CPUs, xcall part: 3 algos x 3 waits x deliveries:
 *   auto, unicast, cluster: inits 1 x masks {1, all=3} + inits 2 x {1, all=1 -> dup} = 3 each
 *   shorthand: only 1 initiator x mask 3 (every other CPU)                         = 1
 * = 3 x 3 x 10 = 90, + tree (sends unicast itself): 3 waits x unicast's 3 = 9. */
static void test_quick_at_4(void **state)
{
	(void)state;
	struct suite s;
	expand("suite=quick", 4, &s);
	assert_int_equal(count(XCB_KIND_XCALL), 99);
	unsigned sh = 0;
	for (unsigned i = 0; i < ngot; i++)
		if (got[i].delivery == XCB_DELIVERY_SHORTHAND) {
			sh++;
			assert_int_equal(got[i].inits, 1);
			assert_int_equal(got[i].mask, 3);
		}
	assert_int_equal(sh, 9);
	/* tlb: vector, concurrent, early_ack, consolidated (4; not early_ack_reader,
	 * the unsafe demonstration) + xcall x 4 algos = 8 paths, x 4 methods x 2
	 * batches x 3 shapes */
	assert_int_equal(count(XCB_KIND_TLB), 8 * 4 * 2 * 3);
	assert_int_equal(count(XCB_KIND_RAW), 2);
	/* at 2 CPUs: 2 initiators no longer fit disjoint: the explicit "1" mask stays
	 * (the runner logs the skip), "all" resolves to nothing */
	expand("suite=quick kinds=xcall algos=locked waits=done deliveries=unicast", 2, &s);
	assert_int_equal(ngot, 2);	/* i=1 m=1, i=2 m=1 */
}

static void test_overrides(void **state)
{
	(void)state;
	struct suite s;
	expand("suite=seed algos=lockless,queued inits=2 masks=1,2 work_us=0,500 overlap=overlap reps=3 iters=7",
	       8, &s);
	/* 2 algos x 1 init x 2 masks x 2 work + 2 raw floors */
	assert_int_equal(ngot, 10);
	assert_int_equal(s.reps, 3);
	assert_int_equal(got[0].iters, 7);
	assert_int_equal(got[0].reps, 3);
	assert_string_equal(got[0].algo->name, "lockless");
	assert_int_equal(got[0].overlap, 1);
	assert_int_equal(got[0].warmup, 10);	/* untimed calls per rep, by default */
	/* harness=full,bare (overhead runs): every xcall case twice, grouped for
	 * interleaving (case_same_group) but never compared as one (case_same_shape) */
	expand("suite=seed algos=lockless inits=1 masks=1 harness=full,bare warmup=3", 8, &s);
	assert_int_equal(count(XCB_KIND_XCALL), 2);
	assert_int_equal(got[0].harness + got[1].harness, 1);
	assert_int_equal(got[0].warmup, 3);
	assert_true(case_same_group(&got[0], &got[1]));
	assert_false(case_same_shape(&got[0], &got[1]));
	/* errors name the key */
	cmdline_init("algos=fast");
	assert_int_equal(suite_load(&s, "quick"), -1);
	cmdline_init("masks=0");
	assert_int_equal(suite_load(&s, "quick"), -1);
	cmdline_init("batches=999");
	assert_int_equal(suite_load(&s, "tlb"), -1);
	/* writer= names a CPU: one the machine lacks is an error (it skipped
	 * every sync case, and the run completed with none of them) */
	cmdline_init("writer=0,3");
	assert_int_equal(suite_load(&s, "ept"), 0);
	assert_int_equal(suite_check_cpus(&s, 4), 0);
	cmdline_init("writer=9");
	assert_int_equal(suite_load(&s, "ept"), 0);
	assert_int_equal(suite_check_cpus(&s, 4), -1);
	assert_int_equal(suite_check_cpus(&s, 10), 0);
	cmdline_init("writer=9 kinds=tlb,raw");	/* no sync case: writer= unused */
	assert_int_equal(suite_load(&s, "ept"), 0);
	assert_int_equal(suite_check_cpus(&s, 4), 0);
	cmdline_init("");
	assert_int_equal(suite_load(&s, "nosuch"), -1);
	assert_int_equal(suite_load(&s, "stress"), 0);
	assert_int_equal(s.duration_s, 10);
}

/* The console, captured (a tee: it still reaches stderr): what
 * suite_load's errors say. */
static char said[2048];
static void say(const char *s, size_t len)
{
	size_t n = strlen(said);
	if (n + len < sizeof(said)) {
		memcpy(said + n, s, len);
		said[n + len] = 0;
	}
}

/* delivery= takes the names the console, the CASE frames and the API print
 * (allbutself, x2apic_cluster) as well as the command-line words (shorthand,
 * cluster): a reader copies what a run showed back onto the next command
 * line. An unknown value's error lists both. */
static void test_delivery_names(void **state)
{
	(void)state;
	struct suite s;
	const unsigned sh = 1u << XCB_DELIVERY_SHORTHAND, cl = 1u << XCB_DELIVERY_CLUSTER,
		       uni = 1u << XCB_DELIVERY_UNICAST;
	cmdline_init("deliveries=unicast,allbutself");
	assert_int_equal(suite_load(&s, "quick"), 0);
	assert_int_equal(s.deliveries, uni | sh);
	cmdline_init("deliveries=x2apic_cluster,shorthand");
	assert_int_equal(suite_load(&s, "quick"), 0);
	assert_int_equal(s.deliveries, cl | sh);
	cmdline_init("deliveries=cluster");
	assert_int_equal(suite_load(&s, "quick"), 0);
	assert_int_equal(s.deliveries, cl);
	/* the cases are the same whichever spelling named them */
	unsigned a = expand("suite=quick kinds=xcall deliveries=allbutself", 4, &s);
	unsigned b = expand("suite=quick kinds=xcall deliveries=shorthand", 4, &s);
	assert_int_equal(a, b);
	assert_true(a > 0);
	said[0] = 0;
	console_set_tee(say);
	cmdline_init("deliveries=unicast,sideways");
	assert_int_equal(suite_load(&s, "quick"), -1);
	console_set_tee(NULL);
	assert_non_null(strstr(said, "cmdline key 'deliveries': unknown value 'sideways' "
				     "(one of: auto unicast cluster x2apic_cluster shorthand allbutself all)"));
	/* a vocabulary whose words are its names lists each once */
	said[0] = 0;
	console_set_tee(say);
	cmdline_init("waits=soon");
	assert_int_equal(suite_load(&s, "quick"), -1);
	console_set_tee(NULL);
	assert_non_null(strstr(said, "unknown value 'soon' (one of: none ack done all)"));
}

/* suite_load(name) on cmdline line: its console output in said (-1
 * expected: the line is refused). */
static void refused(const char *line)
{
	struct suite s;
	said[0] = 0;
	console_set_tee(say);
	cmdline_init(line);
	assert_int_equal(suite_load(&s, "tlb"), -1);
	console_set_tee(NULL);
}

/* An unknown algorithm or flush path is refused with the nearest registered
 * name when one is near (lib/cmdline_key.c's measure, which the host's
 * algos= check and unknown keys use), and the list always: the payload said
 * only "(one of: ...)", so a typo among a dozen names was found by eye. */
static void test_unknown_value_near(void **state)
{
	(void)state;
	refused("algos=locked,lokced");
	assert_non_null(strstr(said, "cmdline key 'algos': unknown value 'lokced'; did you mean 'locked'? "
				     "(one of: locked lockless queued tree all)"));
	refused("algos=Tree");	/* case aside: the measure ignores it */
	assert_non_null(strstr(said, "unknown value 'Tree'; did you mean 'tree'? (one of:"));
	/* far from every name: the list alone */
	refused("algos=bogus");
	assert_non_null(strstr(said, "cmdline key 'algos': unknown value 'bogus' (one of: locked lockless queued tree all)"));
	assert_null(strstr(said, "did you mean"));
	/* the flush paths, the newest too */
	refused("flush=vector,consolidate");
	assert_non_null(strstr(said, "cmdline key 'flush': unknown value 'consolidate'; did you mean 'consolidated'? "
				     "(one of: vector xcall concurrent early_ack early_ack_reader consolidated all)"));
	refused("flush=early_ack_raeder");
	assert_non_null(strstr(said, "unknown value 'early_ack_raeder'; did you mean 'early_ack_reader'?"));
	refused("flush=shootdown");
	assert_non_null(strstr(said, "cmdline key 'flush': unknown value 'shootdown' (one of:"));
	assert_null(strstr(said, "did you mean"));
	/* delivery: a run's printed name is near too, not only the word */
	refused("deliveries=allbutslef");
	assert_non_null(strstr(said, "unknown value 'allbutslef'; did you mean 'allbutself'?"));
}

/* suite= (one word) is refused by the same line as a list's value, the
 * nearest suite named: it said "unknown suite 'qiuck' (one of: ...)". */
static void test_unknown_suite_near(void **state)
{
	(void)state;
	struct suite s;
	said[0] = 0;
	console_set_tee(say);
	cmdline_init("");
	assert_int_equal(suite_load(&s, "qiuck"), -1);
	console_set_tee(NULL);
	assert_string_equal(said, "xcbench: error: cmdline key 'suite': unknown value 'qiuck'; did you mean 'quick'? "
				  "(one of: quick default seed tlb ept stress)\n");
	said[0] = 0;
	console_set_tee(say);
	assert_int_equal(suite_load(&s, "fastest"), -1);
	console_set_tee(NULL);
	assert_string_equal(said, "xcbench: error: cmdline key 'suite': unknown value 'fastest' "
				  "(one of: quick default seed tlb ept stress)\n");
}

/* An algorithm that sends its own unicast IPIs (tree) runs under one
 * delivery, labelled by what it sends: unicast where the suite has it (quick
 * had it under all four, three of them mislabelled, x_delivery_used=unicast),
 * else auto (seed: the policy's choice), else not at all. Each of its cases
 * has one lockless twin (compare's pairing): the unicast one. */
static void test_unicast_sender(void **state)
{
	(void)state;
	struct suite s;
	assert_int_equal(expand("suite=quick kinds=xcall algos=tree", 4, &s), 9);
	for (unsigned i = 0; i < ngot; i++)
		assert_int_equal(got[i].delivery, XCB_DELIVERY_UNICAST);
	assert_int_equal(expand("suite=seed kinds=xcall algos=tree", 4, &s), 6);
	for (unsigned i = 0; i < ngot; i++)
		assert_int_equal(got[i].delivery, XCB_DELIVERY_AUTO);
	assert_int_equal(expand("suite=quick kinds=xcall algos=tree deliveries=allbutself,x2apic_cluster", 4, &s), 0);
	/* lockless and tree in one quick run: every tree case is the shape of
	 * exactly one lockless case, a unicast one */
	expand("suite=quick kinds=xcall algos=lockless,tree waits=done", 4, &s);
	unsigned trees = 0;
	for (unsigned i = 0; i < ngot; i++) {
		if (got[i].algo != xcall_find("tree"))
			continue;
		trees++;
		unsigned twins = 0;
		for (unsigned j = 0; j < ngot; j++)
			if (got[j].algo == xcall_find("lockless") && case_same_shape(&got[i], &got[j])) {
				twins++;
				assert_int_equal(got[j].delivery, XCB_DELIVERY_UNICAST);
			}
		assert_int_equal(twins, 1);
	}
	assert_int_equal(trees, 3);
	assert_int_equal(ngot, 10 + 3);
}

/* The shootdowns follow deliveries= when it is given (seed 001: the flush
 * lock's hold time under the all-but-self shorthand against unicast); the
 * presets keep them at auto (quick's four deliveries are for cross-calls).
 * Before, every TLB and sync case was auto whatever deliveries= said. */
static void test_flush_deliveries(void **state)
{
	(void)state;
	struct suite s;
	/* quick: four deliveries for xcall, the shootdowns at auto */
	expand("suite=quick kinds=tlb", 4, &s);
	assert_true(ngot > 0);
	for (unsigned i = 0; i < ngot; i++)
		assert_int_equal(got[i].delivery, XCB_DELIVERY_AUTO);
	/* 1 initiator, masks {1, 2, 3} under unicast; the shorthand only where
	 * the mask is every other CPU (3), as for cross-calls */
	assert_int_equal(expand("suite=tlb kinds=tlb flush=vector methods=invlpg batches=1 inits=1 "
				"deliveries=unicast,allbutself", 4, &s), 4);
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(got[i].delivery, XCB_DELIVERY_UNICAST);
		assert_int_equal(got[i].mask, i + 1);
	}
	assert_int_equal(got[3].delivery, XCB_DELIVERY_SHORTHAND);
	assert_int_equal(got[3].mask, 3);
	assert_false(case_same_shape(&got[2], &got[3]));
	/* ... and the two it leaves out (masks 1, 2) are counted for the
	 * run's skip line: they were the one skip the log never said */
	assert_int_equal(suite_shorthand_left(&s, 4), 2);
	/* inits=2 (disjoint) has no shorthand case at any mask: 2 + 3 */
	expand("suite=tlb kinds=tlb flush=vector methods=invlpg batches=1 inits=1,2 masks=1,2,3 "
	       "deliveries=unicast,allbutself", 4, &s);
	assert_int_equal(suite_shorthand_left(&s, 4), 5);
	/* cross-calls: one a left-out shape per placement and callee work */
	expand("suite=quick kinds=xcall algos=locked waits=done inits=1,2 masks=1,2,3 placements=first,spread "
	       "work_us=0,5 deliveries=allbutself", 4, &s);
	assert_int_equal(ngot, 2 * 2);
	assert_int_equal(suite_shorthand_left(&s, 4), (2 + 3) * 2 * 2);
	/* none asked for: none left out */
	expand("suite=tlb kinds=tlb inits=1,2 deliveries=unicast", 4, &s);
	assert_int_equal(suite_shorthand_left(&s, 4), 0);
	/* through an algorithm that sends unicast itself: once, as unicast */
	assert_int_equal(expand("suite=tlb kinds=tlb flush=xcall algos=tree,locked methods=invlpg batches=1 "
				"inits=1 deliveries=unicast,allbutself", 4, &s), 3 + 4);
	for (unsigned i = 0; i < ngot; i++)
		if (got[i].algo == xcall_find("tree"))
			assert_int_equal(got[i].delivery, XCB_DELIVERY_UNICAST);
	/* sync: inside and after under each delivery, lazy (no IPI) once */
	assert_int_equal(expand("suite=ept kinds=sync masks=1 deliveries=auto,unicast", 8, &s), 2 + 1 + 2);
	unsigned lazy = 0;
	for (unsigned i = 0; i < ngot; i++)
		lazy += got[i].mode == XCB_SYNC_LAZY;
	assert_int_equal(lazy, 1);
	assert_int_equal(got[3].delivery, XCB_DELIVERY_UNICAST);
}

static struct bcase mk(unsigned inits, unsigned mask, enum xcb_placement p, unsigned overlap)
{
	struct bcase c = { 0 };
	c.kind = XCB_KIND_XCALL;
	c.inits = inits;
	c.mask = mask;
	c.placement = p;
	c.overlap = overlap;
	return c;
}

static unsigned bits(const struct cpumask *m)
{
	return (unsigned)m->bits[0];
}

/* test_placement's machine: 8 CPUs in two packages of 4; place_case()
 * writes the initiators to ic, their targets to tm. */
static const unsigned pkg[8] = { 0, 0, 0, 0, 1, 1, 1, 1 };
static unsigned ic[RUN_MAX_INITS];
static struct cpumask tm[RUN_MAX_INITS];

/* Places the case mk() makes of the arguments on that machine: it must fit,
 * and initiator k must target the CPUs in want_tm[k] (unless want_tm is NULL). */
static void place8(unsigned inits, unsigned mask, enum xcb_placement p, unsigned overlap,
		   const unsigned *want_tm)
{
	struct bcase c = mk(inits, mask, p, overlap);
	const char *why = NULL;
	assert_int_equal(place_case(&c, 8, pkg, ic, tm, &why), 0);
	for (unsigned k = 0; want_tm && k < inits; k++)
		assert_int_equal(bits(&tm[k]), want_tm[k]);
}

static void test_placement(void **state)
{
	(void)state;
	const char *why = NULL;
	struct bcase c;

	/* first, disjoint: initiators 0,1; targets 2,3 and 4,5 */
	place8(2, 2, XCB_PL_FIRST, 0, (const unsigned[]){ 0x0c, 0x30 });
	assert_int_equal(ic[0], 0);
	assert_int_equal(ic[1], 1);
	/* first, overlap: both target 2,3 */
	place8(2, 2, XCB_PL_FIRST, 1, (const unsigned[]){ 0x0c, 0x0c });
	/* spread: initiators 0 and 4; the rest 1,2,3,5,6,7, interleaved: idx 0,3 / 1,4... */
	place8(2, 2, XCB_PL_SPREAD, 0, NULL);
	assert_int_equal(ic[0], 0);
	assert_int_equal(ic[1], 4);
	assert_int_equal(bits(&tm[0]) & bits(&tm[1]), 0);
	assert_int_equal(__builtin_popcount(bits(&tm[0])), 2);
	assert_false(bits(&tm[0]) & 0x11);
	/* same package: one initiator per package (0 and 4), each targeting its own
	 * package's next CPUs */
	place8(2, 2, XCB_PL_PACKAGE, 1, (const unsigned[]){ 0x06, 0x60 });
	assert_int_equal(ic[0], 0);
	assert_int_equal(ic[1], 4);
	/* 3 initiators over 2 packages: 0, 4, 1; disjoint targets stay in-package */
	place8(3, 1, XCB_PL_PACKAGE, 0, (const unsigned[]){ 0x04, 0x20, 0x08 });
	assert_int_equal(ic[2], 1);
	/* cross, 2 initiators: 0 targets package 1, 4 targets package 0 */
	place8(2, 2, XCB_PL_CROSS, 0, (const unsigned[]){ 0x60, 0x06 });
	/* cross package: targets in package 1 */
	place8(1, 3, XCB_PL_CROSS, 0, (const unsigned[]){ 0x70 });
	/* does not fit: 2 x (3 + 1) = 8 > 7; one package: cross impossible */
	c = mk(2, 3, XCB_PL_FIRST, 0);
	assert_int_equal(place_case(&c, 7, pkg, ic, tm, &why), -1);
	assert_non_null(why);
	unsigned onepkg[4] = { 0 };
	c = mk(1, 1, XCB_PL_CROSS, 0);
	assert_int_equal(place_case(&c, 4, onepkg, ic, tm, &why), -1);
	assert_non_null(strstr(why, "other packages"));
	/* an initiator never targets itself or another initiator */
	for (unsigned I = 1; I <= 4; I++)
		for (unsigned M = 1; I + M <= 8; M++)
			for (unsigned p = 0; p < 2; p++) {
				place8(I, M, (enum xcb_placement)p, 1, NULL);
				for (unsigned k = 0; k < I; k++) {
					assert_int_equal(__builtin_popcount(bits(&tm[k])), M);
					for (unsigned j = 0; j < I; j++)
						assert_false(bits(&tm[k]) & (1u << ic[j]));
				}
			}
}

/* seed 002's placement (place_sync): the writer on any CPU (off the boot CPU,
 * the boot CPU is neither target nor reader), readers of their own after the
 * targets, or the targets themselves. */
static void test_place_sync(void **state)
{
	(void)state;
	struct bcase c = mk(1, 2, XCB_PL_FIRST, 0);
	struct cpumask t, r;
	const char *why = NULL;
	unsigned w = 99;

	c.kind = XCB_KIND_SYNC;
	assert_int_equal(place_sync(&c, 8, pkg, &w, &t, &r, &why), 0);
	assert_int_equal(w, 0);
	assert_int_equal(bits(&t), 0x06);	/* today's: CPU 0 writes to 1,2 ... */
	assert_int_equal(bits(&r), 0x06);	/* ... which read */
	c.writer = 3;
	c.readers = 2;
	assert_int_equal(place_sync(&c, 8, pkg, &w, &t, &r, &why), 0);
	assert_int_equal(w, 3);
	assert_int_equal(bits(&t), 0x06);
	assert_int_equal(bits(&r), 0x30);	/* 4, 5: not 0 (supervises), not 3 (writes) */
	c.placement = XCB_PL_CROSS;		/* the writer's package 0: targets in 1 */
	assert_int_equal(place_sync(&c, 8, pkg, &w, &t, &r, &why), 0);
	assert_int_equal(bits(&t), 0x30);
	assert_int_equal(bits(&r), 0x06);
	c.placement = XCB_PL_FIRST;
	c.mask = 5;				/* 5 + 2 > the 6 left */
	assert_int_equal(place_sync(&c, 8, pkg, &w, &t, &r, &why), -1);
	assert_non_null(strstr(why, "readers"));
	c.mask = 1;
	c.writer = 8;
	assert_int_equal(place_sync(&c, 8, pkg, &w, &t, &r, &why), -1);
	assert_non_null(strstr(why, "writer"));
}

XCB_TEST_MAIN(
	cmocka_unit_test(test_seed_at_4),
	cmocka_unit_test(test_quick_at_4),
	cmocka_unit_test(test_ept_at_8),
	cmocka_unit_test(test_overrides),
	cmocka_unit_test(test_delivery_names),
	cmocka_unit_test(test_unknown_value_near),
	cmocka_unit_test(test_unknown_suite_near),
	cmocka_unit_test(test_flush_deliveries),
	cmocka_unit_test(test_unicast_sender),
	cmocka_unit_test(test_placement),
	cmocka_unit_test(test_place_sync),
	cmocka_unit_test(test_desc_length),
	cmocka_unit_test(test_ops_missing),
	cmocka_unit_test(test_hello_algos_fit),
	cmocka_unit_test(test_name_length))
