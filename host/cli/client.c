/*
 * client.c — a deliberately small HTTP/1.1 client (one request per
 * connection, Connection: close; the body as its framing says, httpbody.c,
 * so one cut short is an error), enough for xcbenchd's API and CSV streams
 * without pulling in libcurl. Every wait on the server is bounded: the
 * connection by XCB_CONNECT_TIMEOUT_S, each next byte by opt_idle_timeout,
 * so a server that accepts and never answers ends a call with its name.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "answer_shape.h"
#include "client.h"
#include "httpbody.h"

const char *opt_server = "http://127.0.0.1:8080";
const char *opt_server_from = "--server";
const char *opt_token_file;
int opt_idle_timeout = XCB_IDLE_TIMEOUT_S;

/* A call's error message: the last one said (http_said), printed unless
 * http_quiet; unreached: the last call's failure was the server's (no
 * connection, or it broke), not this command's (http_unreached). */
int http_quiet;
static char said[1024];
static int unreached;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(said, sizeof(said), fmt, ap);
	va_end(ap);
	if (!http_quiet)
		fputs(said, stderr);
	n = strlen(said);
	if (n && said[n - 1] == '\n')
		said[n - 1] = 0;
}

const char *http_said(void) { return said; }
int http_unreached(void) { return unreached; }

int server_host(char *host, size_t len, int *port)
{
	const char *s = opt_server, *e, *colon;
	char *end = NULL;
	long p = 80;

	if (strncmp(s, "http://", 7) != 0) {
		say("xcbench: %s '%s': expected http://HOST[:PORT]\n", opt_server_from, opt_server);
		return -1;
	}
	s += 7;
	e = s + strcspn(s, "/");
	/* The API is at the root: a path would be dropped without a word. */
	if (*e && strcmp(e, "/")) {
		say("xcbench: %s '%s': expected http://HOST[:PORT] without a path\n", opt_server_from,
			opt_server);
		return -1;
	}
	colon = memchr(s, ':', (size_t)(e - s));
	if (colon) {
		/* digits to the path's start, nothing else ("8080abc" was 8080) */
		p = (colon[1] >= '0' && colon[1] <= '9') ? strtol(colon + 1, &end, 10) : 0;
		if (end != e)
			p = 0;
		e = colon;
	}
	if ((size_t)(e - s) >= len || e == s || p <= 0 || p > 65535) {
		say("xcbench: %s '%s': bad host or port\n", opt_server_from, opt_server);
		return -1;
	}
	*port = (int)p;
	memcpy(host, s, (size_t)(e - s));
	host[e - s] = 0;
	return 0;
}

/* The admin token into *tok: --token-file's first line, else
 * $XCBENCH_TOKEN, else none (NULL). 0, or -1 after saying why a
 * --token-file that was given cannot serve (missing, unreadable, a
 * directory, empty): going on without it would send a write only to be
 * refused, and a read would quietly show what an anonymous reader sees. */
static int admin_token(char **tok)
{
	const char *env = getenv("XCBENCH_TOKEN");
	char buf[512];
	int rc;

	*tok = NULL;
	if (!opt_token_file) {
		*tok = env && env[0] ? strdup(env) : NULL;
		return 0;
	}
	rc = read_token_file(opt_token_file, buf, sizeof(buf));
	if (rc) {
		say("xcbench: --token-file '%s': %s\n", opt_token_file,
			rc < 0 ? strerror(errno) : TOKEN_FILE_EMPTY);
		return -1;
	}
	*tok = strdup(buf);
	return 0;
}

const char *http_status_hint(int status)
{
	/* Per thread: a caller may print it from any of its threads. */
	static _Thread_local char hint[4300];
	const char *env = getenv("XCBENCH_TOKEN");

	if (status != 401)
		return "";
	/* A token was sent (admin_token's order): the daemon refused that
	 * one, and "pass --token-file" sent the user to pass it again. */
	if (opt_token_file) {
		snprintf(hint, sizeof(hint), " (the daemon refused the admin token in --token-file '%s')",
			 opt_token_file);
		return hint;
	}
	if (env && env[0])
		return " (the daemon refused the admin token in $XCBENCH_TOKEN)";
	return " (pass --token-file with the daemon's admin token)";
}

