/* casekey.c — text payloads as JSON, and the case matching key (casekey.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casekey.h"
#include "xcb_proto.h"
#include "xcb_schema.h"
#include "xcb_secret.h"

char *sanitize_text(const char *p, size_t n)
{
	const unsigned char *s = (const unsigned char *)p;
	char *out = malloc(n + 1);
	size_t o = 0;

	if (!out)
		return NULL;
	for (size_t i = 0; i < n;) {
		unsigned c = s[i];
		size_t len = utf8_seq_len(s + i, n - i);

		/* not UTF-8, or a control character other than \n and \t */
		if (!len || (len == 1 && ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f))) {
			out[o++] = '?';
			i++;
			continue;
		}
		memcpy(out + o, s + i, len);
		o += len;
		i += len;
	}
	out[o] = 0;
	xcb_mask_secrets(out, o);
	return out;
}

static int key_ok(const char *k, size_t n)
{
	if (n == 0 || n > XCB_KEY_MAX)
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = k[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '.' || c == '-'))
			return 0;
	}
	return 1;
}

json_t *kv_to_json(const char *text, size_t len, json_t *obj)
{
	size_t pos = 0, kl, vl;
	const char *k, *v;

	if (!obj)
		obj = json_object();
	while (obj && xcb_kv_next(text, len, &pos, &k, &kl, &v, &vl)) {
		char key[65], *val;

		size_t bl;
		unsigned pi, pn;

		/* A wide line's piece (xcb_proto.h): kept under its own key
		 * "base+I/N" until kv_join_pieces joins it. */
		if (!key_ok(k, kl) && !(kl <= XCB_KEY_MAX && xcb_piece_key(k, kl, &bl, &pi, &pn) && key_ok(k, bl)))
			continue;
		memcpy(key, k, kl);
		key[kl] = 0;
		/* A fact named run= or server= is a credential: kept, masked. */
		val = xcb_is_secret_key(k, kl) ? sanitize_text("*", 1) : sanitize_text(v, vl);
		if (val)
			json_object_set_new(obj, key, json_string(val));
		free(val);
	}
	return obj;
}

/* Joins the pieces of every wide line whose N pieces obj holds (any order,
 * any frames): the base key set to them joined in order, the pieces dropped.
 * A piece whose base key is already there repeats a joined line: dropped.
 * Each piece was sanitised and masked alone; the joined value is masked
 * again, so a secret cut across two pieces is masked too. */
void kv_join_pieces(json_t *obj)
{
	const char *k;
	json_t *v;
	void *tmp;

	json_object_foreach_safe(obj, tmp, k, v) {
		size_t bl, klen = strlen(k), total = 0;
		unsigned pi, pn, have = 0;
		char base[XCB_KEY_MAX + 1], pk[XCB_KEY_MAX + 32], *joined;

		if (!xcb_piece_key(k, klen, &bl, &pi, &pn) || bl > XCB_KEY_MAX)
			continue;
		memcpy(base, k, bl);
		base[bl] = 0;
		if (json_object_get(obj, base)) {
			json_object_del(obj, k);
			continue;
		}
		for (unsigned i = 1; i <= pn; i++) {
			json_t *p;

			snprintf(pk, sizeof(pk), "%s+%u/%u", base, i, pn);
			p = json_object_get(obj, pk);
			if (!json_is_string(p))
				break;
			have++;
			total += json_string_length(p);
		}
		if (have != pn || !(joined = malloc(total + 1)))
			continue;
		total = 0;
		for (unsigned i = 1; i <= pn; i++) {
			json_t *p;

			snprintf(pk, sizeof(pk), "%s+%u/%u", base, i, pn);
			p = json_object_get(obj, pk);
			memcpy(joined + total, json_string_value(p), json_string_length(p));
			total += json_string_length(p);
		}
		joined[total] = 0;
		xcb_mask_secrets(joined, total);
		json_object_set_new(obj, base, json_string(joined));
		free(joined);
		for (unsigned i = 1; i <= pn; i++) {
			snprintf(pk, sizeof(pk), "%s+%u/%u", base, i, pn);
			json_object_del(obj, pk);
		}
		/* the iterator's next key may have been a piece just dropped */
		kv_join_pieces(obj);
		return;
	}
}

/* The rule is the schema's (xcb_schema.h: roles IDENTITY, CHART, AXIS match;
 * unlisted keys unless x_*), so the daemon and the web agree on it. */
int case_key_matches(const char *key, int without_algo)
{
	return xcb_axis_matches(key, without_algo);
}

/* The keys of a sync case that belong to its algo (its mode): the shootdown's
 * algorithm, path and method - inside/after have them, lazy (no shootdown,
 * issue 21) has none. */
static int algo_companion(json_t *config, const char *key)
{
	const char *kind = json_string_value(json_object_get(config, "kind"));
	return kind && !strcmp(kind, "sync") &&
	       (!strcmp(key, XCB_KEY(xcall_algo)) || !strcmp(key, XCB_KEY(flush)) || !strcmp(key, XCB_KEY(method)) ||
		!strcmp(key, "xcall"));	/* xcall_algo's name in runs stored before issue 20 */
}

int case_config_key_matches(json_t *config, const char *key, int without_algo)
{
	return case_key_matches(key, without_algo) && !(without_algo && algo_companion(config, key));
}

void case_drop_algo_companions(json_t *config)
{
	static const char *const keys[] = { "xcall_algo", "flush", "method", "xcall" };
	for (unsigned i = 0; i < 4; i++)
		if (algo_companion(config, keys[i]))
			json_object_del(config, keys[i]);
}

int case_algo_is_path(json_t *config)
{
	const char *kind = json_string_value(json_object_get(config, XCB_KEY(kind)));
	const char *flush = json_string_value(json_object_get(config, XCB_KEY(flush)));
	const char *algo = json_string_value(json_object_get(config, XCB_KEY(algo)));

	/* algo == flush: a run whose TLB cases named a cross-call algorithm
	 * beside a path that uses none (hand-made runs) keeps it */
	return kind && flush && algo && !strcmp(kind, XCB_NAME(kind, XCB_KIND_TLB)) &&
	       strcmp(flush, XCB_NAME(flush, XCB_FLUSH_XCALL)) && !strcmp(algo, flush);
}

int case_no_flush(json_t *config)
{
	const char *method = json_string_value(json_object_get(config, XCB_KEY(method)));

	/* any kind whose config has the key: the payload sends it on tlb and
	 * sync cases (a sync case of method none is its control, never sent,
	 * but a hand-made or older run may hold one) */
	return method && !strcmp(method, XCB_NAME(method, XCB_METHOD_NONE));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void case_match_key(json_t *config, int without_algo, struct buf *out)
{
	const char *keys[256];
	size_t n = 0;
	const char *k;
	json_t *v;

	json_object_foreach(config, k, v) {
		if (n < 256 && case_config_key_matches(config, k, without_algo))
			keys[n++] = k;
	}
	qsort(keys, n, sizeof(keys[0]), cmp_str);
	for (size_t i = 0; i < n; i++) {
		json_t *val = json_object_get(config, keys[i]);

		buf_addf(out, "%s%s=%s", i ? "&" : "", keys[i],
			 json_is_string(val) ? json_string_value(val) : "");
	}
	if (!out->p)
		buf_add(out, "", 0);
}
