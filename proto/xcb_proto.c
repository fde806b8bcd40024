/*
 * xcb_proto.c — encoder/decoder of xcbench frames (spec: proto/README.md).
 * Freestanding: no libc calls at all (byte loops instead of memcpy), no
 * allocation, no globals except const CRC tables (and, in hosted builds
 * only, the sliced CRC's tables, filled once before main), so the firmware
 * links it unchanged and the host unit-tests the very same code.
 */
#include "xcb_proto.h"
#include "xcb_histo.h"

/* CRC-32 (IEEE 802.3, reflected, poly 0xEDB88320, as zlib's crc32()), four
 * bits at a time: a 64-byte table is small enough for the payload image and
 * fast enough for 1.5 KB frames. */
static const uint32_t crc_nibble[16] = {
	0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4,
	0x4db26158, 0x5005713c, 0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
	0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

uint32_t xcb_crc32_nibble(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		crc = (crc >> 4) ^ crc_nibble[crc & 15];
		crc = (crc >> 4) ^ crc_nibble[crc & 15];
	}
	return ~crc;
}

#if __STDC_HOSTED__
/* The daemon's collector checks every frame of up to 1000 machines on one
 * thread, and at ~5 cycles a byte the nibble loop was a quarter of its CPU
 * (bench/ingest.sh under perf): hosted builds take eight bytes a step
 * ("slicing-by-8": table k maps a byte to its CRC contribution k bytes
 * ahead of the end), ~1 cycle a byte from 8 KiB of tables that would not
 * belong in the payload image. test_proto checks it against the nibble
 * loop on every length and alignment that matters. */
static uint32_t crc_slice[8][256];

/* Fills crc_slice before main(), so no caller, on any thread, sees it
 * half-built and nothing needs a lock or a once-flag. */
__attribute__((constructor)) static void crc_slice_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (c & 1 ? 0xedb88320u : 0);
		crc_slice[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int k = 1; k < 8; k++)
			crc_slice[k][i] = (crc_slice[k - 1][i] >> 8) ^ crc_slice[0][crc_slice[k - 1][i] & 0xff];
}

