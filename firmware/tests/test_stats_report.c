/*
 * test_stats_report.c - host unit tests (cmocka) of bench/report.c and the serial
 * transport: frames numbered contiguously under one run token, fanned out to every
 * transport, a failing transport dropped, long HELLO/CASE text split at line ends,
 * histograms chunked without losing counts, the serial line decodable, DONE last
 * with the frame count.
 */
#include <stdio.h>
#include <string.h>
#include "tests/xcb_test.h"

#include "bench/benchenv.h"
#include "bench/casetext.h"
#include "bench/histo.h"
#include "bench/report.h"
#include "bench/strbuf.h"
#include "lib/cpumask.h"
#include "lib/transport.h"
#include "xcb_cpulist.h"
#include "xcb_proto.h"

/* ---- what report.c needs from below ---- */
static char serial_out[1 << 16];
static unsigned serial_len;
void benv_console(const char *s, unsigned len) { (void)s; (void)len; }
void benv_serial(const char *s, unsigned len)
{
	if (serial_len + len < sizeof(serial_out)) {
		memcpy(serial_out + serial_len, s, len);
		serial_len += len;
	}
}
void plat_cpu_relax(void) {}

/* ---- a recording transport ---- */
#define MAXF 256
struct rec {
	struct transport t;
	unsigned n, flushes;
	int fail_after;		/* send fails from this frame on (-1: never) */
	unsigned len[MAXF];
	uint8_t buf[MAXF][XCB_FRAME_MAX];
};
static int rec_send(struct transport *t, const void *f, unsigned len)
{
	struct rec *r = t->priv;
	if (r->fail_after >= 0 && (int)r->n >= r->fail_after)
		return -1;
	assert_true(len <= TRANSPORT_MAX_FRAME);
	memcpy(r->buf[r->n], f, len);
	r->len[r->n++] = len;
	return 0;
}
static int rec_flush(struct transport *t, unsigned ms)
{
	(void)ms;
	((struct rec *)t->priv)->flushes++;
	return 0;
}
static struct rec A;
static struct transport *udp_stub;
struct transport *transport_udp(void) { return udp_stub; }

static void rec_init(struct rec *r, const char *name, int fail_after)
{
	memset(r, 0, sizeof(*r));
	r->t.name = name;
	r->t.send = rec_send;
	r->t.flush = rec_flush;
	r->t.priv = r;
	r->fail_after = fail_after;
}

/* r's frame i decodes, and is numbered i (contiguous from 0). */
static void decode_ok(const struct rec *r, unsigned i, struct xcb_hdr *h, const uint8_t **p)
{
	assert_int_equal(xcb_decode(r->buf[i], r->len[i], h, p), XCB_OK);
	assert_int_equal(h->seq, i);
}

/* Decodes r's frame i into h/p (as decode_ok()) when there is one: whether
 * it is of the given type; for walking a run of frames of one type. */
static int frame_is(const struct rec *r, unsigned i, unsigned type, struct xcb_hdr *h, const uint8_t **p)
{
	if (i >= r->n)
		return 0;
	decode_ok(r, i, h, p);
	return h->type == type;
}

static void test_token_and_transports(void **state)
{
	(void)state;
	rec_init(&A, "udp", -1);
	udp_stub = &A.t;
	assert_int_equal(report_init("both", "00112233aabbccdd", 1), 2);
	assert_true(report_token() == 0x00112233aabbccddull);
	assert_string_equal(report_transport_names(), "udp+serial");
	/* no NIC: udp falls back to serial */
	udp_stub = NULL;
	assert_int_equal(report_init("udp", "zz", 7), 1);
	assert_string_equal(report_transport_names(), "serial");
	uint64_t t1 = report_token();
	report_init("serial", NULL, 8);
	assert_true(report_token() != t1);	/* made up from the entropy */
	assert_true(report_token() != 0);
}

