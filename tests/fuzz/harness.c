/*
 * harness.c — see harness.h. Stands in for xcbenchd's main(): the globals
 * main.c defines, a database under $TMPDIR (removed at exit), and two runs
 * stored through the real store code so API routes have rows to read.
 */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <arpa/inet.h>

#include "collector.h"
#include "db.h"
#include "harness.h"
#include "http.h"
#include "registry.h"
#include "store.h"
#include "util.h"
#include "writer.h"
#include "xcbd.h"
#include "xcb_histo.h"
#include "xcb_proto.h"

struct xcbd_config cfg;
struct xcbd_counters ctr;
int64_t start_time;

static char dir[256];

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb, (void)flag, (void)ftw;
	return remove(p);
}

static void cleanup(void)
{
	writer_stop();
	if (dir[0])
		nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(path);
		exit(1);
	}
}

struct seed_run {
	uint64_t token;
	int crash;
};

/* Writer-thread task: one small but complete run per token, every frame type. */
static void store_seed(struct dbi *db, void *arg)
{
	const struct seed_run *s = arg;
	uint8_t buf[XCB_FRAME_MAX];
	struct xcb_hdr h = { .token = s->token };
	const uint8_t *payload;
	int64_t id = 0;
	uint32_t counts[4] = { 5, 10, 5, 1 }, vals[4] = { 900, 1000, 1100, 2000 };
	size_t n;

#define PUT(expr) do { \
		n = (expr); \
		if (!n || xcb_decode(buf, n, &h, &payload) || store_frame(db, &id, s->token, &h, payload, NULL) != 1) { \
			fprintf(stderr, "harness: seed frame %u not stored\n", h.seq); \
			exit(1); \
		} \
		h.seq++; \
	} while (0)
	h.type = XCB_T_HELLO;
	PUT(xcb_enc_text(buf, sizeof(buf), &h, "fw=fuzz\ncpus=4\ntsc_khz=2000000\n", 31));
	for (uint32_t c = 1; c <= 2; c++) {
		char t[256];
		int l = snprintf(t, sizeof(t), "id=%u\nkind=xcall\nalgo=%s\ndelivery=unicast\nwait=done\n"
				 "inits=1\nmask=2\nplacement=first\noverlap=disjoint\nwork_us=0\niters=10\nreps=1\n",
				 c, c == 1 ? "locked" : "lockless");

		h.type = XCB_T_CASE;
		PUT(xcb_enc_text(buf, sizeof(buf), &h, t, (size_t)l));
		PUT(xcb_enc_result(buf, sizeof(buf), &h, &(struct xcb_result){ .case_id = c,
			.initiator = XCB_INIT_ALL, .count = 21, .min = 900, .p50 = 1000, .p90 = 1100,
			.p99 = 2000, .p999 = 2000, .max = 2000, .mean_x1000 = 1050000 }));
		PUT(xcb_enc_histo(buf, sizeof(buf), &h, &(struct xcb_histo){ .case_id = c,
			.initiator = XCB_INIT_ALL, .first = xcb_histo_bucket(900), .n = 4, .counts = counts }));
		PUT(xcb_enc_samples(buf, sizeof(buf), &h, &(struct xcb_samples){ .case_id = c,
			.width = 4, .n = 4, .values = vals }));
	}
	h.type = XCB_T_LOG;
	PUT(xcb_enc_text(buf, sizeof(buf), &h, "a log line", 10));
	if (s->crash) {
		h.type = XCB_T_ERROR;
		PUT(xcb_enc_text(buf, sizeof(buf), &h, "exception: cpu1 vector 14", 25));
	}
	PUT(xcb_enc_done(buf, sizeof(buf), &h, &(struct xcb_done){ .frames = h.seq }));
#undef PUT
}

static void noop(struct dbi *db, void *arg)
{
	(void)db, (void)arg;
}

void harness_sync(void)
{
	if (writer_call(noop, NULL)) {
		/* Stopped, or a batch failed to commit: on the fuzzer's roomy
		 * disk only a frame that broke a constraint can do that, and no
		 * frame may (it would stall every run's ACKs). */
		fprintf(stderr, "harness: writer gone or a batch failed to commit\n");
		abort();
	}
}

void harness_init(int open)
{
	const char *tmp = getenv("TMPDIR");
	static char db[300], web[300], fw[300], path[400];
	struct seed_run a = { FUZZ_TOKEN_A, 0 }, b = { FUZZ_TOKEN_B, 1 };
	char err[512];
	struct dbi *wdb;

	snprintf(dir, sizeof(dir), "%s/xcbfuzz.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror(dir);
		exit(1);
	}
	atexit(cleanup);
	snprintf(db, sizeof(db), "%s/xcbench.db", dir);
	snprintf(web, sizeof(web), "%s/web", dir);
	snprintf(fw, sizeof(fw), "%s/xcbench.elf", dir);
	mkdir(web, 0700);
	mkdir(strcat(strcpy(path, web), "/js"), 0700);
	write_file(strcat(strcpy(path, web), "/index.html"), "<h1>index</h1>\n");
	write_file(strcat(strcpy(path, web), "/js/app.js"), "// app\n");
	write_file(strcat(strcpy(path, dir), "/secret.txt"), FUZZ_SECRET "\n");
	symlink("../secret.txt", strcat(strcpy(path, web), "/link.txt"));
	write_file(fw, "\177ELF fuzz firmware\n");

	cfg.db_path = db;
	cfg.web_dir = web;
	cfg.firmware = fw;
	cfg.admin_token = strdup(FUZZ_ADMIN_TOKEN);
	cfg.open = open;
	cfg.lost_after = 120;
	cfg.threads = 1;
	cfg.suite = "default";
	cfg.listen.sin_family = AF_INET;
	cfg.udp.sin_family = AF_INET;
	cfg.udp.sin_port = htons(8080);
	start_time = now_s();

	wdb = db_open_rw(db, err, sizeof(err));
	if (!wdb || reg_load(wdb) || writer_start(wdb, collector_ack) || http_start()) {
		fprintf(stderr, "harness: cannot start: %s\n", wdb ? "writer/http" : err);
		exit(1);
	}
	if (writer_call(store_seed, &a) || writer_call(store_seed, &b)) {
		fprintf(stderr, "harness: seed runs not stored\n");
		exit(1);
	}
	pthread_mutex_lock(&reg_lock);
	reg_add(FUZZ_TOKEN_A, 1);
	reg_add(FUZZ_TOKEN_B, 2);
	pthread_mutex_unlock(&reg_lock);
}
