/*
 * mhd_stub.c — see mhd_stub.h. Implements exactly the libmicrohttpd entry
 * points host/src uses; MHD_start_daemon() only records the callbacks (and
 * aborts on an option it does not know, so a daemon change that needs more
 * of libmicrohttpd is noticed here rather than silently mis-fuzzed).
 */
#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <microhttpd.h>

#include "mhd_stub.h"

struct MHD_Daemon {
	int unused;
};
static struct MHD_Daemon the_daemon;
static MHD_AccessHandlerCallback handler;
static void *handler_cls;
static MHD_RequestCompletedCallback completed;
static void *completed_cls;

struct MHD_Connection {
	const struct stub_kv *args, *hdrs;
	size_t nargs, nhdrs;
	struct stub_reply *out;
	int queued;
	int suspends;  /* MHD_suspend_connection calls so far (stub_mu) */
	int suspended; /* stub_mu */
};

/* A suspended connection is resumed from another thread (the daemon's
 * power call, api_power_call.c), as libmicrohttpd allows. */
static pthread_mutex_t stub_mu = PTHREAD_MUTEX_INITIALIZER; /* pairs: every connection's suspends, suspended */
static pthread_cond_t stub_resumed = PTHREAD_COND_INITIALIZER; /* suspended cleared (under stub_mu): mhd_request waits */

struct MHD_Response {
	char *buf;
	size_t len;
	int fd;
	MHD_ContentReaderCallback crc;
	void *crc_cls;
	MHD_ContentReaderFreeCallback crfc;
	char ctype[128];
};

/* MHD_OPTION_UNESCAPE_CALLBACK, when the daemon sets one: as in libmicrohttpd,
 * it replaces the built-in %-decoding of the path and the query. */
static size_t (*unescape_cb)(void *cls, struct MHD_Connection *c, char *s);
static void *unescape_cls;

struct MHD_Daemon *MHD_start_daemon(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc,
				    void *apc_cls, MHD_AccessHandlerCallback dh, void *dh_cls, ...)
{
	va_list ap;
	int opt;

	(void)flags, (void)port, (void)apc, (void)apc_cls;
	handler = dh;
	handler_cls = dh_cls;
	va_start(ap, dh_cls);
	while ((opt = va_arg(ap, int)) != MHD_OPTION_END) {
		switch (opt) {
		case MHD_OPTION_NOTIFY_COMPLETED:
			completed = va_arg(ap, MHD_RequestCompletedCallback);
			completed_cls = va_arg(ap, void *);
			break;
		case MHD_OPTION_SOCK_ADDR:
			(void)va_arg(ap, void *);
			break;
		case MHD_OPTION_UNESCAPE_CALLBACK: /* the daemon's own %-decoding (keeps %00) */
			unescape_cb = va_arg(ap, size_t (*)(void *, struct MHD_Connection *, char *));
			unescape_cls = va_arg(ap, void *);
			break;
		case MHD_OPTION_NOTIFY_CONNECTION: /* no sockets: never called */
			(void)va_arg(ap, MHD_NotifyConnectionCallback);
			(void)va_arg(ap, void *);
			break;
		case MHD_OPTION_THREAD_POOL_SIZE:
		case MHD_OPTION_CONNECTION_TIMEOUT:
		case MHD_OPTION_CONNECTION_LIMIT:
		case MHD_OPTION_LISTENING_ADDRESS_REUSE:
		case MHD_OPTION_PER_IP_CONNECTION_LIMIT:
		case MHD_OPTION_CONNECTION_MEMORY_LIMIT:
			(void)va_arg(ap, unsigned int);
			break;
		default:
			fprintf(stderr, "mhd_stub: MHD_start_daemon option %d not modelled\n", opt);
			abort();
		}
	}
	va_end(ap);
	return &the_daemon;
}

/* As libmicrohttpd: no more handler calls until MHD_resume_connection. */
void MHD_suspend_connection(struct MHD_Connection *c)
{
	pthread_mutex_lock(&stub_mu);
	if (c->suspended) {
		fprintf(stderr, "mhd_stub: a suspended connection suspended again\n");
		abort();
	}
	c->suspended = 1;
	c->suspends++;
	pthread_mutex_unlock(&stub_mu);
}

