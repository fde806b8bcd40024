/*
 * qlist.h — the per-target FIFO call queues (qlist.c) behind the "queued"
 * and "concurrent" algorithms: one instance each, so their IPIs, queues and
 * descriptors stay apart (an IPI runs only the algorithm that sent it).
 */
#ifndef XCB_XCALL_QLIST_H
#define XCB_XCALL_QLIST_H

#include "xcall/xcall.h"
#include "xcall/amask.h"

struct qhead;
struct qdesc;

struct qlist {
	struct qhead *queue;		/* [target] */
	struct qdesc *desc;		/* [initiator * ncpus + target] */
	unsigned ncpus, nwords, ipi;	/* ipi: the instance's IPI kind */
};

/* Once, on CPU 0 (the algorithm's init). 0 or <0. */
int qlist_init(struct qlist *q, unsigned ncpus, unsigned ipi);
/* Queue (fn, arg, w) for every target (a private snapshot, never the
 * caller) and IPI those whose queue was empty. */
void qlist_post(struct qlist *q, const struct amask *targets, xcall_fn_t fn, void *arg, enum xcb_wait w);
/* Wait (interrupts on) until every target is done with its descriptor:
 * ack: read it; done: ran fn. */
void qlist_wait(struct qlist *q, const struct amask *targets);
/* The IPI handler's work: run this CPU's queue in arrival order. */
void qlist_serve(struct qlist *q);

/* An algorithm that is one instance of the queues: its own queues `ql`,
 * and its init and IPI handler, which are the queues' (queued.c,
 * concurrent.c write only their call()). */
#define QLIST_INSTANCE(algo)							\
	static struct qlist ql;							\
	static int algo##_init(unsigned ncpus, const unsigned *ipi)		\
	{									\
		return qlist_init(&ql, ncpus, ipi[0]);				\
	}									\
	static void algo##_handle_ipi(void)					\
	{									\
		qlist_serve(&ql);						\
	}

#endif
