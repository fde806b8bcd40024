/*
 * fuzz_frame.c — libFuzzer target for everything a datagram or a console
 * line reaches: xcb_decode and the per-type payload decoders, the serial
 * text decoder (xcb_text_decode), and the collector's real datagram handler
 * (collector.c is compiled into this file to reach its static handle()),
 * which queues accepted frames to the real writer and store code.
 *
 * Input: byte 0 chooses the mode, the rest is the frame / console line.
 *   bit 0 set: repair magic, version, length and CRC first, and pin the token
 *              to one of 8 (bits 5..7), so mutations reach the payload
 *              parsers and the store instead of dying at the CRC check.
 * Properties checked beyond "no crash, no sanitizer report":
 *   - a repaired frame always decodes;
 *   - text encode → decode gives back the identical bytes;
 *   - xcb_text_decode never reports more bytes than the buffer it was given.
 */
#include "../../host/src/collector.c"

#include <assert.h>

#include "harness.h"
#include "xcb_histo.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	harness_init(1); /* --open: unknown tokens create runs, as in a dev setup */
	return 0;
}

static volatile uint64_t sink; /* keeps the reads below from being optimised away */

/* Reads every field a decoded frame exposes, so ASan sees any bad bound. */
static void touch(const struct xcb_hdr *h, const uint8_t *p)
{
	struct xcb_result r;
	struct xcb_histo x;
	struct xcb_samples s;
	struct xcb_done d;
	struct xcb_ack a;
	size_t pos = 0, kl, vl;
	const char *k, *v;

	switch (h->type) {
	case XCB_T_RESULT:
		if (xcb_dec_result(p, h->length, &r) == XCB_OK)
			sink += r.count + r.p50 + r.flags;
		break;
	case XCB_T_HISTO:
		if (xcb_dec_histo(p, h->length, &x) == XCB_OK) {
			assert((uint64_t)x.first + x.n <= XCB_HISTO_BUCKETS);
			for (unsigned i = 0; i < x.n; i++)
				sink += xcb_histo_count(&x, i) + xcb_histo_low(x.first + i);
		}
		break;
	case XCB_T_SAMPLES:
		if (xcb_dec_samples(p, h->length, &s) == XCB_OK)
			for (unsigned i = 0; i < s.n; i++)
				sink += xcb_sample(&s, i);
		break;
	case XCB_T_DONE:
		if (xcb_dec_done(p, h->length, &d) == XCB_OK)
			sink += d.frames;
		break;
	case XCB_T_ACK:
		if (xcb_dec_ack(p, h->length, &a) == XCB_OK)
			sink += a.status + a.sack[31];
		break;
	default:
		while (xcb_kv_next((const char *)p, h->length, &pos, &k, &kl, &v, &vl)) {
			assert(k >= (const char *)p && k + kl <= (const char *)p + h->length);
			assert(v >= (const char *)p && v + vl <= (const char *)p + h->length);
			if (kl)
				sink += (uint8_t)k[kl - 1];
			if (vl)
				sink += (uint8_t)v[vl - 1];
		}
	}
}

static void repair(uint8_t *f, size_t n, unsigned pin)
{
	uint32_t crc;

	xcb_put32(f, XCB_MAGIC);
	f[4] = XCB_VERSION;
	xcb_put16(f + 6, (uint16_t)(n - XCB_HDR_LEN));
	xcb_put64(f + 8, 0x00f0220000000000ull + pin);
	crc = xcb_crc32(0, f, 20);
	crc = xcb_crc32(crc, f + XCB_HDR_LEN, n - XCB_HDR_LEN);
	xcb_put32(f + 20, crc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct sockaddr_in from = { .sin_family = AF_INET };
	uint8_t out[XCB_FRAME_MAX + 16];
	char line[XCB_TEXT_MAX];
	struct xcb_hdr h;
	const uint8_t *p;
	uint8_t *f;
	size_t n;
	int rc, mode;

	if (size < 1)
		return 0;
	mode = data[0];
	n = size - 1;
	/* An exact-size heap copy: ASan flags any read past the datagram. */
	f = malloc(n ? n : 1);
	memcpy(f, data + 1, n);
	if ((mode & 1) && n >= XCB_HDR_LEN && n <= XCB_FRAME_MAX) {
		repair(f, n, (unsigned)mode >> 5);
		rc = xcb_decode(f, n, &h, &p);
		assert(rc == XCB_OK || rc == XCB_E_TYPE);
	}
	if (xcb_decode(f, n, &h, &p) == XCB_OK)
		touch(&h, p);
	handle(f, n, &from);

	/* The same bytes as a console line. */
	rc = xcb_text_decode((const char *)f, n, out, XCB_FRAME_MAX);
	assert(rc <= XCB_FRAME_MAX);
	if (rc > 0 && xcb_decode(out, (size_t)rc, &h, &p) == XCB_OK)
		touch(&h, p);

	/* Round trip through the serial framing. */
	if (n <= XCB_FRAME_MAX) {
		size_t l = xcb_text_encode(line, sizeof(line), f, n);

		assert(l > 0 && line[l - 1] == '\n');
		rc = xcb_text_decode(line, l, out, sizeof(out));
		assert(n == 0 ? rc < 0 : (rc == (int)n && memcmp(out, f, n) == 0));
	}
	free(f);
	harness_sync();
	return 0;
}
