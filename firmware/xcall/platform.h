/*
 * xcall/platform.h — what only the cross-call and flush algorithms need from
 * below: IPI kinds on their own vectors and the 4 KiB TLB test window. CPU id,
 * spin, clock, interrupt state and memory are the common platform layer
 * (lib/platform.h, included here for the algorithms). Implemented twice:
 *   platform_hw.c   — the payload: arch/apic IPIs on dedicated vectors,
 *                     real page tables.
 *   platform_host.c — host tests: pthreads as CPUs, an IPI is a bit in the
 *                     target's pending word that the target polls; a
 *                     software TLB per thread over a shared page table.
 * The layer is deliberately thin so the SAME algorithm files build for both.
 */
#ifndef XCB_XCALL_PLATFORM_H
#define XCB_XCALL_PLATFORM_H

#include <stdint.h>
#include "lib/platform.h"
#include "lib/cmdline_words.h"

struct amask;

/*
 * The IPI kinds; each is one vector on hardware. Two are fixed; the rest
 * are a pool the registry hands out, nipi per cross-call algorithm
 * (xcall.c: xcall_init_all), so an IPI runs only the handler of the
 * algorithm that sent it (not every algorithm's "anything for me?" scan,
 * which would read the other algorithms' shared lines inside every timed
 * call). The pool has the same size on hardware and in the host shim, so a
 * host test exhausts it exactly where the payload would.
 */
enum plat_ipi {
	PLAT_IPI_FLUSH,		/* dedicated TLB-flush vector (today's Xen) */
	PLAT_IPI_RAW,		/* raw ping-pong */
	PLAT_IPI_POOL0,		/* first pool kind */
	PLAT_IPI_POOL = 14,	/* pool kinds: 0xe0..0xef less RAW's and FLUSH's */
	PLAT_IPI_NR = PLAT_IPI_POOL0 + PLAT_IPI_POOL
};

/* Hand out the next free pool kind, or -1 when the pool is exhausted. */
int plat_ipi_alloc(void);
/* Return every pool kind (xcall_init_all, before allocating afresh). */
void plat_ipi_pool_reset(void);

typedef void (*plat_ipi_handler_t)(void);

/* Install the handler for an IPI kind (hw: IDT vector + EOI after it). */
void plat_ipi_register(enum plat_ipi kind, plat_ipi_handler_t fn);

/* Send an IPI of `kind`; delivery (unicast/cluster/shorthand) is chosen below. */
void plat_send_ipi(unsigned cpu, enum plat_ipi kind);
/* Send to every CPU set in `mask` (a private snapshot, never the caller). */
void plat_send_ipi_mask(const struct amask *mask, enum plat_ipi kind);

/* ---- waits on another CPU: what they wait for, and a test fault -------- */

/*
 * Every spin on another CPU's answer (raw.c, flush/paths.c, flush/lazy.c,
 * qlist.c) notes, once it has spun a while, which CPU it waits on and what
 * for ("qlist: descriptor busy"): the bench watchdog's report names it
 * (bench/watchdog.c wd_describe), so a lost IPI ends in a report naming the
 * CPU that never answered, not just "in a call". A diagnostic only: relaxed
 * stores to the waiter's own slot, outside the fast path (a wait that ends at
 * its first look notes nothing). `what` is a string literal.
 */
void plat_wait_note(unsigned target, const char *what);
void plat_wait_clear(void);
/* The CPU `cpu` notes it waits on (its `what` in *what), or -1: none. */
int plat_waiting_on(unsigned cpu, const char **what);

/*
 * When a wait notes: once it has lasted PLAT_WAIT_NOTE_US of the platform's
 * clock (plat_now_us), and again every PLAT_WAIT_NOTE_US while it lasts (a
 * mask's wait names the lowest CPU still missing, which changes as the
 * others answer). Time, not turns: it was "after 4096 turns", and a turn's
 * length is the host's — a pause on hardware (4096: a few µs), a
 * sched_yield() in the host shim, which beside other load took over 10 s
 * for 4096, so test_xcall's time bound passed before the note was made and
 * named no CPU (t-xcall-faults' no_checkin, under load).
 *
 * The clock is read at every PLAT_WAIT_LOOK_TURNS-th turn only (the first
 * such look starts the wait's clock): on hardware 64 pauses, well under a
 * microsecond to a few, so a timed spin pays no clock read per turn; on the
 * host every turn, which a clock read costs nothing beside. The count in
 * *spins carries PLAT_WAIT_NOTED once a note was made (plat_wait_done
 * clears it), and its turns restart at each note, so it never wraps.
 */
#define PLAT_WAIT_NOTE_US 100
#ifdef XCB_HOST
#define PLAT_WAIT_LOOK_TURNS 1u
#else
#define PLAT_WAIT_LOOK_TURNS 64u
#endif
#define PLAT_WAIT_NOTED (1u << 31)

/* A look at the clock (platform_hw.c / platform_host.c keep the wait's start
 * in the caller's own per-CPU slot): 1 when a note is due now, and then
 * *spins is PLAT_WAIT_NOTED with its turns restarted. */
int plat_wait_look(unsigned *spins);

