/*
 * test_proto.c — the wire format (proto/): round trip of every frame type,
 * every truncation, corrupted bytes, bad version/magic/type, oversize, the
 * serial text framing, the key=value parser and the histogram buckets.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "xcb_cpulist.h"
#include "xcb_histo.h"
#include "xcb_proto.h"
#include "xcb_schema.h"
#include "xcb_secret.h"

static const struct xcb_hdr H = { .token = 0x0123456789abcdefull, .seq = 77 };

static size_t sample_result(uint8_t *buf, struct xcb_result *r)
{
	memset(r, 0, sizeof(*r));
	r->case_id = 42; r->rep = 3; r->initiator = XCB_INIT_ALL;
	r->count = 1000; r->min = 1; r->p50 = 2; r->p90 = 3; r->p99 = 4; r->p999 = 5;
	r->max = 0xfffffffffull; r->mean_x1000 = 123456; r->stddev_x1000 = 7890;
	r->ipis = 9; r->lock_acq = 10; r->lock_contended = 11; r->lock_hold_cycles = 12;
	r->lock_wait_cycles = 13; r->stale = 14; r->calls_executed = 15; r->calls_expected = 16;
	r->flags = XCB_RF_WATCHDOG;
	r->ipi_floor = 17; r->lost = 18; r->dup = 19; r->ooo = 20; r->elapsed_cycles = 21;
	r->control_runs = 22; r->control_stale = 23;
	return xcb_enc_result(buf, XCB_FRAME_MAX, &H, r);
}

/* Field by field, every field the schema lists (xcb_schema.h) but the
 * reserved PAD, which the encoder sends as 0 whatever the struct holds. */
static void assert_result_equal(const struct xcb_result *a, const struct xcb_result *b)
{
	for (unsigned i = 0; i < XCB_N_RESULT_FIELDS; i++)
		if (xcb_result_fields[i].part != XCB_PART_PAD)
			assert_true(xcb_result_get(a, i) == xcb_result_get(b, i));
}

/* A valid RESULT frame (sample_result) to truncate, corrupt or reframe. */
struct frame_fx {
	uint8_t buf[XCB_FRAME_MAX];
	struct xcb_result r;
	struct xcb_hdr h;        /* what xcb_decode() fills in */
	const uint8_t *p;
	size_t n;
};

static int frame_setup(void **s)
{
	static struct frame_fx fx;

	memset(&fx, 0, sizeof(fx));
	fx.n = sample_result(fx.buf, &fx.r);
	*s = &fx;
	return 0;
}

static void crc_known_vector(void **s)
{
	(void)s;
	assert_int_equal(xcb_crc32(0, "123456789", 9), 0xCBF43926u);
	assert_int_equal(xcb_crc32(0, "", 0), 0);
	/* Incremental == one shot. */
	assert_int_equal(xcb_crc32(xcb_crc32(0, "1234", 4), "56789", 5), 0xCBF43926u);
}

/* The host's sliced CRC equals the payload's nibble one: every length up
 * to three slices past a multiple of 8, every start alignment, chained. */
static void crc_sliced_equals_nibble(void **s)
{
	uint8_t buf[64 + 8];
	uint32_t x = 12345;

	(void)s;
	for (size_t i = 0; i < sizeof(buf); i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = (uint8_t)(x >> 16);
	}
	for (size_t off = 0; off < 8; off++)
		for (size_t len = 0; off + len <= sizeof(buf); len++) {
			assert_int_equal(xcb_crc32(0, buf + off, len), xcb_crc32_nibble(0, buf + off, len));
			assert_int_equal(xcb_crc32(0xdeadbeef, buf + off, len),
					 xcb_crc32_nibble(0xdeadbeef, buf + off, len));
		}
}

