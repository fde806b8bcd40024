/* cmdline_keys.c — THE table of known command-line keys. Every layer adds its
 * keys here (one line each, keep them sorted by layer); anything else on the
 * command line gets a warning and is ignored (lib/cmdline.h). After its help
 * each key says what its value is, as its parser takes it (lib/cmdline.h):
 * CMDLINE_WORDS(vocab) / CMDLINE_WORD(vocab), a list of / one word of a
 * proto/xcb_schema.h vocabulary (XCB_CLI_LIST); CMDLINE_ONE_OF(LIST), one
 * word of the payload's own (lib/cmdline_words.h, which the parser matches
 * too); CMDLINE_NUM(lo, hi), CMDLINE_U64, CMDLINE_NUM_OR_0(lo), a number;
 * CMDLINE_NUMS(lo, hi), CMDLINE_NUMS_OR(lo, hi, LIST), a list of them;
 * CMDLINE_TOKEN, 16 hex digits; CMDLINE_TEXT, not checked.
 * The host builds this file too: xcbench and xcbenchd refuse a key that is
 * not here, or a value its parser would refuse, before a machine boots
 * (host/common/payload_keys.c). */
#include <stddef.h>
#include "lib/cmdline.h"
#include "lib/cmdline_words.h"
#include "xcb_schema.h"

