/*
 * cmd_ingest.c — `xcbench ingest FILE|-`: turns a serial capture ("XCB1
 * <base64>" lines among console noise, e.g. a QEMU -serial file) back into
 * frames and delivers them to the daemon over UDP exactly as the payload
 * would, retransmitting until every frame is ACKed. The stored run is
 * therefore identical to a UDP-delivered one. Runs are registered first
 * (POST /api/v1/runs), so a daemon without --open accepts them given the
 * admin token.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "client.h"
#include "sender.h"
#include "xcb_proto.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: xcbench ingest FILE|- [--timeout SECONDS]\n"
		   "Reads a serial capture (XCB1 lines; other lines are ignored) and submits\n"
		   "its frames to the daemon (UDP, retransmitted until acknowledged). Prints\n"
		   "the id of every run it delivered.\n");
}

int cmd_ingest(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "timeout", 1, NULL, 't' }, { "help", 0, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	struct sender_opts so = { .window = 128, .idle_timeout = 30 };
	struct sender_frame *fr = NULL;
	struct sender_stats st;
	size_t n = 0, cap = 0, lines = 0, noise = 0, bad = 0, linecap = 0;
	uint64_t tokens[64];
	size_t ntok = 0;
	char *line = NULL, host[256];
	ssize_t len;
	FILE *in;
	int c, port, fd, rc = 1;
	json_t *health;
	struct sockaddr_in sa;
	char err[256];

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 't')
			so.idle_timeout = atof(optarg);
		else
			return usage_exit(usage, c);
	}
	if (optind != argc - 1) {
		fprintf(stderr, "xcbench ingest: expected one FILE (or - for standard input)\n");
		usage(stderr);
		return 2;
	}
	in = strcmp(argv[optind], "-") ? fopen(argv[optind], "r") : stdin;
	if (!in) {
		fprintf(stderr, "xcbench ingest: cannot read '%s': %s\n", argv[optind], strerror(errno));
		return 1;
	}
	while ((len = getline(&line, &linecap, in)) > 0) {
		uint8_t frame[XCB_FRAME_MAX + 8];
		const uint8_t *p;
		struct xcb_hdr h;
		int fl;

		lines++;
		fl = xcb_text_decode(line, (size_t)len, frame, sizeof(frame));
		if (fl < 0) {
			noise++;
			continue;
		}
		if (xcb_decode(frame, (size_t)fl, &h, &p) != XCB_OK || h.type == XCB_T_ACK) {
			bad++; /* damaged on the line: the daemon would refuse it too */
			continue;
		}
		if (n == cap) {
			struct sender_frame *q = realloc(fr, (cap = cap ? cap * 2 : 1024) * sizeof(*fr));

			if (!q)
				goto out;
			fr = q;
		}
		memset(&fr[n], 0, sizeof(fr[n]));
		fr[n].data = malloc((size_t)fl);
		if (!fr[n].data)
			goto out;
		memcpy(fr[n].data, frame, (size_t)fl);
		fr[n].len = (size_t)fl;
		fr[n].token = h.token;
		fr[n].seq = h.seq;
		n++;
		{
			size_t k;

			for (k = 0; k < ntok && tokens[k] != h.token; k++)
				;
			if (k == ntok) {
				if (ntok == 64) {
					fprintf(stderr, "xcbench ingest: more than 64 runs in one capture\n");
					goto out;
				}
				tokens[ntok++] = h.token;
			}
		}
	}
	fprintf(stderr, "xcbench ingest: %zu lines: %zu frames, %zu other lines, %zu damaged frames, %zu run(s)\n",
		lines, n, noise, bad, ntok);
	if (n == 0) {
		fprintf(stderr, "xcbench ingest: no XCB1 frames found in '%s'\n", argv[optind]);
		goto out;
	}
	health = api_json("GET", "/api/v1/health", NULL);
	if (!health)
		goto out;
	port = (int)json_integer_value(json_object_get(health, "udp_port"));
	int open = json_is_true(json_object_get(health, "open"));
	json_decref(health);
	/* Register each run unless the daemon takes any token anyway. */
	for (size_t k = 0; k < ntok && !open; k++) {
		char tok[17], *body;
		struct http_resp r;
		json_t *bo;

		snprintf(tok, sizeof(tok), "%016llx", (unsigned long long)tokens[k]);
		bo = json_pack("{s:s}", "token", tok);
		body = json_dumps(bo, JSON_COMPACT);
		json_decref(bo);
		if (http_call("POST", "/api/v1/runs", body, &r, NULL)) {
			free(body);
			goto out;
		}
		free(body);
		if (r.status != 201 && r.status != 409) {
			fprintf(stderr, "xcbench ingest: cannot register run %s: HTTP %d %s\n", tok, r.status, r.body.p);
			buf_free(&r.body);
			goto out;
		}
		buf_free(&r.body);
	}
	if (server_host(host, sizeof(host), &c))
		goto out;
	if (parse_hostport(host, host, port, &sa, err, sizeof(err))) {
		fprintf(stderr, "xcbench ingest: %s\n", err);
		goto out;
	}
	sa.sin_port = htons((uint16_t)port);
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		fprintf(stderr, "xcbench ingest: UDP socket: %s\n", strerror(errno));
		goto out;
	}
	if (sender_run(fd, fr, n, &so, &st)) {
		close(fd);
		goto out;
	}
	close(fd);
	fprintf(stderr, "xcbench ingest: all %zu frames acknowledged (%llu sent, %llu retransmitted)\n", n,
		(unsigned long long)st.sent, (unsigned long long)st.retransmits);
	for (size_t k = 0; k < ntok; k++) {
		char path[96];
		json_t *o, *r;

		snprintf(path, sizeof(path), "/api/v1/runs?token=%016llx", (unsigned long long)tokens[k]);
		o = api_json("GET", path, NULL);
		r = json_array_get(json_object_get(o, "runs"), 0);
		if (r)
			printf("run %lld token %016llx status %s\n", (long long)json_integer_value(json_object_get(r, "id")),
			       (unsigned long long)tokens[k], json_string_value(json_object_get(r, "status")));
		json_decref(o);
	}
	rc = 0;
out:
	for (size_t i = 0; i < n; i++)
		free(fr[i].data);
	free(fr);
	free(line);
	if (in != stdin)
		fclose(in);
	return rc;
}
