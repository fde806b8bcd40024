/*
 * collector.c — the UDP side: one thread receives datagrams, validates them
 * (xcb_decode + per-type payload checks), refuses unknown tokens unless
 * --open, drops duplicates, and queues new frames for the writer. ACKs for
 * new frames are sent after the commit, by the writer through collector_ack
 * (main.c hands it to writer_start: the writer never calls the collector by
 * name); a duplicate of an already committed frame is re-ACKed here at once
 * (its ACK was lost).
 *
 * Hostile peers: a run is bound to the address of its first valid frame
 * (frames from elsewhere are counted and dropped, without a reply); a
 * finished run takes nothing but duplicates; an unknown token allocates
 * nothing and gets at most a rate-limited REFUSED no larger than its
 * datagram (the source of a UDP datagram can be forged: no amplification).
 * With --open (loopback only) a new run starts only at its HELLO, seq 0.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <unistd.h>

#include "collector.h"
#include "ratelimit.h"
#include "registry.h"
#include "writer.h"
#include "xcbd.h"

static int udp_fd = -1;
static pthread_t thread;
static atomic_int stop;

static void ack_to(int fd, const struct sockaddr_in *to, uint64_t token, uint32_t next,
		   uint32_t status, const uint8_t *sack)
{
	struct xcb_hdr h = { .token = token, .seq = next };
	struct xcb_ack a = { .status = status };
	uint8_t buf[XCB_HDR_LEN + XCB_ACK_LEN];
	size_t n;

	if (sack)
		memcpy(a.sack, sack, sizeof(a.sack));
	n = xcb_enc_ack(buf, sizeof(buf), &h, &a);
	if (sendto(fd, buf, n, MSG_DONTWAIT, (const struct sockaddr *)to, sizeof(*to)) == (ssize_t)n)
		atomic_fetch_add(&ctr.acks_sent, 1);
}

void collector_ack(struct run *r)
{
	uint8_t sack[32];

	if (!r->have_peer)
		return;
	seqset_sack(&r->stored, sack);
	/* CLOSED only once every frame of the run (DONE included) is stored. */
	ack_to(udp_fd, &r->peer, r->token, r->stored.next,
	       r->expected && r->stored.next >= r->expected ? XCB_ACK_CLOSED : XCB_ACK_OK, sack);
}

static void reject(int reason)
{
	atomic_fetch_add(&ctr.rejected[reason < 0 ? -reason : reason], 1);
}

/* REFUSED replies per source: a burst of 10, then 2 a second. */
static struct ratelimit refuse_rl = RATELIMIT_INIT(10, 2);

static void refuse(const struct sockaddr_in *from, uint64_t token, size_t len)
{
	reject(REJ_UNKNOWN_TOKEN);
	/* --open: an unknown token is a run still to start (its HELLO may be
	 * late); say nothing, the sender retransmits. Otherwise the sender is
	 * told once in a while, and never with more bytes than it sent. */
	if (cfg.open || len < XCB_HDR_LEN + XCB_ACK_LEN || !ratelimit_take(&refuse_rl, from->sin_addr.s_addr))
		return;
	ack_to(udp_fd, from, token, 0, XCB_ACK_REFUSED, NULL);
}

/* Per-type payload checks, so the writer only ever sees well-formed frames. */
static int check_payload(const struct xcb_hdr *h, const uint8_t *p)
{
	union {
		struct xcb_result r;
		struct xcb_histo x;
		struct xcb_samples s;
		struct xcb_done d;
	} u;

	switch (h->type) {
	case XCB_T_RESULT: return xcb_dec_result(p, h->length, &u.r);
	case XCB_T_HISTO: return xcb_dec_histo(p, h->length, &u.x);
	case XCB_T_SAMPLES: return xcb_dec_samples(p, h->length, &u.s);
	case XCB_T_DONE:
		/* DONE counts the frames before it, so its count is its own seq
		 * (proto/README.md), and its status is one of XCB_DONE_*: a
		 * frames=0xffffffff would hold the run open forever. */
		if (xcb_dec_done(p, h->length, &u.d))
			return XCB_E_PAYLOAD;
		return u.d.frames == h->seq && u.d.status <= XCB_DONE_FAILED ? XCB_OK : XCB_E_PAYLOAD;
	case XCB_T_ACK: return XCB_E_TYPE; /* only the daemon sends ACKs */
	case XCB_T_CASE: {
		/* A case without a numeric id could never be referenced. */
		size_t pos = 0, kl, vl;
		const char *k, *v;

		while (xcb_kv_next((const char *)p, h->length, &pos, &k, &kl, &v, &vl)) {
			size_t d = 0;

			/* Count digits within vl only: v is not NUL-terminated, and
			 * strspn() here read past the datagram (found by fuzz_frame). */
			while (d < vl && v[d] >= '0' && v[d] <= '9')
				d++;
			if (kl == 2 && memcmp(k, "id", 2) == 0 && vl > 0 && vl <= 9 && d == vl)
				return XCB_OK;
		}
		return XCB_E_PAYLOAD;
	}
	default:
		return XCB_OK;
	}
}

