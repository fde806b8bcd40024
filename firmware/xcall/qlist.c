/*
 * qlist.c — the per-target call queues of Linux kernel/smp.c, as an engine
 * two algorithms share (queued.c, concurrent.c), each with an instance of
 * its own (struct qlist: its queues, descriptors and IPI kind): every
 * target has a FIFO of per-call descriptors; an initiator appends one
 * descriptor per target and IPIs only the targets whose queue was empty
 * (a non-empty queue already has an IPI on its way). Receivers serve calls
 * in arrival order, whoever sent them — first come, first served, which is
 * the answer to the fairness objection against lockless.c.
 *
 * The queue is a lock-free singly linked list (Linux's llist), chosen over
 * a per-target locked list because:
 *   - producers only push (one CAS on the head); the consumer only takes
 *     the WHOLE list with one exchange, so there is no pop-one and hence no
 *     ABA problem; a push is ABA-safe because it only links to the head it
 *     saw and publishes itself if the head is unchanged;
 *   - no lock means a target draining its queue never waits on a producer
 *     that was interrupted mid-insert.
 * The exchange yields newest-first; reversing that batch gives arrival
 * order, and batches are taken in order, so each target sees pure FIFO.
 *
 * Descriptors: allocated at init. Each CPU owns one descriptor PER TARGET
 * (desc[initiator][target]). Reuse rule: a descriptor carries a `busy` flag
 * the initiator sets before queueing it and the target clears (release)
 * once it no longer needs it — after reading fn/arg/wait/next (none, ack)
 * or after fn returned (done). The initiator waits for busy == 0 (acquire)
 * before reusing it, so a descriptor is never rewritten while it is still
 * linked or unread. With wait=none that wait happens at the next call to the
 * same target, exactly Linux's csd_lock_wait().
 */
#include "xcall/qlist.h"
#include "xcall/platform.h"
#include "xcall/xcall_internal.h"

/* One cache line each: desc[i][t] and desc[i][t+1] go to different targets,
 * and two per line would make target t's busy clear bounce the line target
 * t+1 is reading (32 bytes packed, that was inside every timed call). */
struct qdesc {
	struct qdesc *next;	/* written before the publishing CAS */
	xcall_fn_t fn;
	void *arg;
	enum xcb_wait wait;
	uint32_t busy;		/* 1 from queueing until the target is done with it */
} __attribute__((aligned(64)));

struct qhead {
	struct qdesc *first;	/* newest first; NULL = empty */
} __attribute__((aligned(64)));

static struct qdesc *desc_of(struct qlist *q, unsigned initiator, unsigned target)
{
	return &q->desc[initiator * q->ncpus + target];
}

int qlist_init(struct qlist *q, unsigned ncpus, unsigned ipi)
{
	if (amask_nwords(ncpus, &q->nwords))
		return -1;
	q->ipi = ipi;
	if (!q->desc || q->ncpus != ncpus) {
		/* The allocator hands out whole pages: both start line-aligned.
		 * ncpus x ncpus descriptors (4 MiB at 256 CPUs), so not in BSS. */
		q->queue = plat_alloc_zeroed((unsigned long)ncpus * sizeof(*q->queue));
		q->desc = plat_alloc_zeroed((unsigned long)ncpus * ncpus * sizeof(*q->desc));
		if (!q->queue || !q->desc)
			return -1;
	}
	q->ncpus = ncpus;
	return 0;
}

/* Push d onto target's queue; returns 1 if the queue was empty. */
static int qpush(struct qhead *q, struct qdesc *d)
{
	struct qdesc *first = __atomic_load_n(&q->first, __ATOMIC_RELAXED);

	do {
		d->next = first;
		/* release on success: the consumer that takes the list with
		 * acquire sees this descriptor's fields (and next) complete.
		 * relaxed on failure: we only retry with the head we saw. */
	} while (!__atomic_compare_exchange_n(&q->first, &first, d, 1,
					      __ATOMIC_RELEASE, __ATOMIC_RELAXED));
	return first == NULL;
}

