/*
 * http_guard.c — what every request must pass before any route sees it,
 * because any web page a lab engineer opens can make the browser talk to
 * the daemon:
 *  - the Host header must name the daemon. A DNS-rebinding page reaches us
 *    under its own name (Host: rebind.evil.example), so names are accepted
 *    only from a list: the loopback names when the daemon listens on
 *    loopback or runs --open, plus every --host-name. IP literals are
 *    accepted as they are: a literal cannot be rebound, and the address a
 *    lab machine (or QEMU's 10.0.2.2) uses to reach us is not always one of
 *    our own interfaces (NAT, containers), while the boot script is built
 *    from it.
 *  - the path and query are %-decoded here (http_unescape), except %00: a
 *    NUL cut "/index.html%00.js" to "/index.html" and served it; kept as
 *    the three characters, such a path matches no file and no route (404).
 *  - a write (anything but GET/HEAD) needs Content-Type: application/json
 *    and an Origin that is absent or names this same Host: a cross-origin
 *    page can only send text/plain or form bodies without a CORS preflight,
 *    and we never answer preflights.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "http_guard.h"
#include "http_reply.h"
#include "xcbd.h"

/* host without its :port (IPv6 literals keep their brackets): 0, or -1
 * when the port is not 1-5 digits ("127.0.0.1:1]" is no host, issue 26). */
static int strip_port(const char *host, char *out, size_t n)
{
	char *colon;

	snprintf(out, n, "%s", host);
	colon = strrchr(out, ':');
	if (colon && (out[0] != '[' || (colon > out && colon[-1] == ']'))) {
		size_t d = strspn(colon + 1, "0123456789");

		if (d == 0 || d > 5 || colon[1 + d])
			return -1;
		*colon = 0;
	}
	return 0;
}

static int is_ip_literal(const char *h)
{
	struct in_addr a4;
	struct in6_addr a6;
	char v6[64];
	size_t n = strlen(h);

	if (inet_pton(AF_INET, h, &a4) == 1)
		return 1;
	if (n > 2 && n < sizeof(v6) && h[0] == '[' && h[n - 1] == ']') {
		memcpy(v6, h + 1, n - 2);
		v6[n - 2] = 0;
		return inet_pton(AF_INET6, v6, &a6) == 1;
	}
	return 0;
}

int host_allowed(const char *host)
{
	char h[128];
	size_t n;

	if (!host || !host[0] || strlen(host) >= sizeof(h))
		return 0;
	if (strip_port(host, h, sizeof(h)))
		return 0;
	n = strlen(h);
	if (n && h[n - 1] == '.')
		h[--n] = 0; /* "localhost." is "localhost" */
	if (is_ip_literal(h))
		return 1;
	if ((cfg.open || (ntohl(cfg.listen.sin_addr.s_addr) >> 24) == 127) &&
	    (strcasecmp(h, "localhost") == 0 || strcasecmp(h, "localhost.localdomain") == 0))
		return 1;
	for (int i = 0; i < cfg.nhost_names; i++)
		if (strcasecmp(h, cfg.host_names[i]) == 0)
			return 1;
	return 0;
}

/* NULL when the write may proceed, else why not (and *status). */
const char *write_refused(struct req *rq, unsigned *status)
{
	const char *ct = MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND, "Content-Type");
	const char *origin = MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND, "Origin");
	const char *host = MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND, "Host");
	size_t jl = strlen("application/json");

	/* A DELETE or PATCH without a body cannot come from a foreign page
	 * without a preflight; a POST can, so it always needs the type. */
	if (strcmp(rq->method, "POST") == 0 || rq->body.len) {
		if (!ct || strncasecmp(ct, "application/json", jl) != 0 || (ct[jl] && ct[jl] != ';' && ct[jl] != ' ')) {
			*status = 415;
			return "writes need 'Content-Type: application/json'";
		}
	}
	if (origin && strcmp(origin, "null") != 0) {
		const char *o = origin;

		if (strncasecmp(o, "http://", 7) == 0)
			o += 7;
		else if (strncasecmp(o, "https://", 8) == 0)
			o += 8;
		else
			o = NULL;
		if (!o || !host || strcasecmp(o, host) != 0) {
			*status = 403;
			return "cross-origin write refused: Origin does not match Host";
		}
	} else if (origin) {
		*status = 403;
		return "cross-origin write refused: Origin null";
	}
	return NULL;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

size_t http_unescape(void *cls, struct MHD_Connection *c, char *s)
{
	char *r = s, *w = s;

	(void)cls;
	(void)c;
	while (*r) {
		int hi = r[0] == '%' ? hexval(r[1]) : -1, lo = hi >= 0 ? hexval(r[2]) : -1;

		if (lo >= 0 && (hi || lo)) {
			*w++ = (char)(hi << 4 | lo);
			r += 3;
		} else {
			*w++ = *r++; /* not an escape, or %00: kept as it is */
		}
	}
	*w = 0;
	return (size_t)(w - s);
}
