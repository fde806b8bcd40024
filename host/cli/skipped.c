/*
 * skipped.c — the run's skipped cases in words (skipped.h): the API's
 * counts per reason, which the daemon reads from the payload's LOG lines.
 * The run page says it in the same words (web/js/skipped.js mirrors this;
 * t-web-skipped holds the two to one line): change both.
 */
#include "skipped.h"

#include <stdio.h>

int skipped_sentence(json_t *o, char *out, size_t len)
{
	json_t *sk = json_object_get(o, "skipped"), *r;
	json_int_t n = json_integer_value(json_object_get(sk, "cases"));
	json_t *suite = json_object_get(sk, "suite_cases");
	size_t at = 0, i;

	out[0] = 0;
	if (n <= 0)
		return -1;
	if (json_is_integer(suite))
		at = (size_t)snprintf(out, len, "%lld of the suite's %lld cases skipped:", (long long)n,
				      (long long)json_integer_value(suite));
	else
		at = (size_t)snprintf(out, len, "%lld cases skipped:", (long long)n);
	json_array_foreach(json_object_get(sk, "reasons"), i, r) {
		if (at >= len)
			break;
		at += (size_t)snprintf(out + at, len - at, "%s %lld %s", i ? "," : "",
				       (long long)json_integer_value(json_object_get(r, "cases")),
				       json_string_value(json_object_get(r, "reason")) ?: "?");
	}
	return 0;
}
