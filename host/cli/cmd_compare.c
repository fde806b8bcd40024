/*
 * cmd_compare.c — `xcbench compare A B`: per-case % change of the median with
 * its 95 % interval, then the pivot tables in the shape of the seed table
 * (rows = CPUs in mask, columns = concurrent initiators). --csv prints the
 * daemon's compare.csv instead.
 */
#include <getopt.h>
#include <string.h>

#include "client.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: xcbench compare A B [--algo-a X --algo-b Y] [--csv] [--json]\n"
		   "Compares run B against baseline run A (A = B with --algo-a/--algo-b\n"
		   "compares two algorithms within one run). '*' marks significant changes\n"
		   "(the 95%% interval excludes 0).\n");
}

static void pivot(json_t *p)
{
	json_t *rows = json_object_get(p, "rows"), *cols = json_object_get(p, "cols"), *v;
	const char *k;
	size_t r, c;

	printf("\n%s -> %s:", json_string_value(json_object_get(p, "algo_a")),
	       json_string_value(json_object_get(p, "algo_b")));
	json_object_foreach(json_object_get(p, "fixed"), k, v) {
		char t[48];

		printf(" %s=%s", k, jstr(v, t, sizeof(t)));
	}
	printf("\n%-16s", "");
	for (c = 0; c < json_array_size(cols); c++)
		printf(" %9lld thr", (long long)json_integer_value(json_array_get(cols, c)));
	putchar('\n');
	for (r = 0; r < json_array_size(rows); r++) {
		long long m = (long long)json_integer_value(json_array_get(rows, r));

		printf("%3lld CPU%s in mask", m, m == 1 ? " " : "s");
		for (c = 0; c < json_array_size(cols); c++) {
			json_t *cell = json_array_get(json_array_get(json_object_get(p, "cells"), r), c);

			if (!json_is_object(cell) || !json_is_number(json_object_get(cell, "change_pct")))
				printf(" %13s", "-");
			else
				printf(" %12.2f%s", json_number_value(json_object_get(cell, "change_pct")),
				       json_is_true(json_object_get(cell, "significant")) ? "*" : " ");
		}
		putchar('\n');
	}
}

int cmd_compare(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "algo-a", 1, NULL, 'a' }, { "algo-b", 1, NULL, 'b' }, { "csv", 0, NULL, 'c' },
		{ "json", 0, NULL, 'j' }, { "help", 0, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	const char *fa = NULL, *fb = NULL;
	int c, csv = 0, as_json = 0;
	uint64_t a, b;
	struct buf path = { 0 };
	json_t *o, *cs;
	size_t i;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'a': fa = optarg; break;
		case 'b': fb = optarg; break;
		case 'c': csv = 1; break;
		case 'j': as_json = 1; break;
		default: return usage_exit(usage, c);
		}
	}
	if (optind != argc - 2 || parse_u64(argv[optind], &a) || parse_u64(argv[optind + 1], &b)) {
		fprintf(stderr, "xcbench compare: expected two run ids\n");
		usage(stderr);
		return 2;
	}
	if (!fa != !fb) {
		fprintf(stderr, "xcbench compare: --algo-a and --algo-b go together\n");
		return 2;
	}
	buf_addf(&path, "/api/v1/compare%s?a=%llu&b=%llu", csv ? ".csv" : "", (unsigned long long)a,
		 (unsigned long long)b);
	if (fa) {
		buf_addf(&path, "&algo_a=");
		url_encode(&path, fa);
		buf_addf(&path, "&algo_b=");
		url_encode(&path, fb);
	}
	if (csv) {
		int rc = http_get_to("compare", path.p, stdout);

		buf_free(&path);
		return rc;
	}
	o = api_json("GET", path.p, NULL);
	buf_free(&path);
	if (!o)
		return 1;
	if (as_json)
		return print_json(o);
	printf("%-60s %10s %10s %9s %20s %s\n", "CASE", "A_P50", "B_P50", "CHANGE%", "95% CI", "METHOD");
	json_array_foreach(json_object_get(o, "cases"), i, cs) {
		struct buf key = { 0 };
		json_t *v;
		const char *k;
		char t[5][48];

		json_object_foreach(json_object_get(cs, "key"), k, v)
			buf_addf(&key, "%s%s=%s", key.len ? " " : "", k, jstr(v, t[0], 48));
		if (key.len > 60)
			key.p[60] = 0;
		snprintf(t[4], 48, "[%s, %s]", jstr(json_object_get(cs, "ci_low"), t[2], 48),
			 jstr(json_object_get(cs, "ci_high"), t[3], 48));
		printf("%-60s %10s %10s %8s%s %20s %s\n", key.p ? key.p : "",
		       jstr(json_object_get(cs, "a_p50"), t[0], 48), jstr(json_object_get(cs, "b_p50"), t[1], 48),
		       jstr(json_object_get(cs, "change_pct"), t[2], 48),
		       json_is_true(json_object_get(cs, "significant")) ? "*" : " ", t[4],
		       json_string_value(json_object_get(cs, "method")));
		buf_free(&key);
	}
	printf("unmatched: %lld in A, %lld in B\n", (long long)json_integer_value(json_object_get(o, "unmatched_a")),
	       (long long)json_integer_value(json_object_get(o, "unmatched_b")));
	json_array_foreach(json_object_get(o, "pivots"), i, cs)
		pivot(cs);
	json_decref(o);
	return 0;
}
