/*
 * flush.c — TLB shootdown over the 4 KiB test window: PTE changes, local and
 * remote invalidation (dedicated vector + global flush lock, or a cross-call),
 * and per-target verification that the old frame is no longer reachable.
 *
 * Window layout: page p maps one of its PLAT_TW_FRAMES frames (FRAME(p, k)) and
 * every remap moves it to the next in rotation; every frame holds a distinct
 * marker written once at init and never again, so a read through page p tells
 * exactly which frame the CPU's translation points at. After a no-flush control
 * each CPU that verified drops what it saw stale (verify_cb), and with three
 * frames a stale entry left anyway is never the next change's new frame.
 * Each concurrent initiator owns a slice of pages (flush_assign_slices); only
 * it changes their PTEs, so concurrent initiators never race on a mapping.
 */
#include "flush/flush.h"
#include "xcb_schema.h"
#include "xcall/platform.h"
#include "xcall/amask.h"
#include "xcall/ticketlock.h"
#include "xcall/xcall_internal.h"
#include "flush/flush_internal.h"

#define WINDOW_PAGES	512	/* one page table: 2 MiB of VA, 6 MiB of frames */
#define FRAME(p, k)	((int)(PLAT_TW_FRAMES * (p) + (k)))	/* page p's k-th frame */

static unsigned npages, slice, nslices, ncpus_f;
static unsigned *slot_of;		/* per CPU: its slice; changed only while quiescent */
static int *cur;			/* current frame of each page; owner-only */
static struct flush_req *reqs;		/* one per CPU */

static struct {				/* statistics: relaxed atomic counters */
	uint64_t shootdowns, pages, verified, faults, stale, stale_expected;
} st;

/* The VECTOR path: one global lock serialises all flushes (today's Xen
 * flush_lock), guarding one "what to flush" slot and a pending mask. */
static struct ticketlock flush_lock;
static struct {
	const struct flush_req *req;	/* written under the lock, before pending */
	struct amask pending __attribute__((aligned(64)));
} fv;
static unsigned nwords;

/* relaxed: pure counters that several CPUs bump at once; nothing is ordered
 * by them, and they are read (flush_verify, flush_get_stats) only after the
 * call that made them has completed, whose own acquire orders them. */
static void count(uint64_t *c, uint64_t n)
{
	__atomic_fetch_add(c, n, __ATOMIC_RELAXED);
}

static enum plat_tlb_op tlb_op(enum xcb_method m)
{
	switch (m) {
	case XCB_METHOD_INVLPG:  return PLAT_TLB_INVLPG;
	case XCB_METHOD_CR3:     return PLAT_TLB_CR3;
	case XCB_METHOD_INVPCID: return PLAT_TLB_INVPCID;
	default:            return PLAT_TLB_NONE;
	}
}

int flush_method_supported(enum xcb_method m)
{
	return (unsigned)m < XCB_N_method && plat_tlb_supported(tlb_op(m));
}

int flush_init(unsigned ncpus)
{
	if (ncpus == 0 || ncpus > AMASK_MAX_CPUS)
		return -1;
	if (reqs)
		return ncpus == ncpus_f ? 0 : -1;	/* already done */
	int n = plat_tw_init(WINDOW_PAGES);
	if (n < (int)ncpus)
		return -1;
	npages = (unsigned)n;
	ncpus_f = ncpus;
	nwords = amask_words(ncpus);
	nslices = ncpus < FLUSH_MAX_SLICES ? ncpus : FLUSH_MAX_SLICES;
	slice = npages / nslices;
	if (slice > FLUSH_MAX_BATCH)
		slice = FLUSH_MAX_BATCH;
	cur = plat_alloc_zeroed(npages * sizeof(*cur));
	slot_of = plat_alloc_zeroed(ncpus * sizeof(*slot_of));
	reqs = plat_alloc_zeroed(ncpus * sizeof(*reqs));
	if (!cur || !reqs || !slot_of)
		return -1;
	for (unsigned c = 0; c < ncpus; c++)
		slot_of[c] = c % nslices;
	for (unsigned f = 0; f < PLAT_TW_FRAMES * npages; f++)
		*plat_tw_frame(f) = MARKER(f);
	for (unsigned p = 0; p < npages; p++) {
		plat_tw_map(p, FRAME(p, 0));
		cur[p] = FRAME(p, 0);
	}
	/* Nothing can have cached the window yet except (on hw) CPU 0 through
	 * an earlier mapping of the same VA: start clean. */
	plat_tlb_flush(PLAT_TLB_CR3, 0);
	/* Prove the window works before trusting it: every page, read through
	 * its VA, shows its own first frame; remapped to the second (and invalidated) it
	 * shows that one. A window that aliased pages (say, one big page) fails here. */
	for (unsigned p = 0; p < npages; p++) {
		uint64_t v;
		if (plat_tw_read(p, &v) < 0 || v != MARKER(FRAME(p, 0)))
			return -1;
		plat_tw_map(p, FRAME(p, 1));
		plat_tlb_flush(PLAT_TLB_INVLPG, p);
		if (plat_tw_read(p, &v) < 0 || v != MARKER(FRAME(p, 1)))
			return -1;
		plat_tw_map(p, FRAME(p, 0));
		plat_tlb_flush(PLAT_TLB_INVLPG, p);
	}
	plat_ipi_register(PLAT_IPI_FLUSH, flush_ipi_handler);
	return flush_paths_init(ncpus);
}

