/*
 * xcall.h — the cross-call (IPI function call) interface every algorithm
 * implements, and the "raw" IPI ping-pong floor.
 *
 * Algorithms are one file each in this directory, each declaring itself
 * with XCALL_ALGO() (its name and one-line description live there, and
 * only there); xcall_algos lists what is linked in.
 *
 * The same files compile for the payload and for the host (pthread shim,
 * see platform.h); they talk to the machine only through platform.h.
 *
 * Calling rules:
 *  - init() once on CPU 0 before any call (xcall_init_all() does all).
 *  - call() may be made from any CPU, concurrently, with interrupts ENABLED
 *    (the initiator spins with interrupts on, so it keeps serving IPIs sent
 *    to it — that is what avoids A->B / B->A deadlock). The calling CPU is
 *    removed from the mask if present (it never IPIs itself); an algorithm
 *    with .runs_self runs fn on it directly instead. An empty mask returns
 *    at once.
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
#include "xcb_proto.h"
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

/*
 * Whether the lock acquisitions this CPU makes from now on count in the lock
 * profiles (ticketlock.h: locked's call lock, the flush lock), until it says
 * otherwise: 1 (the default) counts them, 0 leaves them out. The bench turns
 * its initiators' counting off for their warm-up calls and the TLB no-flush
 * control (bench/initiator.c), so a case's profile is of its timed calls
 * alone, as its latencies are: the warm-up's cold first takes and the
 * control's shootdowns of nothing were 18 of each repetition's 218
 * acquisitions of the shorthand thread's boot (seed 001), averaged into the
 * hold it reports. Per CPU, not a switch of the lock's: with 2 or more
 * initiators one is still warming up while another is timed.
 */
void xcall_lockprof_count(int on);
int xcall_lockprof_counting(void);

/* The waits an algorithm supports, as a bit set: XCALL_WAITS_ALL, or e.g.
 * XCALL_WAIT_BIT(XCB_WAIT_DONE). The suite and the free checks run only
 * these; a `waits=` word outside them is skipped for that algorithm. */
#define XCALL_WAIT_BIT(w) (1u << (w))
#define XCALL_WAITS_ALL (XCALL_WAIT_BIT(XCB_WAIT_NONE) | XCALL_WAIT_BIT(XCB_WAIT_ACK) | \
			 XCALL_WAIT_BIT(XCB_WAIT_DONE))

/* How an algorithm's sends reach the targets: through the APIC layer's mask
 * policy (delivery= decides unicast / cluster / shorthand), or one unicast
 * IPI per CPU it chooses (a tree's leaders): the CASE's x_delivery_used.
 * The suite runs a unicast sender under one delivery only (bench/suite.c
 * xcall_deliveries). */
enum xcall_sends { XCALL_SENDS_MASK, XCALL_SENDS_UNICAST };

/* Longest algorithm name: HELLO carries its description as the fact
 * algo.NAME=, whose key the daemon drops past proto's XCB_KEY_MAX (the name
 * then missing from xcbench show's algorithms, the API's schema). */
#define XCALL_NAME_MAX 59
_Static_assert(XCALL_NAME_MAX + sizeof("algo.") - 1 == XCB_KEY_MAX, "algo.NAME is a HELLO key");

/* Longest description (.desc): HELLO's buffer holds XCALL_MAX_ALGOS of
 * them at this length (bench/hello_algos.h), so a longer one would cut
 * HELLO off; xcall_init_all() refuses it. */
#define XCALL_DESC_MAX 120

/* Most IPI vectors one algorithm may ask for (xcall_ops.nipi). */
#define XCALL_MAX_IPI 2

typedef void (*xcall_ipi_fn_t)(void);

/*
 * One algorithm, declared once in its own file with XCALL_ALGO()
 * (xcall_internal.h): a linker-table entry, so nothing else lists it — not
 * a registry array, not a vector table, not the tests, not the host
 * (docs/ADDING-AN-ALGORITHM.md).
 */
