/*
 * xcb_text.c — serial-line framing of xcbench frames: one frame per line,
 * "XCB1 " + standard base64 (RFC 4648, with '=' padding) of the whole binary
 * frame + "\n". For machines whose NIC the payload cannot drive, and for QEMU
 * consoles captured to a file; `xcbench ingest` turns the lines back into
 * frames. Freestanding like xcb_proto.c: no libc, no allocation.
 *
 * The decoder is tolerant because a console interleaves other output: the
 * prefix may appear anywhere in the line (after noise or a kernel log
 * prefix), CR/LF and anything after the first non-base64 character are
 * ignored. Integrity comes from the frame's own CRC, not from this layer.
 */
#include "xcb_proto.h"

static const char b64[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t xcb_text_encode(char *out, size_t cap, const void *frame, size_t len)
{
	const uint8_t *f = frame;
	size_t need = 5 + (len + 2) / 3 * 4 + 1, o = 0;

	if (len > XCB_FRAME_MAX || cap < need)
		return 0;
	for (const char *p = XCB_TEXT_PREFIX; *p; p++)
		out[o++] = *p;
	for (size_t i = 0; i < len; i += 3) {
		uint32_t v = (uint32_t)f[i] << 16;

		if (i + 1 < len)
			v |= (uint32_t)f[i + 1] << 8;
		if (i + 2 < len)
			v |= f[i + 2];
		out[o++] = b64[(v >> 18) & 63];
		out[o++] = b64[(v >> 12) & 63];
		out[o++] = i + 1 < len ? b64[(v >> 6) & 63] : '=';
		out[o++] = i + 2 < len ? b64[v & 63] : '=';
	}
	out[o++] = '\n';
	return o;
}

static int b64val(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

int xcb_text_decode(const char *line, size_t len, uint8_t *frame, size_t cap)
{
	size_t i = 0, n = 0, o = 0, pad = 0;
	uint32_t acc = 0;
	int got = 0;

	/* Find the prefix anywhere in the line. */
	for (; i + 5 <= len; i++) {
		if (line[i] == 'X' && line[i + 1] == 'C' && line[i + 2] == 'B' &&
		    line[i + 3] == '1' && line[i + 4] == ' ') {
			got = 1;
			break;
		}
	}
	if (!got)
		return XCB_E_MAGIC;
	for (i += 5; i < len; i++) {
		int v = b64val(line[i]);

		if (line[i] == '=') {
			pad++;
			continue;
		}
		if (v < 0 || pad)
			break; /* end of the base64 run: the rest is noise */
		acc = acc << 6 | (uint32_t)v;
		if (++n % 4 == 0) {
			if (o + 3 > cap)
				return XCB_E_OVERSIZE;
			frame[o++] = (uint8_t)(acc >> 16);
			frame[o++] = (uint8_t)(acc >> 8);
			frame[o++] = (uint8_t)acc;
			acc = 0;
		}
	}
	/* A tail of 2 or 3 characters carries 1 or 2 bytes; 1 is impossible. */
	switch (n % 4) {
	case 0:
		break;
	case 2:
		if (o + 1 > cap)
			return XCB_E_OVERSIZE;
		frame[o++] = (uint8_t)(acc >> 4);
		break;
	case 3:
		if (o + 2 > cap)
			return XCB_E_OVERSIZE;
		frame[o++] = (uint8_t)(acc >> 10);
		frame[o++] = (uint8_t)(acc >> 2);
		break;
	default:
		return XCB_E_LENGTH;
	}
	if (o == 0)
		return XCB_E_SHORT;
	return (int)o;
}