char *http_error_text(const struct http_resp *r)
{
	json_t *e = r->body.p ? json_loadb(r->body.p, r->body.len, 0, NULL) : NULL;
	const char *msg = json_string_value(json_object_get(e, "error"));
	char *t = NULL;

	/* xcbenchd's every error is {"error": ...}; without one the answer
	 * is another server's (export printed a web server's whole 404
	 * page), said as for an answer that is no JSON object. */
	if (msg)
		t = strdup(msg);
	else if (asprintf(&t, "not an xcbenchd answer (is %s an xcbenchd?)", opt_server) < 0)
		t = NULL;
	json_decref(e);
	return t;
}

/* The HTTP status of the last answer (0: none came), for api_last_status:
 * JSON calls and streamed ones (export, samples) alike. */
static int last_status;
/* The last api_json error answer was xcbenchd's own {"error": ...}
 * (api_last_error_ours). */
static int last_ours;

int http_call(const char *method, const char *path, const char *body, struct http_resp *resp,
	      FILE *out)
{
	int rc = http_call_as(NULL, method, path, body, resp, out);

	last_status = rc == 0 ? resp->status : 0;
	return rc;
}

/* Bounds every later connect, write and read on fd to s seconds each:
 * past it they fail with EINPROGRESS (connect) or EAGAIN (Linux). */
