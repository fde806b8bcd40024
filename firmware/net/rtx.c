/* Retransmit window: storage until ACKed, per-frame timers, backoff. */
#include "net/rtx.h"
#include "net/bytes.h"

/* Sequence numbers wrap; a before b when the signed distance is negative. */
static inline int seq_before(uint32_t a, uint32_t b) { return (int32_t)(a - b) < 0; }

void rtx_init(struct rtx *r, struct rtx_slot *slots, uint8_t *store, unsigned cap,
	      unsigned frame_max, uint64_t rto_min_us, uint64_t rto_max_us)
{
	net_memset(r, 0, sizeof(*r));
	r->slot = slots;
	r->store = store;
	r->cap = cap;
	r->frame_max = frame_max;
	r->rto = r->rto_min = rto_min_us;
	r->rto_max = rto_max_us;
}

static inline unsigned idx(const struct rtx *r, unsigned i) { return (r->head + i) % r->cap; }
static inline uint8_t *data(const struct rtx *r, unsigned k) { return r->store + (uint64_t)k * r->frame_max; }

const uint8_t *rtx_push(struct rtx *r, uint32_t seq, const void *frame, unsigned len,
			uint64_t now)
{
	if (r->count == r->cap || len > r->frame_max)
		return 0;
	unsigned k = idx(r, r->count);
	r->slot[k].seq = seq;
	r->slot[k].len = (uint16_t)len;
	r->slot[k].due_now = 0;
	r->slot[k].sacked = 0;
	r->slot[k].resent = 0;
	r->slot[k].sent_at = now;
	net_memcpy(data(r, k), frame, len);
	r->count++;
	r->sent++;
	return data(r, k);
}

/* RFC 6298 section 2, in integer µs. */
static void rtt_sample(struct rtx *r, uint64_t m)
{
	if (!r->have_rtt) {
		r->srtt = m;
		r->rttvar = m / 2;
		r->have_rtt = 1;
	} else {
		uint64_t d = r->srtt > m ? r->srtt - m : m - r->srtt;
		r->rttvar = (3 * r->rttvar + d) / 4;
		r->srtt = (7 * r->srtt + m) / 8;
	}
}

/* What the measured round trip asks for. Capped at RTX_RTT_CAP x rto_max,
 * not at rto_max: rto_max bounds the backoff of a daemon that went away
 * (it must be found again soon), while a daemon that is there but ACKs
 * late (1000 machines' windows queued ahead of its commits) has told us its
 * delay, and a timer shorter than that delay only resends what it holds. */
static uint64_t base_rto(const struct rtx *r)
{
	uint64_t cap = r->rto_max * RTX_RTT_CAP;
	uint64_t rto = r->have_rtt ? r->srtt + 4 * r->rttvar : r->rto_min;
	return rto < r->rto_min ? r->rto_min : rto > cap ? cap : rto;
}

unsigned rtx_ack(struct rtx *r, uint32_t cum, uint64_t now)
{
	unsigned n = 0;
	int sample = 0;
	uint64_t sent_at = 0;
	while (r->count && seq_before(r->slot[r->head].seq, cum)) {
		const struct rtx_slot *s = &r->slot[r->head];
		/* The OLDEST frame this ACK covers that was sent only once (Karn)
		 * times the path: a receiver that ACKs a batch at its commit
		 * answers its first frame last, relative to when it was sent, so
		 * the newest frame would under-measure what a frame waits. */
		if (!sample && !s->resent) {
			sample = 1;
			sent_at = s->sent_at;
		}
		r->head = (r->head + 1) % r->cap;
		r->count--;
		n++;
	}
	if (n) {
		/* Karn: a backed-off rto is kept until a frame sent once gives a
		 * new sample; progress with retransmitted frames alone says the
		 * receiver is there, not how long it takes (resetting rto then
		 * made the rest of the window, still queued at the receiver, due
		 * at once: t-load-1000's repeats). */
		if (sample && now >= sent_at) {
			rtt_sample(r, now - sent_at);
			r->rto = base_rto(r);
		}
		r->backed_off = 0;
		r->dup_acks = 0;
		r->last_ack = cum;
		r->progress_at = now;
	} else if (r->count && cum == r->last_ack) {
		/* The receiver keeps answering with the same edge: the frame at
		 * that edge is lost while later ones arrive. */
		if (++r->dup_acks == 3)
			r->slot[r->head].due_now = 1;
	}
	return n;
}

