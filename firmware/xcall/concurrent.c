/*
 * concurrent.c — the "concurrent" cross-call (Linux 5.12, "smp: Run
 * functions concurrently in smp_call_function_many_cond()"): queued.c's
 * per-target FIFO of descriptors, and when the caller is itself in the mask
 * it runs its own share AFTER sending the IPIs and BEFORE waiting, so its
 * fn overlaps the targets' instead of preceding them (the 10-20 % Linux
 * measured for on_each_cpu()-style calls). With the caller outside the mask
 * it is queued.c; its `.runs_self` tells the free checks (and callers) that
 * a mask with the caller in it runs fn there too, with interrupts off like
 * every other callee.
 *
 * Descriptors and the reuse rule are queued.c's (see there): one per
 * (initiator, target), a `busy` flag the target clears (release) once done
 * with it, waited for (acquire) before reuse.
 */
#include "xcall/xcall.h"
#include "xcall/platform.h"
#include "xcall/amask.h"
#include "xcall/xcall_internal.h"
#include "lib/cpumask.h"

/* One cache line each: desc[i][t] and desc[i][t+1] go to different targets,
 * and two per line would make target t's busy clear bounce the line target
 * t+1 is reading (32 bytes packed, that was inside every timed call). */
struct qdesc {
	struct qdesc *next;	/* written before the publishing CAS */
	xcall_fn_t fn;
	void *arg;
	enum xcall_wait wait;
	uint32_t busy;		/* 1 from queueing until the target is done with it */
} __attribute__((aligned(64)));

struct qhead {
	struct qdesc *first;	/* newest first; NULL = empty */
} __attribute__((aligned(64)));

static struct qhead queue[AMASK_MAX_CPUS];
/* ncpus x ncpus descriptors, row = initiator; allocated once at init (4 MiB
 * at 256 CPUs, so not in BSS). The allocator hands out whole pages, so the
 * array starts line-aligned. */
static struct qdesc *desc;
static unsigned ncpus_q, nwords;

static struct qdesc *desc_of(unsigned initiator, unsigned target)
{
	return &desc[initiator * ncpus_q + target];
}

/* Our IPI kind (the registry's, given to init). */
static unsigned concurrent_ipi;

static int concurrent_init(unsigned ncpus, const unsigned *ipi)
{
	concurrent_ipi = ipi[0];
	if (ncpus == 0 || ncpus > AMASK_MAX_CPUS)
		return -1;
	if (!desc || ncpus_q != ncpus) {
		desc = plat_alloc_zeroed((unsigned long)ncpus * ncpus * sizeof(*desc));
		if (!desc)
			return -1;
	}
	ncpus_q = ncpus;
	nwords = amask_words(ncpus);
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

/* The caller's share: a callee, so with interrupts off (xcall.h), then back
 * to serving IPIs. */
static void run_local(xcall_fn_t fn, void *arg)
{
	unsigned long f = plat_irq_save();
	xcall_run(fn, arg);
	plat_irq_restore(f);
}

static void concurrent_call(const struct cpumask *mask, xcall_fn_t fn, void *arg,
			enum xcall_wait w)
{
	unsigned me = plat_cpu_id(), t;
	struct amask targets, to_ipi = { { 0 } };
	int self = cpumask_test(mask, me);

	if (xcall_prepare_targets(&targets, mask)) {
		if (self)
			run_local(fn, arg);
		return;
	}

	amask_for_each(t, &targets, nwords) {
		struct qdesc *d = desc_of(me, t);

		/* Reuse rule: acquire pairs with the target's release of busy,
		 * so its reads (and, for done, fn) happen before we rewrite. */
		while (__atomic_load_n(&d->busy, __ATOMIC_ACQUIRE))
			plat_cpu_relax();
		d->fn = fn;
		d->arg = arg;
		d->wait = w;
		/* relaxed: published by qpush()'s release CAS. */
		__atomic_store_n(&d->busy, 1, __ATOMIC_RELAXED);
		if (qpush(&queue[t], d))
			to_ipi.w[t / 64] |= amask_bit(t);
	}

	/* IPI only where the queue was empty: otherwise the initiator that
	 * found it empty has sent (or is about to send) one, and the target
	 * has not taken the list since our descriptor went in. The CAS above
	 * is a locked instruction on x86: it orders the push before the APIC
	 * write. */
	plat_send_ipi_mask(&to_ipi, (enum plat_ipi)concurrent_ipi);

	/* Our own share, while the targets run theirs. */
	if (self)
		run_local(fn, arg);

	if (w == XCALL_WAIT_NONE)
		return;

	/* acquire: pairs with each target's release of busy (ack: fn/arg
	 * read; done: fn finished, its effects visible). */
	amask_for_each(t, &targets, nwords) {
		struct qdesc *d = desc_of(me, t);
		while (__atomic_load_n(&d->busy, __ATOMIC_ACQUIRE))
			plat_cpu_relax();
	}
}

static void concurrent_handle_ipi(void)
{
	unsigned me = plat_cpu_id();
	struct qhead *q = &queue[me];

	/* Loop: calls concurrent while we run are taken too, without waiting for
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

			if (d->wait == XCALL_WAIT_DONE) {
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

static void concurrent_lockprof(struct xcall_lockprof *out)
{
	*out = (struct xcall_lockprof){ 0 };
}

static void concurrent_reset(void)
{
}

XCALL_ALGO(concurrent,
	.desc = "queued, and a caller in its own mask runs its share between sending and waiting (Linux 5.12)",
	.nipi = 1, .waits = XCALL_WAITS_ALL, .sends = XCALL_SENDS_MASK, .runs_self = 1);