static void set_timeouts(int fd, int s)
{
	struct timeval tv = { .tv_sec = s };

	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

/* errno after a socket call that waited past its timeout. */
static int timed_out(void)
{
	return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINPROGRESS;
}

/* A TCP connection to the server (host, port: where --server points),
 * bounded by opt_idle_timeout from here on: the socket, or -1 after saying
 * why. */
static int connect_server(char *host, size_t hostlen, int *port)
{
	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_STREAM }, *ai;
	char port_s[16];
	int fd;

	if (server_host(host, hostlen, port))
		return -1;
	snprintf(port_s, sizeof(port_s), "%d", *port);
	if (getaddrinfo(host, port_s, &hints, &ai)) {
		say("xcbench: cannot resolve '%s'\n", host);
		return -1;
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0)
		set_timeouts(fd, XCB_CONNECT_TIMEOUT_S);
	if (fd < 0 || connect(fd, ai->ai_addr, ai->ai_addrlen)) {
		unreached = fd >= 0; /* refused, or no answer: the server's */
		if (fd >= 0 && timed_out())
			say("xcbench: cannot connect to %s: no answer in %d s (is xcbenchd running?)\n",
				opt_server, XCB_CONNECT_TIMEOUT_S);
		else
			say("xcbench: cannot connect to %s: %s (is xcbenchd running?)\n", opt_server,
				strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
	} else {
		set_timeouts(fd, opt_idle_timeout);
	}
	freeaddrinfo(ai);
	return fd;
}

/* Writes the whole request (its headers, the admin token tok when there
 * is one, the body) to fd: 0, or -1 after saying why. */
static int send_request(int fd, const char *host_hdr, const char *host, int port, const char *tok,
			const char *method, const char *path, const char *body)
{
	struct buf req = { 0 };
	int rc = 0;

	if (host_hdr)
		buf_addf(&req, "%s %s HTTP/1.1\r\nHost: %s\r\n", method, path, host_hdr);
	else
		buf_addf(&req, "%s %s HTTP/1.1\r\nHost: %s:%d\r\n", method, path, host, port);
	buf_addf(&req, "Connection: close\r\nUser-Agent: xcbench\r\n");
	if (tok && tok[0])
		buf_addf(&req, "Authorization: Bearer %s\r\n", tok);
	if (body)
		buf_addf(&req, "Content-Type: application/json\r\nContent-Length: %zu\r\n", strlen(body));
	buf_addf(&req, "\r\n%s", body ? body : "");
	for (size_t off = 0; off < req.len;) {
		ssize_t n = write(fd, req.p + off, req.len - off);

		if (n <= 0) {
			unreached = 1;
			if (n < 0 && timed_out())
				say("xcbench: %s took no request bytes in %d s\n", opt_server,
					opt_idle_timeout);
			else
				say("xcbench: send failed: %s\n", strerror(errno));
			rc = -1;
			break;
		}
		off += (size_t)n;
	}
	buf_free(&req);
	return rc;
}

void say_output_failed(int err)
{
	fprintf(stderr, "xcbench: writing the output failed%s%s\n", err ? ": " : "", err ? strerror(err) : "");
}

/* Where an answer's body goes: out for a 2xx answer, else resp. */
struct body_dst {
	struct http_resp *resp;
	FILE *out;
};

/* Body bytes (a body_feed sink): to out as they arrive for a 2xx answer,
 * else into resp. 0, or -1 (errno set) when out did not take them. */
static int take_body(void *ctx, const char *p, size_t n)
{
	struct body_dst *d = ctx;

	if (d->out && d->resp->status / 100 == 2)
		return fwrite(p, 1, n, d->out) == n ? 0 : -1;
	buf_add(&d->resp->body, p, n);
	return 0;
}

/* Reads the answer from fd into resp (its status; the body into resp or
 * out): 0, or -1 after saying why. */
static int read_answer(int fd, struct http_resp *resp, FILE *out)
{
	char tmp[16384];
	struct buf head = { 0 };
	struct body_dst dst = { resp, out };
	struct http_body body;
	int in_body = 0, rc = -1;
	ssize_t n;

	while ((n = read(fd, tmp, sizeof(tmp))) > 0) {
		if (in_body) {
			if (body_feed(&body, tmp, (size_t)n, take_body, &dst))
				goto write_failed;
			continue;
		}
		buf_add(&head, tmp, (size_t)n);
		char *end = strstr(head.p, "\r\n\r\n");

		if (end) {
			size_t hl = (size_t)(end - head.p) + 4;

			if (sscanf(head.p, "HTTP/%*d.%*d %d", &resp->status) != 1) {
				say("xcbench: not an HTTP answer from %s\n", opt_server);
				goto out;
			}
			in_body = 1;
			body_init(&body, head.p, hl);
			if (body_feed(&body, head.p + hl, head.len - hl, take_body, &dst))
				goto write_failed;
		}
	}
	if (n < 0) {
		/* an answer cut short is an error, not a shorter answer */
		unreached = 1;
		if (timed_out())
			say("xcbench: %s %s in %d s\n", opt_server,
				in_body ? "sent no more of its answer" : "answered nothing", opt_idle_timeout);
		else
			say("xcbench: reading the answer of %s: %s\n", opt_server, strerror(errno));
		goto out;
	}
	if (!in_body) {
		unreached = 1;
		say("xcbench: connection closed without an answer\n");
		goto out;
	}
	if (!body_whole(&body)) {
		unreached = 1;
		/* the daemon cut a stream (its store failed mid-export), or the
		 * connection broke: what arrived is not the whole answer */
		say("xcbench: the answer of %s was cut short (%s)\n", opt_server,
			body.bad ? "its framing is not HTTP's" : "the connection closed before its end");
		goto out;
	}
	if (!resp->body.p)
		buf_add(&resp->body, "", 0);
	rc = 0;
	goto out;
write_failed:
	/* said now, while errno still says why; the rest is not read (a full
	 * disk would not take it either) */
	say_output_failed(errno);
out:
	buf_free(&head);
	return rc;
}

int http_call_as(const char *host_hdr, const char *method, const char *path, const char *body,
		 struct http_resp *resp, FILE *out)
{
	char host[256], *tok;
	int port, fd, rc;

	memset(resp, 0, sizeof(*resp));
	unreached = 0;
	if (admin_token(&tok))
		return -1;
	fd = connect_server(host, sizeof(host), &port);
	if (fd < 0) {
		free(tok);
		return -1;
	}
	rc = send_request(fd, host_hdr, host, port, tok, method, path, body) ? -1 : read_answer(fd, resp, out);
	free(tok);
	close(fd);
	return rc;
}

/* The option of cmd's table whose body field an API error names: its
 * message begins "KEY: " (the daemon names a body's fields so), KEY the
 * option's JSON key; NULL if none. */
static const struct cmdopt *field_option(const struct cmd *cmd, const char *msg)
{
	for (const struct cmdopt *o = cmd ? cmd->opts : NULL; o && o->name; o++) {
		size_t n = strlen(cmdopt_key(o));

		if (!strncmp(msg, cmdopt_key(o), n) && !strncmp(msg + n, ": ", 2))
			return o;
	}
	return NULL;
}

int api_last_status(void) { return last_status; }
int api_last_error_ours(void) { return last_ours; }

json_t *api_json_for(const struct cmd *cmd, const char *method, const char *path, json_t *body)
{
	char *b = body ? json_dumps(body, JSON_COMPACT) : NULL, why[300];
	struct http_resp r;
	json_t *o = NULL;

	last_status = 0;
	last_ours = 0;
	if (http_call(method, path, b, &r, NULL) == 0) {
		last_status = r.status;
		o = json_loadb(r.body.p, r.body.len, 0, NULL);
		if (r.status / 100 != 2) {
			const char *msg = json_string_value(json_object_get(o, "error"));
			const struct cmdopt *opt = r.status == 400 && msg ? field_option(cmd, msg) : NULL;

			last_ours = msg != NULL;

			/* The user typed an option, not the body field the
			 * daemon names: say the option (password_file was
			 * --password-file, driver --power). */
			if (opt) {
				say("%s: --%s: %s\n", cmd->name, opt->name, msg + strlen(cmdopt_key(opt)) + 2);
			} else {
				char *text = http_error_text(&r);

				say("xcbench: %s %s: HTTP %d: %s%s\n", method, path, r.status,
					text ? text : "", http_status_hint(r.status));
				free(text);
			}
			json_decref(o);
			o = NULL;
		} else if (!json_is_object(o)) {
			/* Every xcbenchd answer is an object; anything else is
			 * another server's (its fields read as absent, and show
			 * printed a run of dashes, exit 0). */
			say("xcbench: %s %s: answer is not a JSON object (is %s an xcbenchd?)\n",
				method, path, opt_server);
			json_decref(o);
			o = NULL;
		} else if (answer_shape_check(method, path, o, why, sizeof(why))) {
			/* An object without the members the command reads: the
			 * same, or a daemon of another version (an empty table,
			 * "(null)" or 0 where its fields were absent, exit 0). */
			say("xcbench: %s %s: not an xcbenchd answer: %s (is %s an xcbenchd?)\n", method,
				path, why, opt_server);
			json_decref(o);
			o = NULL;
		}
	}
	free(b);
	buf_free(&r.body);
	return o;
}

json_t *api_json(const char *method, const char *path, json_t *body)
{
	return api_json_for(NULL, method, path, body);
}

void url_encode(struct buf *b, const char *s)
{
	for (; *s; s++) {
		if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		    strchr("-_.~", *s))
			buf_add(b, s, 1);
		else
			buf_addf(b, "%%%02X", (unsigned char)*s);
	}
}

const char *jstr(json_t *v, char *tmp, size_t len)
{
	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_integer(v))
		snprintf(tmp, len, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(tmp, len, "%.2f", json_real_value(v));
	else if (json_is_boolean(v))
		snprintf(tmp, len, "%s", json_is_true(v) ? "yes" : "no");
	else
		snprintf(tmp, len, "-");
	return tmp;
}
