/* compress/inflate.c — raw DEFLATE (RFC 1951) decoder, one source for both
 * images: the UEFI stub (boot/efi/stub.c, 64-bit, position independent) and
 * the BIOS loader (loader/unpack.c, 32-bit protected mode) inflate the
 * payload with it; compress/pack.py writes the stream (Python's zlib). About
 * 15 % smaller than the LZ4 the BIOS image had (54,816 against 64,765 bytes
 * for the same filtered payload), which keeps both images under 64 KiB.
 * Small rather than fast (canonical Huffman codes decoded a bit at a time:
 * under TCG the BIOS boot to its first line took no measurably longer than
 * with LZ4), position independent (tables hold numbers, never pointers), no
 * library calls, sizes in size_t (native width: 32-bit code stays small),
 * and it trusts nothing: a corrupt or truncated stream ends in -1, never in a
 * write outside the output. */
#include "compress/inflate.h"

struct stream {
	const uint8_t *in;
	size_t in_len, in_pos;
	uint32_t bitbuf, bitcnt;
	uint8_t *out;
	size_t cap, pos;
	int bad;
};

/* A canonical Huffman code: how many codes of each length, then the symbols
 * in code order. */
struct huffman {
	uint16_t count[16];
	uint16_t symbol[288];
};

/* The next `need` bits of the stream, least significant first (RFC 1951
 * 3.1.1); past the end of the input, 0 and s->bad set. */
static uint32_t bits(struct stream *s, unsigned need)
{
	while (s->bitcnt < need) {
		if (s->in_pos >= s->in_len) {
			s->bad = 1;
			return 0;
		}
		s->bitbuf |= (uint32_t)s->in[s->in_pos++] << s->bitcnt;
		s->bitcnt += 8;
	}
	uint32_t v = s->bitbuf & ((1u << need) - 1);
	s->bitbuf >>= need;
	s->bitcnt -= need;
	return v;
}

/* Codes are sent most significant bit first, one bit at a time. */
static int decode(struct stream *s, const struct huffman *h)
{
	int code = 0, first = 0, index = 0;
	for (int len = 1; len < 16; len++) {
		code |= (int)bits(s, 1);
		int count = h->count[len];
		if (code - first < count)
			return h->symbol[index + code - first];
		index += count;
		first = (first + count) << 1;
		code <<= 1;
	}
	return -1; /* no such code (incomplete set, or garbage) */
}

/* Builds h from code lengths; -1 if over-subscribed (not a prefix code). An
 * incomplete code is accepted: decode() refuses the missing codes. */
static int build(struct huffman *h, const uint16_t *length, int n)
{
	uint16_t offs[16];
	for (int i = 0; i < 16; i++)
		h->count[i] = 0;
	for (int i = 0; i < n; i++)
		h->count[length[i]]++;
	int left = 1;
	for (int len = 1; len < 16; len++) {
		left = (left << 1) - h->count[len];
		if (left < 0)
			return -1;
	}
	offs[1] = 0;
	for (int len = 1; len < 15; len++)
		offs[len + 1] = offs[len] + h->count[len];
	for (int i = 0; i < n; i++)
		if (length[i])
			h->symbol[offs[length[i]]++] = (uint16_t)i;
	return 0;
}

/* Length and distance symbols: base values and extra bits (RFC 1951 3.2.5). */
static const uint16_t len_base[29] = { 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
	35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258 };
static const uint8_t len_extra[29] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
	3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0 };
static const uint16_t dist_base[30] = { 1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
	257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577 };
static const uint8_t dist_extra[30] = { 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
	7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13 };