static void roundtrip_result(void **s)
{
	uint8_t buf[XCB_FRAME_MAX];
	struct xcb_result in, out;
	struct xcb_hdr h;
	const uint8_t *p;
	size_t n = sample_result(buf, &in);

	(void)s;
	assert_int_equal(n, XCB_HDR_LEN + XCB_RESULT_LEN_FULL);
	assert_int_equal(xcb_decode(buf, n, &h, &p), XCB_OK);
	assert_int_equal(h.type, XCB_T_RESULT);
	assert_int_equal(h.version, XCB_VERSION);
	assert_true(h.token == H.token);
	assert_int_equal(h.seq, 77);
	assert_int_equal(h.length, XCB_RESULT_LEN_FULL);
	/* Poison the decoder's output (padding included), as a fresh stack
	 * would: only the fields may be compared. */
	memset(&out, 0xa5, sizeof(out));
	assert_int_equal(xcb_dec_result(p, h.length, &out), XCB_OK);
	assert_result_equal(&in, &out);
	/* A v1 (152-byte) RESULT still decodes: the appended fields read 0. */
	assert_int_equal(xcb_dec_result(p, XCB_RESULT_LEN, &out), XCB_OK);
	assert_true(out.p50 == in.p50 && out.ipi_floor == 0 && out.control_stale == 0);
	/* Byte order is fixed: the header starts with "XCB1". */
	assert_memory_equal(buf, "XCB1", 4);
}

/* xcb_dec_result at every length from v1's to the full one, from random
 * bytes (PAD's too): each field is its little-endian wire bytes when the
 * frame holds it whole, else 0, and PAD is always 0 (read here byte by
 * byte, as the generic decoder does, against the little-endian copy). */
static void dec_result_lengths(void **s)
{
	uint8_t p[XCB_RESULT_LEN_FULL];
	struct xcb_result out;
	uint32_t x = 12345;

	(void)s;
	for (size_t i = 0; i < sizeof(p); i++)
		p[i] = (uint8_t)((x = x * 1103515245u + 12345u) >> 16);
	for (size_t len = XCB_RESULT_LEN; len <= XCB_RESULT_LEN_FULL; len++) {
		memset(&out, 0xa5, sizeof(out));
		assert_int_equal(xcb_dec_result(p, len, &out), XCB_OK);
		for (unsigned i = 0; i < XCB_N_RESULT_FIELDS; i++) {
			const struct xcb_field *f = &xcb_result_fields[i];
			uint64_t want = 0;

			if (f->part != XCB_PART_PAD && f->offset + f->bits / 8 <= len)
				for (unsigned k = f->bits / 8; k--;)
					want = want << 8 | p[f->offset + k];
			assert_true(xcb_result_get(&out, i) == want);
		}
	}
}

static void roundtrip_text(void **s)
{
	uint8_t buf[XCB_FRAME_MAX];
	struct xcb_hdr h = H, d;
	const uint8_t *p;
	const char *t = "fw=1\ncpus=4\n";
	size_t n;

	(void)s;
	for (int type = XCB_T_HELLO; type <= XCB_T_ERROR; type++) {
		h.type = (uint8_t)type;
		n = xcb_enc_text(buf, sizeof(buf), &h, t, strlen(t));
		if (type == XCB_T_RESULT || type == XCB_T_HISTO || type == XCB_T_SAMPLES) {
			assert_int_equal(n, 0); /* binary types refuse text */
			continue;
		}
		assert_int_equal(xcb_decode(buf, n, &d, &p), XCB_OK);
		assert_int_equal(d.type, type);
		assert_int_equal(d.length, strlen(t));
		assert_memory_equal(p, t, strlen(t));
	}
	/* Empty text is a valid frame. */
	h.type = XCB_T_LOG;
	n = xcb_enc_text(buf, sizeof(buf), &h, "", 0);
	assert_int_equal(n, XCB_HDR_LEN);
	assert_int_equal(xcb_decode(buf, n, &d, &p), XCB_OK);
}

