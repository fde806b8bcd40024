/*
 * httpbody.c — takes an HTTP/1.1 answer's body out of its framing (see
 * httpbody.h). The client asks in HTTP/1.1 so that a streamed answer (a
 * CSV export, whose length nobody knows ahead) comes chunked: its last,
 * empty chunk is how the daemon says the export is whole. In HTTP/1.0 such
 * an answer ends with the connection, so one the daemon cut short (a store
 * read that failed mid-export) read as a whole, shorter CSV.
 */
#include <stdlib.h>
#include <string.h>

#include "httpbody.h"

/* Where a chunked body's reader is: a chunk's size line (its digits, then
 * any extension), its data and the CRLF after, the trailer lines after the
 * last chunk (at a line's start, inside one), the end. */
enum { C_SIZE, C_EXT, C_DATA, C_DATA_END, C_TRAILER_START, C_TRAILER, C_DONE };

/* The value of header name (lower case, with its ':') in head, or NULL. */
static const char *header(const char *head, size_t len, const char *name, size_t *vlen)
{
	size_t n = strlen(name);

	for (const char *p = head; p && p < head + len;) {
		const char *eol = memchr(p, '\n', (size_t)(head + len - p));

		if (!eol)
			eol = head + len;
		if ((size_t)(eol - p) > n && !strncasecmp(p, name, n)) {
			const char *v = p + n;

			while (v < eol && (*v == ' ' || *v == '\t'))
				v++;
			*vlen = (size_t)(eol - v);
			while (*vlen && (v[*vlen - 1] == '\r' || v[*vlen - 1] == ' '))
				(*vlen)--;
			return v;
		}
		p = eol + 1;
	}
	return NULL;
}

void body_init(struct http_body *b, const char *head, size_t len)
{
	size_t vlen;
	const char *te = header(head, len, "transfer-encoding:", &vlen);
	const char *cl;

	memset(b, 0, sizeof(*b));
	if (te && vlen >= 7 && !strncasecmp(te + vlen - 7, "chunked", 7)) {
		b->mode = BODY_CHUNKED;
		b->state = C_SIZE;
	} else if ((cl = header(head, len, "content-length:", &vlen))) {
		char *end;

		b->mode = BODY_LENGTH;
		b->left = strtoull(cl, &end, 10);
		b->bad = end == cl || end != cl + vlen;
	}
}

/* The hex digit c's value, or -1. */
static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The chunk size line's end (its LF): the chunk's data, or the trailer
 * after the last (empty) chunk. */
static void size_line_end(struct http_body *b)
{
	if (!b->digits)
		b->bad = 1;
	b->state = b->left ? C_DATA : C_TRAILER_START;
}

int body_feed(struct http_body *b, const char *p, size_t n,
	      int (*sink)(void *ctx, const char *p, size_t n), void *ctx)
{
	const char *e = p + n;
	int rc, h;

	if (b->mode != BODY_CHUNKED) {
		if (b->mode == BODY_LENGTH && n > b->left)
			n = (size_t)b->left; /* past the body: not the answer's */
		b->left -= b->mode == BODY_LENGTH ? n : 0;
		return n ? sink(ctx, p, n) : 0;
	}
	while (p < e && !b->bad) {
		switch (b->state) {
		case C_SIZE:
			if ((h = hexval(*p)) >= 0 && b->left >> 60 == 0) {
				b->left = b->left << 4 | (uint64_t)h;
				b->digits++;
			} else if (*p == ';' || *p == ' ' || *p == '\t') {
				b->state = C_EXT;
			} else if (*p == '\n') {
				size_line_end(b);
			} else if (*p != '\r') {
				b->bad = 1;
			}
			p++;
			break;
		case C_EXT:
			if (*p++ == '\n')
				size_line_end(b);
			break;
		case C_DATA: {
			size_t k = (size_t)(e - p) < b->left ? (size_t)(e - p) : (size_t)b->left;

			if ((rc = sink(ctx, p, k)))
				return rc;
			p += k;
			b->left -= k;
			if (!b->left)
				b->state = C_DATA_END;
			break;
		}
		case C_DATA_END:
			if (*p == '\n') {
				b->state = C_SIZE;
				b->digits = 0;
			} else if (*p != '\r') {
				b->bad = 1;
			}
			p++;
			break;
		case C_TRAILER_START:
			if (*p == '\n')
				b->state = C_DONE;
			else if (*p != '\r')
				b->state = C_TRAILER;
			p++;
			break;
		case C_TRAILER:
			if (*p++ == '\n')
				b->state = C_TRAILER_START;
			break;
		default: /* C_DONE: nothing after the body is the answer's */
			return 0;
		}
	}
	return 0;
}

int body_whole(const struct http_body *b)
{
	if (b->bad)
		return 0;
	return b->mode == BODY_CHUNKED ? b->state == C_DONE : b->mode == BODY_LENGTH ? b->left == 0 : 1;
}
