/*
 * no_desc.c — an injected fault for tests/t-xcall-faults.sh: an algorithm
 * declared without the `.desc` the guide requires. xcall_init_all() must
 * refuse it by name (registry.c xcall_decl_error): the payload ran it, and
 * HELLO carried an empty algo.nodesc= line.
 */
#include "tests/faults/stub.h"

const struct xcall_ops xcall_nodesc = {
	.name = "nodesc", .nipi = 1,
	.waits = XCALL_WAITS_ALL, .sends = XCALL_SENDS_MASK,
	.init = stub_init, .call = stub_call, .handle_ipi = { stub_ipi },
};
XCALL_TABLE_ENTRY(nodesc);