static void test_stream(void **state)
{
	(void)state;
	rec_init(&A, "udp", -1);
	udp_stub = &A.t;
	report_init("udp", "0000000000000042", 0);
	/* HELLO longer than one frame: split after a '\n', never inside a line */
	static char hello[4000];
	unsigned n = 0;
	for (unsigned i = 0; n < 3000; i++)
		n += (unsigned)snprintf(hello + n, sizeof(hello) - n, "key%u=value %u\n", i, i * 7);
	report_text(XCB_T_HELLO, hello, n);
	report_log("a log line");
	struct xcb_result r = { .case_id = 1, .rep = 0, .initiator = XCB_INIT_ALL, .count = 3, .p50 = 9 };
	report_result(&r);
	static struct histo h;
	histo_init(&h);
	for (uint64_t v = 1; v < 5000000; v = v * 5 / 4 + 1)
		histo_add(&h, v);
	histo_add(&h, 1ull << 35);
	report_histo(1, 0, XCB_INIT_ALL, &h);
	uint64_t samples[300];
	for (unsigned i = 0; i < 300; i++)
		samples[i] = 1000 + i;
	report_samples(1, 0, 2, samples, 300);
	report_done(XCB_DONE_OK);

	struct xcb_hdr hd;
	const uint8_t *p;
	/* every frame decodes, seq 0.. contiguous, one token */
	for (unsigned i = 0; i < A.n; i++) {
		decode_ok(&A, i, &hd, &p);
		assert_true(hd.token == 0x42);
	}
	/* HELLO came in pieces that reassemble to the text, each ending in '\n' */
	char back[4000];
	unsigned blen = 0, i = 0;
	for (; frame_is(&A, i, XCB_T_HELLO, &hd, &p); i++) {
		assert_int_equal(p[hd.length - 1], '\n');
		memcpy(back + blen, p, hd.length);
		blen += hd.length;
	}
	assert_true(i >= 3);
	assert_int_equal(blen, n);
	assert_memory_equal(back, hello, n);
	decode_ok(&A, i++, &hd, &p);
	assert_int_equal(hd.type, XCB_T_LOG);
	decode_ok(&A, i++, &hd, &p);
	assert_int_equal(hd.type, XCB_T_RESULT);
	struct xcb_result rr;
	assert_int_equal(xcb_dec_result(p, hd.length, &rr), XCB_OK);
	assert_int_equal(rr.p50, 9);
	/* histogram chunks: counts add up to the total */
	uint64_t hsum = 0;
	for (; frame_is(&A, i, XCB_T_HISTO, &hd, &p); i++) {
		struct xcb_histo x;
		assert_int_equal(xcb_dec_histo(p, hd.length, &x), XCB_OK);
		for (unsigned k = 0; k < x.n; k++)
			hsum += xcb_histo_count(&x, k);
	}
	assert_int_equal(hsum, h.total);
	/* samples: 300 values in chunks of (1448-16)/8 = 179 */
	unsigned got = 0;
	for (; frame_is(&A, i, XCB_T_SAMPLES, &hd, &p); i++) {
		struct xcb_samples sm;
		assert_int_equal(xcb_dec_samples(p, hd.length, &sm), XCB_OK);
		assert_int_equal(sm.index, got);
		for (unsigned k = 0; k < sm.n; k++)
			assert_int_equal(xcb_sample(&sm, k), 1000 + got + k);
		got += sm.n;
	}
	assert_int_equal(got, 300);
	/* DONE last, counting the frames before it; the transport was flushed */
	assert_int_equal(i, A.n - 1);
	decode_ok(&A, i, &hd, &p);
	assert_int_equal(hd.type, XCB_T_DONE);
	struct xcb_done d;
	assert_int_equal(xcb_dec_done(p, hd.length, &d), XCB_OK);
	assert_int_equal(d.frames, A.n - 1);
	assert_true(A.flushes >= 1);
}

/* HELLO's machine facts at 1024 CPUs (bench/benchenv.c's lines, x2APIC IDs
 * and a 4-package topology): apic_ids (~5 KB) and cpu_topo (~8 KB) are each
 * wider than a frame. Every frame fits; every line arrives whole or as
 * pieces (xcb_proto.h) that join, in any order, to exactly the line sent.
 * Before, such a line was cut hard at the frame's end: the daemon kept its
 * first ~1440 bytes as the fact and dropped the rest. */
