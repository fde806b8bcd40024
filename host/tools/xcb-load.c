/*
 * xcb-load.c — TEST-ONLY load sender: simulates N machines booted at once,
 * each delivering one synthetic run (gen.c) to xcbenchd over UDP from its
 * own socket, with the payload's own reliable-transport code: the
 * retransmit window of firmware/net/rtx.c (built for the host), its window,
 * RTO bounds and burst (firmware/net/udp_transport.h), and the same ACK
 * handling as udp_transport.c (cumulative + selective, CLOSED, REFUSED).
 * So a 1000-machine test measures the real algorithm with its backoff, not
 * a test sender's fixed timer.
 *
 * One thread, one epoll over all sockets. Prints one JSON line: machines,
 * complete, failed, frames, sent, retransmitted, timeouts, seconds.
 * SIGUSR1: one line {"acked": N} on stderr, the frames the daemon has
 * ACKed so far (cumulatively or selectively), for a test that compares what
 * was promised with what is stored at a given moment.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "cmdopt.h"
#include "gen.h"
#include "net/rtx.h"
#include "net/udp_transport.h" /* UDPT_WINDOW, UDPT_RTO_MIN_US, UDPT_RTO_MAX_US, UDPT_BURST */
#include "util.h"
#include "xcb_proto.h"

struct machine {
	int fd;
	uint64_t token;
	struct rtx rtx;
	struct rtx_slot slot[UDPT_WINDOW];
	uint8_t *store;
	uint32_t next;              /* frames pushed so far (= next seq) */
	uint64_t last_progress;     /* µs: last ACK that released frames */
	int done, failed, refused;
};

static const struct gen *tmpl; /* the run every machine sends, token 0 */
static volatile sig_atomic_t report_acked; /* SIGUSR1 */

static void on_usr1(int sig)
{
	(void)sig;
	report_acked = 1;
}

/* Frames ACKed so far: those released from the windows (cumulative ACKs)
 * and those still in them that a SACK said are stored. */
static void print_acked(const struct machine *ms, int n)
{
	unsigned long long acked = 0;

	for (int i = 0; i < n; i++) {
		const struct rtx *r = &ms[i].rtx;

		acked += ms[i].next - r->count;
		for (unsigned k = 0; k < r->count; k++)
			acked += r->slot[(r->head + k) % r->cap].sacked;
	}
	fprintf(stderr, "{\"acked\": %llu}\n", acked);
	fflush(stderr);
}
static unsigned frame_max;

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static void tx(void *ctx, const uint8_t *frame, unsigned len)
{
	/* A full socket buffer is a lost datagram, as on a NIC: rtx resends. */
	(void)!send(*(int *)ctx, frame, len, MSG_DONTWAIT);
}

/* Frame seq of the template, re-encoded with this machine's token. */
static unsigned frame_of(const struct machine *m, uint32_t seq, uint8_t *out)
{
	const struct sender_frame *f = &tmpl->f[seq];
	struct xcb_hdr h;
	const uint8_t *p;

	if (xcb_decode(f->data, f->len, &h, &p) != XCB_OK)
		return 0;
	h.token = m->token;
	return (unsigned)xcb_enc_frame(out, XCB_FRAME_MAX, &h, p, h.length);
}

/* What udp_transport.c's on_udp() does with an ACK. */
static void on_ack(struct machine *m, const uint8_t *buf, size_t len, uint64_t now)
{
	struct xcb_hdr h;
	const uint8_t *p;
	struct xcb_ack a;
	unsigned before = rtx_inflight(&m->rtx);

	if (xcb_decode(buf, len, &h, &p) != XCB_OK || h.type != XCB_T_ACK ||
	    xcb_dec_ack(p, h.length, &a) != XCB_OK || h.token != m->token)
		return;
	if (a.status == XCB_ACK_REFUSED) {
		m->refused = 1;
		return;
	}
	if (a.status == XCB_ACK_CLOSED) {
		rtx_ack(&m->rtx, m->next, now);
	} else {
		rtx_ack(&m->rtx, h.seq, now);
		rtx_sack(&m->rtx, h.seq, a.sack, sizeof(a.sack) * 8, now);
	}
	if (rtx_inflight(&m->rtx) < before)
		m->last_progress = now;
}