/* Resuming a connection not suspended is undefined in libmicrohttpd. */
void MHD_resume_connection(struct MHD_Connection *c)
{
	pthread_mutex_lock(&stub_mu);
	if (!c->suspended) {
		fprintf(stderr, "mhd_stub: a connection not suspended resumed\n");
		abort();
	}
	c->suspended = 0;
	pthread_cond_broadcast(&stub_resumed);
	pthread_mutex_unlock(&stub_mu);
}

/* After a handler call: whether it suspended c (before: c's suspends
 * before the call); if so, waits until c is resumed. */
static int wait_resumed(struct MHD_Connection *c, int before)
{
	int was;

	pthread_mutex_lock(&stub_mu);
	was = c->suspends != before;
	while (c->suspended)
		pthread_cond_wait(&stub_resumed, &stub_mu);
	pthread_mutex_unlock(&stub_mu);
	return was;
}

void MHD_stop_daemon(struct MHD_Daemon *d)
{
	(void)d;
}

const char *MHD_lookup_connection_value(struct MHD_Connection *c, enum MHD_ValueKind kind,
					const char *key)
{
	if (kind == MHD_GET_ARGUMENT_KIND) {
		for (size_t i = 0; i < c->nargs; i++)
			if (strcmp(c->args[i].k, key) == 0)
				return c->args[i].v;
	} else if (kind == MHD_HEADER_KIND) {
		for (size_t i = 0; i < c->nhdrs; i++)
			if (strcasecmp(c->hdrs[i].k, key) == 0)
				return c->hdrs[i].v;
	}
	return NULL;
}

int MHD_get_connection_values(struct MHD_Connection *c, enum MHD_ValueKind kind, MHD_KeyValueIterator it,
			      void *cls)
{
	int n = 0;

	if (kind != MHD_GET_ARGUMENT_KIND) {
		fprintf(stderr, "mhd_stub: MHD_get_connection_values kind %d not modelled\n", (int)kind);
		abort();
	}
	for (size_t i = 0; i < c->nargs; i++) {
		n++;
		if (it && it(cls, kind, c->args[i].k, c->args[i].v) != MHD_YES)
			break;
	}
	return n;
}

/* No socket behind a stub connection: no address, fd or socket context. */
const union MHD_ConnectionInfo *MHD_get_connection_info(struct MHD_Connection *c,
						       enum MHD_ConnectionInfoType info, ...)
{
	(void)c, (void)info;
	return NULL;
}

static struct MHD_Response *new_response(void)
{
	struct MHD_Response *r = calloc(1, sizeof(*r));

	if (r)
		r->fd = -1;
	return r;
}

struct MHD_Response *MHD_create_response_from_buffer(size_t size, void *buffer,
						     enum MHD_ResponseMemoryMode mode)
{
	struct MHD_Response *r = new_response();

	if (!r)
		return NULL;
	r->buf = malloc(size + 1);
	memcpy(r->buf, buffer, size);
	r->buf[size] = 0;
	r->len = size;
	if (mode == MHD_RESPMEM_MUST_FREE)
		free(buffer);
	return r;
}

struct MHD_Response *MHD_create_response_from_callback(uint64_t size, size_t block_size,
						       MHD_ContentReaderCallback crc, void *crc_cls,
						       MHD_ContentReaderFreeCallback crfc)
{
	struct MHD_Response *r = new_response();

	(void)size, (void)block_size;
	if (!r)
		return NULL;
	r->crc = crc;
	r->crc_cls = crc_cls;
	r->crfc = crfc;
	return r;
}

struct MHD_Response *MHD_create_response_from_fd(size_t size, int fd)
{
	struct MHD_Response *r = new_response();

	(void)size;
	if (!r)
		return NULL;
	r->fd = fd;
	return r;
}

enum MHD_Result MHD_add_response_header(struct MHD_Response *r, const char *h, const char *v)
{
	/* libmicrohttpd refuses header values with CR/LF (response splitting). */
	if (strpbrk(h, "\r\n:") || strpbrk(v, "\r\n"))
		return MHD_NO;
	if (strcasecmp(h, "Content-Type") == 0)
		snprintf(r->ctype, sizeof(r->ctype), "%s", v);
	return MHD_YES;
}

