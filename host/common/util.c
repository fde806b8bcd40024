/* util.c — hosted helpers shared by daemon, CLI and tools (see util.h). */
#include "util.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int parse_hostport(const char *s, const char *defhost, int defport,
		   struct sockaddr_in *sa, char *err, size_t errlen)
{
	char host[256];
	const char *colon = strrchr(s, ':');
	uint64_t port = (uint64_t)defport;

	/* An empty address is a mistake (an unset variable), not the
	 * default: xcbenchd --listen "" listened on 0.0.0.0:8080. */
	if (!s[0]) {
		snprintf(err, errlen, "an empty address (expected HOST:PORT, :PORT, PORT or HOST)");
		return -1;
	}
	if (colon) {
		if ((size_t)(colon - s) >= sizeof(host) || parse_u64(colon + 1, &port) || port == 0 || port > 65535) {
			snprintf(err, errlen, "bad port in '%s'", s);
			return -1;
		}
		memcpy(host, s, (size_t)(colon - s));
		host[colon - s] = 0;
	} else if (s[0] && strspn(s, "0123456789") == strlen(s)) {
		if (parse_u64(s, &port) || port == 0 || port > 65535) {
			snprintf(err, errlen, "bad port '%s'", s);
			return -1;
		}
		snprintf(host, sizeof(host), "%s", defhost);
	} else {
		snprintf(host, sizeof(host), "%s", s);
	}
	if (!host[0])
		snprintf(host, sizeof(host), "%s", defhost);
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons((uint16_t)port);
	if (inet_pton(AF_INET, host, &sa->sin_addr) != 1) {
		struct addrinfo hints = { .ai_family = AF_INET }, *res;

		if (getaddrinfo(host, NULL, &hints, &res) != 0) {
			snprintf(err, errlen, "cannot resolve host '%s'", host);
			return -1;
		}
		sa->sin_addr = ((struct sockaddr_in *)res->ai_addr)->sin_addr;
		freeaddrinfo(res);
	}
	return 0;
}

int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!s || !isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return (errno || *end) ? -1 : 0;
}

int parse_hex64(const char *s, uint64_t *v)
{
	size_t n = strlen(s);
	char *end;

	if (n == 0 || n > 16 || strspn(s, "0123456789abcdefABCDEF") != n)
		return -1;
	*v = strtoull(s, &end, 16);
	return 0;
}

/* n as exactly w decimal digits at p (n < 10^w). */
static void digits(char *p, int64_t n, int w)
{
	while (w--) {
		p[w] = (char)('0' + n % 10);
		n /= 10;
	}
}

/* Seconds of 1970-01-01 .. 9999-12-31T23:59:59Z: four-digit years, the
 * range iso_time writes itself. */
#define ISO_FAST_MAX 253402300799LL

const char *iso_time(int64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	/* gmtime_r and strftime cost ~1,400 instructions a time, and a run
	 * list writes four a run: within four-digit years the date is worked
	 * out here (Hinnant's days_from_civil inverse, exact for the
	 * proleptic Gregorian calendar gmtime uses), the same bytes
	 * (test_util checks them against strftime). */
	if (t >= 0 && t <= ISO_FAST_MAX && len >= 21) {
		int64_t z = t / 86400 + 719468, sec = t % 86400;
		int64_t era = z / 146097, doe = z - era * 146097;
		int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
		int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
		int64_t d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9;

		digits(buf, yoe + era * 400 + (m <= 2), 4);
		buf[4] = '-';
		digits(buf + 5, m, 2);
		buf[7] = '-';
		digits(buf + 8, d, 2);
		buf[10] = 'T';
		digits(buf + 11, sec / 3600, 2);
		buf[13] = ':';
		digits(buf + 14, sec / 60 % 60, 2);
		buf[16] = ':';
		digits(buf + 17, sec % 60, 2);
		buf[19] = 'Z';
		buf[20] = 0;
		return buf;
	}
	gmtime_r(&tt, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

int64_t parse_time(const char *s)
{
	struct tm tm = { 0 };
	uint64_t v;
	const char *e;

	if (parse_u64(s, &v) == 0)
		return (int64_t)v;
	e = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!e) {
		memset(&tm, 0, sizeof(tm));
		e = strptime(s, "%Y-%m-%d", &tm);
	}
	if (!e || (*e && strcmp(e, "Z") != 0))
		return -1;
	return (int64_t)timegm(&tm);
}

int64_t now_s(void)
{
	return (int64_t)time(NULL);
}

double now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

char *buf_room(struct buf *b, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p)
			return NULL;
		b->p = p;
		b->cap = cap;
	}
	return b->p + b->len;
}

void buf_wrote(struct buf *b, char *end)
{
	b->len = (size_t)(end - b->p);
	*end = 0;
}

int buf_add(struct buf *b, const void *d, size_t n)
{
	char *p = buf_room(b, n);

	if (!p)
		return -1;
	memcpy(p, d, n);
	buf_wrote(b, p + n);
	return 0;
}

int buf_addf(struct buf *b, const char *fmt, ...)
{
	char tmp[512], *big = NULL;
	va_list ap;
	int n, r;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	if ((size_t)n < sizeof(tmp))
		return buf_add(b, tmp, (size_t)n);
	va_start(ap, fmt);
	n = vasprintf(&big, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	r = buf_add(b, big, (size_t)n);
	free(big);
	return r;
}

void buf_free(struct buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

void buf_add_words(struct buf *b, const char *const *words, unsigned n, const char *sep)
{
	for (unsigned i = 0; i < n; i++)
		buf_addf(b, "%s%s", i ? sep : "", words[i]);
}

int read_token_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;
	int err;

	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	err = ferror(f) ? errno : 0;
	fclose(f);
	if (err) {
		errno = err;
		return -1;
	}
	buf[n] = 0;
	buf[strcspn(buf, "\r\n")] = 0;
	return buf[0] ? 0 : 1;
}

int norm_mac(const char *in, char *out)
{
	int o = 0;

	for (int i = 0; i < 6; i++) {
		if (!isxdigit((unsigned char)in[0]) || !isxdigit((unsigned char)in[1]))
			return -1;
		out[o++] = (char)tolower((unsigned char)in[0]);
		out[o++] = (char)tolower((unsigned char)in[1]);
		in += 2;
		if (i < 5) {
			if (*in != ':' && *in != '-')
				return -1;
			in++;
			out[o++] = ':';
		}
	}
	out[o] = 0;
	return *in ? -1 : 0;
}

int text_is_word(const char *s, const char *extra, size_t max)
{
	if (!s[0] || strlen(s) > max)
		return 0;
	for (const char *p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      strchr(extra, *p)))
			return 0;
	return 1;
}

int lab_name_ok(const char *s)
{
	return text_is_word(s, "._-", 32);
}

size_t utf8_seq_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;

	if (len == 0 || len > n)
		return 0;
	for (size_t k = 1; k < len; k++)
		if ((s[k] & 0xc0) != 0x80)
			return 0;
	/* Overlong 2-byte forms, surrogates and past U+10FFFF, cheaply. */
	if (len == 2 && c < 0xc2)
		return 0;
	if (len == 3 && ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] >= 0xa0)))
		return 0;
	if (len == 4 && ((c == 0xf0 && s[1] < 0x90) || c > 0xf4 || (c == 0xf4 && s[1] >= 0x90)))
		return 0;
	return len;
}

int utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);

	for (size_t i = 0, len; i < n; i += len)
		if (!(len = utf8_seq_len(p + i, n - i)))
			return 0;
	return 1;
}
