/*
 * paths.c — the shootdown paths of 2019–2025 that IPI the targets directly
 * (one vector from the pool, one handler), beside flush.c's `vector` (Xen
 * today) and `xcall` (through a cross-call algorithm):
 *
 *   concurrent       Linux 5.12 ("x86/mm/tlb: Flush remote and local TLBs
 *                    concurrently"): the initiator sends the IPIs first,
 *                    then invalidates its own TLB while the targets do
 *                    theirs, then waits (flush.c skips its local flush first).
 *   early_ack        "Don't shoot down TLB shootdowns!" (EuroSys'20): a target
 *                    acknowledges on ENTERING the handler, then invalidates.
 *                    Safe only while the interrupted context cannot use the
 *                    mapping before the handler returns — true here: nothing
 *                    else runs on the target meanwhile, and verification
 *                    (after the shootdown) finds 0 stale translations.
 *   early_ack_reader the unsafe case: the same, but a reader runs INSIDE the
 *                    window (as a nested handler or the handler's own code
 *                    would): once the initiator has returned from the
 *                    shootdown (it believes every TLB clean), the reader
 *                    reads the changed pages through the target's TLB — and
 *                    reaches the old frame. Each such read is a violation,
 *                    counted (stale > 0, the RESULT flagged). Not in the
 *                    default suites (flush.h FLUSH_PATHS_DEFAULT).
 *   consolidated     the same paper's cache-line consolidation: per
 *                    (initiator, target) ONE line holds the call (sequence
 *                    number, completion) and the flush information (pages,
 *                    method), so a target reads one line and writes it back.
 *
 * State per initiator: `desc` (request, path, shootdown number; `pending`
 * on a line of its own, as lockless.c's `selected`), `lines` for
 * consolidated, and a global `active` mask of initiators with a shootdown
 * in flight, which the handler scans (tasks in lockless.c).
 */
#include "flush/flush_internal.h"
#include "xcall/platform.h"
#include "xcall/amask.h"
#include "xcall/xcall_internal.h"

struct fdesc {
	/* Written by the owner while `pending` is empty; read by a target only
	 * after it saw its bit (acquire). */
	struct flush_req *req;
	enum xcb_flush path;
	uint64_t seq;			/* the owner's shootdown number */
	struct amask pending __attribute__((aligned(64)));
	/* early_ack_reader: the shootdown number whose remote half returned
	 * (release by the owner, acquire by the window readers); and the
	 * readers still in their window (atomic). */
	uint64_t returned __attribute__((aligned(64)));
	uint32_t readers;
} __attribute__((aligned(64)));

/* consolidated: the one line per (initiator, target). */
struct cline {
	uint64_t seq;			/* the initiator's: a new shootdown (release) */
	uint64_t done;			/* the target's: the last it completed (release) */
	uint32_t first;			/* the flush information, beside them */
	uint16_t n;
	uint8_t method;
} __attribute__((aligned(64)));

#define CONSOLIDATED_MAX_CPUS 256	/* ncpus^2 lines: 4 MiB at 256 */

/* How long a window reader waits for its owner to return from the
 * shootdown. The owner needs only every early ack, so microseconds on a
 * machine; generous because host tests run 8 CPU threads on 2 loaded cores
 * (10 ms missed there, and a reader that gives up proves nothing). Its
 * owner's settle() waits twice as long. */
#define READER_BOUND_MS 2000

static struct fdesc *desc;		/* [initiator] */
static struct cline *lines;		/* [initiator * ncpus + target], or NULL */
static struct amask active;
static unsigned ncpus_p, nwords, kind;
static int ready;

static void paths_ipi(void);

int flush_paths_init(unsigned ncpus)
{
	if (ready)
		return 0;
	int k = plat_ipi_alloc();
	if (k < 0)
		return -1;	/* the pool is exhausted: flush_init fails, named by the caller */
	desc = plat_alloc_zeroed((unsigned long)ncpus * sizeof(*desc));
	if (!desc)
		return -1;
	if (ncpus <= CONSOLIDATED_MAX_CPUS)
		lines = plat_alloc_zeroed((unsigned long)ncpus * ncpus * sizeof(*lines));
	ncpus_p = ncpus;
	nwords = amask_words(ncpus);
	kind = (unsigned)k;
	plat_ipi_register((enum plat_ipi)kind, paths_ipi);
	ready = 1;
	return 0;
}

int flush_path_is_direct(enum xcb_flush p)
{
	return p == XCB_FLUSH_CONCURRENT || p == XCB_FLUSH_EARLY_ACK || p == XCB_FLUSH_EARLY_ACK_READER ||
	       p == XCB_FLUSH_CONSOLIDATED;
}