/* Pushes what the window takes, then lets rtx resend what is due. */
static void service(struct machine *m, uint64_t now)
{
	uint8_t buf[XCB_FRAME_MAX];

	while (!rtx_full(&m->rtx) && m->next < tmpl->n) {
		unsigned len = frame_of(m, m->next, buf);
		const uint8_t *kept = len ? rtx_push(&m->rtx, m->next, buf, len, now) : NULL;

		if (!kept) {
			m->failed = 1;
			return;
		}
		tx(&m->fd, kept, len);
		m->next++;
	}
	rtx_service(&m->rtx, now, UDPT_BURST, tx, &m->fd);
	if (m->next == tmpl->n && rtx_inflight(&m->rtx) == 0)
		m->done = 1;
}

static const char usage[] =
"usage: xcb-load [options]   (test-only: many simulated machines at once)\n"
"  --server HOST:PORT  xcbenchd UDP address (default 127.0.0.1:8080)\n"
"  --machines N        machines booted at once (default 1000)\n"
"  --reps N            repetitions per case in each machine's run (default 2)\n"
"  --token HEX         token of machine 0 (others +1, +2, ...; default 10ad0000000000)\n"
"  --give-up S         a machine fails after S s without ACK progress (1..604800, default 120)\n"
"Each machine sends one 48-case run (HELLO first, as the payload: the daemon\n"
"must be --open or have the tokens registered) with firmware/net/rtx.c.\n"
"Prints one JSON line; exit 0 when every machine's every frame is ACKed.\n";

/* Opens machine i's socket (connected to sa, in the epoll set ep) and its
 * retransmit window; 0, or -1 after saying why. */
static int boot_machine(struct machine *m, int i, uint64_t token, const struct sockaddr_in *sa, int ep, uint64_t t0)
{
	struct epoll_event e = { .events = EPOLLIN, .data.ptr = m };
	int rcv = 1 << 16;

	m->token = token + (uint64_t)i;
	m->store = malloc((size_t)UDPT_WINDOW * frame_max);
	m->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (!m->store || m->fd < 0 || connect(m->fd, (const struct sockaddr *)sa, sizeof(*sa)) ||
	    epoll_ctl(ep, EPOLL_CTL_ADD, m->fd, &e)) {
		fprintf(stderr, "xcb-load: machine %d: %s\n", i, strerror(errno));
		return -1;
	}
	setsockopt(m->fd, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof(rcv));
	rtx_init(&m->rtx, m->slot, m->store, UDPT_WINDOW, frame_max, UDPT_RTO_MIN_US, UDPT_RTO_MAX_US);
	m->last_progress = t0;
	return 0;
}

/* Serves every machine until each is done or failed (no ACK progress for
 * give_up seconds, or refused): sends what is due, waits for ACKs up to the
 * next deadline (at most 20 ms), takes them. Counts both outcomes. */
static void run_machines(struct machine *ms, int n, int ep, double give_up, int *complete, int *failed)
{
	for (int left = n; left > 0;) {
		struct epoll_event ev[256];
		uint64_t now = now_us(), wait = UINT64_MAX;
		int k;

		for (int i = 0; i < n; i++) {
			struct machine *m = &ms[i];
			uint64_t d;

			if (m->done || m->failed)
				continue;
			service(m, now);
			if (!m->done && (m->refused || (double)(now - m->last_progress) / 1e6 > give_up))
				m->failed = 1;
			if (m->done || m->failed) {
				left--;
				(m->done ? (*complete)++ : (*failed)++);
				continue;
			}
			d = rtx_next_due(&m->rtx, now);
			if (d < wait)
				wait = d;
		}
		if (report_acked) {
			report_acked = 0;
			print_acked(ms, n);
		}
		if (left == 0)
			break;
		k = epoll_wait(ep, ev, 256, wait > 20000 ? 20 : (int)(wait / 1000));
		now = now_us();
		for (int j = 0; j < k; j++) {
			struct machine *m = ev[j].data.ptr;
			uint8_t buf[XCB_FRAME_MAX + 64];
			ssize_t r;

			while ((r = recv(m->fd, buf, sizeof(buf), 0)) > 0)
				on_ack(m, buf, (size_t)r, now);
		}
	}
}

