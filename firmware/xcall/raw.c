/*
 * raw.c — the floors, measured with a minimal handler on their own vector:
 *   ipi       — one IPI; the target's handler sets the caller's flag, the
 *               caller spins on it: the least a wait=done call can cost, and
 *               what every cross-call result is reported against;
 *   roundtrip — a ping-pong: the target IPIs the caller back (two IPIs).
 *
 * Initiator I: note in ping_from[T] that I asks, IPI T, spin (interrupts
 * on) until its own handler has seen T's answer. T's handler: take
 * ping_from[T], mark pong_pending[I], IPI I back. I's handler: turn
 * pong_pending[I] into pong_seen[I]. So the time covers two real IPI
 * deliveries and two handler entries, not just a memory flag.
 */
#include "xcall/xcall.h"
#include "xcall/platform.h"
#include "xcall/amask.h"

#define RAW_NOBODY 0xffffffffu
#define RAW_ONEWAY 0x80000000u	/* in ping_from: the `ipi` floor, answer by flag */

struct raw_cpu {
	uint32_t ping_from;	/* who pinged this CPU (RAW_NOBODY: nobody) */
	uint32_t pong_pending;	/* an answer to our ping is on its way */
	uint32_t pong_seen;	/* our handler received that answer */
	uint32_t lost;		/* the target our last probe gave up on (RAW_NOBODY: none) */
} __attribute__((aligned(64)));

static struct raw_cpu raw[AMASK_MAX_CPUS];

void xcall_raw_init_state(void)
{
	/* relaxed: runs at init, before any ping can be sent; the IPI vector
	 * is registered after this (xcall_init_all), which publishes it. */
	for (unsigned i = 0; i < AMASK_MAX_CPUS; i++) {
		__atomic_store_n(&raw[i].ping_from, RAW_NOBODY, __ATOMIC_RELAXED);
		__atomic_store_n(&raw[i].lost, RAW_NOBODY, __ATOMIC_RELAXED);
	}
}

/* Turns between two looks at the probe's bound (its clock): a few µs of
 * pauses on hardware. */
#define RAW_BOUND_TURNS 4096u

uint64_t xcall_raw_bound_ms(void)
{
	uint64_t ms = plat_raw_wait_ms();
	return ms ? ms : XCALL_RAW_BOUND_MS;
}

/* One probe to `target`: `mode` 0 is the ping-pong (the target IPIs us back and
 * our own handler sets pong_seen), RAW_ONEWAY the `ipi` floor (the target's
 * handler sets our pong_seen itself). Cycles, 0 for ourselves or no such CPU. */
static uint64_t raw_probe(unsigned target, uint32_t mode)
{
	unsigned me = plat_cpu_id();

	if (target == me || target >= plat_num_cpus())
		return 0;

	/* relaxed: the release store of ping_from below orders it. */
	__atomic_store_n(&raw[me].pong_seen, 0, __ATOMIC_RELAXED);
	uint64_t t0 = plat_cycles(), bound = xcall_raw_bound_ms() * plat_tsc_khz();
	unsigned spins = 0, turns = 0;
	/* release: the target's acquire exchange of ping_from sees our reset of
	 * pong_seen ordered before its answer (ping-pong) or its store of our
	 * flag (one-way). */
	__atomic_store_n(&raw[target].ping_from, me | mode, __ATOMIC_RELEASE);
	if (plat_lost_cpu(PLAT_LOST_RAW) != target)	/* test fault: the ping lost */
		plat_send_ipi(target, PLAT_IPI_RAW);
	/* acquire: pairs with the release store of pong_seen - our own handler's
	 * (ping-pong) or the target handler's (one-way). Bounded: the floors
	 * before a case (bench/runner.c, bench/rep.c) run outside any watchdog. */
	while (!__atomic_load_n(&raw[me].pong_seen, __ATOMIC_ACQUIRE)) {
		/* The clock only every RAW_BOUND_TURNS turns: a serialised read
		 * in every turn would slow the very spin the floor times. Its
		 * own count: spins restarts at each note (platform.h). */
		if (++turns % RAW_BOUND_TURNS == 0 && bound && plat_cycles() - t0 > bound) {
			/* Take the ping back (acq_rel: pairs with the target's
			 * exchange), so a late handler cannot answer a later probe
			 * with this one's flag; if it was taken meanwhile, its
			 * answer is on its way and the next probe resets the flag. */
			uint32_t mine = me | mode;
			(void)__atomic_compare_exchange_n(&raw[target].ping_from, &mine, RAW_NOBODY, 0,
							  __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
			/* relaxed: our own slot, read by our caller on this CPU. */
			__atomic_store_n(&raw[me].lost, target, __ATOMIC_RELAXED);
			plat_wait_done(spins);
			return 0;
		}
		plat_wait_turn(&spins, target, "raw: ping not answered");
	}
	plat_wait_done(spins);
	return plat_cycles() - t0;
}

int xcall_raw_lost(void)
{
	unsigned me = plat_cpu_id();
	/* relaxed: our own slot (raw_probe, on this CPU). */
	uint32_t t = __atomic_exchange_n(&raw[me].lost, RAW_NOBODY, __ATOMIC_RELAXED);
	return t == RAW_NOBODY ? -1 : (int)t;
}

uint64_t xcall_raw_roundtrip(unsigned target) { return raw_probe(target, 0); }
uint64_t xcall_raw_ipi_once(unsigned target) { return raw_probe(target, RAW_ONEWAY); }

void xcall_raw_ipi(void)
{
	unsigned me = plat_cpu_id();

	/* A ping for us? acquire: pairs with the initiator's release. */
	uint32_t from = __atomic_exchange_n(&raw[me].ping_from, RAW_NOBODY, __ATOMIC_ACQUIRE);
	if (from != RAW_NOBODY && (from & RAW_ONEWAY)) {
		/* The `ipi` floor: set the caller's flag, no IPI back. release:
		 * pairs with the acquire spin in raw_probe(). */
		__atomic_store_n(&raw[from & ~RAW_ONEWAY].pong_seen, 1, __ATOMIC_RELEASE);
	} else if (from != RAW_NOBODY) {
		/* release: the initiator's handler sees the answer flag with
		 * everything we did before it. */
		__atomic_store_n(&raw[from].pong_pending, 1, __ATOMIC_RELEASE);
		plat_send_ipi(from, PLAT_IPI_RAW);
	}
	/* An answer for us? Only now, in our handler, does the round trip end.
	 * acquire: pairs with the target's release store of pong_pending above;
	 * release: pairs with the acquire spin in raw_probe(), which
	 * runs on this same CPU (the handler interrupts it), so it only keeps
	 * the compiler from caching or reordering, and lets TSan see the edge. */
	if (__atomic_exchange_n(&raw[me].pong_pending, 0, __ATOMIC_ACQUIRE))
		__atomic_store_n(&raw[me].pong_seen, 1, __ATOMIC_RELEASE);
}