static void test_wide_facts(void **state)
{
	static char hello[32768], joined[32768], pieces[XCB_PIECES_MAX + 1][XCB_PAYLOAD_MAX];
	static size_t plen[XCB_PIECES_MAX + 1];
	unsigned n = 0, jn = 0, npieces = 0, pn = 0;
	(void)state;
	rec_init(&A, "udp", -1);
	udp_stub = &A.t;
	report_init("udp", "0000000000000043", 0);
	n += (unsigned)snprintf(hello + n, sizeof(hello) - n, "fw=test\ncpus=1024\napic_ids=");
	for (unsigned i = 0; i < 1024; i++)
		n += (unsigned)snprintf(hello + n, sizeof(hello) - n, "%s%u", i ? "," : "", (i / 256) << 12 | (i % 256) * 2);
	n += (unsigned)snprintf(hello + n, sizeof(hello) - n, "\ncpu_topo=");
	for (unsigned i = 0; i < 1024; i++)
		n += (unsigned)snprintf(hello + n, sizeof(hello) - n, "%s%u/%u/%u", i ? "," : "", i / 256, i % 256 / 2, i % 2);
	n += (unsigned)snprintf(hello + n, sizeof(hello) - n, "\ntopology=pkgs=4,cores=128,threads=2\ncpus_listed=1024\n");
	report_text(XCB_T_HELLO, hello, n);

	/* Each frame: whole lines; a piece saved by its number, the line
	 * joined once all its pieces are in (one wide line's pieces go out
	 * before the next line's). */
	struct xcb_hdr hd;
	const uint8_t *p;
	for (unsigned f = 0; f < A.n; f++) {
		decode_ok(&A, f, &hd, &p);
		assert_int_equal(hd.type, XCB_T_HELLO);
		assert_true(hd.length > 0 && hd.length <= XCB_PAYLOAD_MAX);
		assert_int_equal(p[hd.length - 1], '\n');
		size_t pos = 0, kl, vl;
		const char *k, *v, *t = (const char *)p;
		while (xcb_kv_next(t, hd.length, &pos, &k, &kl, &v, &vl)) {
			size_t bl;
			unsigned i, m;
			if (!xcb_piece_key(k, kl, &bl, &i, &m)) {
				jn += (unsigned)snprintf(joined + jn, sizeof(joined) - jn, "%.*s=%.*s\n",
							 (int)kl, k, (int)vl, v);
				continue;
			}
			assert_true(m >= 2 && m <= XCB_PIECES_MAX && i <= m);
			assert_true(pn == 0 || pn == m);
			pn = m;
			memcpy(pieces[i], k, bl);
			memcpy(pieces[i] + bl, "=", 1);
			plen[i] = bl + 1;
			memcpy(pieces[i] + plen[i], v, vl);
			plen[i] += vl;
			if (++npieces == m) {	/* a line's pieces all in: joined */
				for (unsigned j = 1; j <= m; j++)	/* each number once */
					assert_true(plen[j] > 0);
				jn += (unsigned)snprintf(joined + jn, sizeof(joined) - jn, "%.*s", (int)plen[1], pieces[1]);
				for (unsigned j = 2; j <= m; j++) {
					size_t eq = (size_t)(memchr(pieces[j], '=', plen[j]) - (void *)pieces[j]) + 1;
					assert_memory_equal(pieces[j], pieces[1], eq);	/* one key */
					memcpy(joined + jn, pieces[j] + eq, plen[j] - eq);
					jn += (unsigned)(plen[j] - eq);
				}
				joined[jn++] = '\n';
				memset(plen, 0, sizeof(plen));
				npieces = pn = 0;
			}
		}
	}
	assert_int_equal(npieces, 0);
	assert_int_equal(jn, n);
	assert_memory_equal(joined, hello, n);
	assert_true(A.n >= 1 + 4 + 6);	/* the facts; apic_ids' pieces; cpu_topo's */
}