/* The one JSON line: what every machine sent, retransmitted and why. */
static void print_summary(const struct machine *ms, int n, size_t frames, int complete, int failed, uint64_t t0)
{
	uint64_t sent = 0, retx = 0, timeouts = 0, retx_timer = 0;

	for (int i = 0; i < n; i++) {
		sent += ms[i].rtx.sent + ms[i].rtx.retransmitted;
		retx += ms[i].rtx.retransmitted;
		timeouts += ms[i].rtx.timeouts;
		retx_timer += ms[i].rtx.retx_timer;
	}
	printf("{\"machines\": %d, \"complete\": %d, \"failed\": %d, \"frames\": %llu, \"sent\": %llu, "
	       "\"retransmitted\": %llu, \"retx_timer\": %llu, \"timeouts\": %llu, \"seconds\": %.2f, "
	       "\"retransmit_ratio\": %.4f}\n",
	       n, complete, failed, (unsigned long long)((uint64_t)n * frames), (unsigned long long)sent,
	       (unsigned long long)retx, (unsigned long long)retx_timer, (unsigned long long)timeouts, (double)(now_us() - t0) / 1e6,
	       (double)retx / ((double)n * (double)frames));
}

int main(int argc, char **argv)
{
	const char *server = "127.0.0.1:8080";
	uint64_t token = 0x10ad0000000000ull, t0;
	int n = 1000, reps = 2, rc, ep, complete = 0, failed = 0;
	double give_up = 120;
	const struct cmdopt opts[] = {
		OPT_STR("server", &server), OPT_INT("machines", &n, 1, 10000), OPT_INT("reps", &reps, 1, 199),
		OPT_HEX64("token", &token), OPT_NUM("give-up", &give_up, 1, 86400 * 7), OPT_END,
	};
	const struct cmd cmd = { "xcb-load", usage, opts };
	struct gen g = { 0 };
	struct machine *ms;
	struct sockaddr_in sa;
	struct rlimit rl;
	char err[256];

	if (cmd_parse(&cmd, argc, argv, &rc))
		return rc;
	if (parse_hostport(server, "127.0.0.1", 8080, &sa, err, sizeof(err))) {
		fprintf(stderr, "xcb-load: --server: %s\n", err);
		return 2;
	}
	/* One socket per machine (its own source port, as machines have). */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (rlim_t)n + 64) {
		rl.rlim_cur = rl.rlim_max < (rlim_t)n + 64 ? rl.rlim_max : (rlim_t)n + 64;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	gen_run(&g, 1.0, reps, 0, 0);
	tmpl = &g;
	for (size_t i = 0; i < g.n; i++)
		if (g.f[i].len > frame_max)
			frame_max = (unsigned)g.f[i].len;
	ms = calloc((size_t)n, sizeof(*ms));
	ep = epoll_create1(EPOLL_CLOEXEC);
	if (!ms || ep < 0) {
		perror("xcb-load");
		return 1;
	}
	t0 = now_us();
	for (int i = 0; i < n; i++)
		if (boot_machine(&ms[i], i, token, &sa, ep, t0))
			return 1;
	signal(SIGUSR1, on_usr1);
	run_machines(ms, n, ep, give_up, &complete, &failed);
	print_summary(ms, n, g.n, complete, failed, t0);
	return failed ? 1 : 0;
}
