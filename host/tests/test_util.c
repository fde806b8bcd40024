/*
 * test_util.c — util.c's iso_time against what it replaced, gmtime_r and
 * strftime, byte for byte: every day of its own range (1970 .. 9999, at a
 * second that moves through the day), the range's edges and leap days,
 * and times outside it (strftime's answer, as before).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_day),
		cmocka_unit_test(edges),
	};
	return cmocka_run_group_tests_name("util", tests, NULL, NULL);
}