/* CASE at 1024 CPUs (emit.c: a CASE must fit its one frame, casebuf is
 * XCB_PAYLOAD_MAX + 1). x_cpus as emit.c writes it, "init:targets;...",
 * for the widest set of masks that fits: RUN_MAX_INITS (32) initiators
 * 0..31, each aimed at every other CPU of the 1024 (overlap), with runs
 * written as ranges (strbuf.c sb_cpus). The text goes out in one CASE frame
 * that fits, and its x_cpus read back as the daemon parses it
 * (xcb_kv_next) names exactly the CPUs: no number cut short. A mask of
 * every other CPU cannot fit any frame: the builder says it overflowed (the
 * caller refuses the case out loud) and cuts no number in two. Before, the
 * CPU lists were plain numbers in a 1 KiB buffer: 32 x "i:0,...,1023" was
 * ~157 KB, silently cut to the first 1 KiB. */
static void test_wide_case(void **state)
{
	static char casebuf[XCB_PAYLOAD_MAX + 1], want[XCB_PAYLOAD_MAX + 1];
	struct strbuf sb;
	struct cpumask m;
	unsigned w = 0;
	(void)state;
	rec_init(&A, "udp", -1);
	udp_stub = &A.t;
	report_init("udp", "0000000000000044", 0);

	sb_init(&sb, casebuf, sizeof(casebuf));
	sb_kv_u64(&sb, "id", 7);
	sb_kv(&sb, "kind", "xcall");
	sb_kv_u64(&sb, "inits", 32);
	sb_kv_u64(&sb, "mask", 1024);
	sb_puts(&sb, "x_cpus=");
	for (unsigned k = 0; k < 32; k++) {
		memset(&m, 0, sizeof(m));
		for (unsigned t = 0; t < 1024; t++)
			if (t != k)
				cpumask_set(&m, t);
		if (k)
			sb_putc(&sb, ';');
		sb_u64(&sb, k);
		sb_putc(&sb, ':');
		sb_cpus(&sb, &m);
		/* what it must say: the targets' runs around k */
		w += (unsigned)snprintf(want + w, sizeof(want) - w, "%s%u:", k ? ";" : "", k);
		if (k == 1)
			w += (unsigned)snprintf(want + w, sizeof(want) - w, "0,");
		else if (k == 2)
			w += (unsigned)snprintf(want + w, sizeof(want) - w, "0,1,");
		else if (k > 2)
			w += (unsigned)snprintf(want + w, sizeof(want) - w, "0-%u,", k - 1);
		w += (unsigned)snprintf(want + w, sizeof(want) - w, "%u-1023", k + 1);
	}
	sb_putc(&sb, '\n');
	sb_kv(&sb, "x_mix", "tree/ack");
	assert_false(sb_overflowed(&sb));
	report_text(XCB_T_CASE, casebuf, sb.len);

	assert_int_equal(A.n, 1);	/* one frame: the daemon stores a case from one */
	struct xcb_hdr hd;
	const uint8_t *p;
	decode_ok(&A, 0, &hd, &p);
	assert_int_equal(hd.type, XCB_T_CASE);
	assert_true(hd.length <= XCB_PAYLOAD_MAX);
	assert_int_equal(hd.length, sb.len);
	size_t pos = 0, kl, vl;
	const char *k, *v;
	int seen = 0;
	while (xcb_kv_next((const char *)p, hd.length, &pos, &k, &kl, &v, &vl))
		if (kl == 6 && !memcmp(k, "x_cpus", 6)) {
			assert_int_equal(vl, w);
			assert_memory_equal(v, want, w);
			seen++;
		}
	assert_int_equal(seen, 1);

	/* Ranges: a run of three or more; two stay two numbers. */
	memset(&m, 0, sizeof(m));
	cpumask_set(&m, 1); cpumask_set(&m, 2);
	cpumask_set(&m, 4); cpumask_set(&m, 5); cpumask_set(&m, 6);
	cpumask_set(&m, 9); cpumask_set(&m, 1023);
	sb_init(&sb, casebuf, sizeof(casebuf));
	sb_cpus(&sb, &m);
	assert_string_equal(casebuf, "1,2,4-6,9,1023");

	/* Every other CPU: 1,3,...,1023 was 2,004 bytes, wider than a frame;
	 * a stride now (Linux's cpulist "a-b:u/g"), all of it in one line. */
	memset(&m, 0, sizeof(m));
	for (unsigned t = 1; t < 1024; t += 2)
		cpumask_set(&m, t);
	sb_init(&sb, casebuf, sizeof(casebuf));
	sb_puts(&sb, "x_cpus=0:");
	sb_cpus(&sb, &m);
	assert_false(sb_overflowed(&sb));
	assert_string_equal(casebuf, "x_cpus=0:1-1023:1/2");
	/* a stride only from five on (never longer than the CPUs one by one),
	 * and a list that does not fit is none of it, never a cut number */
	memset(&m, 0, sizeof(m));
	for (unsigned t = 10; t <= 16; t += 2)
		cpumask_set(&m, t);
	for (unsigned t = 100; t <= 400; t += 100)
		cpumask_set(&m, t);
	cpumask_set(&m, 500);
	cpumask_set(&m, 501);
	sb_init(&sb, casebuf, sizeof(casebuf));
	sb_cpus(&sb, &m);
	assert_string_equal(casebuf, "10,12,14,16,100-500:1/100,501");
	sb_init(&sb, casebuf, 12);
	sb_puts(&sb, "0:");
	sb_cpus(&sb, &m);
	assert_true(sb_overflowed(&sb));
	assert_string_equal(casebuf, "0:");
}

