/*
 * client.c — a deliberately small HTTP/1.0 client (one request per
 * connection, body read to EOF), enough for xcbenchd's API and CSV streams
 * without pulling in libcurl.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "client.h"

const char *opt_server = "http://127.0.0.1:8080";
const char *opt_token_file;

int server_host(char *host, size_t len, int *port)
{
	const char *s = opt_server, *e, *colon;

	if (strncmp(s, "http://", 7) != 0) {
		fprintf(stderr, "xcbench: --server '%s': expected http://HOST[:PORT]\n", opt_server);
		return -1;
	}
	s += 7;
	e = s + strcspn(s, "/");
	colon = memchr(s, ':', (size_t)(e - s));
	*port = 80;
	if (colon) {
		*port = atoi(colon + 1);
		e = colon;
	}
	if ((size_t)(e - s) >= len || e == s || *port <= 0 || *port > 65535) {
		fprintf(stderr, "xcbench: --server '%s': bad host or port\n", opt_server);
		return -1;
	}
	memcpy(host, s, (size_t)(e - s));
	host[e - s] = 0;
	return 0;
}

static char *admin_token(void)
{
	const char *env = getenv("XCBENCH_TOKEN");
	char buf[512];
	FILE *f;
	size_t n;

	if (!opt_token_file)
		return env && env[0] ? strdup(env) : NULL;
	f = fopen(opt_token_file, "r");
	if (!f) {
		fprintf(stderr, "xcbench: --token-file '%s': %s\n", opt_token_file, strerror(errno));
		return NULL;
	}
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	buf[strcspn(buf, "\r\n")] = 0;
	return strdup(buf);
}

int http_call(const char *method, const char *path, const char *body, struct http_resp *resp,
	      FILE *out)
{
	return http_call_as(NULL, method, path, body, resp, out);
}

/* A TCP connection to the server (host, port: where --server points): the
 * socket, or -1 after saying why. */
static int connect_server(char *host, size_t hostlen, int *port)
{
	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_STREAM }, *ai;
	char port_s[16];
	int fd;

	if (server_host(host, hostlen, port))
		return -1;
	snprintf(port_s, sizeof(port_s), "%d", *port);
	if (getaddrinfo(host, port_s, &hints, &ai)) {
		fprintf(stderr, "xcbench: cannot resolve '%s'\n", host);
		return -1;
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, ai->ai_addr, ai->ai_addrlen)) {
		fprintf(stderr, "xcbench: cannot connect to %s: %s (is xcbenchd running?)\n", opt_server,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	freeaddrinfo(ai);
	return fd;
}

/* Writes the whole request (its headers, the admin token when there is
 * one, the body) to fd: 0, or -1 after saying why. */
static int send_request(int fd, const char *host_hdr, const char *host, int port, const char *method,
			const char *path, const char *body)
{
	struct buf req = { 0 };
	char *tok = admin_token();
	int rc = 0;

	if (host_hdr)
		buf_addf(&req, "%s %s HTTP/1.0\r\nHost: %s\r\n", method, path, host_hdr);
	else
		buf_addf(&req, "%s %s HTTP/1.0\r\nHost: %s:%d\r\n", method, path, host, port);
	buf_addf(&req, "Connection: close\r\nUser-Agent: xcbench\r\n");
	if (tok && tok[0])
		buf_addf(&req, "Authorization: Bearer %s\r\n", tok);
	free(tok);
	if (body)
		buf_addf(&req, "Content-Type: application/json\r\nContent-Length: %zu\r\n", strlen(body));
	buf_addf(&req, "\r\n%s", body ? body : "");
	for (size_t off = 0; off < req.len;) {
		ssize_t n = write(fd, req.p + off, req.len - off);

		if (n <= 0) {
			fprintf(stderr, "xcbench: send failed: %s\n", strerror(errno));
			rc = -1;
			break;
		}
		off += (size_t)n;
	}
	buf_free(&req);
	return rc;
}

/* Body bytes: to out as they arrive for a 2xx answer, else into resp. */
static void take_body(struct http_resp *resp, FILE *out, const char *p, size_t n)
{
	if (out && resp->status / 100 == 2)
		fwrite(p, 1, n, out);
	else
		buf_add(&resp->body, p, n);
}

/* Reads the answer from fd into resp (its status; the body into resp or
 * out): 0, or -1 after saying why. */
static int read_answer(int fd, struct http_resp *resp, FILE *out)
{
	char tmp[16384];
	struct buf head = { 0 };
	int in_body = 0, rc = -1;
	ssize_t n;

	while ((n = read(fd, tmp, sizeof(tmp))) > 0) {
		if (in_body) {
			take_body(resp, out, tmp, (size_t)n);
			continue;
		}
		buf_add(&head, tmp, (size_t)n);
		char *end = strstr(head.p, "\r\n\r\n");

		if (end) {
			size_t hl = (size_t)(end - head.p) + 4;

			if (sscanf(head.p, "HTTP/%*d.%*d %d", &resp->status) != 1) {
				fprintf(stderr, "xcbench: not an HTTP answer from %s\n", opt_server);
				goto out;
			}
			in_body = 1;
			take_body(resp, out, head.p + hl, head.len - hl);
		}
	}
	if (!in_body) {
		fprintf(stderr, "xcbench: connection closed without an answer\n");
		goto out;
	}
	if (!resp->body.p)
		buf_add(&resp->body, "", 0);
	rc = 0;
out:
	buf_free(&head);
	return rc;
}

int http_call_as(const char *host_hdr, const char *method, const char *path, const char *body,
		 struct http_resp *resp, FILE *out)
{
	char host[256];
	int port, fd, rc;

	memset(resp, 0, sizeof(*resp));
	fd = connect_server(host, sizeof(host), &port);
	if (fd < 0)
		return -1;
	rc = send_request(fd, host_hdr, host, port, method, path, body) ? -1 : read_answer(fd, resp, out);
	close(fd);
	return rc;
}

json_t *api_json(const char *method, const char *path, json_t *body)
{
	char *b = body ? json_dumps(body, JSON_COMPACT) : NULL;
	struct http_resp r;
	json_t *o = NULL;

	if (http_call(method, path, b, &r, NULL) == 0) {
		o = json_loadb(r.body.p, r.body.len, 0, NULL);
		if (r.status / 100 != 2) {
			const char *msg = json_string_value(json_object_get(o, "error"));

			fprintf(stderr, "xcbench: %s %s: HTTP %d: %s\n", method, path, r.status,
				msg ? msg : "(no message)");
			json_decref(o);
			o = NULL;
		} else if (!o) {
			fprintf(stderr, "xcbench: %s %s: answer is not JSON\n", method, path);
		}
	}
	free(b);
	buf_free(&r.body);
	return o;
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