static void append(struct stub_reply *o, const char *d, size_t n)
{
	if (o->len + n > STUB_BODY_MAX)
		n = STUB_BODY_MAX - o->len;
	o->body = realloc(o->body, o->len + n + 1);
	memcpy(o->body + o->len, d, n);
	o->len += n;
	o->body[o->len] = 0;
}

/* Plays the response to the end, as a client reading it all would. */
enum MHD_Result MHD_queue_response(struct MHD_Connection *c, unsigned int status,
				   struct MHD_Response *r)
{
	struct stub_reply *o = c->out;

	if (c->queued) {
		fprintf(stderr, "mhd_stub: a second response queued for one request\n");
		abort();
	}
	c->queued = 1;
	o->status = status;
	snprintf(o->ctype, sizeof(o->ctype), "%s", r->ctype);
	append(o, "", 0);
	if (r->buf) {
		append(o, r->buf, r->len);
	} else if (r->crc) {
		char chunk[32 * 1024];
		uint64_t pos = 0;

		for (;;) {
			ssize_t n = r->crc(r->crc_cls, pos, chunk, sizeof(chunk));

			if (n == MHD_CONTENT_READER_END_OF_STREAM || n == MHD_CONTENT_READER_END_WITH_ERROR)
				break;
			if (n < 0 || (size_t)n > sizeof(chunk)) {
				fprintf(stderr, "mhd_stub: content reader returned %zd\n", n);
				abort();
			}
			append(o, chunk, (size_t)n);
			pos += (uint64_t)n;
			if (o->len >= STUB_BODY_MAX)
				break;
		}
	} else if (r->fd >= 0) {
		char chunk[4096];
		ssize_t n;

		while ((n = read(r->fd, chunk, sizeof(chunk))) > 0 && o->len < STUB_BODY_MAX)
			append(o, chunk, (size_t)n);
	}
	return MHD_YES;
}

void MHD_destroy_response(struct MHD_Response *r)
{
	if (!r)
		return;
	if (r->crfc)
		r->crfc(r->crc_cls);
	if (r->fd >= 0)
		close(r->fd);
	free(r->buf);
	free(r);
}

size_t stub_unescape(char *s)
{
	char *w = s;

	if (unescape_cb)
		return unescape_cb(unescape_cls, NULL, s);
	for (char *p = s; *p; p++) {
		if (p[0] == '%' && isxdigit((unsigned char)p[1]) && isxdigit((unsigned char)p[2])) {
			char hex[3] = { p[1], p[2], 0 };

			*w++ = (char)strtol(hex, NULL, 16);
			p += 2;
		} else {
			*w++ = *p;
		}
	}
	*w = 0;
	return (size_t)(w - s);
}

int mhd_request(const char *method, const char *path, const struct stub_kv *args, size_t nargs,
		const struct stub_kv *hdrs, size_t nhdrs, const char *body, size_t blen,
		struct stub_reply *out)
{
	struct MHD_Connection c = { args, hdrs, nargs, nhdrs, out, 0, 0, 0 };
	void *con_cls = NULL;
	size_t zero = 0;
	enum MHD_Result r;

	memset(out, 0, sizeof(*out));
	if (!handler)
		return -1;
	r = handler(handler_cls, &c, path, method, "HTTP/1.1", NULL, &zero, &con_cls);
	/* Body in uneven chunks, as a socket would deliver it. */
	for (size_t off = 0; r == MHD_YES && off < blen;) {
		size_t n = blen - off < 1000 ? blen - off : 1000, left = n;

		r = handler(handler_cls, &c, path, method, "HTTP/1.1", body + off, &left, &con_cls);
		if (left != 0) {
			fprintf(stderr, "mhd_stub: handler left %zu upload bytes unconsumed\n", left);
			abort();
		}
		off += n;
	}
	/* The final call; again after each resume of a call that suspended. */
	for (int before = c.suspends; r == MHD_YES;) {
		zero = 0;
		r = handler(handler_cls, &c, path, method, "HTTP/1.1", NULL, &zero, &con_cls);
		if (!wait_resumed(&c, before))
			break;
		before = c.suspends;
	}
	out->handler_no = r != MHD_YES;
	if (completed)
		completed(completed_cls, &c, &con_cls, MHD_REQUEST_TERMINATED_COMPLETED_OK);
	return 0;
}

void stub_reply_free(struct stub_reply *r)
{
	free(r->body);
	r->body = NULL;
}