unsigned flush_max_batch(void)
{
	return slice;
}

int flush_assign_slices(const unsigned *cpus, unsigned n)
{
	if (n > nslices)
		return -1;
	/* Plain stores: quiescent (no shootdown in flight); the call that starts
	 * the next one publishes them. */
	for (unsigned k = 0; k < n; k++)
		if (cpus[k] < ncpus_f)
			slot_of[cpus[k]] = k;
	return 0;
}

static int check_cfg(const struct flush_cfg *c)
{
	if ((unsigned)c->method >= XCB_N_method || (unsigned)c->flush >= XCB_N_flush)
		return -1;
	if (!flush_method_supported(c->method))
		return -1;
	if (c->flush == XCB_FLUSH_XCALL && !c->xops)
		return -1;
	if (flush_path_is_direct(c->flush) && !flush_paths_supported(c->flush))
		return -1;
	if (c->change == FLUSH_UNMAP && !plat_tw_fault_safe())
		return -1;
	if (c->change != FLUSH_REMAP && c->change != FLUSH_UNMAP)
		return -1;
	if (!reqs)
		return -1;
	/* Refused, never clamped: a shootdown asked to change N pages changes N,
	 * or the caller learns it cannot (and labels nothing with a wrong N). */
	if ((c->batch ? c->batch : 1) > slice)
		return -1;
	return 0;
}

static unsigned batch_of(const struct flush_cfg *c)
{
	return c->batch ? c->batch : 1;	/* check_cfg() bounded it by slice */
}

/* The cross-call for the untimed prime/verify steps: always "queued" (no
 * global lock, FIFO), so concurrent initiators' bookkeeping does not
 * serialise and the timed step is the only one that differs between cases. */
static const struct xcall_ops *helper_ops(const struct flush_cfg *c)
{
	(void)c;
	return xcall_find("queued");
}

/* ---- what runs on each CPU ------------------------------------------- */

static void prime_cb(void *arg)
{
	const struct flush_req *r = arg;
	uint64_t v;

	for (unsigned i = 0; i < r->n; i++)
		(void)plat_tw_read(r->first + i, &v);	/* loads the translation */
}

void flush_invalidate(const struct flush_req *r)
{
	enum plat_tlb_op op = tlb_op(r->method);

	if (op == PLAT_TLB_NONE)
		return;			/* the noflush control */
	if (op == PLAT_TLB_CR3) {
		plat_tlb_flush(op, 0);	/* one full flush covers the batch */
		return;
	}
	for (unsigned i = 0; i < r->n; i++)
		plat_tlb_flush(op, r->first + i);
}

static void invalidate_cb(void *arg)
{
	flush_invalidate(arg);
}

void flush_count_violation(struct flush_req *r, uint64_t n)
{
	count(&st.stale, n);
	count(&r->stale, n);
}

