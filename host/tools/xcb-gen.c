/*
 * xcb-gen.c — TEST-ONLY frame generator: synthesises complete xcbench runs
 * (HELLO, CASEs, per-initiator and all-initiator RESULTs, HISTO and SAMPLES
 * chunks, LOGs, DONE) with known values, and either delivers them to
 * xcbenchd over UDP exactly as the payload would (retransmitting until
 * ACKed, optionally with injected loss/duplication/reordering) or writes
 * them as a serial console capture ("XCB1 <base64>" lines among noise).
 *
 * Latencies are deterministic: p50 of a case = round(base(case) × factor ×
 * (1 + 0.01·(rep − reps/2))) cycles, so the median over an odd number of
 * reps is round(base × factor), and comparing a run made with --factor F to
 * one made with 1.0 must show (round(base·F) − base)/base × 100 % per case.
 */
#include <arpa/inet.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "sender.h"
#include "util.h"
#include "xcb_histo.h"
#include "xcb_proto.h"

static const char *const algos[] = { "locked", "lockless" };
static const int inits_v[] = { 1, 2, 4 };
static const int masks_v[] = { 1, 2, 4, 8 };
static const int work_v[] = { 0, 500 };

struct gen {
	struct sender_frame *f;
	size_t n, cap;
	uint64_t token;
	uint32_t seq;
	uint64_t results, histos, samples;
};

static void push(struct gen *g, const uint8_t *buf, size_t len)
{
	if (!len) {
		fprintf(stderr, "xcb-gen: frame did not encode\n");
		exit(1);
	}
	if (g->n == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 1024;
		g->f = realloc(g->f, g->cap * sizeof(*g->f));
		if (!g->f)
			exit(1);
	}
	memset(&g->f[g->n], 0, sizeof(g->f[0]));
	g->f[g->n].data = malloc(len);
	memcpy(g->f[g->n].data, buf, len);
	g->f[g->n].len = len;
	g->f[g->n].token = g->token;
	g->f[g->n].seq = g->seq++;
	g->n++;
}

static void text(struct gen *g, int type, const char *s)
{
	uint8_t buf[XCB_FRAME_MAX];
	struct xcb_hdr h = { .type = (uint8_t)type, .token = g->token, .seq = g->seq };

	push(g, buf, xcb_enc_text(buf, sizeof(buf), &h, s, strlen(s)));
}

static void result(struct gen *g, uint32_t cid, int rep, int init, uint64_t p50, int mask, int locked)
{
	uint8_t buf[XCB_FRAME_MAX];
	struct xcb_hdr h = { .token = g->token, .seq = g->seq };
	struct xcb_result r = {
		.case_id = cid, .rep = (uint16_t)rep, .initiator = (uint16_t)init, .count = 200,
		.min = p50 * 8 / 10, .p50 = p50, .p90 = p50 * 11 / 10, .p99 = p50 * 13 / 10,
		.p999 = p50 * 15 / 10, .max = p50 * 2, .mean_x1000 = p50 * 1050, .stddev_x1000 = p50 * 100,
		.ipis = 200ull * (uint64_t)mask, .lock_acq = locked ? 200 : 0,
		.lock_contended = locked ? 20 : 0, .lock_hold_cycles = locked ? p50 * 100 : 0,
		.lock_wait_cycles = locked ? p50 * 10 : 0, .stale = 0,
		.calls_executed = 200ull * (uint64_t)mask, .calls_expected = 200ull * (uint64_t)mask,
	};

	push(g, buf, xcb_enc_result(buf, sizeof(buf), &h, &r));
	g->results++;
}

static void histo(struct gen *g, uint32_t cid, int rep, uint64_t p50)
{
	uint8_t buf[XCB_FRAME_MAX];
	struct xcb_hdr h = { .token = g->token, .seq = g->seq };
	uint32_t counts[11], b = xcb_histo_bucket(p50), tail[1] = { 5 };

	for (int k = -5; k <= 5; k++)
		counts[k + 5] = (uint32_t)(20 - 3 * abs(k));
	push(g, buf, xcb_enc_histo(buf, sizeof(buf), &h, &(struct xcb_histo){ .case_id = cid,
		.rep = (uint16_t)rep, .initiator = XCB_INIT_ALL, .first = b - 5, .n = 11, .counts = counts }));
	h.seq = g->seq;
	push(g, buf, xcb_enc_histo(buf, sizeof(buf), &h, &(struct xcb_histo){ .case_id = cid,
		.rep = (uint16_t)rep, .initiator = XCB_INIT_ALL, .first = xcb_histo_bucket(p50 * 2), .n = 1,
		.counts = tail }));
	g->histos += 2;
}

