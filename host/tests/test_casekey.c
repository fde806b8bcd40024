/* test_casekey.c — HELLO/CASE text to JSON, text sanitising, matching keys. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "casekey.h"

static void match_key(void **st)
{
	const char *t = "id=7\nalgo=locked\nmask=4\ninits=2\niters=100\nreps=5\nx_note=hi\nkind=xcall\nseed=9\n";
	json_t *o = kv_to_json(t, strlen(t), NULL);
	struct buf k = { 0 }, k2 = { 0 };

	(void)st;
	assert_int_equal(json_object_size(o), 9);
	case_match_key(o, 0, &k);
	assert_string_equal(k.p, "algo=locked&inits=2&kind=xcall&mask=4");
	case_match_key(o, 1, &k2);
	assert_string_equal(k2.p, "inits=2&kind=xcall&mask=4");
	buf_free(&k);
	buf_free(&k2);
	json_decref(o);
}

/* Across algorithms a sync case's shootdown keys go with the algo: inside (which
 * has them) and lazy (which sends no shootdown and has none) pair by mask. */
static void sync_lazy_pairs_with_inside(void **st)
{
	const char *in = "kind=sync\nalgo=inside\nmask=2\nxcall_algo=locked\nflush=xcall\nmethod=invlpg\nbatch=1\n";
	const char *lz = "kind=sync\nalgo=lazy\nmask=2\nbatch=1\n";
	const char *tl = "kind=tlb\nalgo=locked\nmask=2\nflush=xcall\nmethod=invlpg\n";
	json_t *a = kv_to_json(in, strlen(in), NULL), *b = kv_to_json(lz, strlen(lz), NULL);
	json_t *c = kv_to_json(tl, strlen(tl), NULL);
	struct buf ka = { 0 }, kb = { 0 }, kc = { 0 };

	(void)st;
	case_match_key(a, 1, &ka);
	case_match_key(b, 1, &kb);
	assert_string_equal(ka.p, kb.p);
	assert_string_equal(ka.p, "batch=1&kind=sync&mask=2");
	buf_free(&ka);
	case_match_key(a, 0, &ka);	/* with the algo: every key */
	assert_non_null(strstr(ka.p, "method=invlpg"));
	case_match_key(c, 1, &kc);	/* a TLB case keeps its method and path */
	assert_string_equal(kc.p, "flush=xcall&kind=tlb&mask=2&method=invlpg");
	buf_free(&ka);
	buf_free(&kb);
	buf_free(&kc);
	json_decref(a);
	json_decref(b);
	json_decref(c);
}

static void later_keys_win_and_bad_keys_skipped(void **st)
{
	const char *t = "a=1\nbad key=2\na=3\n\xff=4\nok=\n";
	json_t *o = kv_to_json(t, strlen(t), NULL);

	(void)st;
	assert_string_equal(json_string_value(json_object_get(o, "a")), "3");
	assert_string_equal(json_string_value(json_object_get(o, "ok")), "");
	assert_int_equal(json_object_size(o), 2);
	json_decref(o);
}

static void sanitize(void **st)
{
	char *s = sanitize_text("ok \xc3\xbc\x01\xff\xc3 end\n\ttab", 17);

	(void)st;
	assert_string_equal(s, "ok \xc3\xbc??? end\n\ttab");
	free(s);
	s = sanitize_text("\xed\xa0\x80", 3); /* a UTF-16 surrogate: invalid UTF-8 */
	assert_string_equal(s, "???");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(match_key),
		cmocka_unit_test(sync_lazy_pairs_with_inside),
		cmocka_unit_test(later_keys_win_and_bad_keys_skipped),
		cmocka_unit_test(sanitize),
	};
	return cmocka_run_group_tests_name("casekey", tests, NULL, NULL);
}
