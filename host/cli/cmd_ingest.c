/*
 * cmd_ingest.c — `xcbench ingest FILE|-`: turns a serial capture ("XCB1
 * <base64>" lines among console noise, e.g. a QEMU -serial file) back into
 * frames and delivers them to the daemon over UDP exactly as the payload
 * would, retransmitting until every frame is ACKed, batch by batch as the
 * capture arrives (see below). The stored run is
 * therefore identical to a UDP-delivered one. Runs are registered first
 * (POST /api/v1/runs), so a daemon without --open accepts them given the
 * admin token.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "client.h"
#include "sender.h"
#include "seqset.h"
#include "verdict.h"
#include "xcb_proto.h"

/* The capture is read as it arrives (a pipe from `ipmitool ... sol
 * activate` stays open for the whole run): frames are delivered in batches
 * as soon as the input pauses or a window's worth has piled up, not at the
 * end of input, so the run shows live in the dashboard. */
#define BATCH_MAX 128

struct ingest {
	struct sender_frame *fr;  /* the batch not yet delivered */
	size_t n, cap;
	uint64_t tokens[64];      /* every run seen (registered when first seen) */
	struct seqset seqs[64];   /* ... and the seqs of its frames read so far */
	int64_t refused[64];      /* ... and how many of those the daemon would not store */
	size_t ntok, nregistered;
	size_t lines, frames, noise, bad;
	uint64_t sent, retransmits;
	int fd;                   /* UDP socket to the daemon, -1 until the first batch */
	int open;                 /* the daemon takes any token */
	struct sender_opts so;
	const char *mac;          /* --mac: the machine the runs are of */
	unsigned char head[2];    /* the capture's first bytes (gzip's magic?) */
	size_t nhead;
};

/* gzip's magic (RFC 1952): a capture kept as capture.log.gz had no frame
 * among its "lines", and said no more than that. */
static const unsigned char GZIP_MAGIC[2] = { 0x1f, 0x8b };

static const char usage[] = "usage: xcbench ingest FILE|- [--timeout SECONDS] [--mac MAC]\n"
		   "Reads a serial capture (XCB1 lines; other lines are ignored) and submits\n"
		   "its frames to the daemon (UDP, retransmitted until acknowledged) as they\n"
		   "arrive: '-' reads standard input, e.g. live from serial-over-LAN:\n"
		   "  ipmitool -I lanplus -H BMC -U USER sol activate | xcbench ingest -\n"
		   "--mac MAC: the runs are of the machine with that MAC (its history and\n"
		   "machine page list them). Prints the id of every run it delivered, its\n"
		   "status and, where its checks failed or it stopped early, the payload's\n"
		   "verdict (the exit status says whether the frames were delivered: see\n"
		   "xcbench show). --timeout S: give up after S seconds (1..604800, default\n"
		   "30) in which the daemon acknowledged nothing.\n";

