/*
 * api_schema.c — GET /api/v1/schema: proto/xcb_schema.h as JSON, so that the
 * web (and any other client) reads the case keys, their roles, the RESULT
 * fields and the vocabularies from the one definition instead of keeping
 * lists of its own. Static data, except the algorithms: the host has no
 * list of those, it knows what the payloads' HELLOs told it (algos_db.c).
 */
#include <string.h>

#include "algos_db.h"
#include "http_reply.h"
#include "lock_words.h"
#include "pseudo_words.h"
#include "verdict_words.h"
#include "xcb_proto.h"
#include "xcb_schema.h"

/* A C string or JSON null. */
static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

/* [{key, type, role, column, matching, preferred, vocabulary}, ...] in the
 * order the payload emits them. */
static json_t *case_keys_json(void)
{
	json_t *a = json_array();

	for (unsigned i = 0; i < XCB_N_AXES; i++) {
		const struct xcb_axis *x = &xcb_axes[i];

		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:o, s:b, s:o, s:o}",
			"key", x->key, "type", xcb_type_text(x->type), "role", xcb_role_text(x->role),
			"column", str_or_null(x->role == XCB_ROLE_ID ? XCB_SQL_CASE_ID : x->column ? x->key : NULL),
			"matching", xcb_axis_matches(x->key, 0),
			"preferred", str_or_null(x->preferred), "vocabulary", str_or_null(x->vocabulary)));
	}
	return a;
}

/* [{name, bits, offset, part, column}, ...] in wire order. */
static json_t *result_fields_json(void)
{
	json_t *a = json_array();

	for (unsigned i = 0; i < XCB_N_RESULT_FIELDS; i++) {
		const struct xcb_field *f = &xcb_result_fields[i];

		json_array_append_new(a, json_pack("{s:s, s:i, s:i, s:s, s:o}", "name", f->name,
			"bits", (int)f->bits, "offset", (int)f->offset, "part", xcb_part_text(f->part),
			"column", str_or_null(f->part == XCB_PART_PAD ? NULL : f->name)));
	}
	return a;
}

/* {name: {values: [wire names], aliases: {command-line word: wire name}}}. */
static json_t *vocabularies_json(void)
{
	json_t *o = json_object();

	for (unsigned i = 0; i < xcb_n_vocabs; i++) {
		const struct xcb_vocab *v = &xcb_vocabs[i];
		json_t *values = json_array(), *aliases = json_object();

		for (unsigned k = 0; k < v->n; k++) {
			json_array_append_new(values, json_string(v->names[k]));
			if (strcmp(v->words[k], v->names[k]))
				json_object_set_new(aliases, v->words[k], json_string(v->names[k]));
		}
		json_object_set_new(o, v->name, json_pack("{s:o, s:o}", "values", values, "aliases", aliases));
	}
	return o;
}

/* {"bare_metal": name, "signatures": [{signature, name}, ...]}: how every
 * view names a HELLO `hypervisor` (xcb_hypervisor_name). */
static json_t *hypervisors_json(void)
{
	json_t *a = json_array();

	for (unsigned i = 0; i < xcb_n_hypervisors; i++)
		json_array_append_new(a, json_pack("{s:s, s:s}", "signature", xcb_hypervisors[i].signature,
						   "name", xcb_hypervisors[i].name));
	return json_pack("{s:s, s:o}", "bare_metal", XCB_HV_BARE_METAL, "signatures", a);
}

/* {"algo_prefix": "algo.", "facts": [{key, name, shown}, ...]}: HELLO's
 * machine facts in the order the run page lists them, with their names
 * (XCB_HELLO_FACTS), so no view keeps a list of its own. */
static json_t *hello_facts_json(void)
{
	json_t *a = json_array();

	for (unsigned i = 0; i < xcb_n_hello_facts; i++)
		json_array_append_new(a, json_pack("{s:s, s:s, s:s}", "key", xcb_hello_facts[i].key,
						   "name", xcb_hello_facts[i].name, "shown", xcb_hello_facts[i].shown));
	return json_pack("{s:s, s:o}", "algo_prefix", XCB_HELLO_ALGO_PREFIX, "facts", a);
}

static json_t *words_json(const struct pseudo_words *w)
{
	return json_pack("{s:s, s:s, s:s, s:s}", "name", w->name, "label", w->label, "measure", w->measure,
			 "figure", w->figure);
}

