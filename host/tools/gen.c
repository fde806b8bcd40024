/*
 * gen.c — the synthetic runs of the test tools (xcb-gen, xcb-load): HELLO,
 * CASEs, per-initiator and all-initiator RESULTs, HISTO and SAMPLES chunks,
 * LOGs, DONE, with deterministic latencies (see gen.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "xcb_histo.h"
#include "xcb_proto.h"

static const char *const algos[] = { "locked", "lockless" };
static const int inits_v[] = { 1, 2, 4 };
static const int masks_v[] = { 1, 2, 4, 8 };
static const int work_v[] = { 0, 500 };

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

void gen_run(struct gen *g, double factor, int reps, int with_samples, int crash)
{
	char t[512];
	uint32_t cid = 0;

	snprintf(t, sizeof(t), "fw=xcb-gen\nsuite=gen\ncpus=8\napic_ids=0,1,2,3,4,5,6,7\n"
		 "vendor=GenuineIntel\nbrand=Generated CPU\ntsc_khz=%s\ntsc_source=%s\n"
		 "apic_mode=x2apic\nhypervisor=\npcid=1\ninvpcid=1\nnic=none\n",
		 g->no_tsc ? "0" : "2000000", g->no_tsc ? "?" : "gen");
	text(g, XCB_T_HELLO, t);
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