static void handle(const uint8_t *buf, size_t len, const struct sockaddr_in *from)
{
	struct xcb_hdr h;
	const uint8_t *payload;
	struct run *r;
	int e, added;

	atomic_fetch_add(&ctr.received, 1);
	e = xcb_decode(buf, len, &h, &payload);
	if (e == XCB_OK)
		e = check_payload(&h, payload);
	if (e != XCB_OK) {
		reject(e);
		return;
	}
	pthread_mutex_lock(&reg_lock);
	r = reg_find(h.token);
	if (!r && cfg.open && h.type == XCB_T_HELLO && h.seq == 0)
		r = reg_add(h.token, 0); /* the writer creates the run row */
	if (!r) {
		pthread_mutex_unlock(&reg_lock);
		refuse(from, h.token, len);
		return;
	}
	if (r->is_bound && r->bound.s_addr != from->sin_addr.s_addr) {
		/* Not the machine: no reply, nothing changes (a lab machine
		 * keeps its address for the boot; a new boot is a new run). */
		pthread_mutex_unlock(&reg_lock);
		reject(REJ_PEER);
		return;
	}
	r->peer = *from;
	r->have_peer = 1;
	if (seqset_has(&r->recv, h.seq)) {
		atomic_fetch_add(&ctr.duplicate, 1);
		if (seqset_has(&r->stored, h.seq))
			collector_ack(r);
		/* else: still queued; its commit will ACK it. */
		pthread_mutex_unlock(&reg_lock);
		return;
	}
	if (r->closed || (r->expected && h.seq >= r->expected)) {
		/* Finished (DONE stored, every frame before it too), or past
		 * the frame count DONE gave: nothing new belongs to it. */
		pthread_mutex_unlock(&reg_lock);
		reject(REJ_CLOSED);
		return;
	}
	if (h.seq - r->recv.next >= RUN_WINDOW) {
		pthread_mutex_unlock(&reg_lock);
		reject(REJ_SEQ_WINDOW);
		return;
	}
	/* The first frame that will be stored binds the run to its source. */
	r->bound = from->sin_addr;
	r->is_bound = 1;
	/* Queue first, mark seen second, both under reg_lock: a frame the
	 * writer could not take (saturated) stays unseen, so its
	 * retransmission is not a duplicate; and a batch that fails resets
	 * r->recv to r->stored under reg_lock (writer.c), so it cannot land
	 * between the two and leave a frame seen that was never stored (a
	 * writer failing at once, PostgreSQL away, did: the run stalled).
	 * writer_frame takes q_lock after reg_lock; nothing takes them in the
	 * other order. */
	if (writer_frame(r, &h, payload, from->sin_addr)) {
		pthread_mutex_unlock(&reg_lock);
		reject(REJ_BUSY);
		return;
	}
	added = seqset_add(&r->recv, h.seq);
	pthread_mutex_unlock(&reg_lock);
	(void)added;
}

/* Cheap deterministic PRNG for the test-only drop flag. */
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static double rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

/* Datagrams taken per recvmmsg: one system call for a burst. Each call costs
 * more than the copy of a frame on a paravirtual guest (bench/ingest.sh
 * under perf: the recvfrom path was ~40 % of this thread at one datagram a
 * call). */
#define RECV_BATCH 32

/* The receive buffers, this thread's only (~50 KiB: off its stack). */
static uint8_t rbuf[RECV_BATCH][XCB_FRAME_MAX + 64];

/*
 * This thread is SCHED_BATCH: a datagram that wakes it does not preempt the
 * writer. It sleeps in recvmmsg between bursts, and each wakeup by a sender
 * on another CPU used to preempt whatever ran here (the writer, when they
 * share a core), with a reschedule IPI and a context switch each: under
 * perf (bench/ingest.sh, split placement) the reschedule IPIs alone were
 * ~17 % of the writer thread's samples on this paravirtual guest. Batch, it
 * runs when the writer waits for frames or at the scheduler tick (a few
 * ms); the datagrams wait in the socket meanwhile (its 64 MiB buffer holds
 * 1000 machines' windows). Where the daemon has a core of its own for this
 * thread nothing changes: it is woken on an idle CPU either way. Same
 * minutes, 6 alternating runs of bench/ingest.sh (5 trials each, load
 * 2.9-3.2): daemon CPU a frame 9.4-10.2 -> 8.2-9.1 us on SQLite and
 * 3.8-4.4 -> 2.8-3.1 us on PostgreSQL. A failure (some container policy)
 * is harmless: the thread keeps the normal policy.
 */