static void roundtrip_histo_samples_done_ack(void **s)
{
	uint8_t buf[XCB_FRAME_MAX];
	uint32_t counts[XCB_HISTO_CHUNK], v32[10];
	uint64_t v64[10];
	struct xcb_histo x = { .case_id = 5, .rep = 1, .initiator = 2, .first = 100,
			       .n = XCB_HISTO_CHUNK, .counts = counts }, xo;
	struct xcb_samples sm = { .case_id = 6, .rep = 0, .initiator = 1, .index = 1000,
				  .width = 8, .n = 10, .values = v64 }, so;
	struct xcb_done dn = { .frames = 123, .status = XCB_DONE_FAILED }, dno;
	struct xcb_ack ak = { .status = XCB_ACK_OK }, ako;
	struct xcb_hdr h;
	const uint8_t *p;
	size_t n;

	(void)s;
	for (unsigned i = 0; i < XCB_HISTO_CHUNK; i++)
		counts[i] = i * 1000003u;
	n = xcb_enc_histo(buf, sizeof(buf), &H, &x);
	assert_int_equal(n, XCB_FRAME_MAX); /* a full chunk fills a frame exactly */
	assert_int_equal(xcb_decode(buf, n, &h, &p), XCB_OK);
	assert_int_equal(xcb_dec_histo(p, h.length, &xo), XCB_OK);
	assert_int_equal(xo.n, XCB_HISTO_CHUNK);
	assert_int_equal(xo.first, 100);
	for (unsigned i = 0; i < xo.n; i++)
		assert_int_equal(xcb_histo_count(&xo, i), counts[i]);
	x.n = XCB_HISTO_CHUNK + 1;
	assert_int_equal(xcb_enc_histo(buf, sizeof(buf), &H, &x), 0);

	for (int i = 0; i < 10; i++) {
		v64[i] = 0x100000000ull * (uint64_t)i + 7;
		v32[i] = (uint32_t)i * 3;
	}
	n = xcb_enc_samples(buf, sizeof(buf), &H, &sm);
	assert_int_equal(xcb_decode(buf, n, &h, &p), XCB_OK);
	assert_int_equal(xcb_dec_samples(p, h.length, &so), XCB_OK);
	for (unsigned i = 0; i < 10; i++)
		assert_true(xcb_sample(&so, i) == v64[i]);
	sm.width = 4;
	sm.values = v32;
	n = xcb_enc_samples(buf, sizeof(buf), &H, &sm);
	assert_int_equal(xcb_decode(buf, n, &h, &p), XCB_OK);
	assert_int_equal(xcb_dec_samples(p, h.length, &so), XCB_OK);
	assert_int_equal(so.index, 1000);
	for (unsigned i = 0; i < 10; i++)
		assert_true(xcb_sample(&so, i) == v32[i]);
	sm.width = 3;
	assert_int_equal(xcb_enc_samples(buf, sizeof(buf), &H, &sm), 0);

	n = xcb_enc_done(buf, sizeof(buf), &H, &dn);
	assert_int_equal(xcb_decode(buf, n, &h, &p), XCB_OK);
	assert_int_equal(h.type, XCB_T_DONE);
	assert_int_equal(xcb_dec_done(p, h.length, &dno), XCB_OK);
	assert_int_equal(dno.frames, 123);
	assert_int_equal(dno.status, XCB_DONE_FAILED);

	ak.sack[0] = 0x81;
	ak.sack[31] = 0x40;
	n = xcb_enc_ack(buf, sizeof(buf), &H, &ak);
	assert_int_equal(xcb_decode(buf, n, &h, &p), XCB_OK);
	assert_int_equal(xcb_dec_ack(p, h.length, &ako), XCB_OK);
	/* Fields, not the struct's bytes (no padding today, but a field added
	 * later must not make this compare garbage). */
	assert_int_equal(ak.status, ako.status);
	assert_memory_equal(ak.sack, ako.sack, sizeof(ak.sack));
}