void rtx_sack(struct rtx *r, uint32_t cum, const uint8_t *bits, unsigned nbits, uint64_t now)
{
	int any = 0;
	uint32_t highest = 0;
	for (unsigned i = 0; i < r->count; i++) {
		struct rtx_slot *s = &r->slot[idx(r, i)];
		uint32_t off = s->seq - cum - 1;   /* bit index, if within the map */
		if (!seq_before(s->seq, cum + 1) && off < nbits && (bits[off / 8] >> (off % 8)) & 1) {
			s->sacked = 1;
			highest = s->seq;
			any = 1;
		}
	}
	if (!any)
		return;
	/* A round trip: the smoothed estimate, or rto_min before the first sample. */
	uint64_t rtt = r->have_rtt ? r->srtt : r->rto_min;
	for (unsigned i = 0; i < r->count; i++) {
		struct rtx_slot *s = &r->slot[idx(r, i)];
		if (!seq_before(s->seq, highest))
			break;
		if (!s->sacked && now - s->sent_at >= rtt)
			s->due_now = 1;
	}
}

/* The moment a frame's timer runs from: its last send, or the last ACK
 * progress if later (the receiver is answering: give it one rto from then). */
static uint64_t timer_start(const struct rtx *r, const struct rtx_slot *s)
{
	return s->sent_at > r->progress_at ? s->sent_at : r->progress_at;
}

static int is_due(const struct rtx *r, uint64_t rto, const struct rtx_slot *s, uint64_t now)
{
	if (s->sacked)
		return 0;
	return s->due_now || now - timer_start(r, s) >= rto;
}

unsigned rtx_service(struct rtx *r, uint64_t now, unsigned max, rtx_send_fn send, void *ctx)
{
	unsigned sent = 0;
	/* Dueness is judged with the rto in force when the call began: a backoff
	 * triggered by the oldest frame must not hide the frames sent with it. */
	uint64_t rto = r->rto;
	/* Backed off (no ACK progress since the last timeout): the receiver is
	 * gone or the path is dead, so probe with the oldest frame alone rather
	 * than resend the whole window every rto. The first ACK that makes
	 * progress resets rto, and the rest follow at once. */
	unsigned scan = r->backed_off ? 1 : r->count;
	for (unsigned i = 0; i < scan && i < r->count && sent < max; i++) {
		unsigned k = idx(r, i);
		struct rtx_slot *s = &r->slot[k];
		if (!is_due(r, rto, s, now))
			continue;
		if (i == 0 && !s->due_now) {
			/* The oldest frame timed out: back off (Karn/Jacobson style
			 * doubling, capped so a daemon back after minutes is found
			 * within rto_max). */
			uint64_t cap = base_rto(r) > r->rto_max ? base_rto(r) : r->rto_max;
			r->timeouts++;
			r->backed_off = 1;
			r->rto = r->rto * 2 > cap ? cap : r->rto * 2;
		}
		if (!s->due_now)
			r->retx_timer++;
		s->due_now = 0;
		s->resent = 1;
		s->sent_at = now;
		send(ctx, data(r, k), s->len);
		r->retransmitted++;
		sent++;
		/* The oldest frame just timed out: it goes alone, as the probe.
		 * The frames sent with it are most likely where it is (queued at
		 * a slow receiver, or lost with a dead one); its ACK, or its
		 * SACK, says which, and sending them all now was most of the
		 * repeats at 1000 machines. */
		if (r->backed_off)
			break;
	}
	return sent;
}

uint64_t rtx_next_due(const struct rtx *r, uint64_t now)
{
	uint64_t best = UINT64_MAX;
	for (unsigned i = 0; i < r->count; i++) {
		const struct rtx_slot *s = &r->slot[idx(r, i)];
		if (s->sacked)
			continue;
		if (is_due(r, r->rto, s, now))
			return 0;
		uint64_t left = timer_start(r, s) + r->rto - now;
		if (left < best)
			best = left;
	}
	return best;
}
