/*
 * pool_hog.c — an injected fault for tests/t-xcall-faults.sh: seven extra
 * algorithms of two IPI vectors each, beside the real ones: more vectors
 * than the pool has (platform.h PLAT_IPI_POOL). xcall_init_all() must refuse
 * with an error naming the algorithm that did not fit — never hand out a
 * silent vector 0.
 */
#include "tests/faults/stub.h"

#define HOG(n)									\
	const struct xcall_ops xcall_hog##n = {					\
		.name = "hog" #n, .desc = "takes two vectors", .nipi = 2,	\
		.waits = XCALL_WAITS_ALL, .sends = XCALL_SENDS_MASK,		\
		.init = stub_init, .call = stub_call,				\
		.handle_ipi = { stub_ipi, stub_ipi },				\
	};									\
	XCALL_TABLE_ENTRY(hog##n)
HOG(0); HOG(1); HOG(2); HOG(3); HOG(4); HOG(5); HOG(6);
