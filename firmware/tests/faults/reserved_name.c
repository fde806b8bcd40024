/*
 * reserved_name.c — an injected fault for tests/t-xcall-faults.sh: an
 * algorithm named `lazy`, a sync mode (kind=sync cases carry it as their
 * CASE key `algo`), beside the real ones. xcall_init_all() must refuse it by
 * name (registry.c xcall_name_reserved): otherwise its cases and the lazy
 * sync cases would share one `algo` value, and nothing would say so.
 */
#include "tests/faults/stub.h"

const struct xcall_ops xcall_taken = {
	.name = "lazy", .desc = "named like a sync mode", .nipi = 1,
	.waits = XCALL_WAITS_ALL, .sends = XCALL_SENDS_MASK,
	.init = stub_init, .call = stub_call, .handle_ipi = { stub_ipi },
};
XCALL_TABLE_ENTRY(taken);