static void quiet_wakeups(void)
{
	struct sched_param sp = { .sched_priority = 0 };

	pthread_setname_np(pthread_self(), "xcbd-collector");
	if (sched_setscheduler(0, SCHED_BATCH, &sp))
		fprintf(stderr, "xcbenchd: collector stays SCHED_OTHER (%s)\n", strerror(errno));
}

static void *collector_main(void *unused)
{
	struct sockaddr_in from[RECV_BATCH];
	struct iovec iov[RECV_BATCH];
	struct mmsghdr msg[RECV_BATCH];

	(void)unused;
	quiet_wakeups();
	while (!atomic_load(&stop)) {
		/* At most 256 datagrams, then the stop flag is looked at again.
		 * The first call of a round waits (MSG_WAITFORONE: for one
		 * datagram, then it takes what is there without waiting), at
		 * most SO_RCVTIMEO's 200 ms, so a stop is seen within that;
		 * one system call a wakeup where a poll and a recvmmsg were
		 * two (the senders' datagrams come a few at a time when they
		 * run on another core, each few a wakeup). */
		for (int burst = 0; burst < 256 / RECV_BATCH; burst++) {
			int n;

			for (int i = 0; i < RECV_BATCH; i++) {
				iov[i] = (struct iovec){ .iov_base = rbuf[i], .iov_len = sizeof(rbuf[i]) };
				msg[i].msg_hdr = (struct msghdr){ .msg_name = &from[i], .msg_namelen = sizeof(from[i]),
								  .msg_iov = &iov[i], .msg_iovlen = 1 };
			}
			n = recvmmsg(udp_fd, msg, RECV_BATCH, burst ? MSG_DONTWAIT : MSG_WAITFORONE, NULL);
			if (n <= 0)
				break; /* nothing in 200 ms, or the socket is empty */
			for (int i = 0; i < n; i++) {
				if (cfg.test_drop > 0 && rnd() < cfg.test_drop)
					continue;
				/* A datagram longer than the buffer comes cut, with
				 * MSG_TRUNC: it is refused as oversize, not as a
				 * truncated frame (a buffer is bigger than any
				 * valid frame). */
				if (msg[i].msg_hdr.msg_flags & MSG_TRUNC) {
					atomic_fetch_add(&ctr.received, 1);
					reject(XCB_E_OVERSIZE);
					continue;
				}
				handle(rbuf[i], msg[i].msg_len, &from[i]);
			}
			if (n < RECV_BATCH)
				break; /* the socket is empty: wait again */
		}
	}
	return NULL;
}

int collector_start(void)
{
	/* 1000 machines × a 128-frame window of ~1 KiB frames can arrive at
	 * once: the socket must hold a whole burst while the writer commits. */
	int rcvbuf = 64 << 20;
	struct timeval rcvtimeo = { .tv_usec = 200 * 1000 };

	udp_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (udp_fd < 0)
		return -1;
	/* No SO_REUSEADDR: UDP has no TIME_WAIT to skip on a restart, and with
	 * it a second daemon on the same port binds too and silently takes
	 * the datagrams (Linux hands them to the newer socket): a run stalls
	 * with its frames going to a daemon that does not know its token. */
	/* A burst of retransmissions must not overflow the socket buffer. */
	/* SO_RCVBUFFORCE (root) may exceed net.core.rmem_max; else SO_RCVBUF,
	 * which the kernel caps at rmem_max. */
	if (setsockopt(udp_fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)))
		setsockopt(udp_fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	/* The thread's waiting receive returns after 200 ms without a
	 * datagram, to look at the stop flag (collector_main). */
	if (setsockopt(udp_fd, SOL_SOCKET, SO_RCVTIMEO, &rcvtimeo, sizeof(rcvtimeo))) {
		close(udp_fd);
		udp_fd = -1;
		return -1;
	}
	if (bind(udp_fd, (struct sockaddr *)&cfg.udp, sizeof(cfg.udp))) {
		fprintf(stderr, "xcbenchd: cannot bind UDP port %d: %s\n",
			ntohs(cfg.udp.sin_port), strerror(errno));
		close(udp_fd);
		udp_fd = -1;
		return -1;
	}
	return pthread_create(&thread, NULL, collector_main, NULL) ? -1 : 0;
}

void collector_stop(void)
{
	atomic_store(&stop, 1);
	pthread_join(thread, NULL);
}