static void every_truncation_fails(void **s)
{
	struct frame_fx *f = *s;

	for (size_t k = 0; k < f->n; k++) {
		int e = xcb_decode(f->buf, k, &f->h, &f->p);

		assert_int_equal(e, k < XCB_HDR_LEN ? XCB_E_SHORT : XCB_E_LENGTH);
		assert_null(f->p);
	}
	/* Trailing bytes are refused as well. */
	f->buf[f->n] = 0;
	assert_int_equal(xcb_decode(f->buf, f->n + 1, &f->h, &f->p), XCB_E_LENGTH);
	/* A payload shorter than its type's size (with a valid header/CRC). */
	{
		struct xcb_hdr hh = H;
		uint8_t b2[XCB_FRAME_MAX];
		size_t m;

		hh.type = XCB_T_RESULT;
		m = xcb_enc_frame(b2, sizeof(b2), &hh, f->buf + XCB_HDR_LEN, XCB_RESULT_LEN - 1);
		assert_int_equal(xcb_decode(b2, m, &f->h, &f->p), XCB_OK);
		assert_int_equal(xcb_dec_result(f->p, f->h.length, &f->r), XCB_E_PAYLOAD);
		hh.type = XCB_T_DONE;
		m = xcb_enc_frame(b2, sizeof(b2), &hh, "abc", 3);
		assert_int_equal(xcb_decode(b2, m, &f->h, &f->p), XCB_OK);
		struct xcb_done d;
		assert_int_equal(xcb_dec_done(f->p, f->h.length, &d), XCB_E_PAYLOAD);
		struct xcb_histo x;
		assert_int_equal(xcb_dec_histo(f->p, 3, &x), XCB_E_PAYLOAD);
		struct xcb_samples sm;
		assert_int_equal(xcb_dec_samples(f->p, 3, &sm), XCB_E_PAYLOAD);
		struct xcb_ack a;
		assert_int_equal(xcb_dec_ack(f->p, 3, &a), XCB_E_PAYLOAD);
	}
}

static void every_corruption_fails(void **s)
{
	struct frame_fx *f = *s;

	/* Any single flipped bit anywhere is caught (by one check or another). */
	for (size_t k = 0; k < f->n; k++) {
		for (int bit = 0; bit < 8; bit++) {
			f->buf[k] ^= (uint8_t)(1 << bit);
			assert_int_not_equal(xcb_decode(f->buf, f->n, &f->h, &f->p), XCB_OK);
			f->buf[k] ^= (uint8_t)(1 << bit);
		}
	}
	assert_int_equal(xcb_decode(f->buf, f->n, &f->h, &f->p), XCB_OK);
	f->buf[f->n - 1] ^= 1;
	assert_int_equal(xcb_decode(f->buf, f->n, &f->h, &f->p), XCB_E_CRC);
}

static void bad_magic_version_type(void **s)
{
	struct frame_fx *f = *s;
	struct xcb_hdr hh = H;
	uint32_t crc;

	f->buf[0] = 'Y';
	assert_int_equal(xcb_decode(f->buf, f->n, &f->h, &f->p), XCB_E_MAGIC);
	f->buf[0] = 'X';
	f->buf[4] = 2; /* version 2, with a CRC that matches: still refused */
	crc = xcb_crc32(xcb_crc32(0, f->buf, 20), f->buf + XCB_HDR_LEN, f->n - XCB_HDR_LEN);
	xcb_put32(f->buf + 20, crc);
	assert_int_equal(xcb_decode(f->buf, f->n, &f->h, &f->p), XCB_E_VERSION);
	assert_int_equal(f->h.version, 2);
	/* Unknown type with a valid CRC. */
	f->n = sample_result(f->buf, &f->r);
	f->buf[5] = 200;
	crc = xcb_crc32(xcb_crc32(0, f->buf, 20), f->buf + XCB_HDR_LEN, f->n - XCB_HDR_LEN);
	xcb_put32(f->buf + 20, crc);
	assert_int_equal(xcb_decode(f->buf, f->n, &f->h, &f->p), XCB_E_TYPE);
	/* Encoders refuse unknown types too. */
	hh.type = 0;
	assert_int_equal(xcb_enc_frame(f->buf, sizeof(f->buf), &hh, "x", 1), 0);
	hh.type = 10;
	assert_int_equal(xcb_enc_frame(f->buf, sizeof(f->buf), &hh, "x", 1), 0);
	assert_string_equal(xcb_err_name(XCB_E_CRC), "crc");
	assert_string_equal(xcb_err_name(5), "?");
	assert_string_equal(xcb_type_name(XCB_T_HISTO), "histo");
}