/*
 * Wait until target t is done with descriptor d. No bound of its own: every
 * bench call runs under a watchdog (the case's record around each call, the
 * check's own bound with watchdog_ms=0; CPU 0 polls it, or its timer tick
 * while CPU 0 itself calls - IF is on, so our own calls are served
 * meanwhile), which reports, naming t (noted below), and ends the run; so
 * does the xcall_smoke self-test's (bench/smoke_watch.h, CPU 0's tick).
 * acquire: pairs with the target's release of busy in qlist_serve() (ack:
 * fn/arg read; done: fn finished, its effects visible).
 */
static void wait_free(struct qdesc *d, unsigned t, const char *what)
{
	unsigned spins = 0;

	while (__atomic_load_n(&d->busy, __ATOMIC_ACQUIRE))
		plat_wait_turn(&spins, t, what);
	plat_wait_done(spins);
}

void qlist_post(struct qlist *q, const struct amask *targets, xcall_fn_t fn, void *arg, enum xcb_wait w)
{
	unsigned me = plat_cpu_id(), t, lost = plat_lost_cpu(PLAT_LOST_QLIST);
	struct amask to_ipi = { { 0 } };

	amask_for_each(t, targets, q->nwords) {
		struct qdesc *d = desc_of(q, me, t);

		/* Reuse rule: the target's reads (and, for done, fn) happen
		 * before we rewrite (wait_free's acquire). */
		wait_free(d, t, "qlist: previous call's descriptor busy");
		d->fn = fn;
		d->arg = arg;
		d->wait = w;
		/* relaxed: published by qpush()'s release CAS. */
		__atomic_store_n(&d->busy, 1, __ATOMIC_RELAXED);
		/* test fault: t's IPI lost (its queue then stays non-empty, so
		 * nobody IPIs it again: it never serves) */
		if (qpush(&q->queue[t], d) && t != lost)
			to_ipi.w[t / 64] |= amask_bit(t);
	}

	/* IPI only where the queue was empty: otherwise the initiator that
	 * found it empty has sent (or is about to send) one, and the target
	 * has not taken the list since our descriptor went in. The CAS above
	 * is a locked instruction on x86: it orders the push before the APIC
	 * write. */
	plat_send_ipi_mask(&to_ipi, (enum plat_ipi)q->ipi);
}

void qlist_wait(struct qlist *q, const struct amask *targets)
{
	unsigned me = plat_cpu_id(), t;

	/* acquire (wait_free): pairs with each target's release of busy. */
	amask_for_each(t, targets, q->nwords)
		wait_free(desc_of(q, me, t), t, "qlist: call's descriptor busy");
}

void qlist_serve(struct qlist *ql)
{
	unsigned me = plat_cpu_id();
	struct qhead *q = &ql->queue[me];

	/* Loop: calls queued while we run are taken too, without waiting for
	 * their IPI (which may also arrive later and find nothing: harmless). */
	for (;;) {
		/* acquire: pairs with the producers' release CAS; we see every
		 * descriptor in the list fully written. */
		struct qdesc *list = __atomic_exchange_n(&q->first, NULL, __ATOMIC_ACQUIRE);
		if (!list)
			return;

		/* Newest first -> reverse into arrival order. Safe: nobody
		 * else touches these descriptors' next while busy is set. */
		struct qdesc *fifo = NULL;
		while (list) {
			struct qdesc *n = list->next;
			list->next = fifo;
			fifo = list;
			list = n;
		}

		while (fifo) {
			struct qdesc *d = fifo;
			/* Read everything we need before releasing d: after
			 * busy = 0 its owner may rewrite and requeue it. */
			struct qdesc *next = d->next;
			xcall_fn_t fn = d->fn;
			void *arg = d->arg;

			if (d->wait == XCB_WAIT_DONE) {
				xcall_run(fn, arg);
				/* release: fn's effects before the initiator
				 * sees the call done. */
				__atomic_store_n(&d->busy, 0, __ATOMIC_RELEASE);
			} else {
				/* release: our reads of d before its reuse. */
				__atomic_store_n(&d->busy, 0, __ATOMIC_RELEASE);
				xcall_run(fn, arg);
			}
			fifo = next;
		}
	}
}