const struct cmdline_key cmdline_keys[] = {
	/* arch (foundation) */
	{ "apic", XCB_CLI_ALTS_THEN(CMDLINE_VOCAB_APIC, ": local APIC mode (auto = x2APIC when offered)")
		  CMDLINE_ONE_OF(CMDLINE_VOCAB_APIC) },
	{ "tsc", XCB_CLI_ALTS_THEN(CMDLINE_VOCAB_TSC, ": how to find the TSC frequency") CMDLINE_ONE_OF(CMDLINE_VOCAB_TSC) },
	{ "ap_timeout_ms", "how long to wait for each AP to answer INIT-SIPI-SIPI (1000; a second try after it)" CMDLINE_U64 },
	{ "end", XCB_CLI_ALTS_THEN(CMDLINE_VOCAB_END, ": what to do when done (exit = QEMU isa-debug-exit)")
		 CMDLINE_ONE_OF(CMDLINE_VOCAB_END) },
	{ "crash", XCB_CLI_ALTS_THEN(CMDLINE_VOCAB_CRASH, ": deliberately fault (tests the exception report)")
		   CMDLINE_ONE_OF(CMDLINE_VOCAB_CRASH) },
	{ "crash_cpu", "logical CPU that takes crash= (0 = BSP)" CMDLINE_U64 },
	{ "console", XCB_CLI_ALTS_THEN(CMDLINE_VOCAB_CONSOLE, ": the text console (serial = COM1)")
		     CMDLINE_ONE_OF(CMDLINE_VOCAB_CONSOLE) },
	{ "boot_only", "1: stop after the machine report (skip the benchmark layer)" CMDLINE_U64 },
	{ "x2apic_handover", "test: 1 = every CPU turns x2APIC on before the APIC set-up (firmware handover)" CMDLINE_U64 },
	{ "ap_late", "test: APIC ID of an AP that answers only after its bring-up timed out" CMDLINE_U64 },
	{ "ap_nosipi", "test: APIC ID of an AP whose first INIT-SIPI-SIPI sends no SIPI (as if a stale one spent it)"
		       CMDLINE_U64 },
	{ "kick_drop", "test: logical CPU whose first job kicks are not sent (the waiter must kick again)" CMDLINE_U64 },
	{ "kick_drops", "test: how many of kick_drop's kicks are lost (1; 1000 = past the 10 s give-up)" CMDLINE_U64 },
	{ "kick_drop_after", "test: the first N jobs posted to kick_drop's CPU keep their kicks (0; the boot check's is the 1st)"
			     CMDLINE_U64 },
	/* xcall, flush, bench, net: add yours below */
	{ "xcall_smoke", "N: run the xcall/flush self-test (N iterations, 0 = 200) instead of the bench" CMDLINE_U64 },
	/* bench (runner, suites, stress, report) */
	{ "suite", XCB_CLI_ALTS(XCB_VOCAB_SUITE) CMDLINE_WORD(suite) },
	{ "run", "run token (16 hex digits)" CMDLINE_TOKEN },
	{ "transport", XCB_CLI_ALTS(CMDLINE_VOCAB_TRANSPORT) CMDLINE_ONE_OF(CMDLINE_VOCAB_TRANSPORT) },
	{ "kinds", XCB_CLI_LIST(XCB_VOCAB_KIND) CMDLINE_WORDS(kind) },
	/* the algorithms register themselves (xcall/): the host does not know them */
	{ "algos", "the registered cross-call algorithms to run, comma-separated (HELLO algos= lists them)" CMDLINE_TEXT },
	{ "waits", XCB_CLI_LIST(XCB_VOCAB_WAIT) CMDLINE_WORDS(wait) },
	{ "idles", XCB_CLI_LIST(XCB_VOCAB_IDLE) CMDLINE_WORDS(idle) },
	{ "groups", "G of hierarchical algorithms (tree): 4,8,16; 0 = its default" CMDLINE_NUMS(0, CMDLINE_ITEM_MAX) },
	/* its words differ from the names runs print, which it takes too */
	{ "deliveries", XCB_CLI_LIST_AND_WIRE(XCB_VOCAB_DELIVERY) CMDLINE_WORDS(delivery) },
	{ "placements", XCB_CLI_LIST(XCB_VOCAB_PLACEMENT) CMDLINE_WORDS(placement) },
	{ "overlap", XCB_CLI_LIST(XCB_VOCAB_OVERLAP) CMDLINE_WORDS(overlap) },
	{ "inits", "initiators: 1,2,4|pow2" CMDLINE_NUMS_OR(1, CMDLINE_ITEM_MAX, CMDLINE_VOCAB_INITS) },
	{ "masks", "CPUs in mask: 1,2|all|pow2" CMDLINE_NUMS_OR(1, CMDLINE_ITEM_MAX, CMDLINE_VOCAB_MASKS) },
	{ "work_us", "callee busy us: 0,500" CMDLINE_NUMS(0, CMDLINE_ITEM_MAX) },
	{ "batches", "tlb pages per shootdown" CMDLINE_NUMS(1, CMDLINE_BATCH_MAX) },
	{ "flush", XCB_CLI_LIST(XCB_VOCAB_FLUSH) CMDLINE_WORDS(flush) },
	{ "methods", XCB_CLI_LIST(XCB_VOCAB_METHOD) CMDLINE_WORDS(method) },
	{ "modes", XCB_CLI_LIST(XCB_VOCAB_SYNC_MODE) CMDLINE_WORDS(sync_mode) },
	{ "rwlocks", XCB_CLI_LIST(XCB_VOCAB_RWLOCK) CMDLINE_WORDS(rwlock) },
	{ "batch_reads", "sync: reads per batch" CMDLINE_U64 },
	{ "entry_us", "sync: lazy entry period us" CMDLINE_U64 },
	{ "writer", "sync: the writer's CPU(s): 0,3 (0 = the boot CPU)" CMDLINE_NUMS(0, CMDLINE_ITEM_MAX) },
	{ "readers", "sync: readers apart from the shootdown targets: 0,1,4 (0 = the targets read)"
		     CMDLINE_NUMS(0, CMDLINE_ITEM_MAX) },
	{ "iters", "calls per initiator per rep" CMDLINE_U64 },
	{ "time_ms", "ms budget per rep" CMDLINE_U64 },
	{ "reps", "repetitions" CMDLINE_NUM(1, CMDLINE_REPS_MAX) },
	{ "samples", "1: raw samples too" CMDLINE_U64 },
	{ "duration", "stress seconds" CMDLINE_U64 },
	{ "watchdog_ms", "call time bound, ms (xcall_smoke too: default 10000, at least 1000)"
			 CMDLINE_NUM_OR_0(CMDLINE_WATCHDOG_MIN_MS) },
	{ "seed", "stress random seed" CMDLINE_U64 },
	{ "warmup", "untimed calls per initiator before each rep (10)" CMDLINE_U64 },
	{ "spin", XCB_CLI_ALTS_THEN(CMDLINE_VOCAB_SPIN, ": spin-wait body (auto = plain under TCG)")
		  CMDLINE_ONE_OF(CMDLINE_VOCAB_SPIN) },
	{ "harness", "full,bare: bare = callees keep no books (overhead runs only)" CMDLINE_WORDS(harness) },
	/* the test faults: each parsed and checked in bench/faults.c (a CPU
	 * is checked against those online there) */
	{ "hang_cpu", "test: CPU wedges in a call" CMDLINE_U64 },
	{ "fault_cpu", "test: CPU faults in a call" CMDLINE_U64 },
	{ "fwddrop_cpu", "test: IPIs forwarded from a handler to CPU N are lost (a tree leader's forward)" CMDLINE_U64 },
	{ "dupskip_cpu", "test: CPU runs one call as the previous one (skip + duplicate)" CMDLINE_U64 },
	{ "startfail_cpu", "test: starting work on that CPU fails" CMDLINE_U64 },
	{ "ipidrop", XCB_CLI_ALTS_THEN(CMDLINE_VOCAB_IPIDROP, ": test: the wait whose answer from ipidrop_cpu is lost "
			"(none: nothing lost; mask: every cross-call IPI an initiator sends it; vector: the flush vector's; "
			"tests/t-wait-faults.sh)") CMDLINE_ONE_OF(CMDLINE_VOCAB_IPIDROP) },
	{ "ipidrop_cpu", "test: logical CPU whose answer to ipidrop's wait is lost (its IPI not sent; lazy: entries not acknowledged); "
			 "both keys or neither" CMDLINE_U64 },
	{ "ipidrop_after", "test: ipidrop=mask|vector: the first N of those IPIs to ipidrop_cpu still go out (0)" CMDLINE_U64 },
	{ "rawwait_ms", "test: a raw IPI probe's give-up bound, ms (10000, at least 100)"
		       CMDLINE_NUM(CMDLINE_RAWWAIT_MIN_MS, UINT64_MAX) },
	/* net (NIC, addressing, UDP transport): the daemon sets them on the
	 * boot line and refuses them in a job (host/src/boot.c) */
	{ "server", "IP[:PORT] of xcbenchd's UDP collector (port 8080)" CMDLINE_TEXT },
	{ "ip", "our IPv4 address (iPXE: ${netX/ip}); absent or empty = DHCP" CMDLINE_TEXT },
	{ "gw", "IPv4 gateway (iPXE: ${netX/gateway})" CMDLINE_TEXT },
	{ "netmask", "IPv4 netmask (iPXE: ${netX/netmask})" CMDLINE_TEXT },
	{ "mac", "MAC of the NIC to use (iPXE: ${netX/mac}); else the first with link" CMDLINE_TEXT },
	{ .key = NULL },
};
