/* cmdline_keys.c — THE table of known command-line keys. Every layer adds its
 * keys here (one line each, keep them sorted by layer); anything else on the
 * command line gets a warning and is ignored (lib/cmdline.h). The words a
 * vocabulary key takes are proto/xcb_schema.h's (XCB_CLI_LIST); mark such a
 * key CMDLINE_WORDS(vocab) (a list) or CMDLINE_WORD(vocab) (one word).
 * The host builds this file too: xcbench and xcbenchd refuse a key that is
 * not here, or a vocabulary key's word that is none, before a machine boots
 * (host/common/payload_keys.c). */
#include <stddef.h>
#include "lib/cmdline.h"
#include "xcb_schema.h"

#ifdef XCB_CMDLINE_VOCAB
/* The host's build (lib/cmdline.h): a key without CMDLINE_WORD(S) leaves
 * its vocabulary members zero, i.e. none, as meant. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif

const struct cmdline_key cmdline_keys[] = {
	/* arch (foundation) */
	{ "apic", "auto|xapic|x2apic: local APIC mode (auto = x2APIC when offered)" },
	{ "tsc", "auto|cpuid|pmtimer|pit: how to find the TSC frequency" },
	{ "ap_timeout_ms", "how long to wait for each AP to answer INIT-SIPI-SIPI (1000; a second try after it)" },
	{ "end", "exit|halt|reboot: what to do when done (exit = QEMU isa-debug-exit)" },
	{ "crash", "pf|ud|gp|de: deliberately fault (tests the exception report)" },
	{ "crash_cpu", "logical CPU that takes crash= (0 = BSP)" },
	{ "console", "serial|none: the text console (serial = COM1)" },
	{ "boot_only", "1: stop after the machine report (skip the benchmark layer)" },
	{ "x2apic_handover", "test: 1 = every CPU turns x2APIC on before the APIC set-up (firmware handover)" },
	{ "ap_late", "test: APIC ID of an AP that answers only after its bring-up timed out" },
	{ "ap_nosipi", "test: APIC ID of an AP whose first INIT-SIPI-SIPI sends no SIPI (as if a stale one spent it)" },
	{ "kick_drop", "test: logical CPU whose first job kicks are not sent (the waiter must kick again)" },
	{ "kick_drops", "test: how many of kick_drop's kicks are lost (1; 1000 = past the 10 s give-up)" },
	{ "kick_drop_after", "test: the first N jobs posted to kick_drop's CPU keep their kicks (0; the boot check's is the 1st)" },
	/* xcall, flush, bench, net: add yours below */
	{ "xcall_smoke", "N: run the xcall/flush self-test (N iterations, 0 = 200) instead of the bench" },
	/* bench (runner, suites, stress, report) */
	{ "suite", "quick|default|seed|tlb|ept|stress" CMDLINE_WORD(suite) },
	{ "run", "run token (16 hex digits)" },
	{ "transport", "serial|udp|both" },
	{ "kinds", XCB_CLI_LIST(XCB_VOCAB_KIND) CMDLINE_WORDS(kind) },
	{ "algos", "the registered cross-call algorithms to run, comma-separated (HELLO algos= lists them)" },
	{ "waits", XCB_CLI_LIST(XCB_VOCAB_WAIT) CMDLINE_WORDS(wait) },
	{ "idles", XCB_CLI_LIST(XCB_VOCAB_IDLE) CMDLINE_WORDS(idle) },
	{ "groups", "G of hierarchical algorithms (tree): 4,8,16; 0 = its default" },
	/* its words differ from the names runs print, which it takes too */
	{ "deliveries", XCB_CLI_LIST_AND_WIRE(XCB_VOCAB_DELIVERY) CMDLINE_WORDS(delivery) },
	{ "placements", XCB_CLI_LIST(XCB_VOCAB_PLACEMENT) CMDLINE_WORDS(placement) },
	{ "overlap", XCB_CLI_LIST(XCB_VOCAB_OVERLAP) CMDLINE_WORDS(overlap) },
	{ "inits", "initiators: 1,2,4|pow2" },
	{ "masks", "CPUs in mask: 1,2|all|pow2" },
	{ "work_us", "callee busy us: 0,500" },
	{ "batches", "tlb pages per shootdown" },
	{ "flush", XCB_CLI_LIST(XCB_VOCAB_FLUSH) CMDLINE_WORDS(flush) },
	{ "methods", XCB_CLI_LIST(XCB_VOCAB_METHOD) CMDLINE_WORDS(method) },
	{ "modes", XCB_CLI_LIST(XCB_VOCAB_SYNC_MODE) CMDLINE_WORDS(sync_mode) },
	{ "rwlocks", XCB_CLI_LIST(XCB_VOCAB_RWLOCK) CMDLINE_WORDS(rwlock) },
	{ "batch_reads", "sync: reads per batch" },
	{ "entry_us", "sync: lazy entry period us" },
	{ "writer", "sync: the writer's CPU(s): 0,3 (0 = the boot CPU)" },
	{ "readers", "sync: readers apart from the shootdown targets: 0,1,4 (0 = the targets read)" },
	{ "iters", "calls per initiator per rep" },
	{ "time_ms", "ms budget per rep" },
	{ "reps", "repetitions" },
	{ "samples", "1: raw samples too" },
	{ "duration", "stress seconds" },
	{ "watchdog_ms", "call time bound, ms (xcall_smoke too: default 10000, at least 1000)" },
	{ "seed", "stress random seed" },
	{ "warmup", "untimed calls per initiator before each rep (10)" },
	{ "spin", "auto|pause|plain: spin-wait body (auto = plain under TCG)" },
	{ "harness", "full,bare: bare = callees keep no books (overhead runs only)" CMDLINE_WORDS(harness) },
	/* the test faults: each parsed and checked in bench/faults.c */
	{ "hang_cpu", "test: CPU wedges in a call" },
	{ "fault_cpu", "test: CPU faults in a call" },
	{ "fwddrop_cpu", "test: IPIs forwarded from a handler to CPU N are lost (a tree leader's forward)" },
	{ "dupskip_cpu", "test: CPU runs one call as the previous one (skip + duplicate)" },
	{ "startfail_cpu", "test: starting work on that CPU fails" },
	{ "ipidrop", "test: raw|paths|qlist|lazy|mask|vector: the wait whose answer from ipidrop_cpu is lost "
		     "(mask: every cross-call IPI an initiator sends it; vector: the flush vector's; tests/t-wait-faults.sh)" },
	{ "ipidrop_cpu", "test: logical CPU whose answer to ipidrop's wait is lost (its IPI not sent; lazy: entries not acknowledged); "
			 "both keys or neither" },
	{ "ipidrop_after", "test: ipidrop=mask|vector: the first N of those IPIs to ipidrop_cpu still go out (0)" },
	{ "rawwait_ms", "test: a raw IPI probe's give-up bound, ms (10000, at least 100)" },
	/* net (NIC, addressing, UDP transport) */
	{ "server", "IP[:PORT] of xcbenchd's UDP collector (port 8080)" },
	{ "ip", "our IPv4 address (iPXE: ${netX/ip}); absent or empty = DHCP" },
	{ "gw", "IPv4 gateway (iPXE: ${netX/gateway})" },
	{ "netmask", "IPv4 netmask (iPXE: ${netX/netmask})" },
	{ "mac", "MAC of the NIC to use (iPXE: ${netX/mac}); else the first with link" },
	{ NULL, NULL },
};
