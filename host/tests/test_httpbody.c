/*
 * test_httpbody.c — cli/httpbody.c, the client's reading of an answer's
 * framing: a chunked body is whole only with its last chunk (and the
 * trailer's empty line), whatever the reads that bring it are cut into; a
 * Content-Length body only with that many bytes; an answer of neither ends
 * with its connection. The daemon's real cut (t-csv-cut) is the case that
 * matters; here every split of the bytes, and framings it does not send.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "httpbody.h"

struct got {
	char p[256];
	size_t n;
};

static int sink(void *ctx, const char *p, size_t n)
{
	struct got *g = ctx;

	assert_true(g->n + n < sizeof(g->p));
	memcpy(g->p + g->n, p, n);
	g->n += n;
	return 0;
}

/* The body of head+wire fed in reads of at most step bytes: its bytes into
 * g, body_whole's answer returned. */
static int feed(const char *head, const char *wire, size_t step, struct got *g)
{
	struct http_body b;
	size_t n = strlen(wire);

	memset(g, 0, sizeof(*g));
	body_init(&b, head, strlen(head));
	for (size_t off = 0; off < n; off += step)
		assert_int_equal(body_feed(&b, wire + off, n - off < step ? n - off : step, sink, g), 0);
	return body_whole(&b);
}

static const char chunked_head[] = "HTTP/1.1 200 OK\r\nContent-Type: text/csv\r\n"
				   "Transfer-Encoding: chunked\r\n\r\n";

static void chunked_every_split(void **st)
{
	/* two chunks, one with an extension, then the last one and a trailer */
	const char wire[] = "4\r\na,b\n\r\n17;x=y\r\n1,\"q \"\"x\"\"\"\r\n2,3\r\n4,5\r\n\r\n0\r\nX-T: 1\r\n\r\n";
	const char want[] = "a,b\n1,\"q \"\"x\"\"\"\r\n2,3\r\n4,5\r\n";
	struct got g;

	(void)st;
	for (size_t step = 1; step <= sizeof(wire); step++) {
		assert_int_equal(feed(chunked_head, wire, step, &g), 1);
		assert_int_equal(g.n, strlen(want));
		assert_memory_equal(g.p, want, g.n);
	}
}

static void chunked_cut_anywhere(void **st)
{
	const char wire[] = "4\r\na,b\n\r\n3\r\n1,2\r\n0\r\n\r\n";
	char part[sizeof(wire)];
	struct got g;

	(void)st;
	/* every prefix short of the last chunk's line and the empty one */
	for (size_t n = 0; n < strlen(wire); n++) {
		memcpy(part, wire, n);
		part[n] = 0;
		assert_int_equal(feed(chunked_head, part, 3, &g), 0);
	}
	assert_int_equal(feed(chunked_head, wire, 3, &g), 1);
	/* upper-case hex, and bytes after the body that are not its */
	assert_int_equal(feed(chunked_head, "A\r\n0123456789\r\n0\r\n\r\nHTTP/1.1", 5, &g), 1);
	assert_int_equal(g.n, 10);
}

static void chunked_bad(void **st)
{
	struct got g;

	(void)st;
	assert_int_equal(feed(chunked_head, "zz\r\nab\r\n0\r\n\r\n", 4, &g), 0);   /* no hex size */
	assert_int_equal(feed(chunked_head, "\r\nab\r\n0\r\n\r\n", 4, &g), 0);     /* no size at all */
	assert_int_equal(feed(chunked_head, "2\r\nabXY0\r\n\r\n", 4, &g), 0);      /* no CRLF after data */
	assert_int_equal(feed(chunked_head, "fffffffffffffffff\r\n", 4, &g), 0); /* past 64 bits */
}

static void length_and_eof(void **st)
{
	struct got g;

	(void)st;
	assert_int_equal(feed("HTTP/1.1 404 Not Found\r\ncontent-length: 5\r\n\r\n", "{\"a\"", 2, &g), 0);
	assert_int_equal(feed("HTTP/1.1 404 Not Found\r\ncontent-length: 5\r\n\r\n", "{\"a\"}", 2, &g), 1);
	assert_int_equal(feed("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n", "{}extra", 3, &g), 1);
	assert_int_equal(g.n, 2);
	assert_int_equal(feed("HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n", "{}", 3, &g), 0);
	/* neither: the connection's end is the body's (an HTTP/1.0 answer) */
	assert_int_equal(feed("HTTP/1.0 200 OK\r\nContent-Type: text/csv\r\n\r\n", "a\n1\n", 1, &g), 1);
	assert_int_equal(g.n, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(chunked_every_split),
		cmocka_unit_test(chunked_cut_anywhere),
		cmocka_unit_test(chunked_bad),
		cmocka_unit_test(length_and_eof),
	};
	return cmocka_run_group_tests_name("httpbody", tests, NULL, NULL);
}
