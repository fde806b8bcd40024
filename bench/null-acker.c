/*
 * null-acker.c — the baseline for bench/ingest.sh: a UDP "collector" that
 * validates each frame (xcb_decode) and ACKs it at once, storing nothing.
 * The senders' rate against it is the rate they can produce; xcbenchd's
 * rate over that is the ratio the benchmark reports. Per token it keeps
 * the cumulative next seq and a 256-frame selective-ACK bitmap, like the
 * daemon, so the sender's window behaves the same. It takes datagrams as
 * the daemon's collector does (recvmmsg, 32 a call) and ACKs a token as a
 * batching collector does, never letting its window fill: once ACK_EVERY
 * of its frames wait for an ACK (half the senders' 128-frame window), or
 * its oldest waiting frame is ACK_DELAY old. Each ACK is CPU the senders
 * spend instead of sending: an ACK per frame cost them ~2.5x the CPU on
 * this 2-core machine, and an ACK each token per burst (a few frames
 * each, this acker idling between them) still ~20-35 % more than xcbenchd's
 * ACKs after each commit (senders' CPU a frame 8.2-13.6 us against it,
 * 6.6-10.2 against xcbenchd, bench/RESULTS.md and round 17's trials), so
 * the baseline understated the rate they can produce and overstated every
 * ratio to it.
 *
 *   null-acker PORT SECONDS   (exits after SECONDS; prints frames received)
 */
#define _GNU_SOURCE /* recvmmsg */
#include <arpa/inet.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "xcb_proto.h"

#define MAXRUNS 256
#define WIN 4096
#define BATCH 32 /* datagrams a recvmmsg, as the daemon's collector takes them */
#define ACK_EVERY 64       /* frames of a token waiting: ACK now (half a 128-frame window) */
#define ACK_DELAY_NS 1000000 /* its oldest waiting frame this old: ACK now (1 ms) */

struct run {
	uint64_t token;
	uint32_t next;
	uint8_t seen[WIN / 8]; /* ring: bit seq % WIN set = seq seen, seq >= next */
	struct sockaddr_in from; /* where its last frame came from: its ACKs go there */
	int waiting;             /* frames since its last ACK */
	int64_t since;           /* when the first of them came (now_ns) */
};
static struct run runs[MAXRUNS];
static int nruns;

static struct run *find(uint64_t t)
{
	for (int i = 0; i < nruns; i++)
		if (runs[i].token == t)
			return &runs[i];
	if (nruns == MAXRUNS)
		return NULL;
	runs[nruns].token = t;
	return &runs[nruns++];
}

static int bit(struct run *r, uint32_t i) { return r->seen[i / 8] >> (i % 8) & 1; }

static int64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Sends run r its ACK: the cumulative next seq and the selective bitmap of
 * the 256 seqs after it, as the daemon's collector_ack does. */
static void ack(int fd, struct run *r)
{
	struct xcb_hdr h = { .token = r->token, .seq = r->next };
	struct xcb_ack a = { 0 };
	uint8_t out[XCB_FRAME_MAX];
	size_t n;

	for (uint32_t i = 0; i < 256; i++)
		if (bit(r, (r->next + 1 + i) % WIN))
			a.sack[i / 8] |= (uint8_t)(1 << (i % 8));
	n = xcb_enc_ack(out, sizeof(out), &h, &a);
	sendto(fd, out, n, 0, (struct sockaddr *)&r->from, sizeof(r->from));
	r->waiting = 0;
}

/* ACKs every token whose waiting frames are due (ACK_EVERY of them, or the
 * oldest ACK_DELAY_NS old at now); returns the nanoseconds until the next
 * token's are due, or -1 if none waits. */
static int64_t ack_due(int fd, int64_t now)
{
	int64_t next = -1;

	for (int i = 0; i < nruns; i++) {
		struct run *r = &runs[i];
		int64_t left;

		if (!r->waiting)
			continue;
		left = r->since + ACK_DELAY_NS - now;
		if (r->waiting >= ACK_EVERY || left <= 0)
			ack(fd, r);
		else if (next < 0 || left < next)
			next = left;
	}
	return next;
}

int main(int argc, char **argv)
{
	int fd = socket(AF_INET, SOCK_DGRAM, 0), rcv = 8 << 20;
	struct sockaddr_in sa = { .sin_family = AF_INET }, from[BATCH];
	static uint8_t buf[BATCH][2048];
	struct iovec iov[BATCH];
	struct mmsghdr msg[BATCH];
	unsigned long long frames = 0;
	time_t end;

	if (argc != 3) {
		fprintf(stderr, "usage: null-acker PORT SECONDS\n");
		return 2;
	}
	sa.sin_port = htons((uint16_t)atoi(argv[1]));
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof(rcv));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		perror("null-acker: bind");
		return 1;
	}
	end = time(NULL) + atoi(argv[2]);
	while (time(NULL) < end) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int64_t wait = ack_due(fd, now_ns());
		struct timespec ts = { 0, 200000000 };
		int n;

		if (wait >= 0)
			ts = (struct timespec){ wait / 1000000000, wait % 1000000000 };
		if (ppoll(&p, 1, &ts, NULL) <= 0)
			continue;
		for (int i = 0; i < BATCH; i++) {
			iov[i] = (struct iovec){ .iov_base = buf[i], .iov_len = sizeof(buf[i]) };
			msg[i].msg_hdr = (struct msghdr){ .msg_name = &from[i], .msg_namelen = sizeof(from[i]),
							  .msg_iov = &iov[i], .msg_iovlen = 1 };
		}
		n = recvmmsg(fd, msg, BATCH, MSG_DONTWAIT, NULL);
		for (int i = 0; i < n; i++) {
			struct xcb_hdr h;
			const uint8_t *pl;
			struct run *r;

			if (xcb_decode(buf[i], msg[i].msg_len, &h, &pl) || !(r = find(h.token)))
				continue;
			frames++;
			r->from = from[i];
			/* seen[] is a ring indexed by seq % WIN: mark, then advance
			 * next over the contiguous prefix, clearing bits for reuse. */
			if (h.seq >= r->next && h.seq - r->next < WIN) {
				r->seen[(h.seq % WIN) / 8] |= (uint8_t)(1 << (h.seq % 8));
				while (bit(r, r->next % WIN)) {
					r->seen[(r->next % WIN) / 8] &= (uint8_t)~(1 << (r->next % 8));
					r->next++;
				}
			}
			if (!r->waiting++)
				r->since = now_ns();
		}
	}
	printf("%llu\n", frames);
	return 0;
}
