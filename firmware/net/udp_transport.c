/* The UDP transport: struct transport ops over the stack and the rtx window. */
#include "net/udp_transport.h"
#include "lib/errno.h"
#include "net/net_init.h"	/* net_report_stats */
#include "net/netenv.h"
#include "net/bytes.h"
#include "xcb_proto.h"

static void tx_raw(void *ctx, const uint8_t *frame, unsigned len)
{
	struct udp_transport *u = ctx;
	/* A failure here (next hop not resolved, ring full) is a lost datagram
	 * like any other: the frame stays in the window and goes out again. */
	net_udp_send(u->ns, u->server, UDPT_LOCAL_PORT, u->port, frame, len);
}

static void on_udp(void *ctx, uint32_t src, uint16_t sport, uint16_t dport,
		   const uint8_t *p, unsigned len)
{
	struct udp_transport *u = ctx;
	struct xcb_hdr h;
	const uint8_t *payload;
	struct xcb_ack a;
	if (dport != UDPT_LOCAL_PORT || src != u->server || sport != u->port)
		return;
	if (xcb_decode(p, len, &h, &payload) != XCB_OK || h.type != XCB_T_ACK ||
	    xcb_dec_ack(payload, h.length, &a) != XCB_OK) {
		u->bad_acks++;
		return;
	}
	if (!u->have_token || h.token != u->token) {
		u->bad_acks++;     /* an ACK for an earlier boot's run */
		return;
	}
	u->acks++;
	uint64_t now = plat_now_us();
	if (a.status == XCB_ACK_REFUSED) {
		u->refused = 1;
		return;
	}
	if (a.status == XCB_ACK_CLOSED) {
		/* The run is complete on the daemon's side: nothing is owed. */
		rtx_ack(&u->rtx, u->next_seq, now);
		return;
	}
	rtx_ack(&u->rtx, h.seq, now);
	rtx_sack(&u->rtx, h.seq, a.sack, sizeof(a.sack) * 8, now);
}

/* One CPU at a time in the stack, the NIC rings and the window. report.c
 * serialises send() under its own lock, but poll() comes from the runner
 * without it while the watchdog or a crashing CPU may be sending. Acquire on
 * take and release on drop, so the ring and window updates of one holder are
 * seen by the next. A CPU that died holding the lock must not silence the
 * others, so a waiter gives up after a bounded spin (as report.c's emergency
 * path does) and goes ahead: a garbled ring beats a silent hang. */
#define LOCK_SPIN_LIMIT 50000000ul

static int take(struct udp_transport *u, int wait)
{
	for (unsigned long i = 0; i < LOCK_SPIN_LIMIT; i++) {
		if (!__atomic_exchange_n(&u->lock, 1, __ATOMIC_ACQUIRE))
			return 1;
		if (!wait)
			return 0;
		plat_cpu_relax();
	}
	return 0;
}

static void drop(struct udp_transport *u, int held)
{
	if (held)
		__atomic_store_n(&u->lock, 0, __ATOMIC_RELEASE);
}

/* ACKs in, due frames out. Called with the lock held. */
static void service(struct udp_transport *u)
{
	net_poll(u->ns);
	rtx_service(&u->rtx, plat_now_us(), UDPT_BURST, tx_raw, u);
}

static void udpt_poll(struct transport *t)
{
	struct udp_transport *u = t->priv;
	/* Opportunistic: when another CPU is inside, it is polling anyway. */
	if (!take(u, 0))
		return;
	service(u);
	drop(u, 1);
}

static int udpt_send(struct transport *t, const void *frame, unsigned len)
{
	struct udp_transport *u = t->priv;
	const uint8_t *f = frame;
	if (len < XCB_HDR_LEN || len > TRANSPORT_MAX_FRAME)
		return -EINVAL;
	int held = take(u, 1);
	uint64_t token = xcb_get64(f + 8);
	uint32_t seq = xcb_get32(f + 16);
	if (!u->have_token) {
		u->token = token;
		u->have_token = 1;
	}
	/* The window is full: the runner waits here (never drops) while ACKs
	 * drain it. A daemon gone for minutes holds the benchmark for minutes. */
	if (rtx_full(&u->rtx))
		u->window_waits++;
	while (rtx_full(&u->rtx) && !u->refused) {
		service(u);
		plat_cpu_relax();
	}
	const uint8_t *kept = u->refused ? 0 : rtx_push(&u->rtx, seq, frame, len, plat_now_us());
	if (kept) {
		u->next_seq = seq + 1;
		tx_raw(u, kept, len);
		/* Take ACKs as they come so the window rarely fills at all. */
		net_poll(u->ns);
	}
	drop(u, held);
	return kept ? 0 : u->refused ? -ECONNREFUSED : -EAGAIN;
}

static int udpt_flush(struct transport *t, unsigned timeout_ms)
{
	struct udp_transport *u = t->priv;
	uint64_t t0 = plat_now_us();
	for (;;) {
		/* Lock per round, not for the whole wait: a sender on another CPU
		 * (the watchdog reporting a hang) gets its turn. */
		int held = take(u, 1);
		service(u);
		int left = rtx_inflight(&u->rtx) && !u->refused;
		drop(u, held);
		if (!left)
			break;
		if (timeout_ms && plat_now_us() - t0 >= (uint64_t)timeout_ms * 1000)
			return -ETIMEDOUT;
		plat_cpu_relax();
	}
	if (timeout_ms == 0)
		net_report_stats();   /* the final flush: DONE is acknowledged */
	return u->refused ? -ECONNREFUSED : 0;
}

struct transport *udp_transport_init(struct udp_transport *u, struct net_stack *ns,
				     uint32_t server, uint16_t port)
{
	net_memset(u, 0, sizeof(*u));
	struct rtx_slot *slots = plat_alloc_zeroed(sizeof(struct rtx_slot) * UDPT_WINDOW);
	uint8_t *store = plat_alloc_zeroed((unsigned long)UDPT_WINDOW * TRANSPORT_MAX_FRAME);
	if (!slots || !store)
		return 0;
	rtx_init(&u->rtx, slots, store, UDPT_WINDOW, TRANSPORT_MAX_FRAME,
		 UDPT_RTO_MIN_US, UDPT_RTO_MAX_US);
	u->ns = ns;
	u->server = server;
	u->port = port;
	ns->udp_rx = on_udp;
	ns->udp_ctx = u;
	u->t.name = "udp";
	u->t.send = udpt_send;
	u->t.poll = udpt_poll;
	u->t.flush = udpt_flush;
	u->t.priv = u;
	return &u->t;
}