/* One block's literals and matches, until end-of-block (256). */
static int codes(struct stream *s, const struct huffman *lit, const struct huffman *dist)
{
	for (;;) {
		int sym = decode(s, lit);
		if (sym < 0 || s->bad)
			return -1;
		if (sym < 256) {
			if (s->pos >= s->cap)
				return -1;
			s->out[s->pos++] = (uint8_t)sym;
			continue;
		}
		if (sym == 256)
			return 0;
		sym -= 257;
		if (sym >= 29)
			return -1;
		size_t len = len_base[sym] + bits(s, len_extra[sym]);
		int dsym = decode(s, dist);
		if (dsym < 0 || dsym >= 30 || s->bad)
			return -1;
		size_t d = dist_base[dsym] + bits(s, dist_extra[dsym]);
		if (s->bad || d > s->pos || len > s->cap - s->pos)
			return -1;
		for (size_t i = 0; i < len; i++, s->pos++) /* may overlap its own output */
			s->out[s->pos] = s->out[s->pos - d];
	}
}

/* A stored block: LEN, NLEN (its complement) and LEN raw bytes. */
static int stored(struct stream *s)
{
	s->bitbuf = 0; /* to the byte boundary */
	s->bitcnt = 0;
	if (s->in_len - s->in_pos < 4)
		return -1;
	const uint8_t *p = s->in + s->in_pos;
	uint32_t len = p[0] | (uint32_t)p[1] << 8, nlen = p[2] | (uint32_t)p[3] << 8;
	s->in_pos += 4;
	if ((len ^ 0xffff) != nlen || len > s->in_len - s->in_pos || len > s->cap - s->pos)
		return -1;
	for (uint32_t i = 0; i < len; i++)
		s->out[s->pos++] = s->in[s->in_pos++];
	return 0;
}

/* A block in the fixed codes of RFC 1951 3.2.6. */
static int fixed(struct stream *s)
{
	struct huffman lit, dist;
	uint16_t length[288];
	for (int i = 0; i < 288; i++)
		length[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
	build(&lit, length, 288);
	for (int i = 0; i < 30; i++)
		length[i] = 5;
	build(&dist, length, 30);
	return codes(s, &lit, &dist);
}

/* A block that sends its own codes first (RFC 1951 3.2.7): the code-length
 * code, then the literal/length and distance code lengths in it. */
static int dynamic(struct stream *s)
{
	static const uint8_t order[19] = { 16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15 };
	struct huffman lit, dist;
	uint16_t length[320];
	int nlen = (int)bits(s, 5) + 257, ndist = (int)bits(s, 5) + 1, ncode = (int)bits(s, 4) + 4;
	if (s->bad || nlen > 286 || ndist > 30)
		return -1;
	for (int i = 0; i < 19; i++)
		length[order[i]] = i < ncode ? (uint16_t)bits(s, 3) : 0;
	if (s->bad || build(&lit, length, 19) < 0) /* the code-length code */
		return -1;
	for (int i = 0; i < nlen + ndist;) {
		int sym = decode(s, &lit), rep;
		uint16_t val = 0;
		if (sym < 0 || s->bad)
			return -1;
		if (sym < 16) {
			length[i++] = (uint16_t)sym;
			continue;
		}
		if (sym == 16) {
			if (i == 0)
				return -1;
			val = length[i - 1];
			rep = 3 + (int)bits(s, 2);
		} else if (sym == 17) {
			rep = 3 + (int)bits(s, 3);
		} else {
			rep = 11 + (int)bits(s, 7);
		}
		if (s->bad || i + rep > nlen + ndist)
			return -1;
		while (rep--)
			length[i++] = val;
	}
	if (length[256] == 0 || build(&lit, length, nlen) < 0 || build(&dist, length + nlen, ndist) < 0)
		return -1;
	return codes(s, &lit, &dist);
}

/* Blocks until the one marked last (see compress/inflate.h). */
ptrdiff_t inflate_raw(const uint8_t *in, size_t in_len, uint8_t *out, size_t cap)
{
	struct stream s = { .in = in, .in_len = in_len, .out = out, .cap = cap };
	int last, rc;
	do {
		last = (int)bits(&s, 1);
		uint32_t type = bits(&s, 2);
		if (s.bad)
			return -1;
		rc = type == 0 ? stored(&s) : type == 1 ? fixed(&s) : type == 2 ? dynamic(&s) : -1;
		if (rc)
			return -1;
	} while (!last);
	return (ptrdiff_t)s.pos;
}