/* Asks the daemon for its UDP port and opens the socket. 0 or -1. */
static int connect_daemon(struct ingest *g)
{
	char host[256], err[256];
	struct sockaddr_in sa;
	int port, hp;
	json_t *health = api_json("GET", "/api/v1/health", NULL);

	if (!health)
		return -1;
	port = (int)json_integer_value(json_object_get(health, "udp_port"));
	g->open = json_is_true(json_object_get(health, "open"));
	json_decref(health);
	if (server_host(host, sizeof(host), &hp))
		return -1;
	if (parse_hostport(host, host, port, &sa, err, sizeof(err))) {
		fprintf(stderr, "xcbench ingest: %s\n", err);
		return -1;
	}
	sa.sin_port = htons((uint16_t)port);
	g->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (g->fd < 0 || connect(g->fd, (struct sockaddr *)&sa, sizeof(sa))) {
		fprintf(stderr, "xcbench ingest: UDP socket: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/* Registers the runs seen since the last call (POST /api/v1/runs), unless
 * the daemon takes any token anyway. 0 or -1. */
static int register_new(struct ingest *g)
{
	for (; g->nregistered < g->ntok; g->nregistered++) {
		char tok[17], *body;
		struct http_resp r;
		json_t *bo;

		if (g->open && !g->mac)
			continue;
		snprintf(tok, sizeof(tok), "%016llx", (unsigned long long)g->tokens[g->nregistered]);
		bo = json_pack("{s:s}", "token", tok);
		if (g->mac)
			json_object_set_new(bo, "mac", json_string(g->mac));
		body = json_dumps(bo, JSON_COMPACT);
		json_decref(bo);
		if (http_call("POST", "/api/v1/runs", body, &r, NULL)) {
			free(body);
			return -1;
		}
		free(body);
		if (r.status != 201 && r.status != 409) {
			char *msg = http_error_text(&r);

			fprintf(stderr, "xcbench ingest: cannot register run %s: HTTP %d: %s%s\n", tok, r.status,
				msg ? msg : "", http_status_hint(r.status));
			free(msg);
			buf_free(&r.body);
			return -1;
		}
		/* Stored before (a capture ingested again adds nothing): its
		 * machine is the one it was stored with, said rather than
		 * taken silently. */
		if (r.status == 409 && g->mac)
			fprintf(stderr, "xcbench ingest: run %s was stored before: --mac %s not applied "
				"(a run's machine is set once)\n", tok, g->mac);
		buf_free(&r.body);
	}
	return 0;
}

/* sender_opts.held: the distinct frames of token the daemon holds (it
 * stores a frame once), and how many of the capture's so far (all sent by
 * now) it should: those not known refused. */
static int held(void *ctx, uint64_t token, int64_t *have, int64_t *want)
{
	struct ingest *g = ctx;
	char path[96];
	json_t *o, *r;
	size_t k;
	int rc = -1;

	for (k = 0; k < g->ntok && g->tokens[k] != token; k++)
		;
	if (k == g->ntok)
		return -1;
	snprintf(path, sizeof(path), "/api/v1/runs?token=%016llx", (unsigned long long)token);
	o = api_json("GET", path, NULL);
	r = json_array_get(json_object_get(o, "runs"), 0);
	if (r && json_is_integer(json_object_get(r, "frames_received"))) {
		*have = json_integer_value(json_object_get(r, "frames_received"));
		*want = (int64_t)g->seqs[k].count - g->refused[k];
		rc = 0;
	}
	json_decref(o);
	return rc;
}

/* Delivers the pending batch (every frame ACKed) and empties it. 0 or -1. */
static int flush_batch(struct ingest *g)
{
	struct sender_stats st;
	int rc;

	if (g->n == 0)
		return 0;
	if (g->fd < 0 && connect_daemon(g))
		return -1;
	if (register_new(g))
		return -1;
	rc = sender_run(g->fd, g->fr, g->n, &g->so, &st);
	g->sent += st.sent;
	g->retransmits += st.retransmits;
	/* Frames past a gap that were not stored (the daemon refused them):
	 * counted per run, so that the next batch is held to its own frames
	 * only, not waited on again for these. */
	for (size_t k = 0; st.unstored && k < g->ntok; k++) {
		int64_t have, want;

		if (held(g, g->tokens[k], &have, &want) == 0 && have < want)
			g->refused[k] += want - have;
	}
	for (size_t i = 0; i < g->n; i++)
		free(g->fr[i].data);
	g->n = 0;
	return rc;
}

/* One input line: a frame joins the batch; anything else is counted. 0 or -1. */
static int take_line(struct ingest *g, const char *line, size_t len)
{
	uint8_t frame[XCB_FRAME_MAX + 8];
	const uint8_t *p;
	struct xcb_hdr h;
	size_t k;
	int fl;

	g->lines++;
	fl = xcb_text_decode(line, len, frame, sizeof(frame));
	if (fl < 0) {
		g->noise++;
		return 0;
	}
	if (xcb_decode(frame, (size_t)fl, &h, &p) != XCB_OK || h.type == XCB_T_ACK) {
		g->bad++; /* damaged on the line: the daemon would refuse it too */
		return 0;
	}
	if (g->n == g->cap) {
		struct sender_frame *q = realloc(g->fr, (g->cap = g->cap ? g->cap * 2 : BATCH_MAX) * sizeof(*q));

		if (!q)
			return -1;
		g->fr = q;
	}
	memset(&g->fr[g->n], 0, sizeof(g->fr[g->n]));
	g->fr[g->n].data = malloc((size_t)fl);
	if (!g->fr[g->n].data)
		return -1;
	memcpy(g->fr[g->n].data, frame, (size_t)fl);
	g->fr[g->n].len = (size_t)fl;
	g->fr[g->n].token = h.token;
	g->fr[g->n].seq = h.seq;
	g->n++;
	g->frames++;
	for (k = 0; k < g->ntok && g->tokens[k] != h.token; k++)
		;
	if (k == g->ntok) {
		if (g->ntok == 64) {
			fprintf(stderr, "xcbench ingest: more than 64 runs in one capture\n");
			return -1;
		}
		g->tokens[g->ntok++] = h.token;
	}
	/* (outside the daemon's own window, 2^20 past the first gap: the
	 * daemon refuses that frame too, and the send stalls on it) */
	seqset_add(&g->seqs[k], h.seq);
	return 0;
}

/* Each run whose capture lacks frames (damaged lines): which, what the
 * daemon stored of the rest, and what that means for the run. The frames
 * it did not store, over all runs. */
static uint64_t print_gaps(const struct ingest *g)
{
	uint64_t unstored = 0;

	for (size_t k = 0; k < g->ntok; k++) {
		const struct seqset *s = &g->seqs[k];
		uint32_t last = s->next;

		if (s->count == s->next)
			continue; /* no frame missing below the last one read */
		for (uint32_t q = s->next; q < s->base + 64 * s->nwords; q++)
			if (seqset_has(s, q))
				last = q;
		fprintf(stderr, "xcbench ingest: run token %016llx: the capture lacks %llu of its frames 0..%u "
			"(the first: seq %u; damaged lines?), so the run cannot complete; the daemon stored ",
			(unsigned long long)g->tokens[k], (unsigned long long)(last + 1 - s->count), last, s->next);
		if (g->refused[k])
			fprintf(stderr, "%llu of the capture's %llu frames of it: it refuses a frame that needs a "
				"missing one (the results of a case whose CASE frame is missing)\n",
				(unsigned long long)(s->count - (uint64_t)g->refused[k]), (unsigned long long)s->count);
		else
			fprintf(stderr, "all the capture's %llu frames of it\n", (unsigned long long)s->count);
		unstored += (uint64_t)g->refused[k];
	}
	return unstored;
}

/* 1 when more input can be read at once, 0 when the writer has paused. */
static int input_waiting(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) > 0;
}

#define LINE_KEEP (8 * XCB_TEXT_MAX) /* 15.7 KB */

/* A line keeps its first LINE_KEEP bytes (a frame line is XCB_TEXT_MAX plus
 * what the console put before it): a line without an end costs no more
 * memory than that (a 50 MB one took 50 MB, issue 26). */
struct line {
	char *p;
	size_t have, cap;
};

/* Byte c of the capture onto l; a whole line goes to take_line. 0 or -1. */
static int line_byte(struct ingest *g, struct line *l, char c)
{
	size_t n;

	if (l->have + 1 >= LINE_KEEP && c != '\n')
		return 0;
	if (l->have + 1 >= l->cap) {
		char *q = realloc(l->p, l->cap = l->cap ? l->cap * 2 : 4096);

		if (!q)
			return -1;
		l->p = q;
	}
	l->p[l->have++] = c;
	if (c != '\n')
		return 0;
	l->p[l->have] = 0;
	n = l->have;
	l->have = 0;
	return take_line(g, l->p, n);
}

/* The whole capture from in, delivered batch by batch as it arrives: 0, or
 * -1 after saying why. read(2), not stdio: a buffered FILE would hide from
 * poll() that a line is already here, and hold frames back until more
 * input came. */
static int read_capture(struct ingest *g, int in)
{
	struct line l = { 0 };
	char buf[65536];
	int rc = -1;

	for (;;) {
		ssize_t r = read(in, buf, sizeof(buf));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fprintf(stderr, "xcbench ingest: read: %s\n", strerror(errno));
			goto out;
		}
		for (ssize_t i = 0; i < r && g->nhead < sizeof(g->head); i++)
			g->head[g->nhead++] = (unsigned char)buf[i];
		for (ssize_t i = 0; i < r; i++)
			if (line_byte(g, &l, buf[i]))
				goto out;
		if (r == 0 && l.have && line_byte(g, &l, '\n')) /* a last line without its newline */
			goto out;
		if ((r == 0 || g->n >= BATCH_MAX || !input_waiting(in)) && flush_batch(g))
			goto out;
		if (r == 0)
			break;
	}
	rc = 0;
out:
	free(l.p);
	return rc;
}

/* Each run delivered: its id, token and status, one line each. */
static void print_runs(const struct ingest *g)
{
	for (size_t k = 0; k < g->ntok; k++) {
		char path[96];
		json_t *o, *r;

		snprintf(path, sizeof(path), "/api/v1/runs?token=%016llx", (unsigned long long)g->tokens[k]);
		o = api_json("GET", path, NULL);
		r = json_array_get(json_object_get(o, "runs"), 0);
		if (r)
			printf("run %lld token %016llx status %s%s%s\n", (long long)json_integer_value(json_object_get(r, "id")),
			       (unsigned long long)g->tokens[k], json_string_value(json_object_get(r, "status")),
			       run_verdict(r) ? ", " : "", run_verdict(r) ? run_verdict(r) : "");
		json_decref(o);
	}
}

int cmd_ingest(int argc, char **argv)
{
	struct ingest g = { .fd = -1, .so = { .window = 128, .idle_timeout = 30 } };
	const struct cmdopt opts[] = { OPT_NUM("timeout", &g.so.idle_timeout, 1, 86400 * 7), OPT_STR("mac", &g.mac), OPT_END };
	const struct cmd cmd = { "xcbench ingest", usage, opts };
	struct stat st;
	char mac[18];
	int in, rc;

	if (cmd_parse(&cmd, argc, argv, &rc))
		return rc;
	if (optind != argc - 1) {
		fprintf(stderr, "xcbench ingest: expected one FILE (or - for standard input)\n");
		return cmd_usage_error(&cmd);
	}
	/* Checked before the capture is read (util.c's norm_mac, the
	 * daemon's own): a bad one was found at the first run's
	 * registration, said as 'cannot register run T: HTTP 400 {JSON}'. */
	if (g.mac && norm_mac(g.mac, mac)) {
		fprintf(stderr, "xcbench ingest: --mac: '%s' is not a MAC address like 52:54:00:12:34:56\n", g.mac);
		return 2;
	}
	in = strcmp(argv[optind], "-") ? open(argv[optind], O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
	/* A directory opens: its first read said 'read: Is a directory',
	 * naming no file. */
	if (in >= 0 && in != STDIN_FILENO && fstat(in, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(in);
		in = -1;
		errno = EISDIR;
	}
	if (in < 0) {
		fprintf(stderr, "xcbench ingest: cannot read '%s': %s\n", argv[optind], strerror(errno));
		return 1;
	}
	g.so.held = held;
	g.so.held_ctx = &g;
	rc = 1;	/* until every frame is acknowledged */
	if (read_capture(&g, in) == 0) {
		fprintf(stderr, "xcbench ingest: %zu lines: %zu frames, %zu other lines, %zu damaged frames, %zu run(s)\n",
			g.lines, g.frames, g.noise, g.bad, g.ntok);
		if (g.frames == 0 && g.nhead == sizeof(GZIP_MAGIC) && memcmp(g.head, GZIP_MAGIC, g.nhead) == 0) {
			if (strcmp(argv[optind], "-"))
				fprintf(stderr, "xcbench ingest: '%s' is gzip-compressed: zcat %s | xcbench ingest -\n",
					argv[optind], argv[optind]);
			else
				fprintf(stderr, "xcbench ingest: standard input is gzip-compressed: zcat FILE | "
					"xcbench ingest -\n");
		} else if (g.frames == 0) {
			fprintf(stderr, "xcbench ingest: no XCB1 frames found in '%s'\n", argv[optind]);
		} else {
			uint64_t unstored = print_gaps(&g);

			if (unstored)
				fprintf(stderr, "xcbench ingest: %llu of the %zu frames were not stored (%llu sent, "
					"%llu retransmitted)\n", (unsigned long long)unstored, g.frames,
					(unsigned long long)g.sent, (unsigned long long)g.retransmits);
			else if (g.sent - g.retransmits < g.frames)
				/* A cumulative ACK covered frames never sent: the
				 * daemon held them from an earlier ingest, and
				 * "all 1331 acknowledged (712 sent)" read as a
				 * miscount. */
				fprintf(stderr, "xcbench ingest: all %zu frames acknowledged: %llu sent (%llu "
					"retransmitted), %llu the daemon held already (ingested before)\n", g.frames,
					(unsigned long long)(g.sent - g.retransmits), (unsigned long long)g.retransmits,
					(unsigned long long)(g.frames - (g.sent - g.retransmits)));
			else
				fprintf(stderr, "xcbench ingest: all %zu frames acknowledged (%llu sent, %llu retransmitted)\n",
					g.frames, (unsigned long long)g.sent, (unsigned long long)g.retransmits);
			print_runs(&g);
			rc = unstored ? 1 : 0;
		}
	}
	for (size_t i = 0; i < g.n; i++)
		free(g.fr[i].data);
	free(g.fr);
	for (size_t k = 0; k < g.ntok; k++)
		seqset_free(&g.seqs[k]);
	if (g.fd >= 0)
		close(g.fd);
	if (in != STDIN_FILENO)
		close(in);
	return rc;
}