/* One turn of a wait whose condition failed: 1 when it should note (now).
 * *spins starts at 0; only a wait that spins pays the count. */
static inline int plat_wait_due(unsigned *spins)
{
	return ++*spins % PLAT_WAIT_LOOK_TURNS == 0 && plat_wait_look(spins);
}

/* One turn of a wait on CPU `target`, after its condition failed: notes the
 * wait when due (plat_wait_due), then relaxes. *spins starts at 0. */
static inline void plat_wait_turn(unsigned *spins, unsigned target, const char *what)
{
	if (plat_wait_due(spins))
		plat_wait_note(target, what);
	plat_cpu_relax();
}

/* After the wait: forgets its note, if it made one. */
static inline void plat_wait_done(unsigned spins)
{
	if (spins & PLAT_WAIT_NOTED)
		plat_wait_clear();
}

/*
 * Test fault (payload keys ipidrop=raw|paths|qlist|lazy|mask|vector and
 * ipidrop_cpu=N, firmware/cmdline_keys.c; tests/t-wait-faults.sh; the
 * words and this enum are one list, lib/cmdline_words.h): the CPU
 * whose answer to the waits of `site` is lost — the IPI to it not sent (raw:
 * the ping; paths: flush/paths.c's; qlist: a queue's first call), or (lazy)
 * its entries never acknowledged — or ~0u: none (always on the host). Set at
 * init; one call per operation, not per target (timed paths).
 * Two sites live in platform_hw.c's sends, not in a caller: `mask` (every
 * IPI on a pool vector an initiator sends to CPU N: locked, lockless and
 * tree's calls, qlist's, flush/paths.c's direct paths — so their mask waits,
 * xcall_wait_empty, run out) and `vector` (the flush vector's IPI to CPU N,
 * flush.c's vector path). With ipidrop_after=M the first M such IPIs to CPU
 * N still go out, so a later step loses its IPI (the TLB no-flush control).
 */
enum plat_lost { CMDLINE_VOCAB_IPIDROP(XCB_ENUMERATOR) };
unsigned plat_lost_cpu(enum plat_lost site);

/* The payload's lost-IPI test faults, as bench/faults.c parses them (every
 * test key is parsed and checked there, once, before the first IPI):
 * ipidrop= site and ipidrop_cpu= (~0u: none), ipidrop_after=, and
 * fwddrop_cpu= (IPIs a handler sends that CPU are lost: a tree leader's
 * forward; ~0u: none), and rawwait_ms= (raw_wait_ms: the raw probe's
 * give-up bound, 0: xcall.h's XCALL_RAW_BOUND_MS). Payload only
 * (platform_hw.c). */
struct plat_faults {
	enum plat_lost lost_site;
	unsigned lost_cpu;
	uint64_t lost_after;
	unsigned fwddrop_cpu;
	uint64_t raw_wait_ms;
};
void plat_faults_set(const struct plat_faults *f);
/* The test key rawwait_ms=N as handed down (plat_faults.raw_wait_ms), 0 when
 * not given (always on the host): xcall/raw.c's xcall_raw_bound_ms() takes
 * it over its own default, so a fault test that loses a raw ping waits a
 * short bound out rather than the 10 s a real run keeps. */
uint64_t plat_raw_wait_ms(void);

/* ---- TLB test window (4 KiB pages) for the flush layer ---------------- */

enum plat_tlb_op { PLAT_TLB_INVLPG, PLAT_TLB_CR3, PLAT_TLB_INVPCID, PLAT_TLB_NONE };

/*
 * Set up the window: `npages` virtual 4 KiB pages and PLAT_TW_FRAMES*npages
 * backing frames (page p's are PLAT_TW_FRAMES*p + 0..PLAT_TW_FRAMES-1; it starts
 * on the first). Three, not two: a page that rotates among three frames never
 * gets back, on its next change, the frame a translation left stale by the
 * previous change (a no-flush control) still points at, so that stale entry
 * cannot pass for the new frame. Returns the pages made available (<= npages), or <0.
 */
#define PLAT_TW_FRAMES 3
int plat_tw_init(unsigned npages);
/* Point window page `page` at frame `frame` (0..PLAT_TW_FRAMES*npages-1), or clear it
 * (frame < 0). Only changes the page table; no invalidation. */
void plat_tw_map(unsigned page, int frame);
/* Direct (never stale) pointer to a frame's first word, for writing markers. */
volatile uint64_t *plat_tw_frame(unsigned frame);
/* Read the first word of window page `page` THROUGH the mapping (may use a
 * stale TLB entry). Returns 0 and *val, or -1 if it faulted (not present). */
int plat_tw_read(unsigned page, uint64_t *val);
/* 1 if plat_tw_read() survives a not-present page (catches the #PF). */
int plat_tw_fault_safe(void);
/* Invalidate this CPU's translation for `page` (INVLPG/INVPCID) or all (CR3). */
void plat_tlb_flush(enum plat_tlb_op op, unsigned page);
/* Whether `op` is available on this CPU (INVPCID needs CPUID support). */
int plat_tlb_supported(enum plat_tlb_op op);

#endif