uint32_t xcb_crc32(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	crc = ~crc;
	while (len >= 8) {
		/* Little-endian byte order by hand, as the wire format is. */
		uint32_t lo = crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
		uint32_t hi = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;

		crc = crc_slice[7][lo & 0xff] ^ crc_slice[6][lo >> 8 & 0xff] ^
		      crc_slice[5][lo >> 16 & 0xff] ^ crc_slice[4][lo >> 24] ^
		      crc_slice[3][hi & 0xff] ^ crc_slice[2][hi >> 8 & 0xff] ^
		      crc_slice[1][hi >> 16 & 0xff] ^ crc_slice[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = (crc >> 8) ^ crc_slice[0][(crc ^ *p++) & 0xff];
	return ~crc;
}
#else
uint32_t xcb_crc32(uint32_t crc, const void *buf, size_t len)
{
	return xcb_crc32_nibble(crc, buf, len);
}
#endif

static void copy(uint8_t *d, const uint8_t *s, size_t n)
{
	while (n--)
		*d++ = *s++;
}

static void zero(uint8_t *d, size_t n)
{
	while (n--)
		*d++ = 0;
}

/* Writes the header in front of a payload already at buf + XCB_HDR_LEN. */
static size_t finish(uint8_t *b, const struct xcb_hdr *h, unsigned type, size_t len)
{
	uint32_t crc;

	xcb_put32(b, XCB_MAGIC);
	b[4] = XCB_VERSION;
	b[5] = (uint8_t)type;
	xcb_put16(b + 6, (uint16_t)len);
	xcb_put64(b + 8, h->token);
	xcb_put32(b + 16, h->seq);
	crc = xcb_crc32(0, b, 20);
	crc = xcb_crc32(crc, b + XCB_HDR_LEN, len);
	xcb_put32(b + 20, crc);
	return XCB_HDR_LEN + len;
}

/* Room check shared by every encoder: 0 means "does not fit". */
static int fits(size_t cap, size_t len)
{
	return len <= XCB_PAYLOAD_MAX && cap >= XCB_HDR_LEN + len;
}

/* A frame of type whose payload (len bytes) the caller laid out at payload:
 * the fixed-size frames (DONE, ACK) build theirs on the stack and come here. */
static size_t enc_payload(void *buf, size_t cap, const struct xcb_hdr *h, unsigned type,
			  const void *payload, size_t len)
{
	if (!fits(cap, len))
		return 0;
	copy((uint8_t *)buf + XCB_HDR_LEN, payload, len);
	return finish(buf, h, type, len);
}

size_t xcb_enc_frame(void *buf, size_t cap, const struct xcb_hdr *h,
		     const void *payload, size_t len)
{
	if (h->type < 1 || h->type > XCB_T_MAX)
		return 0;
	return enc_payload(buf, cap, h, h->type, payload, len);
}

size_t xcb_enc_text(void *buf, size_t cap, const struct xcb_hdr *h,
		    const char *text, size_t len)
{
	if (h->type != XCB_T_HELLO && h->type != XCB_T_CASE &&
	    h->type != XCB_T_LOG && h->type != XCB_T_ERROR)
		return 0;
	return xcb_enc_frame(buf, cap, h, text, len);
}

/* The RESULT layout, from xcb_schema.h: each field's offset (struct member =
 * wire offset; its width is the distance to the next one) and which one is
 * the reserved PAD. A byte table, not a copy per field: small in the image. */
#define RESULT_AT(name, bits, part) offsetof(struct xcb_result, name),
static const uint8_t result_at[XCB_N_RESULT_FIELDS + 1] = {
	XCB_RESULT_FIELDS(RESULT_AT) sizeof(struct xcb_result)
};
#undef RESULT_AT
#define IS_PAD_KEY 0
#define IS_PAD_V1 0
#define IS_PAD_APPENDED 0
#define IS_PAD_PAD 1
#define RESULT_PAD(name, bits, part) | ((uint64_t)IS_PAD_##part << XCB_RI_##name)
static const uint64_t result_pad = 0 XCB_RESULT_FIELDS(RESULT_PAD);
#undef RESULT_PAD
_Static_assert(XCB_N_RESULT_FIELDS <= 64, "result_pad is one bit per field");
_Static_assert(sizeof(struct xcb_result) <= UINT8_MAX, "result_at[] holds offsets in a byte");

size_t xcb_enc_result(void *buf, size_t cap, const struct xcb_hdr *h, const struct xcb_result *r)
{
	uint8_t *p = (uint8_t *)buf + XCB_HDR_LEN;

	if (!fits(cap, XCB_RESULT_LEN_FULL))
		return 0;
	for (unsigned i = 0; i < XCB_N_RESULT_FIELDS; i++) {
		unsigned at = result_at[i], w = result_at[i + 1] - at;
		const uint8_t *m = (const uint8_t *)r + at;
		uint64_t v = w == 8 ? *(const uint64_t *)m : w == 4 ? *(const uint32_t *)m : *(const uint16_t *)m;

		if (result_pad >> i & 1)
			v = 0; /* reserved: 0 whatever the caller left there */
		for (unsigned k = 0; k < w; k++, v >>= 8)
			p[at + k] = (uint8_t)v;
	}
	return finish(buf, h, XCB_T_RESULT, XCB_RESULT_LEN_FULL);
}

int xcb_dec_result(const uint8_t *p, size_t len, struct xcb_result *r)
{
	if (len < XCB_RESULT_LEN)
		return XCB_E_PAYLOAD;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* A little-endian machine: the wire is the struct's own layout (each
	 * member at its wire offset), so the fields the frame holds whole are
	 * one copy, the rest zero, and PAD zeroed after; the same values as
	 * the loop below, a tenth of its instructions (it was ~4k a RESULT,
	 * decoded by the collector and again by the writer: ~2 % of the
	 * daemon's perf samples at ingest). */
	unsigned whole = 0;

	while (whole < XCB_N_RESULT_FIELDS && result_at[whole + 1] <= len)
		whole++;
	__builtin_memcpy(r, p, result_at[whole]);
	__builtin_memset((uint8_t *)r + result_at[whole], 0, sizeof(*r) - result_at[whole]);
	for (unsigned i = 0; i < XCB_N_RESULT_FIELDS; i++)
		if (result_pad >> i & 1)
			__builtin_memset((uint8_t *)r + result_at[i], 0, result_at[i + 1] - result_at[i]);
	return XCB_OK;
#endif
	for (unsigned i = 0; i < XCB_N_RESULT_FIELDS; i++) {
		unsigned at = result_at[i], w = result_at[i + 1] - at;
		uint8_t *m = (uint8_t *)r + at;
		uint64_t v = 0;

		/* Appended fields: present only in longer (newer) RESULTs. */
		if (at + w <= len && !(result_pad >> i & 1))
			for (unsigned k = w; k--;)
				v = v << 8 | p[at + k];
		if (w == 8)
			*(uint64_t *)m = v;
		else if (w == 4)
			*(uint32_t *)m = (uint32_t)v;
		else
			*(uint16_t *)m = (uint16_t)v;
	}
	return XCB_OK;
}

/* HISTO and SAMPLES chunks start alike: u32 case_id, u16 rep, u16 initiator
 * (the row's key, as in RESULT) and u32 where the chunk starts (first bucket,
 * or index of the first value). */
static void put_chunk_key(uint8_t *p, uint32_t case_id, uint16_t rep, uint16_t initiator, uint32_t at)
{
	xcb_put32(p, case_id);
	xcb_put16(p + 4, rep);
	xcb_put16(p + 6, initiator);
	xcb_put32(p + 8, at);
}

static void get_chunk_key(const uint8_t *p, uint32_t *case_id, uint16_t *rep, uint16_t *initiator, uint32_t *at)
{
	*case_id = xcb_get32(p);
	*rep = xcb_get16(p + 4);
	*initiator = xcb_get16(p + 6);
	*at = xcb_get32(p + 8);
}

size_t xcb_enc_histo(void *buf, size_t cap, const struct xcb_hdr *h, const struct xcb_histo *x)
{
	uint8_t *p = (uint8_t *)buf + XCB_HDR_LEN;
	size_t len = XCB_HISTO_HDR_LEN + 4 * (size_t)x->n;

	if (x->n > XCB_HISTO_CHUNK || !fits(cap, len))
		return 0;
	put_chunk_key(p, x->case_id, x->rep, x->initiator, x->first);
	xcb_put16(p + 12, x->n);
	xcb_put16(p + 14, 0);
	for (unsigned i = 0; i < x->n; i++)
		xcb_put32(p + 16 + 4 * i, x->counts[i]);
	return finish(buf, h, XCB_T_HISTO, len);
}

int xcb_dec_histo(const uint8_t *p, size_t len, struct xcb_histo *x)
{
	if (len < XCB_HISTO_HDR_LEN)
		return XCB_E_PAYLOAD;
	get_chunk_key(p, &x->case_id, &x->rep, &x->initiator, &x->first);
	x->n = xcb_get16(p + 12);
	x->counts = NULL;
	x->raw = p + XCB_HISTO_HDR_LEN;
	/* The chunk must be exactly n counts, and must not run past the last
	 * bucket any 64-bit value can land in. */
	if (len != XCB_HISTO_HDR_LEN + 4 * (size_t)x->n)
		return XCB_E_PAYLOAD;
	if ((uint64_t)x->first + x->n > XCB_HISTO_BUCKETS)
		return XCB_E_PAYLOAD;
	return XCB_OK;
}

size_t xcb_enc_samples(void *buf, size_t cap, const struct xcb_hdr *h, const struct xcb_samples *s)
{
	uint8_t *p = (uint8_t *)buf + XCB_HDR_LEN;
	size_t len = XCB_SAMPLES_HDR_LEN + (size_t)s->width * s->n;

	if ((s->width != 4 && s->width != 8) || !fits(cap, len))
		return 0;
	put_chunk_key(p, s->case_id, s->rep, s->initiator, s->index);
	p[12] = s->width;
	p[13] = 0;
	xcb_put16(p + 14, s->n);
	for (unsigned i = 0; i < s->n; i++) {
		if (s->width == 8)
			xcb_put64(p + 16 + 8 * i, ((const uint64_t *)s->values)[i]);
		else
			xcb_put32(p + 16 + 4 * i, ((const uint32_t *)s->values)[i]);
	}
	return finish(buf, h, XCB_T_SAMPLES, len);
}

int xcb_dec_samples(const uint8_t *p, size_t len, struct xcb_samples *s)
{
	if (len < XCB_SAMPLES_HDR_LEN)
		return XCB_E_PAYLOAD;
	get_chunk_key(p, &s->case_id, &s->rep, &s->initiator, &s->index);
	s->width = p[12];
	s->n = xcb_get16(p + 14);
	s->values = NULL;
	s->raw = p + XCB_SAMPLES_HDR_LEN;
	if (s->width != 4 && s->width != 8)
		return XCB_E_PAYLOAD;
	if (len != XCB_SAMPLES_HDR_LEN + (size_t)s->width * s->n)
		return XCB_E_PAYLOAD;
	return XCB_OK;
}

size_t xcb_enc_done(void *buf, size_t cap, const struct xcb_hdr *h, const struct xcb_done *d)
{
	uint8_t p[XCB_DONE_LEN];

	xcb_put32(p, d->frames);
	xcb_put32(p + 4, d->status);
	return enc_payload(buf, cap, h, XCB_T_DONE, p, sizeof(p));
}

int xcb_dec_done(const uint8_t *p, size_t len, struct xcb_done *d)
{
	if (len < XCB_DONE_LEN)
		return XCB_E_PAYLOAD;
	d->frames = xcb_get32(p);
	d->status = xcb_get32(p + 4);
	return XCB_OK;
}

size_t xcb_enc_ack(void *buf, size_t cap, const struct xcb_hdr *h, const struct xcb_ack *a)
{
	uint8_t p[XCB_ACK_LEN];

	xcb_put32(p, a->status);
	copy(p + 4, a->sack, sizeof(a->sack));
	return enc_payload(buf, cap, h, XCB_T_ACK, p, sizeof(p));
}

int xcb_dec_ack(const uint8_t *p, size_t len, struct xcb_ack *a)
{
	if (len < XCB_ACK_LEN)
		return XCB_E_PAYLOAD;
	a->status = xcb_get32(p);
	copy(a->sack, p + 4, sizeof(a->sack));
	return XCB_OK;
}

int xcb_decode(const void *buf, size_t len, struct xcb_hdr *h, const uint8_t **payload)
{
	const uint8_t *b = buf;
	uint32_t crc;

	zero((uint8_t *)h, sizeof(*h));
	*payload = NULL;
	if (len < XCB_HDR_LEN)
		return XCB_E_SHORT;
	if (xcb_get32(b) != XCB_MAGIC)
		return XCB_E_MAGIC;
	h->version = b[4];
	h->type = b[5];
	h->length = xcb_get16(b + 6);
	h->token = xcb_get64(b + 8);
	h->seq = xcb_get32(b + 16);
	h->crc = xcb_get32(b + 20);
	if (h->version != XCB_VERSION)
		return XCB_E_VERSION;
	if (len > XCB_FRAME_MAX || h->length > XCB_PAYLOAD_MAX)
		return XCB_E_OVERSIZE;
	if ((size_t)h->length + XCB_HDR_LEN != len)
		return XCB_E_LENGTH;
	crc = xcb_crc32(0, b, 20);
	crc = xcb_crc32(crc, b + XCB_HDR_LEN, h->length);
	if (crc != h->crc)
		return XCB_E_CRC;
	if (h->type < 1 || h->type > XCB_T_MAX)
		return XCB_E_TYPE;
	*payload = b + XCB_HDR_LEN;
	return XCB_OK;
}

int xcb_kv_next(const char *text, size_t len, size_t *pos,
		const char **key, size_t *klen, const char **val, size_t *vlen)
{
	while (*pos < len) {
		size_t s = *pos, e = s, eq = (size_t)-1;

		while (e < len && text[e] != '\n') {
			if (text[e] == '=' && eq == (size_t)-1)
				eq = e;
			e++;
		}
		*pos = e < len ? e + 1 : e;
		if (eq == (size_t)-1 || eq == s)
			continue; /* not key=value: skipped, never an error */
		*key = text + s;
		*klen = eq - s;
		*val = text + eq + 1;
		*vlen = e - eq - 1;
		if (*vlen && (*val)[*vlen - 1] == '\r')
			(*vlen)--;
		return 1;
	}
	return 0;
}

/* Wide lines' pieces (xcb_proto.h). A piece line is key '+' I '/' N '='
 * PIECE '\n'; each piece but the last carries the same number of value bytes:
 * room less the line's other bytes, I counted at N's width. */
static unsigned ndigits(unsigned v)
{
	return v < 10 ? 1 : v < 100 ? 2 : 3;
}

static size_t piece_bytes(size_t klen, unsigned n, size_t room)
{
	size_t over = klen + 4 + 2 * (size_t)ndigits(n);	/* '+', '/', '=', '\n' */

	return room > over ? room - over : 0;
}

unsigned xcb_pieces(size_t klen, size_t vlen, size_t room)
{
	/* N's width decides the bytes a piece carries, which decides N: try
	 * each width, the first N that fits its own width is the answer. */
	for (unsigned n_max = 9; n_max <= XCB_PIECES_MAX; n_max = n_max * 10 + 9) {
		size_t each = piece_bytes(klen, n_max, room);
		size_t n = each ? (vlen + each - 1) / each : 0;

		if (!each)
			return 0;
		if (n <= n_max)
			return n ? (unsigned)n : 1;
	}
	return 0;
}

static size_t put_uint(char *out, unsigned v)
{
	unsigned d = ndigits(v);

	for (unsigned k = d; k--; v /= 10)
		out[k] = (char)('0' + v % 10);
	return d;
}

size_t xcb_piece_line(char *out, size_t cap, const char *key, size_t klen, const char *val,
		      size_t vlen, unsigned i, unsigned n, size_t room)
{
	size_t each = piece_bytes(klen, n, room), off, len, o = 0;

	if (n == 0 || n > XCB_PIECES_MAX || i == 0 || i > n || !each)
		return 0;
	off = (size_t)(i - 1) * each;
	if (off > vlen)
		return 0;
	len = vlen - off < each ? vlen - off : each;
	if (cap < klen + 4 + 2 * (size_t)ndigits(n) + len)
		return 0;
	for (size_t k = 0; k < klen; k++)
		out[o++] = key[k];
	out[o++] = '+';
	o += put_uint(out + o, i);
	out[o++] = '/';
	o += put_uint(out + o, n);
	out[o++] = '=';
	for (size_t k = 0; k < len; k++)
		out[o++] = val[off + k];
	out[o++] = '\n';
	return o;
}

/* A decimal in s[0..len) without leading zeros, 1..XCB_PIECES_MAX. */
static int piece_number(const char *s, size_t len, unsigned *v)
{
	*v = 0;
	if (len == 0 || len > 2 || s[0] == '0')
		return 0;
	for (size_t k = 0; k < len; k++) {
		if (s[k] < '0' || s[k] > '9')
			return 0;
		*v = *v * 10 + (unsigned)(s[k] - '0');
	}
	return 1;
}

int xcb_piece_key(const char *key, size_t klen, size_t *blen, unsigned *i, unsigned *n)
{
	size_t plus = klen, slash = klen;

	for (size_t k = klen; k--;) {
		if (key[k] == '/' && slash == klen)
			slash = k;
		if (key[k] == '+') {
			plus = k;
			break;
		}
	}
	if (plus == 0 || plus >= klen || slash == klen || slash < plus ||
	    !piece_number(key + plus + 1, slash - plus - 1, i) ||
	    !piece_number(key + slash + 1, klen - slash - 1, n) || *i > *n)
		return 0;
	*blen = plus;
	return 1;
}

const char *xcb_err_name(int err)
{
	static const char *const names[XCB_E_NREASONS] = {
		"ok", "short", "magic", "version", "type", "length",
		"oversize", "crc", "payload",
	};

	if (err > 0 || -err >= XCB_E_NREASONS)
		return "?";
	return names[-err];
}

const char *xcb_type_name(unsigned type)
{
	static const char *const names[] = {
		"?", "hello", "case", "result", "histo", "samples",
		"log", "error", "done", "ack",
	};

	return type <= XCB_T_MAX ? names[type] : "?";
}
