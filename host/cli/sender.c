/* sender.c — reliable UDP delivery of frames until ACKed (see sender.h). */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "sender.h"
#include "xcb_proto.h"

#define RTO_INIT 0.05
#define RTO_MAX 1.0

struct tokmap {
	uint64_t token;
	struct sender_frame **by_seq; /* index = seq; NULL for gaps */
	uint32_t nseq;
	uint32_t edge;                /* the daemon's last cumulative ACK */
	int acked_once;               /* edge is set */
	int64_t had;                  /* held()'s last answer (-1: not asked) */
	double since;                 /* ... and when it last changed */
};

/* Past a gap (opts.held): the daemon is asked every HELD_EVERY without
 * ACK progress (an HTTP call, so not every 5 ms), and a run whose count
 * has not grown for HOLE_SETTLE, every frame of it sent twice, is settled
 * short: the frames it lacks were refused. */
#define HELD_EVERY 0.1
#define HOLE_SETTLE 2.0

/* 1 when t's ACKs stop at a gap: the edge is a seq this call was not
 * given, so no ACK will pass it. */
static int at_gap(const struct tokmap *t)
{
	return t->acked_once && t->edge < t->nseq && !t->by_seq[t->edge];
}

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t xs(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static double uni(uint64_t *s)
{
	return (double)(xs(s) >> 11) / 9007199254740992.0;
}

static struct tokmap *find_tok(struct tokmap *t, size_t nt, uint64_t token)
{
	for (size_t i = 0; i < nt; i++)
		if (t[i].token == token)
			return &t[i];
	return NULL;
}

static void xmit(int fd, struct sender_frame *f, const struct sender_opts *o, uint64_t *rng,
		 struct sender_stats *st)
{
	if (f->sent)
		st->retransmits++;
	f->sent++;
	st->sent++;
	if (o->loss > 0 && uni(rng) < o->loss) {
		st->dropped++;
		return;
	}
	send(fd, f->data, f->len, 0);
	if (o->dup > 0 && uni(rng) < o->dup) {
		send(fd, f->data, f->len, 0);
		st->duplicated++;
	}
}

static void on_ack(const uint8_t *buf, size_t len, struct tokmap *toks, size_t nt,
		   struct sender_stats *st, size_t *nacked)
{
	struct xcb_hdr h;
	const uint8_t *p;
	struct xcb_ack a;
	struct tokmap *t;

	if (xcb_decode(buf, len, &h, &p) || h.type != XCB_T_ACK || xcb_dec_ack(p, h.length, &a))
		return;
	st->acks++;
	t = find_tok(toks, nt, h.token);
	if (!t)
		return;
	if (a.status == XCB_ACK_REFUSED) {
		st->refused = 1;
		return;
	}
	/* (the daemon's edge only grows: an ACK that overtook a later one
	 * must not move it back onto a seq this call lacks, a gap it is not) */
	if (!t->acked_once || h.seq > t->edge)
		t->edge = h.seq;
	t->acked_once = 1;
	for (uint32_t s = 0; s < h.seq && s < t->nseq; s++) {
		struct sender_frame *f = t->by_seq[s];

		if (f && !f->acked) {
			f->acked = 1;
			(*nacked)++;
		}
	}
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t s = h.seq + 1 + i;

		if ((a.sack[i / 8] >> (i % 8)) & 1 && s < t->nseq && t->by_seq[s] && !t->by_seq[s]->acked) {
			t->by_seq[s]->acked = 1;
			(*nacked)++;
		}
	}
}

/* One sender_run's books. */
struct sending {
	struct tokmap toks[64];
	size_t nt, nacked, lo;
	size_t *cand;                /* this round's frames to send, by index */
	uint64_t rng;
	int window;
	double last_progress;
	double last_held;            /* when opts.held was last asked */
};

/* Indexes the frames by (token, seq) so ACKs find them in O(1); a frame
 * given twice counts as acknowledged once. 0, or -1. */
static int index_frames(struct sending *g, struct sender_frame *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct tokmap *t = find_tok(g->toks, g->nt, f[i].token);

		f[i].acked = f[i].sent = 0;
		f[i].rto = RTO_INIT;
		if (!t) {
			if (g->nt == 64) {
				fprintf(stderr, "sender: more than 64 runs in one go\n");
				return -1;
			}
			t = &g->toks[g->nt++];
			t->token = f[i].token;
			t->had = -1;
		}
		if (f[i].seq >= t->nseq) {
			uint32_t m = f[i].seq + 1;
			struct sender_frame **p = realloc(t->by_seq, m * sizeof(*p));

			if (!p)
				return -1;
			memset(p + t->nseq, 0, (m - t->nseq) * sizeof(*p));
			t->by_seq = p;
			t->nseq = m;
		}
		if (t->by_seq[f[i].seq]) { /* same frame twice in the input */
			f[i].acked = 1;
			g->nacked++;
			continue;
		}
		t->by_seq[f[i].seq] = &f[i];
	}
	return 0;
}

/* Sends the unacknowledged frames of the window that are new or due (in a
 * shuffled order with o->reorder), backing off each retransmission. A
 * frame already sent of a run whose ACKs stop at a gap takes no room in
 * the window: an ACK may never come for it, and the frames after it must
 * still go (its retransmissions go on, on their timer). */
static void send_due(int fd, struct sending *g, struct sender_frame *f, size_t n, const struct sender_opts *o,
		     struct sender_stats *st)
{
	double now = mono();
	size_t nc = 0, inflight = 0;

