/*
 * stub.h — the functions of an algorithm that is only there to be
 * registered (pool_hog.c, reserved_name.c: init must refuse it before any
 * call): init succeeds, a call and an IPI do nothing.
 */
#ifndef XCB_FAULTS_STUB_H
#define XCB_FAULTS_STUB_H

#include "xcall/xcall_internal.h"

static int stub_init(unsigned ncpus, const unsigned *ipi)
{
	(void)ncpus;
	(void)ipi;
	return 0;
}
static void stub_call(const struct cpumask *m, xcall_fn_t fn, void *arg, enum xcb_wait w)
{
	(void)m, (void)fn, (void)arg, (void)w;
}
static void stub_ipi(void) { }

#endif
