/*
 * casekey.h — the text payloads (HELLO/CASE key=value lines) as JSON, and
 * the canonical matching key of a case used by comparisons (proto/README.md;
 * which keys match is xcb_schema.h's: xcb_axis_matches; optionally without algo).
 */
#ifndef XCB_CASEKEY_H
#define XCB_CASEKEY_H

#include <jansson.h>
#include <stddef.h>

#include "util.h"

/* Copies text into valid UTF-8 without control characters (except \n, \t):
 * anything else becomes '?'; the values of run= and server= words become '*'
 * (xcb_mask_secrets: every machine text the daemon stores goes through here,
 * and anonymous readers see it). Returns a malloc'd NUL-terminated string. */
char *sanitize_text(const char *p, size_t n);
/* key=value lines → JSON object of strings (later keys win); merges into obj
 * when obj is given. Keys must be [A-Za-z0-9_.-]; other lines are skipped. */
json_t *kv_to_json(const char *text, size_t len, json_t *obj);
/* HELLO: joins the wide lines whose pieces are all in obj (casekey.c). */
void kv_join_pieces(json_t *obj);
/* Appends the canonical "k=v&k=v" (sorted by key) of config's matching keys. */
void case_match_key(json_t *config, int without_algo, struct buf *out);
/* Is this key part of the match? */
int case_key_matches(const char *key, int without_algo);
/* ... of this case's (config's) match: case_key_matches, and across algorithms
 * not a sync case's shootdown keys (xcall_algo, flush, method: lazy has none). */
int case_config_key_matches(json_t *config, const char *key, int without_algo);
/* Deletes from config the keys that go with its algo (a sync case's xcall_algo,
 * flush, method): comparing across algorithms ignores them with the algo. */
void case_drop_algo_companions(json_t *config);
/* Does this TLB case's algo name its shootdown path (flush is not xcall:
 * the path uses no cross-call algorithm, and the payload sends the path's
 * name as the algo, firmware/bench/suite.c case_algo_name)? Such an algo
 * says nothing flush does not: comparing paths ignores it with flush. */
int case_algo_is_path(json_t *config);
/* Is this a case of method none (kind tlb, or sync: the kinds whose CASE
 * carries `method`, firmware/bench/emit.c)? It invalidates nothing: its
 * targets read stale translations by design and its stale count is not
 * checked (README "TLB": a cost figure, never a pass; compare's
 * a_no_flush/b_no_flush). */
int case_no_flush(json_t *config);

#endif
