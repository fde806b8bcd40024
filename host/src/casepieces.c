/*
 * casepieces.c — a case merged from its CASE frames, and its CPU lists made
 * canonical (casepieces.h). The payload sends x_cpus in pieces when it is
 * wider than a frame (firmware/bench/casetext.c): the first frame holds
 * every other key and x_cpus+1/N, each other one the case's id and one
 * piece. Frames arrive in any order and may repeat (retransmission); each
 * piece is insert-once like a HELLO fact, and the last one in joins them.
 */
#include <stdlib.h>
#include <string.h>

#include "casekey.h"
#include "casepieces.h"
#include "xcb_cpulist.h"
#include "xcb_proto.h"

/* Whether key is a piece's (base+I/N); its base's length in *blen. */
static int piece(const char *key, size_t *blen)
{
	unsigned i, n;

	return xcb_piece_key(key, strlen(key), blen, &i, &n);
}

int case_has_pieces(json_t *cfg)
{
	const char *k;
	json_t *v;
	size_t bl;

	json_object_foreach(cfg, k, v)
		if (piece(k, &bl))
			return 1;
	return 0;
}

int case_is_continuation(json_t *cfg)
{
	const char *k;
	json_t *v;
	size_t bl;
	int pieces = 0;

	json_object_foreach(cfg, k, v) {
		if (piece(k, &bl))
			pieces++;
		else if (strcmp(k, "id"))
			return 0;
	}
	return pieces > 0;
}

/* Whether in holds a piece of base key k (so a stored k is their join). */
static int has_piece_of(json_t *in, const char *k)
{
	const char *pk;
	json_t *v;
	size_t bl;

	json_object_foreach(in, pk, v)
		if (piece(pk, &bl) && bl == strlen(k) && !strncmp(pk, k, bl))
			return 1;
	return 0;
}

int case_merge(json_t *stored, json_t *in)
{
	int cont = case_is_continuation(in);
	const char *k;
	json_t *v;
	size_t bl;

	/* Every key of in agrees with the stored ones; a piece of a line the
	 * stored config has joined already is a repeat (its value is in the
	 * join). */
	json_object_foreach(in, k, v) {
		json_t *s = json_object_get(stored, k);

		if (piece(k, &bl)) {
			char base[XCB_KEY_MAX + 1];

			memcpy(base, k, bl < XCB_KEY_MAX ? bl : XCB_KEY_MAX);
			base[bl < XCB_KEY_MAX ? bl : XCB_KEY_MAX] = 0;
			if (json_object_get(stored, base))
				continue;
		} else if (!s) {
			return -1;	/* a key the case was stored without */
		}
		if (s && !json_equal(s, v))
			return -1;
	}
	/* A whole head names every stored key but the joined lines it
	 * carries pieces of; a continuation names only its id. */
	if (!cont)
		json_object_foreach(stored, k, v)
			if (!piece(k, &bl) && !json_object_get(in, k) && !has_piece_of(in, k))
				return -1;
	json_object_foreach(in, k, v)
		if (piece(k, &bl) && !json_object_get(stored, k)) {
			char base[XCB_KEY_MAX + 1];

			memcpy(base, k, bl < XCB_KEY_MAX ? bl : XCB_KEY_MAX);
			base[bl < XCB_KEY_MAX ? bl : XCB_KEY_MAX] = 0;
			if (!json_object_get(stored, base))
				json_object_set(stored, k, v);
		}
	kv_join_pieces(stored);
	case_canon_cpus(stored);
	return 0;
}

/* cfg's key k rewritten by canon (xcb_cpulist.h) when it reads. */
static void canon_key(json_t *cfg, const char *k, size_t (*canon)(const char *, size_t, char *, size_t))
{
	json_t *v = json_object_get(cfg, k);
	size_t n, len;
	char *out;

	if (!json_is_string(v))
		return;
	len = json_string_length(v);
	n = canon(json_string_value(v), len, NULL, 0);
	if (n == (size_t)-1 || n > CASE_CANON_MAX || !(out = malloc(n + 1)))
		return;
	canon(json_string_value(v), len, out, n + 1);
	json_object_set_new(cfg, k, json_stringn(out, n));
	free(out);
}

void case_canon_cpus(json_t *cfg)
{
	canon_key(cfg, "x_cpus", xcb_cpus_canon);
	canon_key(cfg, "x_readers", xcb_cpulist_canon);
	canon_key(cfg, "x_leaders", xcb_cpulist_canon);
}