	while (g->lo < n && f[g->lo].acked)
		g->lo++;
	for (size_t i = g->lo; i < n && inflight < (size_t)g->window; i++) {
		if (f[i].acked)
			continue;
		/* (only where held can confirm such frames: a sender without it,
		 * xcb-gen, keeps its window as it was, and its cost a frame) */
		if (!f[i].sent || !o->held || !at_gap(find_tok(g->toks, g->nt, f[i].token)))
			inflight++;
		if (!f[i].sent || now - f[i].last >= f[i].rto)
			g->cand[nc++] = i;
	}
	if (o->reorder > 0) {
		for (size_t k = nc; k > 1; k--) {
			if (uni(&g->rng) < o->reorder) {
				size_t j = xs(&g->rng) % k, t = g->cand[k - 1];

				g->cand[k - 1] = g->cand[j];
				g->cand[j] = t;
			}
		}
	}
	for (size_t k = 0; k < nc; k++) {
		struct sender_frame *x = &f[g->cand[k]];

		if (x->sent) /* a retransmission: back off */
			x->rto = x->rto * 2 > RTO_MAX ? RTO_MAX : x->rto * 2;
		x->last = now;
		xmit(fd, x, o, &g->rng, st);
	}
}

/* The ACKs that came within 5 ms (o->ack_loss of them dropped). */
static void take_acks(int fd, struct sending *g, const struct sender_opts *o, struct sender_stats *st)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	uint8_t buf[XCB_FRAME_MAX + 64];
	size_t before = g->nacked;
	ssize_t r;

	if (poll(&pfd, 1, 5) <= 0)
		return;
	while ((r = recv(fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
		if (o->ack_loss > 0 && uni(&g->rng) < o->ack_loss)
			continue;
		on_ack(buf, (size_t)r, g->toks, g->nt, st, &g->nacked);
	}
	if (g->nacked != before)
		g->last_progress = mono();
}

/* Counts token's frames not yet acknowledged as done (stored: held said
 * so; or not, counted in unstored). */
static void settle(struct sending *g, struct sender_frame *f, size_t n, uint64_t token, uint64_t *unstored)
{
	for (size_t i = 0; i < n; i++)
		if (f[i].token == token && !f[i].acked) {
			f[i].acked = 1;
			g->nacked++;
			if (unstored)
				(*unstored)++;
		}
}

/* 1 when every unacknowledged frame of token was sent at least twice. */
static int all_resent(const struct sender_frame *f, size_t n, uint64_t token)
{
	for (size_t i = 0; i < n; i++)
		if (f[i].token == token && !f[i].acked && f[i].sent < 2)
			return 0;
	return 1;
}

/* The runs whose ACKs stop at a gap, asked through opts.held what the
 * daemon holds: all the sender's frames (settled as stored), more than at
 * the last ask (progress: it is still storing them), or the same for
 * HOLE_SETTLE with every frame sent twice (settled: the rest refused). */
static void ask_held(struct sending *g, struct sender_frame *f, size_t n, const struct sender_opts *o,
		     struct sender_stats *st)
{
	double now = mono();

	if (!o->held || now - g->last_progress < HELD_EVERY || now - g->last_held < HELD_EVERY)
		return;
	g->last_held = now;
	for (size_t k = 0; k < g->nt; k++) {
		struct tokmap *t = &g->toks[k];
		int64_t have, want;

		if (!at_gap(t) || o->held(o->held_ctx, t->token, &have, &want))
			continue;
		if (have == want) {
			settle(g, f, n, t->token, NULL);
		} else if (have != t->had) {
			t->had = have;
			t->since = now;
		} else if (now - t->since < HOLE_SETTLE || !all_resent(f, n, t->token)) {
			continue;
		} else {
			settle(g, f, n, t->token, &st->unstored);
		}
		g->last_progress = now;
	}
}

int sender_run(int fd, struct sender_frame *f, size_t n, const struct sender_opts *o,
	       struct sender_stats *st)
{
	struct sending *g = calloc(1, sizeof(*g));
	int rc = -1;

	memset(st, 0, sizeof(*st));
	if (!g)
		return -1;
	g->rng = o->seed ? o->seed : 0x2545f4914f6cdd1dull;
	g->window = o->window > 0 ? o->window : 128;
	g->last_progress = mono();
	/* (a frame past a gap takes no room in the window: any may be due) */
	g->cand = malloc((n ? n : 1) * sizeof(*g->cand));
	if (!g->cand || index_frames(g, f, n))
		goto out;
	while (g->nacked < n) {
		send_due(fd, g, f, n, o, st);
		take_acks(fd, g, o, st);
		ask_held(g, f, n, o, st);
		if (st->refused) {
			fprintf(stderr, "sender: the daemon refused the run token (start it with --open, "
				"or register the run first)\n");
			goto out;
		}
		if (mono() - g->last_progress > (o->idle_timeout > 0 ? o->idle_timeout : 30)) {
			fprintf(stderr, "sender: no ACK progress for %.0f s; %zu of %zu frames unacknowledged\n",
				mono() - g->last_progress, n - g->nacked, n);
			goto out;
		}
	}
	rc = 0;
out:
	for (size_t i = 0; i < g->nt; i++)
		free(g->toks[i].by_seq);
	free(g->cand);
	free(g);
	return rc;
}