static void oversize(void **s)
{
	static uint8_t big[4096], buf[4096];
	struct xcb_hdr h = H, d;
	const uint8_t *p;
	size_t n;

	(void)s;
	h.type = XCB_T_LOG;
	assert_int_equal(xcb_enc_text(buf, sizeof(buf), &h, (const char *)big, XCB_PAYLOAD_MAX + 1), 0);
	n = xcb_enc_text(buf, sizeof(buf), &h, (const char *)big, XCB_PAYLOAD_MAX);
	assert_int_equal(n, XCB_FRAME_MAX);
	assert_int_equal(xcb_decode(buf, n, &d, &p), XCB_OK);
	/* Not enough room in the caller's buffer. */
	assert_int_equal(xcb_enc_text(buf, XCB_HDR_LEN + 3, &h, "abcd", 4), 0);
	assert_int_equal(xcb_enc_text(buf, XCB_HDR_LEN + 4, &h, "abcd", 4), XCB_HDR_LEN + 4);
	struct xcb_result r = { 0 };
	assert_int_equal(xcb_enc_result(buf, XCB_HDR_LEN + XCB_RESULT_LEN_FULL - 1, &h, &r), 0);
	/* A datagram beyond 1472 bytes, or a length field beyond 1448. */
	assert_int_equal(xcb_decode(big, XCB_FRAME_MAX + 1, &d, &p), XCB_E_MAGIC);
	memcpy(big, buf, XCB_HDR_LEN);
	assert_int_equal(xcb_decode(big, XCB_FRAME_MAX + 1, &d, &p), XCB_E_OVERSIZE);
	xcb_put16(big + 6, XCB_PAYLOAD_MAX + 1);
	assert_int_equal(xcb_decode(big, XCB_FRAME_MAX + 1, &d, &p), XCB_E_OVERSIZE);
	/* HISTO chunks must stay within the bucket range. */
	uint32_t c[4] = { 1, 2, 3, 4 };
	struct xcb_histo x = { .first = XCB_HISTO_BUCKETS - 3, .n = 4, .counts = c }, xo;
	n = xcb_enc_histo(buf, sizeof(buf), &h, &x);
	assert_int_equal(xcb_decode(buf, n, &d, &p), XCB_OK);
	assert_int_equal(xcb_dec_histo(p, d.length, &xo), XCB_E_PAYLOAD);
}

static void text_framing(void **s)
{
	struct frame_fx *f = *s;
	uint8_t out[XCB_FRAME_MAX];
	char line[XCB_TEXT_MAX + 64];
	size_t l;
	int got;

	l = xcb_text_encode(line, sizeof(line), f->buf, f->n);
	assert_true(l > 5);
	assert_memory_equal(line, "XCB1 ", 5);
	assert_int_equal(line[l - 1], '\n');
	got = xcb_text_decode(line, l, out, sizeof(out));
	assert_int_equal(got, (int)f->n);
	assert_memory_equal(out, f->buf, f->n);
	/* Every length mod 3 (padding variants) round-trips. */
	for (size_t k = XCB_HDR_LEN; k < XCB_HDR_LEN + 6; k++) {
		struct xcb_hdr hh = H;

		hh.type = XCB_T_LOG;
		f->n = xcb_enc_text(f->buf, sizeof(f->buf), &hh, "abcdef", k - XCB_HDR_LEN);
		l = xcb_text_encode(line, sizeof(line), f->buf, f->n);
		assert_int_equal(xcb_text_decode(line, l, out, sizeof(out)), (int)f->n);
		assert_int_equal(xcb_decode(out, f->n, &f->h, &f->p), XCB_OK);
	}
	/* Noise before the prefix, CR LF, trailing junk after whitespace. */
	char noisy[XCB_TEXT_MAX + 64] = "\x1b[0m[  1.23] ";
	size_t pre = strlen(noisy);
	memcpy(noisy + pre, line, l - 1);
	memcpy(noisy + pre + l - 1, "\r junk\n", 7);
	assert_int_equal(xcb_text_decode(noisy, pre + l + 6, out, sizeof(out)), (int)f->n);
	assert_memory_equal(out, f->buf, f->n);
	/* No prefix, or damaged base64: never a frame that validates. */
	assert_true(xcb_text_decode("hello world\n", 12, out, sizeof(out)) < 0);
	assert_true(xcb_text_decode("XCB1 \n", 6, out, sizeof(out)) < 0);
	assert_true(xcb_text_decode("XCB1 A\n", 7, out, sizeof(out)) < 0);
	line[10] = line[10] == 'A' ? 'B' : 'A';
	got = xcb_text_decode(line, l, out, sizeof(out));
	assert_true(got < 0 || xcb_decode(out, (size_t)got, &f->h, &f->p) != XCB_OK);
	/* A too-small output buffer is refused, not overrun. */
	assert_true(xcb_text_decode(noisy, pre + l + 6, out, 10) < 0);
	assert_int_equal(xcb_text_encode(line, 10, f->buf, f->n), 0);
}

