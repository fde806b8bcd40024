/*
 * xcall.h — the cross-call (IPI function call) interface every algorithm
 * implements, and the "raw" IPI ping-pong floor.
 *
 * Algorithms (one file each): "locked" (one global ticket lock around one
 * call slot: Xen before 2026), "lockless" (per-CPU call data + a global mask
 * of active initiators: the 2026 series), "queued" (per-target FIFO of
 * per-call descriptors, IPI only when the queue was empty: Linux).
 *
 * The same files compile for the payload and for the host (pthread shim,
 * see platform.h); they talk to the machine only through platform.h.
 *
 * Calling rules:
 *  - init() once on CPU 0 before any call (xcall_init_all() does all).
 *  - call() may be made from any CPU, concurrently, with interrupts ENABLED
 *    (the initiator spins with interrupts on, so it keeps serving IPIs sent
 *    to it — that is what avoids A->B / B->A deadlock). The calling CPU is
 *    removed from the mask if present (it never calls itself). An empty mask
 *    returns at once.
 *  - fn runs on each target in IPI context (interrupts off), exactly once
 *    (the algorithms keep no books: a caller that checks it passes a callee
 *    that notes its sequence number in bench/ledger.h's ledger);
 *    it must not make cross-calls itself (it could not serve the IPIs its
 *    own targets might be waiting on) and must be short.
 *  - fn may be NULL (a "ping": targets just acknowledge).
 *  - arg must stay valid until fn has run everywhere: with wait=none/ack
 *    that is after call() returns, so pass static data or a value, not a
 *    pointer to the caller's stack (wait=done allows the stack).
 */
#ifndef XCB_XCALL_H
#define XCB_XCALL_H

#include <stdint.h>
#include "xcb_schema.h"

struct cpumask;

/* How long call() waits is proto/xcb_schema.h's enum xcb_wait, the seed's
 * "tristate" (Jan Beulich's suggestion): XCB_WAIT_NONE returns once the call
 * is posted (locked: see locked.c), XCB_WAIT_ACK once every target has picked
 * fn/arg up, XCB_WAIT_DONE once every target has finished fn. */

typedef void (*xcall_fn_t)(void *arg);

/* Lock profile, as Xen's lock profiling prints it. Zeroes where no lock. */
struct xcall_lockprof {
	uint64_t acquisitions;	/* lock taken */
	uint64_t contended;	/* taken after having to wait for another holder */
	uint64_t hold_cycles;	/* total TSC cycles held */
	uint64_t wait_cycles;	/* total TSC cycles spent waiting to take it */
};

struct xcall_ops {
	const char *name;			/* "locked", "lockless", "queued" */
	int  (*init)(unsigned ncpus);		/* once, on CPU 0, before any call; 0 or <0 */
	void (*call)(const struct cpumask *mask, xcall_fn_t fn, void *arg,
		     enum xcb_wait w);
	void (*handle_ipi)(void);		/* in the target's IPI handler (its own vector) */
	unsigned ipi;				/* that vector: enum plat_ipi (platform.h) */
	void (*lockprof)(struct xcall_lockprof *out);
	void (*reset)(void);			/* clear counters between cases (quiescent) */
};

extern const struct xcall_ops xcall_locked, xcall_lockless, xcall_queued;
extern const struct xcall_ops *const xcall_algos[];	/* NULL-terminated */

/* Find an algorithm by name; NULL if unknown. */
const struct xcall_ops *xcall_find(const char *name);

/* A wait's name: XCB_NAME(wait, w) (proto/xcb_schema.h). */

/*
 * Initialise every algorithm and register each one's IPI handler on its own
 * vector (ops->ipi), plus the RAW floors' handler. Call once on CPU 0 after
 * SMP bring-up. 0 or <0. An IPI runs only the algorithm that sent it, so
 * calls of different algorithms may be in flight at once (stress mode)
 * without one algorithm's handler touching another's shared state, and a
 * late IPI from a previous case finds its own algorithm with nothing to do.
 */
int xcall_init_all(unsigned ncpus);

/*
 * raw: bare IPI ping-pong, the floor. The caller (on some CPU) sends a RAW
 * IPI to `target`, whose minimal handler IPIs the caller straight back;
 * returns the round trip in TSC cycles (serialised reads). Spins with
 * interrupts enabled. Returns 0 if target == caller or target is out of range.
 */
uint64_t xcall_raw_roundtrip(unsigned target);
/* The `ipi` floor: one RAW IPI to `target`, whose handler sets the caller's
 * flag; the caller spins on it. Cycles (serialised reads), 0 as above. */
uint64_t xcall_raw_ipi_once(unsigned target);
void xcall_raw_ipi(void);		/* RAW vector handler (registered by init_all) */

#endif
