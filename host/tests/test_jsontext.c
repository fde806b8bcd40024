/*
 * test_jsontext.c — common/jsontext.c: a real is the shortest of %.15g,
 * %.16g and %.17g that reads back as the same double (0.95, where
 * jansson writes 0.94999999999999996), with jansson's marks of a real
 * (".0", a bare exponent); over fixed figures and a deterministic spread
 * of random bit patterns and rounded figures. And the layout of a whole
 * value, compact and indented, is json_dumps's byte for byte where the
 * reals are ones jansson already writes shortest.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "jsontext.h"

/* The text of v, which must be a real's. */
static const char *real_of(double v)
{
	static char t[JSON_REAL_TEXT_MAX];

	assert_true(json_real_text(t, v) > 0);
	return t;
}

static void figures(void **st)
{
	char t[JSON_REAL_TEXT_MAX];

	(void)st;
	/* what the API printed at 17 digits, and what it prints now */
	assert_string_equal(real_of(0.95), "0.95");
	assert_string_equal(real_of(8.37), "8.37");
	assert_string_equal(real_of(14.95), "14.95");
	assert_string_equal(real_of(0.1 + 0.2), "0.30000000000000004"); /* 17 digits are needed */
	assert_string_equal(real_of(1.0 / 3), "0.3333333333333333");     /* 16 are */
	/* jansson's marks: ".0" after an integral value, a bare exponent */
	assert_string_equal(real_of(3), "3.0");
	assert_string_equal(real_of(0), "0.0");
	assert_string_equal(real_of(-0.0), "-0.0");
	assert_string_equal(real_of(1e20), "1e20");
	assert_string_equal(real_of(1e-7), "1e-7");
	assert_string_equal(real_of(-2.5e-10), "-2.5e-10");
	assert_string_equal(real_of(1.5e300), "1.5e300");
	assert_string_equal(real_of(1.7976931348623157e308), "1.7976931348623157e308");
	/* no JSON number */
	assert_int_equal(json_real_text(t, NAN), -1);
	assert_int_equal(json_real_text(t, INFINITY), -1);
	assert_int_equal(json_real_text(t, -INFINITY), -1);
}

/* Every finite double: the text reads back as v (strtod and jansson's
 * parser), is a real's text, and no fewer digits than it used read back. */
static void round_trip(void **st)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;

	(void)st;
	for (int i = 0; i < 200000; i++) {
		/* splitmix64: any bit pattern, and figures as STATS rounds them */
		uint64_t z = (x += 0x9e3779b97f4a7c15ull);
		char t[JSON_REAL_TEXT_MAX], shorter[400];
		double v;
		json_t *j;
		int n, digits = 0;

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		z ^= z >> 31;
		if (i % 2)
			memcpy(&v, &z, sizeof(v));
		else
			v = round((double)(z >> 20) / (double)(1 + (z & 0xfffff)) * 1000) / 1000;
		n = json_real_text(t, v);
		if (!isfinite(v)) {
			assert_int_equal(n, -1);
			continue;
		}
		assert_int_equal(n, (int)strlen(t));
		if (strtod(t, NULL) != v)
			fail_msg("%.17g written %s", v, t);
		j = json_loads(t, JSON_DECODE_ANY, NULL);
		if (!json_is_real(j) || json_real_value(j) != v)
			fail_msg("%.17g written %s: jansson reads no such real", v, t);
		json_decref(j);
		/* significant digits: from the first that is not 0, to the
		 * exponent or the ".0" that marks an integral real */
		if (n > 2 && !strcmp(t + n - 2, ".0"))
			t[n - 2] = 0;
		for (const char *p = t; *p && *p != 'e'; p++)
			digits += (digits || (*p >= '1' && *p <= '9')) && *p >= '0' && *p <= '9';
		/* a text of more than 15 digits: the digit fewer did not read back */
		if (digits > 15 && !(v == 0)) {
			snprintf(shorter, sizeof(shorter), "%.*g", digits - 1, v);
			if (strtod(shorter, NULL) == v)
				fail_msg("%.17g written %s, but %s reads back too", v, t, shorter);
		}
	}
}

/* json_text of the value text (parsed) against json_dumps's, compact and
 * JSON_INDENT(2). */
static void same_layout(const char *text)
{
	json_error_t e;
	json_t *v = json_loads(text, JSON_DECODE_ANY | JSON_ALLOW_NUL, &e);
	struct buf b = { 0 }, ind = { 0 };
	char *want, *want_ind;

	if (!v)
		fail_msg("%s: %s", text, e.text);
	want = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	want_ind = json_dumps(v, JSON_INDENT(2) | JSON_ENCODE_ANY);
	assert_int_equal(json_text(&b, v, 0), 0);
	assert_int_equal(json_text(&ind, v, 2), 0);
	assert_string_equal(b.p, want);
	assert_string_equal(ind.p, want_ind);
	free(want);
	free(want_ind);
	buf_free(&b);
	buf_free(&ind);
	json_decref(v);
}

static void layout_as_jansson(void **st)
{
	(void)st;
	same_layout("{}");
	same_layout("[]");
	same_layout("{\"a\":1,\"b\":[1,2,{}],\"c\":{\"d\":[],\"e\":null}}");
	same_layout("{\"z\":true,\"a\":false,\"m\":-9223372036854775808,\"n\":9223372036854775807}");
	same_layout("[[[[1]]],[[]],{\"x\":{\"y\":{\"z\":\"deep\"}}}]");
	/* reals jansson writes shortest too */
	same_layout("[0.5,3.0,-0.25,1e20,1024.125,0.0,-0.0]");
	/* escapes, UTF-8, a NUL, in values and keys */
	same_layout("{\"q\\\"k\":\"a\\\"b\\\\c\\n\\t\\u0001/\",\"caf\\u00e9\":\"\\u00e9\\u4e2d\\ud83d\\ude00\"}");
	same_layout("[\"nul\\u0000inside\",\"\"]");
	same_layout("\"a bare string\"");
	same_layout("42");
	same_layout("null");
}

/* Where jansson's dump differs, it is only in the reals' digits. */
static void reals_in_a_value(void **st)
{
	json_t *v = json_pack("{s:f, s:[f, f], s:i}", "confidence", 0.95, "ci", 8.37, -14.95, "n", 5);
	struct buf b = { 0 }, ind = { 0 };

	(void)st;
	assert_int_equal(json_text(&b, v, 0), 0);
	assert_string_equal(b.p, "{\"confidence\":0.95,\"ci\":[8.37,-14.95],\"n\":5}");
	assert_int_equal(json_text(&ind, v, 2), 0);
	assert_string_equal(ind.p, "{\n  \"confidence\": 0.95,\n  \"ci\": [\n    8.37,\n    -14.95\n  ],\n  \"n\": 5\n}");
	buf_free(&b);
	/* no value, no text */
	assert_int_equal(json_text(&b, NULL, 0), -1);
	json_decref(v);
	buf_free(&b);
	buf_free(&ind);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(figures),
		cmocka_unit_test(round_trip),
		cmocka_unit_test(layout_as_jansson),
		cmocka_unit_test(reals_in_a_value),
	};
	return cmocka_run_group_tests_name("jsontext", tests, NULL, NULL);
}