static void kv_parser(void **s)
{
	const char *t = "a=1\nnoequals\n=novalue\nkey=v=w\r\nlast=x";
	size_t pos = 0, kl, vl;
	const char *k, *v;

	(void)s;
	assert_int_equal(xcb_kv_next(t, strlen(t), &pos, &k, &kl, &v, &vl), 1);
	assert_int_equal(kl, 1);
	assert_memory_equal(v, "1", 1);
	assert_int_equal(xcb_kv_next(t, strlen(t), &pos, &k, &kl, &v, &vl), 1);
	assert_memory_equal(k, "key", 3);
	assert_int_equal(vl, 3); /* "v=w", CR dropped */
	assert_memory_equal(v, "v=w", 3);
	assert_int_equal(xcb_kv_next(t, strlen(t), &pos, &k, &kl, &v, &vl), 1);
	assert_memory_equal(k, "last", 4);
	assert_int_equal(vl, 1);
	assert_int_equal(xcb_kv_next(t, strlen(t), &pos, &k, &kl, &v, &vl), 0);
}

static void histo_buckets(void **s)
{
	(void)s;
	assert_int_equal(xcb_histo_bucket(0), 0);
	assert_int_equal(xcb_histo_bucket(255), 255);
	assert_int_equal(xcb_histo_bucket(256), 256);
	assert_int_equal(xcb_histo_bucket(UINT64_MAX), XCB_HISTO_BUCKETS - 1);
	assert_int_equal(xcb_histo_bucket((1ull << 40) - 1), 4351);
	for (uint32_t i = 0; i < XCB_HISTO_BUCKETS; i++) {
		uint64_t lo = xcb_histo_low(i), hi = xcb_histo_high(i);

		assert_true(lo <= hi);
		assert_int_equal(xcb_histo_bucket(lo), i);
		assert_int_equal(xcb_histo_bucket(hi), i);
		if (i + 1 < XCB_HISTO_BUCKETS)
			assert_true(hi + 1 == xcb_histo_low(i + 1)); /* no gaps, no overlap */
		/* Below 256 buckets are exact; above, at most 1/128 of the
		 * low edge wide: <= 0.78 % error. */
		if (i >= 256)
			assert_true((double)(hi - lo + 1) / (double)lo <= 1.0 / 128 + 1e-12);
	}
	assert_int_equal(xcb_histo_high(XCB_HISTO_BUCKETS - 1), UINT64_MAX);
}