/* [{name, label, measure}, ...]: the RESULT rows a sync case is compared by
 * (compare's row=), all first, then its pseudo-initiators in proto's order,
 * with the CLI's words (pseudo_words.c), so the dashboard's compare page
 * says what show and compare --row say without a copy of its own. */
static json_t *sync_rows_json(void)
{
	json_t *a = json_array();

	json_array_append_new(a, words_json(&pseudo_words_all));
	for (size_t k = 0; k < pseudo_words_n; k++)
		json_array_append_new(a, words_json(&pseudo_words[k]));
	return a;
}

/* ["quick", ...]: the payload's suite= presets (XCB_VOCAB_SUITE), in its
 * order; a vocabulary of jobs, not of cases, so apart from "vocabularies".
 * The runs list's Suite filter offers them, not only the suites of the
 * runs it has loaded. */
static json_t *suites_json(void)
{
	json_t *a = json_array();

	for (unsigned i = 0; i < XCB_N_suite; i++)
		json_array_append_new(a, json_string(xcb_suite_names[i]));
	return a;
}

/* [{kind, not_method, counts}, ...]: what a case's lock profile counts,
 * the first entry that fits it (lock_words.c), with the words `xcbench
 * show` prints, so the run page's lock table says the same. */
static json_t *lock_counts_json(void)
{
	json_t *a = json_array();

	for (size_t i = 0; i < lock_words_n; i++)
		json_array_append_new(a, json_pack("{s:o, s:o, s:s}", "kind", str_or_null(lock_words[i].kind),
			"not_method", str_or_null(lock_words[i].not_method), "counts", lock_words[i].counts));
	return a;
}

/* [{done_status, name, says}, ...]: the payload's verdict on a run (a
 * RUN's done_status) in the CLI's words (verdict_words.c), so the
 * dashboard marks a run whose checks failed as `xcbench runs` and `show`
 * do, and its verdict filter offers the names the API takes. */
static json_t *verdicts_json(void)
{
	json_t *a = json_array();

	for (size_t i = 0; i < verdict_words_n; i++)
		json_array_append_new(a, json_pack("{s:i, s:s, s:s}", "done_status", (int)i, "name",
						   verdict_words[i].name, "says", verdict_words[i].says));
	return a;
}

enum MHD_Result api_schema(struct req *rq)
{
	json_t *o = json_pack("{s:o, s:s, s:o, s:i, s:i, s:o}",
		"case_keys", case_keys_json(),
		/* keys the schema does not list: matched unless they start so */
		"annotation_prefix", XCB_NOTE_PREFIX,
		"result_fields", result_fields_json(),
		"result_len", XCB_RESULT_LEN, "result_len_full", XCB_RESULT_LEN_FULL,
		"vocabularies", vocabularies_json());
	if (o) {
		json_object_set_new(o, "hypervisors", hypervisors_json());
		json_object_set_new(o, "hello", hello_facts_json());
		json_object_set_new(o, "sync_rows", sync_rows_json());
		json_object_set_new(o, "suites", suites_json());
		json_object_set_new(o, "lock_counts", lock_counts_json());
		json_object_set_new(o, "verdicts", verdicts_json());
		/* compare's lock_hold row, in the same words (not a sync
		 * row: the run page's sync table is headed by sync_rows) */
		json_object_set_new(o, "lock_row", words_json(&pseudo_words_lock_hold));
		/* any other case's all row (cross-call, TLB): the call time */
		json_object_set_new(o, "call_row", words_json(&pseudo_words_call));
	}
	/* The algorithms learned from HELLOs, and as the `algo` vocabulary
	 * (the command-line word is the name) for clients that look words up
	 * there. */
	struct dbi *db = rdb();
	json_t *learned = algos_db_learned(db), *values, *a;
	size_t i;

	/* a failed read is no "no algorithms learned" (without a database
	 * the schema is still served, with none) */
	if (db && !learned) {
		json_decref(o);
		return reply_db_failed(rq, db, NULL);
	}
	values = json_array();
	json_array_foreach(learned, i, a)
		json_array_append(values, json_object_get(a, "name"));
	if (o) {
		json_object_set_new(o, "algorithms", learned ? learned : json_array());
		json_object_set_new(json_object_get(o, "vocabularies"), "algo",
				    json_pack("{s:o, s:{}}", "values", values, "aliases"));
	} else {
		json_decref(learned);
		json_decref(values);
	}

	return o ? reply_json(rq, 200, o) : reply_error(rq, 500, "out of memory");
}