static void samples(struct gen *g, uint32_t cid, int rep, uint64_t p50)
{
	uint8_t buf[XCB_FRAME_MAX];
	struct xcb_hdr h = { .token = g->token, .seq = g->seq };
	uint32_t v[64];

	for (int i = 0; i < 64; i++)
		v[i] = (uint32_t)(p50 + (uint64_t)(i % 7) * 3);
	push(g, buf, xcb_enc_samples(buf, sizeof(buf), &h, &(struct xcb_samples){ .case_id = cid,
		.rep = (uint16_t)rep, .initiator = 0, .index = 0, .width = 4, .n = 64, .values = v }));
	g->samples += 64;
}

static void make_run(struct gen *g, double factor, int reps, int with_samples, int crash)
{
	char t[512];
	uint32_t cid = 0;

	text(g, XCB_T_HELLO, "fw=xcb-gen\nsuite=gen\ncpus=8\napic_ids=0,1,2,3,4,5,6,7\n"
	     "vendor=GenuineIntel\nbrand=Generated CPU\ntsc_khz=2000000\ntsc_source=gen\n"
	     "apic_mode=x2apic\nhypervisor=\npcid=1\ninvpcid=1\nnic=none\n");
	text(g, XCB_T_LOG, "generator: start, with \"quotes\", commas, and ünïcode");
	/* The plan, as the payload sends it: a second HELLO once the suite is expanded. */
	text(g, XCB_T_HELLO, "cases_planned=48\n");
	for (int a = 0; a < 2; a++)
	for (int i = 0; i < 3; i++)
	for (int m = 0; m < 4; m++)
	for (int w = 0; w < 2; w++) {
		int inits = inits_v[i], mask = masks_v[m], work = work_v[w], locked = a == 0;
		double base = 1000 + 150.0 * mask + (locked ? 400.0 : 60.0) * (inits - 1) + work * 2000.0;

		cid++;
		snprintf(t, sizeof(t), "id=%u\nkind=xcall\nalgo=%s\ndelivery=unicast\nwait=done\ninits=%d\n"
			 "mask=%d\nplacement=first\noverlap=disjoint\nwork_us=%d\niters=200\nreps=%d\n",
			 cid, algos[a], inits, mask, work, reps);
		text(g, XCB_T_CASE, t);
		for (int rep = 0; rep < reps; rep++) {
			uint64_t p50 = (uint64_t)llround(base * factor * (1 + 0.01 * (rep - reps / 2)));

			for (int init = 0; init < inits; init++)
				result(g, cid, rep, init, p50 + (uint64_t)init * p50 / 50, mask, locked);
			result(g, cid, rep, XCB_INIT_ALL, p50, mask, locked);
			histo(g, cid, rep, p50);
			if (with_samples)
				samples(g, cid, rep, p50);
		}
	}
	if (crash)
		text(g, XCB_T_ERROR, "hang: cpu 3 waits on cpu 1 (generated)\nrip=0xffff8000 state=...");
	{
		uint8_t buf[XCB_FRAME_MAX];
		struct xcb_hdr h = { .token = g->token, .seq = g->seq };

		push(g, buf, xcb_enc_done(buf, sizeof(buf), &h, &(struct xcb_done){ .frames = g->seq }));
	}
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: xcb-gen [options]   (test-only frame generator)\n"
"  --server HOST:PORT  xcbenchd UDP address (default 127.0.0.1:8080)\n"
"  --runs N            runs to generate (default 1)\n"
"  --token HEX         token of the first run (others: +1, +2, ...; default random)\n"
"  --factor F[,F...]   latency scale per run (default 1.0)\n"
"  --reps N            repetitions per case (default 5)\n"
"  --samples           add SAMPLES frames\n"
"  --crash             add an ERROR frame before DONE\n"
"  --no-done           leave out DONE (the run stays incomplete)\n"
"  --loss P --dup P --reorder P --ack-loss P   fault injection (0..1)\n"
"  --seed N            fault-injection seed\n"
"  --serial FILE       write a serial capture instead of sending ('-' = stdout)\n"
"Prints one line per run: token=HEX frames=N results=N cases=N histo_chunks=N samples=N\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "server", 1, NULL, 's' }, { "runs", 1, NULL, 'n' }, { "token", 1, NULL, 't' },
		{ "factor", 1, NULL, 'f' }, { "reps", 1, NULL, 'r' }, { "samples", 0, NULL, 'S' },
		{ "crash", 0, NULL, 'c' }, { "no-done", 0, NULL, 'N' }, { "loss", 1, NULL, 'l' },
		{ "dup", 1, NULL, 'd' }, { "reorder", 1, NULL, 'o' }, { "ack-loss", 1, NULL, 'a' },
		{ "seed", 1, NULL, 'e' }, { "serial", 1, NULL, 'x' }, { "help", 0, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *server = "127.0.0.1:8080", *serial = NULL, *factors = "1.0";
	struct sender_opts so = { .window = 128, .idle_timeout = 30 };
	struct sender_stats st;
	struct sender_frame *all = NULL;
	size_t nall = 0;
	uint64_t token = 0;
	int runs = 1, reps = 5, with_samples = 0, crash = 0, no_done = 0, c;
	char err[256];

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 's': server = optarg; break;
		case 'n': runs = atoi(optarg); break;
		case 't': if (parse_hex64(optarg, &token)) { fprintf(stderr, "xcb-gen: bad token\n"); return 2; } break;
		case 'f': factors = optarg; break;
		case 'r': reps = atoi(optarg); break;
		case 'S': with_samples = 1; break;
		case 'c': crash = 1; break;
		case 'N': no_done = 1; break;
		case 'l': so.loss = atof(optarg); break;
		case 'd': so.dup = atof(optarg); break;
		case 'o': so.reorder = atof(optarg); break;
		case 'a': so.ack_loss = atof(optarg); break;
		case 'e': so.seed = strtoull(optarg, NULL, 0); break;
		case 'x': serial = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (runs < 1 || runs > 64 || reps < 1 || reps > 1000) {
		fprintf(stderr, "xcb-gen: --runs 1..64, --reps 1..1000\n");
		return 2;
	}
	if (!token) {
		FILE *r = fopen("/dev/urandom", "r");

		if (!r || fread(&token, sizeof(token), 1, r) != 1)
			token = 0x1234;
		if (r)
			fclose(r);
		token >>= 8;
	}
	for (int i = 0; i < runs; i++) {
		struct gen g = { .token = token + (uint64_t)i };
		const char *fp = factors;
		double factor = 1.0;

		for (int k = 0; k <= i && fp; k++) {
			factor = atof(fp);
			fp = strchr(fp, ',');
			if (fp)
				fp++;
		}
		make_run(&g, factor, reps, with_samples, crash);
		if (no_done) {
			free(g.f[g.n - 1].data);
			g.n--;
		}
		printf("token=%016llx frames=%zu results=%llu cases=48 histo_chunks=%llu samples=%llu\n",
		       (unsigned long long)g.token, g.n, (unsigned long long)g.results,
		       (unsigned long long)g.histos, (unsigned long long)g.samples);
		all = realloc(all, (nall + g.n) * sizeof(*all));
		memcpy(all + nall, g.f, g.n * sizeof(*all));
		nall += g.n;
		free(g.f);
	}
	fflush(stdout);
	if (serial) {
		FILE *out = strcmp(serial, "-") ? fopen(serial, "w") : stdout;
		char line[XCB_TEXT_MAX];

		if (!out) {
			perror(serial);
			return 1;
		}
		fprintf(out, "SeaBIOS (version generated)\r\nBooting from ROM...\r\n");
		for (size_t i = 0; i < nall; i++) {
			size_t l = xcb_text_encode(line, sizeof(line), all[i].data, all[i].len);

			/* Console noise: CRLF endings, other output between
			 * frames, an escape sequence before some frames. */
			if (i % 7 == 3)
				fprintf(out, "[cpu %zu] noise line %zu\r\n", i % 8, i);
			if (i % 11 == 5)
				fputs("\x1b[0m", out);
			fwrite(line, 1, l - 1, out);
			fputs("\r\n", out);
		}
		fprintf(out, "xcbench: done\r\n");
		if (out != stdout)
			fclose(out);
		return 0;
	} else {
		struct sockaddr_in sa;
		int fd = socket(AF_INET, SOCK_DGRAM, 0);

		if (parse_hostport(server, "127.0.0.1", 8080, &sa, err, sizeof(err))) {
			fprintf(stderr, "xcb-gen: %s\n", err);
			return 2;
		}
		if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
			perror("xcb-gen: socket");
			return 1;
		}
		c = sender_run(fd, all, nall, &so, &st);
		fprintf(stderr, "xcb-gen: %s: sent %llu (retransmits %llu, dropped %llu, duplicated %llu), acks %llu\n",
			c ? "FAILED" : "all frames acknowledged", (unsigned long long)st.sent,
			(unsigned long long)st.retransmits, (unsigned long long)st.dropped,
			(unsigned long long)st.duplicated, (unsigned long long)st.acks);
		close(fd);
		return c ? 1 : 0;
	}
}