int flush_paths_supported(enum xcb_flush p)
{
	return ready && (p != XCB_FLUSH_CONSOLIDATED || lines);
}

/* A copy of what a target needs from the request, taken before it
 * acknowledges (after that the owner may rewrite the request). */
static void copy_req(struct flush_req *dst, const struct flush_req *src, int frames)
{
	dst->first = src->first;
	dst->n = src->n;
	dst->method = src->method;
	for (unsigned i = 0; frames && i < src->n; i++)
		dst->new_frame[i] = src->new_frame[i];
}

/*
 * The window reader (early_ack_reader), on the target after its early ack
 * and before its invalidation: wait (bounded: READER_BOUND_MS) until the owner has
 * returned from this shootdown, then read every changed page through our
 * TLB. A read that does not show the new frame's marker (or the fault of an
 * unmapped page) used a translation the owner believes gone: a violation.
 */
static void window_read(struct fdesc *d, struct flush_req *owner_req, const struct flush_req *mine, uint64_t seq)
{
	uint64_t t0 = plat_cycles(), bound = READER_BOUND_MS * plat_tsc_khz(), bad = 0;
	int returned = 0;

	/* acquire: pairs with the owner's release of `returned`. */
	while (!(returned = __atomic_load_n(&d->returned, __ATOMIC_ACQUIRE) >= seq) && plat_cycles() - t0 < bound)
		plat_cpu_relax();	/* interrupts stay off: nothing is served, bounded */
	if (returned)
		for (unsigned i = 0; i < mine->n; i++) {
			uint64_t v;
			int faulted = plat_tw_read(mine->first + i, &v) < 0;
			int fresh = mine->new_frame[i] < 0 ? faulted : !faulted && v == MARKER(mine->new_frame[i]);
			bad += !fresh && mine->method != XCB_METHOD_NONE;
		}
	if (bad)
		flush_count_violation(owner_req, bad);	/* the request outlives readers: settle() */
	/* release: our count before the owner's settle() sees us gone. */
	__atomic_fetch_sub(&d->readers, 1, __ATOMIC_RELEASE);
}

static void serve_desc(unsigned owner, unsigned me)
{
	struct fdesc *d = &desc[owner];

	/* acquire: the request is read only after we saw our bit. */
	if (!amask_test(&d->pending, me, __ATOMIC_ACQUIRE))
		return;
	struct flush_req mine;
	enum xcb_flush p = d->path;
	struct flush_req *r = d->req;
	uint64_t seq = d->seq;

	if (p == XCB_FLUSH_EARLY_ACK || p == XCB_FLUSH_EARLY_ACK_READER) {
		copy_req(&mine, r, p == XCB_FLUSH_EARLY_ACK_READER);
		/* The early ack: release orders our reads of the request before
		 * it (the owner may rewrite it once every bit is clear). */
		amask_clear(&d->pending, me, __ATOMIC_RELEASE);
		if (p == XCB_FLUSH_EARLY_ACK_READER)
			window_read(d, r, &mine, seq);
		flush_invalidate(&mine);
		return;
	}
	/* concurrent: invalidate, then check out (release: our invalidation
	 * before the owner sees us done). */
	flush_invalidate(r);
	amask_clear(&d->pending, me, __ATOMIC_RELEASE);
}

static void serve_line(unsigned owner, unsigned me)
{
	struct cline *l = &lines[owner * ncpus_p + me];
	/* acquire: pairs with the owner's release of seq; first/n/method are
	 * on the same line, written before it. */
	uint64_t s = __atomic_load_n(&l->seq, __ATOMIC_ACQUIRE);

	if (s == __atomic_load_n(&l->done, __ATOMIC_RELAXED))	/* only we write done */
		return;
	struct flush_req mine;
	mine.first = __atomic_load_n(&l->first, __ATOMIC_RELAXED);
	mine.n = __atomic_load_n(&l->n, __ATOMIC_RELAXED);
	mine.method = (enum xcb_method)__atomic_load_n(&l->method, __ATOMIC_RELAXED);
	flush_invalidate(&mine);
	/* release: our invalidation before the owner sees it done. */
	__atomic_store_n(&l->done, s, __ATOMIC_RELEASE);
}

/* Owner i's shootdown, through its descriptor or its line to us. */
static void serve(unsigned owner, unsigned me)
{
	serve_desc(owner, me);
	if (lines)
		serve_line(owner, me);
}

static void paths_ipi(void)
{
	/* acquire (xcall_serve_tasks): pairs with the owners' seq_cst set of
	 * their active bit. */
	xcall_serve_tasks(&active, nwords, serve);
}

/* Whom a shootdown IPIs: `targets`, or (test fault ipidrop=paths, one
 * plat_lost_cpu call per shootdown) a copy in *cut without the CPU whose IPI
 * is lost, so the wait for it runs out naming it. */