/* The canonical list of m as the daemon stores it (xcb_cpulist.h): a run
 * of three or more a-b, the rest one by one; written here the plain way,
 * the oracle for xcb_cpus_canon. */
static unsigned canon_oracle(char *out, unsigned cap, const struct cpumask *m)
{
	unsigned n = 0;
	int first = 1;
	for (unsigned c = 0; c < 1024; c++) {
		unsigned e = c;
		if (!cpumask_test(m, c))
			continue;
		while (e + 1 < 1024 && cpumask_test(m, e + 1))
			e++;
		if (e - c >= 2) {
			n += (unsigned)snprintf(out + n, cap - n, "%s%u-%u", first ? "" : ",", c, e);
			c = e;
		} else {
			n += (unsigned)snprintf(out + n, cap - n, "%s%u", first ? "" : ",", c);
		}
		first = 0;
	}
	return n;
}

/* A CASE head as emit.c builds it (every key but x_cpus). */
static unsigned case_head(char *buf, unsigned cap, unsigned id)
{
	struct strbuf sb;
	sb_init(&sb, buf, cap);
	sb_kv_u64(&sb, "id", id);
	sb_kv(&sb, "kind", "xcall");
	sb_kv(&sb, "algo", "tree");
	sb_kv_u64(&sb, "inits", 32);
	sb_kv_u64(&sb, "mask", 512);
	sb_kv(&sb, "placement", "spread");
	assert_false(sb_overflowed(&sb));
	return sb.len;
}

/* x_cpus as a receiver reads it from A's frames from..A.n: one whole line
 * or its pieces x_cpus+I/N joined in order (each once, all N), into out. */
static unsigned read_xcpus(unsigned from, char *out, unsigned cap, unsigned *npieces)
{
	unsigned n = 0, want = 0, got = 0;
	*npieces = 0;
	for (unsigned f = from; f < A.n; f++) {
		struct xcb_hdr hd;
		const uint8_t *p;
		size_t pos = 0, kl, vl, bl;
		const char *k, *v;
		unsigned pi, pn, keys = 0;
		decode_ok(&A, f, &hd, &p);
		assert_int_equal(hd.type, XCB_T_CASE);
		assert_true(hd.length <= XCB_PAYLOAD_MAX);
		while (xcb_kv_next((const char *)p, hd.length, &pos, &k, &kl, &v, &vl)) {
			keys++;
			if (kl == 6 && !memcmp(k, "x_cpus", 6)) {
				assert_int_equal(A.n - from, 1);
				memcpy(out, v, vl);
				n = (unsigned)vl;
			} else if (xcb_piece_key(k, kl, &bl, &pi, &pn)) {
				assert_int_equal(bl, 6);
				assert_memory_equal(k, "x_cpus", 6);
				assert_int_equal(pi, f - from + 1);	/* in order, once each */
				want = pn;
				got++;
				assert_true(n + vl < cap);
				memcpy(out + n, v, vl);
				n += (unsigned)vl;
			} else if (f > from) {
				/* a continuation: its case's id and its piece only */
				assert_int_equal(kl, 2);
				assert_memory_equal(k, "id", 2);
			}
		}
		if (f > from)
			assert_int_equal(keys, 2);
	}
	assert_int_equal(got, want);
	*npieces = got;
	out[n] = 0;
	return n;
}

