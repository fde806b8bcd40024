/*
 * httpbody.h — an HTTP/1.1 answer's body as its headers frame it (chunked,
 * Content-Length, or to the connection's end), for client.c: whether the
 * body arrived whole, so an answer cut short is an error, not a shorter
 * answer.
 */
#ifndef XCB_HTTPBODY_H
#define XCB_HTTPBODY_H

#include <stddef.h>
#include <stdint.h>

enum { BODY_TO_EOF, BODY_LENGTH, BODY_CHUNKED };

struct http_body {
	int mode;      /* BODY_*: from the headers */
	int state;     /* chunked: where in the framing (httpbody.c) */
	int digits;    /* hex digits of the chunk size read so far */
	int bad;       /* the framing is not HTTP's */
	uint64_t left; /* body bytes left (length), or of this chunk (chunked) */
};

/* Takes the framing of the answer whose headers (status line first) are
 * head[0..len). */
void body_init(struct http_body *b, const char *head, size_t len);
/* Passes the body bytes among p[0..n) to sink (framing left out): 0, or
 * the first non-zero sink return. */
int body_feed(struct http_body *b, const char *p, size_t n,
	      int (*sink)(void *ctx, const char *p, size_t n), void *ctx);
/* 1 when the whole body arrived (for BODY_TO_EOF: the connection's end is
 * its end), 0 when it was cut short or its framing was bad. */
int body_whole(const struct http_body *b);

#endif