static const struct amask *ipi_targets(const struct amask *targets, struct amask *cut)
{
	unsigned lost = plat_lost_cpu(PLAT_LOST_PATHS);

	if (lost >= AMASK_MAX_CPUS || !(targets->w[lost / 64] & amask_bit(lost)))
		return targets;
	*cut = *targets;
	cut->w[lost / 64] &= ~amask_bit(lost);
	return cut;
}

static void remote_consolidated(unsigned me, const struct amask *targets, const struct flush_req *r)
{
	unsigned t;
	uint64_t seq = ++desc[me].seq;
	struct amask cut;

	amask_for_each(t, targets, nwords) {
		struct cline *l = &lines[me * ncpus_p + t];
		/* relaxed: published by the release of seq just after, on the
		 * same line (the target reads them after its acquire of seq). */
		__atomic_store_n(&l->first, r->first, __ATOMIC_RELAXED);
		__atomic_store_n(&l->n, (uint16_t)r->n, __ATOMIC_RELAXED);
		__atomic_store_n(&l->method, (uint8_t)r->method, __ATOMIC_RELAXED);
		__atomic_store_n(&l->seq, seq, __ATOMIC_RELEASE);
	}
	/* seq_cst RMW: the lines before the active bit, the bit before the IPIs. */
	amask_set(&active, me, __ATOMIC_SEQ_CST);
	plat_send_ipi_mask(ipi_targets(targets, &cut), (enum plat_ipi)kind);
	amask_for_each(t, targets, nwords) {
		struct cline *l = &lines[me * ncpus_p + t];
		unsigned spins = 0;
		/* acquire: pairs with the target's release of done. No bound of
		 * its own: every bench caller runs it under a watchdog (a timed
		 * shootdown's or the control's record, sync's write_once), which
		 * reports - naming t, noted below - and ends the run; IF is on,
		 * so our own calls are served meanwhile. (The xcall_smoke
		 * self-test too: bench/smoke_watch.h.) */
		while (__atomic_load_n(&l->done, __ATOMIC_ACQUIRE) != seq)
			plat_wait_turn(&spins, t, "paths: consolidated line not done");
		plat_wait_done(spins);
	}
	amask_clear(&active, me, __ATOMIC_RELEASE);
}

void flush_paths_remote(enum xcb_flush p, const struct amask *targets, struct flush_req *r)
{
	unsigned me = plat_cpu_id();
	struct fdesc *d = &desc[me];
	struct amask cut;

	if (p == XCB_FLUSH_CONSOLIDATED) {
		remote_consolidated(me, targets, r);
		return;
	}
	/* The previous shootdown's window readers are gone (settle() waited
	 * for them in its verify step), and its pending is empty (we waited). */
	d->req = r;
	d->path = p;
	uint64_t seq = ++d->seq;
	if (p == XCB_FLUSH_EARLY_ACK_READER) {
		unsigned n = 0;
		for (unsigned w = 0; w < nwords; w++)
			n += (unsigned)__builtin_popcountll(targets->w[w]);
		/* relaxed: published by the release on pending. */
		__atomic_store_n(&d->readers, n, __ATOMIC_RELAXED);
	}
	/* release on pending: a target that sees its bit sees the request and
	 * the PTE changes made before this call; then the seq_cst set of our
	 * active bit, before the IPIs (xcall_publish, as lockless.c). */
	xcall_publish(&d->pending, targets, &active, me, nwords);
	plat_send_ipi_mask(ipi_targets(targets, &cut), (enum plat_ipi)kind);
	if (p == XCB_FLUSH_CONCURRENT)
		flush_invalidate(r);	/* ours, while the targets do theirs */
	/* acquire: pairs with each target's release clear (concurrent: after
	 * its invalidation; early_ack: on entry, before it); then the release
	 * clear of our active bit (xcall_finish). */
	xcall_finish(&d->pending, &d->pending, &active, me, nwords,
		     "paths: shootdown not acknowledged");
	/* release: the window readers may look now (the shootdown returned). */
	__atomic_store_n(&d->returned, seq, __ATOMIC_RELEASE);
}

void flush_paths_settle(struct flush_req *r)
{
	struct fdesc *d = &desc[plat_cpu_id()];
	uint64_t t0 = plat_cycles(), bound = 2 * READER_BOUND_MS * plat_tsc_khz();

	(void)r;
	/* acquire: pairs with each reader's release decrement, so their
	 * violation counts are in r->stale. Interrupts on: bounded. */
	while (__atomic_load_n(&d->readers, __ATOMIC_ACQUIRE) && plat_cycles() - t0 < bound)
		plat_cpu_relax();
}