static void verify_cb(void *arg)
{
	struct flush_req *r = arg;
	uint64_t stale = 0;

	for (unsigned i = 0; i < r->n; i++) {
		uint64_t v;
		int new = r->new_frame[i];

		count(&st.verified, 1);
		int faulted = plat_tw_read(r->first + i, &v) < 0;

		if (faulted && new < 0) {
			count(&st.faults, 1);	/* unmapped, and we know it */
			continue;
		}
		if (!faulted && new >= 0 && v == MARKER(new))
			continue;		/* sees the new frame */
		/* Anything else reaches a frame that is no longer mapped there
		 * (the old one, or — after earlier noflush rounds — an even
		 * older one), or faults on a page that IS mapped. Under the
		 * noflush control that is the expected outcome, else a
		 * violation. */
		if (r->method == XCB_METHOD_NONE)
			count(&st.stale_expected, 1);
		stale++;
	}
	/* Under the control the count still goes back to the caller (it is what
	 * the control detected), but never into the violations; and the stale
	 * translations go, so that each control round starts from what a real
	 * shootdown left (nothing stale) and none outlives the control into the
	 * next measured change. */
	if (stale && r->method == XCB_METHOD_NONE) {
		count(&r->stale, stale);
		for (unsigned i = 0; i < r->n; i++)
			plat_tlb_flush(PLAT_TLB_INVLPG, r->first + i);
		return;
	}
	if (stale) {
		count(&st.stale, stale);
		count(&r->stale, stale);
	}
}

/* ---- the VECTOR path -------------------------------------------------- */

void flush_ipi_handler(void)
{
	unsigned me = plat_cpu_id();

	/* acquire: pairs with the initiator's release of pending, so fv.req
	 * is the current request. */
	if (!amask_test(&fv.pending, me, __ATOMIC_ACQUIRE))
		return;
	flush_invalidate(fv.req);
	/* release: our invalidation is complete before the initiator (and
	 * then the next flush) sees us done — Xen clears flush_cpumask last. */
	amask_clear(&fv.pending, me, __ATOMIC_RELEASE);
}

static void vector_flush(const struct amask *targets, const struct flush_req *r)
{
	/* The lock: fv is one slot for everybody. It is held until every target
	 * has checked out of `pending`, so the next initiator cannot overwrite
	 * fv.req (or pending) while a target still reads it. */
	ticket_lock(&flush_lock, "flush_lock: held");
	fv.req = r;
	/* release: targets that see their bit see fv.req and the PTE changes
	 * the initiator made before this call. */
	amask_store(&fv.pending, targets, nwords, __ATOMIC_RELEASE);
	plat_send_ipi_mask(targets, PLAT_IPI_FLUSH);
	/* acquire (xcall_wait_empty): pairs with each target's release clear
	 * in flush_ipi_handler, so every target has invalidated; interrupts
	 * stay on so we keep serving flushes and calls aimed at us. No bound
	 * of its own: every bench caller runs it under a watchdog (a timed
	 * shootdown's or the control's record, sync's write_once), whose
	 * report names the CPU still set, noted by the wait. */
	xcall_wait_empty(&fv.pending, nwords, "vector: flush not acknowledged");
	ticket_unlock(&flush_lock);
}

/* ---- the three steps -------------------------------------------------- */

/* This CPU's request, filled in for cfg c (its own slice of the window); NULL
 * when the flush layer refuses c. */
static struct flush_req *own_req(const struct flush_cfg *c)
{
	if (check_cfg(c))
		return NULL;
	unsigned me = plat_cpu_id();
	struct flush_req *r = &reqs[me];

	r->first = slot_of[me] * slice;
	r->n = batch_of(c);
	r->method = c->method;
	return r;
}

int flush_prepare(const struct flush_cfg *c, const struct cpumask *targets)
{
	struct flush_req *r = own_req(c);
	if (!r)
		return -1;
	for (unsigned i = 0; i < r->n; i++) {
		unsigned p = r->first + i;
		/* An unmapped page (previous unmap shootdown) gets its first frame
		 * back. No shootdown needed: x86 never caches a not-present
		 * translation, so nobody can hold a stale one. */
		if (cur[p] < 0) {
			cur[p] = FRAME(p, 0);
			plat_tw_map(p, cur[p]);
		}
	}
	prime_cb(r);
	helper_ops(c)->call(targets, prime_cb, r, XCB_WAIT_DONE);
	return 0;
}

int flush_change(const struct flush_cfg *c)
{
	struct flush_req *r = own_req(c);
	if (!r)
		return -1;
	for (unsigned i = 0; i < r->n; i++) {
		unsigned p = r->first + i;
		int old = cur[p];
		/* the next frame in rotation (flush.c's head: never the one
		 * before, which a control may have left cached) */
		int new = c->change == FLUSH_UNMAP ? -1 :
			  FRAME(p, ((unsigned)old - PLAT_TW_FRAMES * p + 1) % PLAT_TW_FRAMES);

		if (old < 0)		/* prepare not run: remap to the first */
			new = FRAME(p, 0);
		r->old_frame[i] = old;
		r->new_frame[i] = new;
		plat_tw_map(p, new);
		cur[p] = new;
	}
	/* relaxed: no call on r is in flight (every step waits for done), and
	 * the release inside the next call() on r publishes it to the targets. */
	__atomic_store_n(&r->stale, 0, __ATOMIC_RELAXED);
	count(&st.shootdowns, 1);
	count(&st.pages, r->n);

	/* Our own TLB first — except on the concurrent path, which overlaps it
	 * with the targets' (flush_paths_remote). */
	if (c->flush != XCB_FLUSH_CONCURRENT)
		flush_invalidate(r);
	return 0;
}