/* run= and server= values masked wherever a word starts; others kept. */
static void mask_secrets(void **state)
{
	static const char *const cases[][2] = {
		{ "suite=quick run=00000000000fe001 iters=3", "suite=quick run=* iters=3" },
		{ "run=986b604c0c857f56 server=10.0.2.2:8080", "run=* server=*" },
		{ "xcbench: cmdline \"a=1 server=h:1\"", "xcbench: cmdline \"a=1 server=*\"" },
		{ "cmdline=run=ab\tx=1", "cmdline=run=*\tx=1" },
		{ "rerun=1 runs=2 myserver=3 run= server", "rerun=1 runs=2 myserver=3 run= server" },
		{ "", "" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[128];
		size_t n = strlen(cases[i][0]);

		memcpy(buf, cases[i][0], n + 1);
		assert_int_equal(xcb_mask_secrets(buf, n), strlen(cases[i][1]));
		assert_string_equal(buf, cases[i][1]);
	}
	/* whole keys only: a prefix or a longer word is not the secret key */
	static const struct { const char *key; int secret; } keys[] = {
		{ "run", 1 }, { "server", 1 }, { "ru", 0 }, { "runs", 0 },
	};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		assert_int_equal(xcb_is_secret_key(keys[i].key, strlen(keys[i].key)) != 0, keys[i].secret);
}

/* CPU lists (xcb_cpulist.h): Linux's stride a-b:u/g read for any u/g; the
 * canonical form (what the daemon stores) the plain one; "=" the previous
 * initiator's targets; every malformed list refused (the daemon then keeps
 * the value as sent), none read past its length. */
static void cpu_lists(void **state)
{
	char out[256];
	uint64_t bits[XCB_CPULIST_WORDS];
	const char *bad[] = { "1-", "-1", "3-1", "1-5:0/2", "1-5:3/2", "1-5:1/0", "1-5:1", "1,,2", "1,",
			      "a", "4096", "0-99999", "1 ,2", "1-5:1/2x" };
	const char *bad_cpus[] = { "0:=", "0", "0:1;", "x:1", "0:1;1:=;2", ":1", "0:1-" };
	(void)state;

	assert_int_equal(xcb_cpulist_canon("0-9:2/4", 7, out, sizeof(out)), 11);
	assert_string_equal(out, "0,1,4,5,8,9");
	assert_int_equal(xcb_cpulist_canon("1-9:1/2,10,11-13,20-22:1/1", 26, out, sizeof(out)), 18);
	assert_string_equal(out, "1,3,5,7,9-13,20-22");
	assert_int_equal(xcb_cpulist_get("5,1,3", 5, bits), 0);	/* any order read */
	assert_int_equal(bits[0], (1u << 1) | (1u << 3) | (1u << 5));
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(xcb_cpulist_get(bad[i], strlen(bad[i]), bits), -1);
	assert_int_equal(xcb_cpulist_get("", 0, bits), 0);	/* no CPU: empty */
	assert_int_equal(xcb_cpulist_get("12", 1, bits), 0);	/* its length, not the NUL */
	assert_int_equal(bits[0], 2);
	/* short form, written and read back; a cap too small says how much */
	memset(bits, 0, sizeof(bits));
	for (unsigned c = 3; c < 4096; c += 7)
		bits[c / 64] |= 1ull << (c % 64);
	assert_int_equal(xcb_cpulist_put(out, sizeof(out), bits, 4096, 1), 10);
	assert_string_equal(out, "3-4091:1/7");
	assert_int_equal(xcb_cpulist_put(out, 4, bits, 4096, 1), 10);
	assert_string_equal(out, "3-4");
	assert_true(xcb_cpulist_put(out, sizeof(out), bits, 4096, 0) > sizeof(out));
	/* x_cpus */
	assert_int_equal(xcb_cpus_canon("0:1-7:1/2;8:=;9:2,3,4", 21, out, sizeof(out)), 25);
	assert_string_equal(out, "0:1,3,5,7;8:1,3,5,7;9:2-4");
	for (unsigned i = 0; i < sizeof(bad_cpus) / sizeof(bad_cpus[0]); i++)
		assert_int_equal(xcb_cpus_canon(bad_cpus[i], strlen(bad_cpus[i]), out, sizeof(out)), (size_t)-1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(crc_known_vector),
		cmocka_unit_test(crc_sliced_equals_nibble),
		cmocka_unit_test(roundtrip_result),
		cmocka_unit_test(dec_result_lengths),
		cmocka_unit_test(roundtrip_text),
		cmocka_unit_test(roundtrip_histo_samples_done_ack),
		cmocka_unit_test_setup(every_truncation_fails, frame_setup),
		cmocka_unit_test_setup(every_corruption_fails, frame_setup),
		cmocka_unit_test_setup(bad_magic_version_type, frame_setup),
		cmocka_unit_test(oversize),
		cmocka_unit_test_setup(text_framing, frame_setup),
		cmocka_unit_test(kv_parser),
		cmocka_unit_test(histo_buckets),
		cmocka_unit_test(mask_secrets),
		cmocka_unit_test(cpu_lists),
	};
	return cmocka_run_group_tests_name("proto", tests, NULL, NULL);
}
