/*
 * mhd_stub.h — an in-process stand-in for the few libmicrohttpd calls
 * xcbenchd makes, so a fuzzer can drive the daemon's real request handler
 * (routing, query/path/body parsing, SQL, JSON and CSV output) without
 * sockets. mhd_request() plays one request the way libmicrohttpd would:
 * headers-only call, body in chunks, final call, completion callback; it
 * drains streamed responses and checks what a client would rely on.
 */
#ifndef MHD_STUB_H
#define MHD_STUB_H

#include <stddef.h>

struct stub_reply {
	unsigned status;        /* 0: the handler queued nothing */
	char ctype[128];        /* Content-Type, "" if none */
	char *body;             /* NUL-terminated, malloc'd (capped, see STUB_BODY_MAX) */
	size_t len;
	int handler_no;         /* the handler returned MHD_NO (connection dropped) */
};
#define STUB_BODY_MAX (4u << 20)

/* One name/value pair of a query string or a header block. */
struct stub_kv {
	const char *k, *v;
};

/* path: already percent-decoded, as libmicrohttpd hands it to the handler. */
int mhd_request(const char *method, const char *path, const struct stub_kv *args, size_t nargs,
		const struct stub_kv *hdrs, size_t nhdrs, const char *body, size_t blen,
		struct stub_reply *out);
void stub_reply_free(struct stub_reply *r);
/* libmicrohttpd's percent-decoding (in place; returns the new length). */
size_t stub_unescape(char *s);

#endif