/* x_cpus at XCB_MAX_CPUS (1024) with RUN_MAX_INITS (32) initiators, through
 * casetext.c as emit.c drives it: (1) each initiator aimed at every other
 * CPU, 1,3,...,1023 (placement=spread, mask=512, overlap: ~64 KB as plain
 * numbers, 2 KB per initiator as ranges; emit.c left it out of the case):
 * one frame, "0:1-1023:1/2;2:=;...". (2) every CPU but the initiator's own:
 * one frame. (3) an irregular mask per initiator (pseudo-random halves:
 * ~55 KB): pieces, the head and x_cpus+1/N first, then "id" and a piece
 * each, every frame within 1448 bytes; joined they are the text built, and
 * in canonical form (xcb_cpus_canon, what the daemon stores) each
 * initiator's CPUs exactly. (4) wider than 99 pieces: nothing sent (the
 * caller sends the case without x_cpus and a LOG line). */
static void test_case_pieces(void **state)
{
	static struct cpumask tm[32];
	static unsigned icpu[32];
	static char head[XCB_PAYLOAD_MAX + 1], xc[CASE_CPUS_MAX + 1], got[CASE_CPUS_MAX + 1];
	static char canon[1 << 18], want[1 << 18];
	struct strbuf xb;
	unsigned hlen, n, np, w;
	(void)state;
	rec_init(&A, "udp", -1);
	udp_stub = &A.t;
	report_init("udp", "0000000000000045", 0);
	hlen = case_head(head, sizeof(head), 7);

	/* (1) every other CPU, 32 initiators on even CPUs */
	w = 0;
	for (unsigned k = 0; k < 32; k++) {
		icpu[k] = 2 * k;
		memset(&tm[k], 0, sizeof(tm[k]));
		for (unsigned t = 1; t < 1024; t += 2)
			cpumask_set(&tm[k], t);
		w += (unsigned)snprintf(want + w, sizeof(want) - w, "%s%u:", k ? ";" : "", icpu[k]);
		w += canon_oracle(want + w, sizeof(want) - w, &tm[k]);
	}
	sb_init(&xb, xc, sizeof(xc));
	case_cpus_value(&xb, 32, icpu, tm);
	assert_false(sb_overflowed(&xb));
	assert_true(xb.len < 200);
	assert_memory_equal(xc, "0:1-1023:1/2;2:=;4:=;", 21);
	assert_int_equal(case_text_send(7, head, hlen, xc, xb.len), 1);
	assert_int_equal(A.n, 1);
	n = read_xcpus(0, got, sizeof(got), &np);
	assert_int_equal(np, 0);
	assert_int_equal(n, xb.len);
	assert_memory_equal(got, xc, n);
	assert_int_equal(xcb_cpus_canon(got, n, canon, sizeof(canon)), w);
	assert_string_equal(canon, want);

	/* (2) every CPU but the initiator's own (0..31) */
	w = 0;
	for (unsigned k = 0; k < 32; k++) {
		icpu[k] = k;
		memset(&tm[k], 0, sizeof(tm[k]));
		for (unsigned t = 0; t < 1024; t++)
			if (t != k)
				cpumask_set(&tm[k], t);
		w += (unsigned)snprintf(want + w, sizeof(want) - w, "%s%u:", k ? ";" : "", k);
		w += canon_oracle(want + w, sizeof(want) - w, &tm[k]);
	}
	sb_init(&xb, xc, sizeof(xc));
	case_cpus_value(&xb, 32, icpu, tm);
	unsigned before = A.n;
	assert_int_equal(case_text_send(8, head, hlen, xc, xb.len), 1);
	n = read_xcpus(before, got, sizeof(got), &np);
	assert_int_equal(xcb_cpus_canon(got, n, canon, sizeof(canon)), w);
	assert_string_equal(canon, want);

	/* (3) irregular masks: in pieces */
	uint64_t x = 0x9e3779b97f4a7c15ull;
	w = 0;
	for (unsigned k = 0; k < 32; k++) {
		icpu[k] = 32 * k;
		memset(&tm[k], 0, sizeof(tm[k]));
		for (unsigned t = 0; t < 1024; t++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			if (x & 1)
				cpumask_set(&tm[k], t);
		}
		w += (unsigned)snprintf(want + w, sizeof(want) - w, "%s%u:", k ? ";" : "", icpu[k]);
		w += canon_oracle(want + w, sizeof(want) - w, &tm[k]);
	}
	sb_init(&xb, xc, sizeof(xc));
	case_cpus_value(&xb, 32, icpu, tm);
	assert_false(sb_overflowed(&xb));
	assert_true(xb.len > 20 * XCB_PAYLOAD_MAX);
	before = A.n;
	unsigned frames = case_text_send(9, head, hlen, xc, xb.len);
	assert_true(frames > 20 && frames <= XCB_PIECES_MAX);
	assert_int_equal(A.n - before, frames);
	struct xcb_hdr hd;
	const uint8_t *p;
	decode_ok(&A, before, &hd, &p);
	assert_memory_equal(p, head, hlen);	/* the head whole in the first */
	n = read_xcpus(before, got, sizeof(got), &np);
	assert_int_equal(np, frames);
	assert_int_equal(n, xb.len);
	assert_memory_equal(got, xc, n);
	assert_int_equal(xcb_cpus_canon(got, n, canon, sizeof(canon)), w);
	assert_string_equal(canon, want);

	/* (4) a head that leaves 40 bytes a piece: past 99 pieces, nothing sent */
	static char fat[XCB_PAYLOAD_MAX + 1];
	memcpy(fat, head, hlen);
	memset(fat + hlen, 'a', XCB_PAYLOAD_MAX - 40 - hlen - 1);
	memcpy(fat + hlen, "x_pad=", 6);
	fat[XCB_PAYLOAD_MAX - 41] = '\n';
	before = A.n;
	assert_int_equal(case_text_send(10, fat, XCB_PAYLOAD_MAX - 40, xc, xb.len), 0);
	assert_int_equal(A.n, before);
}

