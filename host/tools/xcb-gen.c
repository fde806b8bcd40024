/*
 * xcb-gen.c — TEST-ONLY frame generator: synthesises complete xcbench runs
 * (HELLO, CASEs, per-initiator and all-initiator RESULTs, HISTO and SAMPLES
 * chunks, LOGs, DONE) with known values, and either delivers them to
 * xcbenchd over UDP exactly as the payload would (retransmitting until
 * ACKed, optionally with injected loss/duplication/reordering) or writes
 * them as a serial console capture ("XCB1 <base64>" lines among noise).
 * The runs themselves come from gen.c (deterministic latencies, gen.h).
 */
#include <arpa/inet.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cmdopt.h"
#include "gen.h"
#include "sender.h"
#include "util.h"
#include "xcb_histo.h"
#include "xcb_proto.h"

static const char usage[] =
"usage: xcb-gen [options]   (test-only frame generator)\n"
"  --server HOST:PORT  xcbenchd UDP address (default 127.0.0.1:8080)\n"
"  --runs N            runs to generate (default 1)\n"
"  --token HEX         token of the first run (others: +1, +2, ...; default random)\n"
"  --factor F[,F...]   latency scale per run (1e-6..1e6; default 1.0)\n"
"  --reps N            repetitions per case (default 5)\n"
"  --samples           add SAMPLES frames\n"
"  --crash             add an ERROR frame before DONE\n"
"  --no-done           leave out DONE (the run stays incomplete)\n"
"  --no-tsc            HELLO says tsc_khz=0, as a payload that found no TSC rate\n"
"  --loss P --dup P --reorder P --ack-loss P   fault injection (0..1)\n"
"  --seed N            fault-injection seed\n"
"  --serial FILE       write a serial capture instead of sending ('-' = stdout)\n"
"Prints one line per run: token=HEX frames=N results=N cases=N histo_chunks=N samples=N\n";

/* --factor's list, one per run (runs past it take its last). */
struct factors {
	double f[64];
	int n;
};

/* --factor F[,F...]: each a number in o's range (atof took "abc" as 0, a
 * run of zero latencies, and "1,,2" as 1, 0, 2). */
static int parse_factors(const struct cmdopt *o, const char *arg, char *err, size_t errlen)
{
	struct factors *fs = o->dst;
	char item[64];

	fs->n = 0;
	for (const char *p = arg;; p++) {
		size_t len = strcspn(p, ",");

		if (fs->n == 64 || len >= sizeof(item)) {
			snprintf(err, errlen, "--%s: '%s': at most 64 numbers", o->name, arg);
			return -1;
		}
		memcpy(item, p, len);
		item[len] = 0;
		if (cmdopt_num(o, item, &fs->f[fs->n++], err, errlen))
			return -1;
		p += len;
		if (!*p)
			return 0;
	}
}

/* The frames as a serial capture in path ("-": stdout), with console noise
 * (CRLF endings, other output between frames, an escape sequence before
 * some): 0, or 1 after saying why. */
static int write_capture(const char *path, const struct sender_frame *all, size_t nall)
{
	FILE *out = strcmp(path, "-") ? fopen(path, "w") : stdout;
	char line[XCB_TEXT_MAX];

	if (!out) {
		perror(path);
		return 1;
	}
	fprintf(out, "SeaBIOS (version generated)\r\nBooting from ROM...\r\n");
	for (size_t i = 0; i < nall; i++) {
		size_t l = xcb_text_encode(line, sizeof(line), all[i].data, all[i].len);

		if (i % 7 == 3)
			fprintf(out, "[cpu %zu] noise line %zu\r\n", i % 8, i);
		if (i % 11 == 5)
			fputs("\x1b[0m", out);
		fwrite(line, 1, l - 1, out);
		fputs("\r\n", out);
	}
	fprintf(out, "xcbench: done\r\n");
	/* A capture cut short (a full disk, /dev/full) is an error: it
	 * ended 0 with the frames unwritten. */
	if (fflush(out) || ferror(out) || (out != stdout && fclose(out))) {
		perror(path);
		return 1;
	}
	return 0;
}

/* The frames over UDP to server with the payload's retransmission: 0 when
 * every one is acknowledged, 1 (or 2 for a bad address) after saying why. */
static int send_frames(const char *server, struct sender_frame *all, size_t nall, const struct sender_opts *so)
{
	struct sender_stats st;
	struct sockaddr_in sa;
	char err[256];
	int fd, rc;

	if (parse_hostport(server, "127.0.0.1", 8080, &sa, err, sizeof(err))) {
		fprintf(stderr, "xcb-gen: --server: %s\n", err);
		return 2;
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		perror("xcb-gen: socket");
		if (fd >= 0)
			close(fd);
		return 1;
	}
	rc = sender_run(fd, all, nall, so, &st);
	fprintf(stderr, "xcb-gen: %s: sent %llu (retransmits %llu, dropped %llu, duplicated %llu), acks %llu\n",
		rc ? "FAILED" : "all frames acknowledged", (unsigned long long)st.sent,
		(unsigned long long)st.retransmits, (unsigned long long)st.dropped,
		(unsigned long long)st.duplicated, (unsigned long long)st.acks);
	close(fd);
	return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *server = "127.0.0.1:8080", *serial = NULL;
	struct factors factors = { { 1.0 }, 1 };
	struct sender_opts so = { .window = 128, .idle_timeout = 30 };
	uint64_t token = 0;
	int runs = 1, reps = 5, with_samples = 0, crash = 0, no_done = 0, no_tsc = 0, rc;
	const struct cmdopt opts[] = {
		OPT_STR("server", &server), OPT_INT("runs", &runs, 1, 64), OPT_HEX64("token", &token),
		{ .name = "factor", .kind = CMDOPT_FN, .fn = parse_factors, .dst = &factors, .dlo = 1e-6, .dhi = 1e6 }, OPT_INT("reps", &reps, 1, 1000), OPT_FLAG("samples", &with_samples),
		OPT_FLAG("crash", &crash), OPT_FLAG("no-done", &no_done), OPT_FLAG("no-tsc", &no_tsc), OPT_NUM("loss", &so.loss, 0, 1),
		OPT_NUM("dup", &so.dup, 0, 1), OPT_NUM("reorder", &so.reorder, 0, 1), OPT_NUM("ack-loss", &so.ack_loss, 0, 1),
		OPT_U64("seed", &so.seed), OPT_STR("serial", &serial), OPT_END,
	};
	const struct cmd cmd = { "xcb-gen", usage, opts };
	struct sender_frame *all = NULL;
	size_t nall = 0;

	if (cmd_parse(&cmd, argc, argv, &rc))
		return rc;
	if (optind < argc) {
		fprintf(stderr, "xcb-gen: unexpected argument '%s' (see --help)\n", argv[optind]);
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
		struct gen g = { .token = token + (uint64_t)i, .no_tsc = no_tsc };

		gen_run(&g, factors.f[i < factors.n ? i : factors.n - 1], reps, with_samples, crash);
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
	return serial ? write_capture(serial, all, nall) : send_frames(server, all, nall, &so);
}
