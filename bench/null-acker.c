/*
 * null-acker.c — the baseline for bench/ingest.sh: a UDP "collector" that
 * validates each frame (xcb_decode) and ACKs it at once, storing nothing.
 * The senders' rate against it is the rate they can produce; xcbenchd's
 * rate over that is the ratio the benchmark reports. Per token it keeps
 * the cumulative next seq and a 256-frame selective-ACK bitmap, like the
 * daemon, so the sender's window behaves the same.
 *
 *   null-acker PORT SECONDS   (exits after SECONDS; prints frames received)
 */
#include <arpa/inet.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "xcb_proto.h"

#define MAXRUNS 256
#define WIN 4096

struct run {
	uint64_t token;
	uint32_t next;
	uint8_t seen[WIN / 8]; /* ring: bit seq % WIN set = seq seen, seq >= next */
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

int main(int argc, char **argv)
{
	int fd = socket(AF_INET, SOCK_DGRAM, 0), rcv = 8 << 20;
	struct sockaddr_in sa = { .sin_family = AF_INET }, from;
	uint8_t buf[2048], out[XCB_FRAME_MAX];
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
		socklen_t fl = sizeof(from);
		struct xcb_hdr h;
		const uint8_t *pl;
		struct xcb_ack a = { 0 };
		struct run *r;
		ssize_t n;

		if (poll(&p, 1, 200) <= 0)
			continue;
		n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
		if (n <= 0 || xcb_decode(buf, (size_t)n, &h, &pl) || !(r = find(h.token)))
			continue;
		frames++;
		/* seen[] is a ring indexed by seq % WIN: mark, then advance next
		 * over the contiguous prefix, clearing bits for reuse. */
		if (h.seq >= r->next && h.seq - r->next < WIN) {
			r->seen[(h.seq % WIN) / 8] |= (uint8_t)(1 << (h.seq % 8));
			while (bit(r, r->next % WIN)) {
				r->seen[(r->next % WIN) / 8] &= (uint8_t)~(1 << (r->next % 8));
				r->next++;
			}
		}
		for (uint32_t i = 0; i < 256; i++)
			if (bit(r, (r->next + 1 + i) % WIN))
				a.sack[i / 8] |= (uint8_t)(1 << (i % 8));
		h.seq = r->next;
		n = (ssize_t)xcb_enc_ack(out, sizeof(out), &h, &a);
		sendto(fd, out, (size_t)n, 0, (struct sockaddr *)&from, fl);
	}
	printf("%llu\n", frames);
	return 0;
}