/* A transport that fails is dropped; the other keeps every frame, seq unbroken. */
static void test_failing_transport(void **state)
{
	(void)state;
	rec_init(&A, "udp", 2);
	udp_stub = &A.t;
	serial_len = 0;
	report_init("both", "0000000000000007", 0);
	for (unsigned i = 0; i < 5; i++)
		report_log("line");
	report_done(XCB_DONE_OK);
	assert_int_equal(A.n, 2);
	assert_string_equal(report_transport_names(), "udp+serial");
	/* the serial side: 6 lines, each decoding to the next seq */
	unsigned seq = 0;
	char *line = serial_out, *end = serial_out + serial_len;
	while (line < end) {
		char *nl = memchr(line, '\n', (size_t)(end - line));
		assert_non_null(nl);
		if (nl > line) {
			uint8_t f[XCB_FRAME_MAX];
			int fl = xcb_text_decode(line, (size_t)(nl - line), f, sizeof(f));
			assert_true(fl > 0);
			struct xcb_hdr hd;
			const uint8_t *p;
			assert_int_equal(xcb_decode(f, (size_t)fl, &hd, &p), XCB_OK);
			assert_int_equal(hd.seq, seq++);
		}
		line = nl + 1;
	}
	assert_int_equal(seq, 6);
}

XCB_TEST_MAIN(
	cmocka_unit_test(test_token_and_transports),
	cmocka_unit_test(test_stream),
	cmocka_unit_test(test_wide_facts),
	cmocka_unit_test(test_wide_case),
	cmocka_unit_test(test_case_pieces),
	cmocka_unit_test(test_failing_transport))
