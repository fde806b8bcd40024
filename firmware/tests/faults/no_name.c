/*
 * no_name.c — an injected fault for tests/t-xcall-faults.sh: a hand-written
 * table entry without a `.name` (XCALL_ALGO() always gives one). The
 * registry's sort and lookups must not fault on it (registry.c cmp), and
 * xcall_init_all() must refuse it as "(no name)", saying what gives one.
 */
#include "tests/faults/stub.h"

const struct xcall_ops xcall_noname = {
	.desc = "a table entry without a name", .nipi = 1,
	.waits = XCALL_WAITS_ALL, .sends = XCALL_SENDS_MASK,
	.init = stub_init, .call = stub_call, .handle_ipi = { stub_ipi },
};
XCALL_TABLE_ENTRY(noname);
