/*
 * dup_name.c — an injected fault for tests/t-xcall-faults.sh: a hand-written
 * ops table (XCALL_TABLE_ENTRY, which does not fail to link on a taken name
 * as XCALL_ALGO does) named `lockless`, beside the real one.
 * xcall_init_all() must refuse it by name (registry.c xcall_decl_error):
 * the payload ran both, their cases mixed under one algo.
 */
#include "tests/faults/stub.h"

const struct xcall_ops xcall_lockless2 = {
	.name = "lockless", .desc = "a second lockless", .nipi = 1,
	.waits = XCALL_WAITS_ALL, .sends = XCALL_SENDS_MASK,
	.init = stub_init, .call = stub_call, .handle_ipi = { stub_ipi },
};
XCALL_TABLE_ENTRY(lockless2);