struct xcall_ops {
	const char *name;			/* [a-z0-9_]+, unique: cmdline algos=, CASE algo */
	const char *desc;			/* one line, for HELLO, the API and --help */
	unsigned nipi;				/* IPI vectors it needs from the pool (1..XCALL_MAX_IPI) */
	unsigned waits;				/* XCALL_WAIT_BIT() set it supports */
	enum xcall_sends sends;			/* delivery its sends really use */
	/* Once, on CPU 0, before any call; ipi[0..nipi-1] are the IPI kinds
	 * (enum plat_ipi) the registry allocated for it: send on those. */
	int  (*init)(unsigned ncpus, const unsigned *ipi);
	void (*call)(const struct cpumask *mask, xcall_fn_t fn, void *arg,
		     enum xcb_wait w);
	/* handle_ipi[k] runs in the target's IPI handler of kind ipi[k]. */
	xcall_ipi_fn_t handle_ipi[XCALL_MAX_IPI];
	/* Optional (NULL: no lock, every count 0): the lock's profile. */
	void (*lockprof)(struct xcall_lockprof *out);
	/* Optional (NULL: nothing to clear): clear counters and leftovers
	 * between cases, quiescent (bench/rep.c). */
	void (*reset)(void);
	/* 1: a caller in its own mask runs fn too (instead of being removed). */
	unsigned runs_self;
	/* Optional (NULL: flat): the group size G of a hierarchical
	 * algorithm, set between cases on CPU 0; 0 = its default. Returns
	 * the G now in effect (the CASE's `group`). */
	unsigned (*set_group)(unsigned g);
};

/*
 * The registered algorithms, sorted by name (so every list derived from it
 * — suite order, HELLO, tests — is the same whatever the link order):
 * xcall_algos[i] for i < xcall_algo_count(), then NULL. The first use sorts
 * the table; make it on CPU 0 before the APs run (suite_load, xcall_init_all).
 */
const struct xcall_ops *const *xcall_algo_list(void);
#define xcall_algos (xcall_algo_list())
unsigned xcall_algo_count(void);
/* Most algorithms the registry takes (a bigger table is an init error). */
#define XCALL_MAX_ALGOS 24

/* Find an algorithm by name; NULL if unknown. */
const struct xcall_ops *xcall_find(const char *name);

/* Why an algorithm cannot be named `name` (`all`, or the name of a flush
 * path, floor or sync mode: the other values of the CASE key `algo`), in
 * words; NULL if it can. xcall_init_all() refuses such an algorithm. */
const char *xcall_name_reserved(const char *name);

/* What is wrong with an algorithm's declaration besides a reserved name —
 * a name not [a-z0-9_]+, one another entry has too, no .init or .call, a
 * .handle_ipi past .nipi, a .desc missing, empty or not one line — in words
 * naming the field; NULL if nothing.
 * xcall_init_all() refuses such an algorithm (the payload would otherwise
 * run it: two entries of one name mix their cases under it, and HELLO's
 * algo.NAME= line carries the description). */
const char *xcall_decl_error(const struct xcall_ops *o);

/* A wait's name: XCB_NAME(wait, w) (proto/xcb_schema.h). */

/*
 * Initialise every algorithm: allocate its IPI vectors from the pool
 * (platform.h: plat_ipi_alloc), register its handlers on them, then call its
 * init; plus the RAW floors' handler. Call once on CPU 0 after
 * SMP bring-up. 0 or <0. An IPI runs only the algorithm that sent it, so
 * calls of different algorithms may be in flight at once (stress mode)
 * without one algorithm's handler touching another's shared state, and a
 * late IPI from a previous case finds its own algorithm with nothing to do.
 */
int xcall_init_all(unsigned ncpus);
/* Why the last xcall_init_all() failed, in words naming the algorithm
 * ("" when it did not): e.g. the IPI vector pool exhausted. */
const char *xcall_init_error(void);

/*
 * Topology domains (xcall/groups.c): each CPU's package where the machine
 * says (MADT / x2APIC ids / CPUID leaf 0xB or 0x1F), for algorithms that
 * group targets (tree: a group never spans two domains). Set once, before
 * any call, by whoever knows the topology (the bench: runner_init); the
 * table is the caller's and must outlive the calls. NULL: unknown, groups
 * are runs in CPU order.
 */
void xcall_set_domains(const unsigned *dom_of);
const unsigned *xcall_domains(void);

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
/* Both give up after xcall_raw_bound_ms() without an answer and return 0; then
 * this names the target (and forgets it), else -1. Per CPU: ask on the CPU
 * that probed. The bound is far past any answer, even under TCG on a loaded
 * host, and longer than the bench watchdog's usual bound (2 s), so a probe
 * timed under the watchdog (kind=raw) is still reported by it; the floors,
 * which run outside it, end here (as arch/smp.c's job kicks give up after
 * 10 s). The test key rawwait_ms= (platform.h plat_raw_wait_ms) shortens
 * it for a fault test that waits it out (tests/t-wait-faults.sh). */
#define XCALL_RAW_BOUND_MS 10000
uint64_t xcall_raw_bound_ms(void);
int xcall_raw_lost(void);
void xcall_raw_ipi(void);		/* RAW vector handler (registered by init_all) */

#endif