int flush_remote(const struct flush_cfg *c, const struct cpumask *targets)
{
	struct flush_req *r = &reqs[plat_cpu_id()];
	struct amask t;

	if (check_cfg(c))
		return -1;
	if (xcall_prepare_targets(&t, targets))
		return 0;			/* nobody else to tell */
	if (c->flush == XCB_FLUSH_VECTOR)
		vector_flush(&t, r);
	else if (flush_path_is_direct(c->flush))
		flush_paths_remote(c->flush, &t, r);
	else	/* wait=done: the flush is over only when every target flushed */
		c->xops->call(targets, invalidate_cb, r, XCB_WAIT_DONE);
	return 0;
}

int flush_shootdown(const struct flush_cfg *c, const struct cpumask *targets)
{
	return flush_change(c) < 0 ? -1 : flush_remote(c, targets);
}

int flush_last_change(unsigned *page)
{
	const struct flush_req *r = &reqs[plat_cpu_id()];	/* our own: no race */
	*page = r->first;
	return r->n ? r->new_frame[0] : -1;
}

int flush_page_sees(unsigned page, int frame)
{
	uint64_t v;
	if (plat_tw_read(page, &v) < 0)
		return -1;
	return frame >= 0 && v == MARKER(frame);
}

int flush_verify(const struct flush_cfg *c, const struct cpumask *targets)
{
	if (check_cfg(c))
		return -1;
	struct flush_req *r = &reqs[plat_cpu_id()];

	if (c->flush == XCB_FLUSH_EARLY_ACK_READER)
		flush_paths_settle(r);		/* its window readers counted */
	verify_cb(r);
	/* The no-flush control counts the targets' stale reads only: the
	 * initiator did not flush its own TLB either, so its own stale read says
	 * nothing about whether the targets kept the primed translations (a
	 * control that passed on it alone would call an unverified case
	 * verified). relaxed: no call on r is in flight. */
	if (c->method == XCB_METHOD_NONE)
		__atomic_store_n(&r->stale, 0, __ATOMIC_RELAXED);
	/* done: after it returns every target has counted into r->stale,
	 * and the acquire inside call() makes those counts visible. */
	helper_ops(c)->call(targets, verify_cb, r, XCB_WAIT_DONE);
	return (int)__atomic_load_n(&r->stale, __ATOMIC_RELAXED);
}

int flush_run(const struct flush_cfg *c, const struct cpumask *targets, uint64_t *cycles)
{
	if (flush_prepare(c, targets) < 0)
		return -1;
	uint64_t t0 = plat_cycles();
	flush_shootdown(c, targets);
	uint64_t t1 = plat_cycles();
	if (cycles)
		*cycles = t1 - t0;
	return flush_verify(c, targets);
}

/* Relaxed loads and stores of the counters (see count()): they are sampled
 * and reset only while quiescent (between cases or rounds), when no
 * shootdown is in flight. */
void flush_get_stats(struct flush_stats *out)
{
	out->shootdowns = __atomic_load_n(&st.shootdowns, __ATOMIC_RELAXED);
	out->pages = __atomic_load_n(&st.pages, __ATOMIC_RELAXED);
	out->verified = __atomic_load_n(&st.verified, __ATOMIC_RELAXED);
	out->faults = __atomic_load_n(&st.faults, __ATOMIC_RELAXED);
	out->stale = __atomic_load_n(&st.stale, __ATOMIC_RELAXED);
	out->stale_expected = __atomic_load_n(&st.stale_expected, __ATOMIC_RELAXED);
	ticket_prof_get(&flush_lock, &out->lock);
}

void flush_reset(void)
{
	__atomic_store_n(&st.shootdowns, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&st.pages, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&st.verified, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&st.faults, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&st.stale, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&st.stale_expected, 0, __ATOMIC_RELAXED);
	ticket_prof_reset(&flush_lock);
}
