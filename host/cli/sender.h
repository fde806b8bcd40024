/*
 * sender.h — reliable delivery of encoded frames to xcbenchd over UDP, the
 * way the payload does it: a window of frames in flight, cumulative +
 * selective ACKs, retransmission with exponential backoff until every frame
 * is ACKed. Used by `xcbench ingest` and by the test frame generator, which
 * can also inject loss, duplication and reordering.
 */
#ifndef XCB_SENDER_H
#define XCB_SENDER_H

#include <stddef.h>
#include <stdint.h>

struct sender_frame {
	uint8_t *data;
	size_t len;
	uint64_t token;
	uint32_t seq;
	/* sender state */
	int acked, sent;
	double last, rto;
};

struct sender_opts {
	double loss, dup, reorder, ack_loss; /* probabilities, 0 = none */
	uint64_t seed;
	int window;          /* frames in flight (default 128) */
	double idle_timeout; /* give up after this long without progress (s) */
	int verbose;
	/* Asked where ACKs cannot say it: a run whose cumulative ACK stops at a
	 * seq this sender never had (a frame damaged in a serial capture). The
	 * selective bitmap reaches only 256 frames past that edge, so frames
	 * beyond it are stored but never acknowledged, and frames that need the
	 * missing one (the results of a case whose CASE frame it was) are
	 * refused. held(ctx, token, &have, &want): the distinct frames of the
	 * run the daemon holds, and how many it should (the sender's own
	 * frames of it so far); 0, or -1 when it cannot tell. NULL: not asked,
	 * and such a run stalls until idle_timeout. */
	int (*held)(void *ctx, uint64_t token, int64_t *have, int64_t *want);
	void *held_ctx;
};

struct sender_stats {
	uint64_t sent, retransmits, dropped, duplicated, acks;
	int refused;         /* the daemon refused a token (not --open) */
	uint64_t unstored;   /* frames past a gap that the daemon never stored (held) */
};

/* fd: a UDP socket connect()ed to the daemon. Frames may belong to several
 * runs. Returns 0 when all are ACKed (or, past a gap, held says they are
 * stored, or the daemon stopped storing them: stats' unstored), -1
 * otherwise (stats say why). */
int sender_run(int fd, struct sender_frame *f, size_t n, const struct sender_opts *o,
	       struct sender_stats *st);

#endif
