/*
 * flush.h — TLB shootdown: change N page mappings in the 4 KiB test window,
 * invalidate on every target, and have every target verify that it no
 * longer reaches the old frame.
 *
 * Paths:   VECTOR — a dedicated flush vector serialised by one global flush
 *                   lock (today's Xen flush_area_mask()).
 *          XCALL  — the flush sent as a cross-call through a given xcall_ops
 *                   (the 2026 series' third patch), wait = DONE.
 * Methods: INVLPG per page, CR3 reload (full flush), INVPCID (where CPUID
 *          offers it), NONE — the `noflush` control: no remote invalidation,
 *          showing whether the platform caches translations at all (stale
 *          reads are then EXPECTED and reported as `stale_expected`).
 *
 * One shootdown, on the initiator:
 *   1. prime: each target reads every page of the batch through the window
 *      (so it holds the old translation — otherwise verification proves nothing);
 *   2. change the PTEs: rotate among the page's PLAT_TW_FRAMES frames (each its marker)
 *      (the next in rotation), or clear the PTE (mode `unmap`: then a read must #PF);
 *   3. invalidate locally, then remotely by the chosen path and method;
 *   4. each target, after invalidating, reads every changed page: old
 *      marker = stale violation; new marker or a fault (unmap) = good.
 */
#ifndef XCB_FLUSH_H
#define XCB_FLUSH_H

#include <stdint.h>
#include "xcall/xcall.h"

struct cpumask;

/* enum xcb_method, enum xcb_flush: proto/xcb_schema.h's vocabularies. The
 * paths beyond vector and xcall (paths.c): CONCURRENT (local and remote
 * invalidation overlapped: Linux 5.12), EARLY_ACK (targets acknowledge on
 * entering the handler, before invalidating: EuroSys'20), EARLY_ACK_READER
 * (the same with a reader inside the window: the unsafe case, its violations
 * are the point), CONSOLIDATED (call data and flush information in one cache
 * line per target). */
/* The paths a run takes unless asked: all but the unsafe demonstration. */
#define FLUSH_PATHS_DEFAULT ((1u << XCB_N_flush) - 1 - (1u << XCB_FLUSH_EARLY_ACK_READER))
enum flush_change { FLUSH_REMAP, FLUSH_UNMAP };	/* PTE -> other frame, or cleared */

#define FLUSH_MAX_BATCH 64	/* most page changes in one shootdown */

struct flush_cfg {
	enum xcb_method method;
	enum xcb_flush flush;
	enum flush_change change;
	const struct xcall_ops *xops;	/* path XCALL only */
	unsigned batch;			/* pages changed per shootdown, 1..flush_max_batch() */
};

struct flush_stats {
	uint64_t shootdowns;
	uint64_t pages;			/* page changes */
	uint64_t verified;		/* (target, page) reads checked */
	uint64_t faults;		/* reads that faulted as expected (unmap) */
	uint64_t stale;			/* VIOLATIONS: old frame still reached (must be 0) */
	uint64_t stale_expected;	/* old frame reached under XCB_METHOD_NONE (control) */
	struct xcall_lockprof lock;	/* the global flush lock (path VECTOR) */
};

/* Once, on CPU 0, after xcall_init_all(): maps the window. 0 or <0. */
int flush_init(unsigned ncpus);

/* Pages each initiator may change per shootdown (its own slice of the window,
 * so concurrent initiators never touch the same page). A larger batch is
 * refused (<0 from the steps below), never silently clamped. */
unsigned flush_max_batch(void);

/* The window has one slice per concurrent initiator (at most
 * FLUSH_MAX_SLICES), not per CPU, so it fits any CPU count. A CPU uses slice
 * (cpu % slices) unless told otherwise: a case with initiators cpus[0..n)
 * gives slice k to cpus[k] before it runs (quiescent). 0, or -1 if n is
 * more than the slices. */
#define FLUSH_MAX_SLICES 32
int flush_assign_slices(const unsigned *cpus, unsigned n);

/*
 * The three steps of one shootdown, all on the initiating CPU, all taking
 * the same cfg and targets (the caller is excluded from targets). Several
 * CPUs may run them at once: each changes only its own slice of pages.
 *   flush_prepare   — make the batch mapped and have the caller and every
 *                     target load its translations (untimed);
 *   flush_shootdown — change the PTEs, invalidate locally, then remotely by
 *                     cfg->flush/method: the part to time;
 *   flush_verify    — the caller and every target read every changed page;
 *                     returns the stale reads seen: violations, or under
 *                     method NONE (the control) the stale reads it detected,
 *                     counted as stale_expected and never as violations.
 * Each returns <0 on a bad cfg (unknown method/path, INVPCID unsupported,
 * XCALL path without xops, unmap where faults can't be caught, batch above
 * flush_max_batch()).
 */
int flush_prepare(const struct flush_cfg *cfg, const struct cpumask *targets);
int flush_shootdown(const struct flush_cfg *cfg, const struct cpumask *targets);
int flush_verify(const struct flush_cfg *cfg, const struct cpumask *targets);
/* flush_shootdown() in its two halves, for a caller that holds a lock over
 * the PTE change but may invalidate elsewhere (the `sync` case: inside or
 * after the write lock): flush_change changes the PTEs and invalidates this
 * CPU's TLB; flush_remote invalidates the targets by cfg->flush/method. */
int flush_change(const struct flush_cfg *cfg);
int flush_remote(const struct flush_cfg *cfg, const struct cpumask *targets);

/* For a reader outside the shootdown (the sync case's lazy readers, checking the
 * window between write-unlock and their next entry): the first page the caller's
 * last flush_change changed, and the frame it maps now (-1: none changed yet);
 * and whether this CPU's translation of `page` reaches `frame` (1), another
 * frame (0: stale), or faults (-1). */
int flush_last_change(unsigned *page);
int flush_page_sees(unsigned page, int frame);

/* All three; *cycles (if not NULL) gets the flush_shootdown() time.
 * Returns stale violations (>= 0) or <0 on a bad cfg. */
int flush_run(const struct flush_cfg *cfg, const struct cpumask *targets, uint64_t *cycles);

void flush_get_stats(struct flush_stats *out);
void flush_reset(void);

/* Handler of the dedicated FLUSH vector (registered by flush_init). */
void flush_ipi_handler(void);

/* Names: XCB_NAME(method, m), XCB_NAME(flush, p) (proto/xcb_schema.h). */
int flush_method_supported(enum xcb_method m);

#endif
