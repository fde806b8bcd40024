/* The retransmit window of the reliable UDP transport: pure bookkeeping, no
 * clock and no NIC inside (time comes in as a parameter, frames go out through
 * a callback), so the window, the cumulative ACK handling and the exponential
 * backoff are unit-tested on the host.
 *
 * Every frame stays stored here until a cumulative ACK ("all seq < N
 * received") covers it. A frame is due for retransmission when rto has passed
 * since it was last sent. rto follows the measured round trip (RFC 6298:
 * srtt + 4 rttvar, samples only from frames sent once — Karn's rule — kept
 * within [rto_min, RTX_RTT_CAP x rto_max]; the sample is the oldest frame an
 * ACK covers, which waited longest), so a slow path (TCG, a busy host, a
 * payload that polls only between cases, a daemon with 1000 machines' frames
 * queued before its commit) does not cause spurious resends. Timeouts double
 * rto up to rto_max (or the measured rto, if larger); an ACK that makes
 * progress ends the probing, and the backed-off rto stays until a frame sent
 * once gives a new sample (Karn). As TCP restarts its timer on every ACK that
 * makes progress (RFC 6298 5.3), a frame is due when rto has passed since it
 * was sent AND since the last progress: a receiver that commits in batches
 * answers the rest of a window one batch later, not a timeout later. While backed off only the oldest frame is retransmitted, as a probe
 * (a daemon away for minutes gets one datagram per rto_max, not the whole
 * window). Three duplicate ACKs make the oldest frame due at once (fast
 * retransmit), so a single lost frame under steady traffic costs one RTT, not
 * one timeout. */
#ifndef NET_RTX_H
#define NET_RTX_H

#include <stdint.h>

/* The measured rto may reach this many times rto_max (a receiver that is
 * there but slow); the backoff of one that is gone stops at rto_max. */
#define RTX_RTT_CAP 16

struct rtx_slot {
	uint32_t seq;
	uint16_t len;
	uint8_t due_now;     /* fast retransmit requested */
	uint8_t sacked;      /* the receiver said it holds this one: skip it */
	uint8_t resent;      /* retransmitted at least once: no RTT sample (Karn) */
	uint64_t sent_at;    /* last (re)transmission, µs */
};

struct rtx {
	struct rtx_slot *slot;   /* cap entries, a ring; oldest at head */
	uint8_t *store;          /* cap * frame_max bytes, slot i at i * frame_max */
	unsigned cap, frame_max;
	unsigned head, count;
	uint64_t rto, rto_min, rto_max;
	uint64_t srtt, rttvar;   /* smoothed round trip and its variation, µs */
	int have_rtt, backed_off;
	uint32_t last_ack;       /* highest cumulative ACK seen */
	uint64_t progress_at;    /* µs: the last ACK that released frames */
	unsigned dup_acks;
	/* counters for the final report */
	uint64_t sent, retransmitted, timeouts;
	uint64_t retx_timer;     /* ... of those, resent because rto passed (not fast/early) */
};

/* slots: cap entries; store: cap * frame_max bytes (both owned by the caller). */
void rtx_init(struct rtx *r, struct rtx_slot *slots, uint8_t *store, unsigned cap,
	      unsigned frame_max, uint64_t rto_min_us, uint64_t rto_max_us);

static inline int rtx_full(const struct rtx *r) { return r->count == r->cap; }
static inline unsigned rtx_inflight(const struct rtx *r) { return r->count; }

/* Copies the frame into the window, stamped as sent at now (the caller sends
 * it right after). Returns a pointer to the stored copy, or NULL when the
 * window is full or the frame is larger than frame_max. */
const uint8_t *rtx_push(struct rtx *r, uint32_t seq, const void *frame, unsigned len,
			uint64_t now);

/* A cumulative ACK: every stored frame with seq before cum is released.
 * Returns how many were released. */
unsigned rtx_ack(struct rtx *r, uint32_t cum, uint64_t now);

/* A selective ACK: bit i of bits (LSB first, nbits bits) set means seq
 * cum + 1 + i is stored by the receiver, so it is not retransmitted (it stays
 * in the window until the cumulative edge passes it). A frame still missing
 * below the highest one stored, and sent at least a round trip ago, is lost:
 * it becomes due at once instead of waiting for its timeout (early
 * retransmit, RFC 6675 in spirit). */
void rtx_sack(struct rtx *r, uint32_t cum, const uint8_t *bits, unsigned nbits, uint64_t now);

typedef void (*rtx_send_fn)(void *ctx, const uint8_t *frame, unsigned len);

/* Sends (through send) up to max frames that are due at now, oldest first,
 * and restamps them. A timeout of the oldest frame doubles rto (capped).
 * Returns how many frames were sent. */
unsigned rtx_service(struct rtx *r, uint64_t now, unsigned max, rtx_send_fn send, void *ctx);

/* µs until the next frame becomes due (0 = due now), or UINT64_MAX when empty. */
uint64_t rtx_next_due(const struct rtx *r, uint64_t now);

#endif
