/*
 * test_util.c — util.c's iso_time against what it replaced, gmtime_r and
 * strftime, byte for byte: every day of its own range (1970 .. 9999, at a
 * second that moves through the day), the range's edges and leap days,
 * and times outside it (strftime's answer, as before). And utf8_valid
 * against what the CLI and the daemon send text through, jansson: the two
 * agree on every string of one to three bytes that starts a multi-byte
 * sequence and on four-byte strings around every edge (xcbench refuses an
 * argument jansson would drop). And parse_hostport's forms, an empty one
 * refused (it was the default address: xcbenchd --listen "" took 0.0.0.0).
 */
#include <arpa/inet.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include <jansson.h>

#include "util.h"

/* iso_time's text of t must be strftime's. */
static void same_as_strftime(int64_t t)
{
	char got[64], want[64];
	time_t tt = (time_t)t;
	struct tm tm;

	memset(want, 0, sizeof(want));
	gmtime_r(&tt, &tm);
	strftime(want, sizeof(want), "%Y-%m-%dT%H:%M:%SZ", &tm);
	iso_time(t, got, sizeof(got));
	if (strcmp(got, want))
		fail_msg("iso_time(%lld) = %s, strftime %s", (long long)t, got, want);
}

static void every_day(void **st)
{
	(void)st;
	/* 1970-01-01 .. 9999-12-31: 2,932,897 days */
	for (int64_t day = 0; day < 2932897; day++)
		same_as_strftime(day * 86400 + (day * 7919) % 86400);
}

static void edges(void **st)
{
	const int64_t ts[] = {
		0, 1, 59, 60, 3599, 3600, 86399, 86400,
		951782400, 951868799,           /* 2000-02-29, a leap day of a century */
		4107542400, 4107628799,         /* 2100-03-01: 2100 is no leap year */
		1796210088,                     /* the bench's "now" */
		253402300799,                   /* 9999-12-31T23:59:59Z, the last written here */
		253402300800,                   /* 10000-01-01: strftime's */
		-1, -86400, -2208988800,        /* before 1970: strftime's */
	};

	(void)st;
	for (size_t i = 0; i < sizeof(ts) / sizeof(ts[0]); i++)
		same_as_strftime(ts[i]);
}

/* utf8_valid(s) must say what json_string(s) does (NULL: not UTF-8). */
static void same_as_jansson(const char *s)
{
	json_t *j = json_string(s);

	if (utf8_valid(s) != (j != NULL))
		fail_msg("utf8_valid(%02x %02x %02x %02x) = %d, jansson %s", (unsigned char)s[0],
			 (unsigned char)s[1], (unsigned char)s[2], (unsigned char)s[3], utf8_valid(s),
			 j ? "takes it" : "refuses it");
	json_decref(j);
}

static void utf8_like_jansson(void **st)
{
	static const unsigned char tails[] = { 0x01, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xff };
	char s[5] = { 0 };

	(void)st;
	for (unsigned a = 1; a < 256; a++)
		for (unsigned b = 0; b < 256; b++) {
			s[0] = (char)a, s[1] = (char)b, s[2] = 0;
			same_as_jansson(s);
			for (unsigned c = 1; a >= 0xc0 && b && c < 256; c++) {
				s[2] = (char)c, s[3] = 0;
				same_as_jansson(s);
			}
			for (size_t i = 0; a >= 0xf0 && b && i < sizeof(tails); i++)
				for (size_t k = 0; k < sizeof(tails); k++) {
					s[2] = (char)tails[i], s[3] = (char)tails[k];
					same_as_jansson(s);
				}
			s[3] = 0;
		}
	assert_true(utf8_valid(""));
	assert_true(utf8_valid("patch v3 \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"));
	assert_false(utf8_valid("ok\xff\xfe"));
	assert_false(utf8_valid("\xe2\x82"));	/* cut short at the end */
}

/* s parsed with defaults 0.0.0.0:8080: 0 and the address as "A.B.C.D:P"
 * in out, or -1. IPv4 literals only: no name is looked up. */
static int hostport(const char *s, char *out, size_t len)
{
	struct sockaddr_in sa;
	char err[256], ip[INET_ADDRSTRLEN];

	if (parse_hostport(s, "0.0.0.0", 8080, &sa, err, sizeof(err)))
		return -1;
	inet_ntop(AF_INET, &sa.sin_addr, ip, sizeof(ip));
	snprintf(out, len, "%s:%d", ip, ntohs(sa.sin_port));
	return 0;
}

static void hostport_forms(void **st)
{
	char got[64];

	(void)st;
	assert_int_equal(hostport("127.0.0.2:9000", got, sizeof(got)), 0);
	assert_string_equal(got, "127.0.0.2:9000");
	assert_int_equal(hostport(":9001", got, sizeof(got)), 0);
	assert_string_equal(got, "0.0.0.0:9001");
	assert_int_equal(hostport("9002", got, sizeof(got)), 0);
	assert_string_equal(got, "0.0.0.0:9002");
	assert_int_equal(hostport("127.0.0.3", got, sizeof(got)), 0);
	assert_string_equal(got, "127.0.0.3:8080");
	assert_int_equal(hostport("", got, sizeof(got)), -1);
	assert_int_equal(hostport("127.0.0.1:", got, sizeof(got)), -1);
	assert_int_equal(hostport("127.0.0.1:0", got, sizeof(got)), -1);
	assert_int_equal(hostport("127.0.0.1:65536", got, sizeof(got)), -1);
	assert_int_equal(hostport("127.0.0.1:80x", got, sizeof(got)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_day),
		cmocka_unit_test(edges),
		cmocka_unit_test(utf8_like_jansson),
		cmocka_unit_test(hostport_forms),
	};
	return cmocka_run_group_tests_name("util", tests, NULL, NULL);
}
