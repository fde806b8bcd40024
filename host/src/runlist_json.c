/*
 * runlist_json.c — the run list's JSON (runlist_json.h), written member by
 * member with jsonw.h in run_row_json's order, then tags and meta as
 * labels_attach adds them: three queries (the page, its count, its labels)
 * and no jansson tree. Where run_row_json would fail (a value jansson
 * refuses), the run is left out of the list, as json_array_append_new
 * leaves out a NULL.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "jsonw.h"
#include "labels_db.h"
#include "runlist_json.h"
#include "runs_json.h"
#include "sqljson.h"

/* The page: each run's JSON up to its facts (and token), in list order. */
struct page {
	struct buf body;
	/* the facts and cases_planned of the HELLO text hello (a copy; NULL:
	 * none kept): a page's runs mostly share one HELLO (one machine, one
	 * payload), and reading it was a third of a run's writing */
	char *hello;
	struct buf facts;
	int64_t planned;
	struct run_at {
		int64_t id;
		size_t start, end;      /* its text in body */
	} *runs;
	size_t n, cap;
	int with_token;
	struct label {
		int64_t run;
		char *name, *value;     /* value NULL: a tag */
	} *labels;
	size_t nl, capl;
};

/* The stored values of a RUN between two others, each a member. */
#define RM_(key, w) { "\"" #key "\":", sizeof("\"" #key "\":") - 1, offsetof(struct run_row, key), w }
static const struct run_member {
	const char *key;        /* "key": as written (plain ASCII: no escapes) */
	size_t keylen;
	size_t off;
	int (*w)(struct buf *, const struct dbval *);
} run_mid[] = {
	RM_(label, jsonw_dbval), RM_(notes, jsonw_dbval), RM_(status, jsonw_dbval), RM_(source, jsonw_dbval),
	RM_(created, jsonw_iso), RM_(started, jsonw_iso), RM_(last_frame, jsonw_iso), RM_(finished, jsonw_iso),
	RM_(frames_received, jsonw_dbval), RM_(frames_expected, jsonw_dbval), RM_(done_status, jsonw_dbval),
}, run_tail[] = { RM_(cpus, jsonw_dbval), RM_(tsc_khz, jsonw_dbval), RM_(error, jsonw_dbval) };
#undef RM_

/* The members m[0..n) of r, each after a comma (never the first of its
 * object): the key's text as it is, not checked for escapes by jsonw_key
 * a run at a time. 0 or -1. */
static int members(struct buf *b, const struct run_row *r, const struct run_member *m, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (jsonw_lit(b, ",") || buf_add(b, m[i].key, m[i].keylen) ||
		    m[i].w(b, (const struct dbval *)((const char *)r + m[i].off)))
			return -1;
	return 0;
}

/* "machine": null, or {"id", "mac"}. 0 or -1. */
static int machine(struct buf *b, const struct run_row *r)
{
	if (jsonw_key(b, "machine"))
		return -1;
	if (r->machine_id.type == DBI_NULL)
		return jsonw_lit(b, "null");
	return jsonw_lit(b, "{\"id\":") || jsonw_i64(b, r->machine_id.i) || jsonw_key(b, "mac") ||
	       jsonw_dbval(b, &r->mac) || jsonw_lit(b, "}") ? -1 : 0;
}

/* A HELLO's text read without a parse when it is what the store writes: a
 * flat object of plain strings, {"key":"value",...}, printable ASCII
 * without escapes. json_loads would give the same object (a repeated key
 * keeps its last value, as json_object_set does); anything else, 0: the
 * text goes to json_loads. */
struct flat {
	struct { const char *s; size_t n; } v[RUN_SUMMARY_NFACTS + 1]; /* n 0: absent (s NULL) */
};

/* jsonw_member_fn: keeps a member of a flat HELLO that is a summary fact
 * or cases_planned (a repeated key keeps its last value, as
 * json_object_set does). */
static void flat_one(const char *k, size_t kn, const char *v, size_t vn, void *ctx)
{
	struct flat *fl = ctx;

	for (int i = 0; i <= RUN_SUMMARY_NFACTS; i++) {
		const char *key = i < RUN_SUMMARY_NFACTS ? run_summary_facts[i] : "cases_planned";

		/* the first byte first: most keys differ there */
		if (kn && k[0] == key[0] && kn == strlen(key) && memcmp(k, key, kn) == 0) {
			fl->v[i].s = v;
			fl->v[i].n = vn;
		}
	}
}

/* 1 with fl filled (the summary facts, then cases_planned), or 0. */
static int flat_read(const char *t, struct flat *fl)
{
	memset(fl, 0, sizeof(*fl));
	return jsonw_flat_each(t, flat_one, fl);
}

/* "facts" and cases_planned from a flat HELLO (flat_read): no jansson. */
static int flat_facts(struct buf *b, const struct flat *fl, int64_t *planned)
{
	char num[24];
	uint64_t np;
	size_t n = fl->v[RUN_SUMMARY_NFACTS].n;

	*planned = -1;
	if (fl->v[RUN_SUMMARY_NFACTS].s && n < sizeof(num)) {
		memcpy(num, fl->v[RUN_SUMMARY_NFACTS].s, n);
		num[n] = 0;
		/* as run_cases_planned */
		if (parse_u64(num, &np) == 0 && np < (1ull << 53))
			*planned = (int64_t)np;
	}
	for (int i = 0; i < RUN_SUMMARY_NFACTS; i++)
		if (fl->v[i].s && (jsonw_key(b, run_summary_facts[i]) || jsonw_lit(b, "\"") ||
				   buf_add(b, fl->v[i].s, fl->v[i].n) || jsonw_lit(b, "\"")))
			return -1;
	return 0;
}

/* "facts" and cases_planned from any HELLO text, through jansson. */
static int parsed_facts(struct buf *b, const char *text, int64_t *planned)
{
	json_t *hello = json_text_or_empty(text);
	int bad = 0;

	*planned = run_cases_planned(hello);
	for (size_t i = 0; i < RUN_SUMMARY_NFACTS && !bad; i++) {
		json_t *v = json_object_get(hello, run_summary_facts[i]);

		if (v)
			bad = jsonw_key(b, run_summary_facts[i]) ||
			      (json_is_string(v) ? jsonw_str(b, json_string_value(v)) : jsonw_val(b, v));
	}
	json_decref(hello);
	return bad;
}

/* p's facts and cases_planned for r's HELLO: kept from the run before
 * when its HELLO is the same text (the same text reads the same), else
 * read (and kept). 0 or -1. */
static int hello_facts(struct page *p, const struct run_row *r)
{
	struct flat fl;

	if (p->hello && r->hello && strcmp(p->hello, r->hello) == 0)
		return 0;
	free(p->hello);
	p->hello = NULL;
	jsonw_cut(&p->facts, 0);
	if (jsonw_lit(&p->facts, "{") ||
	    (flat_read(r->hello, &fl) ? flat_facts(&p->facts, &fl, &p->planned)
				       : parsed_facts(&p->facts, r->hello, &p->planned)) ||
	    jsonw_lit(&p->facts, "}"))
		return -1;
	p->hello = r->hello ? strdup(r->hello) : NULL;
	return 0;
}

/* "cases" … "facts" of r: its counts, the plan and the summary facts (the
 * facts first, hello_facts: cases_planned, before them, comes from the
 * same HELLO). */
static int counts_and_facts(struct buf *b, struct page *p, const struct run_row *r)
{
	return hello_facts(p, r) ||
	       jsonw_lit(b, ",\"cases\":") || jsonw_i64(b, r->cases) || members(b, r, run_tail, 3) ||
	       (p->planned >= 0 ? jsonw_lit(b, ",\"cases_planned\":") || jsonw_i64(b, p->planned)
				: jsonw_lit(b, ",\"cases_planned\":null")) ||
	       jsonw_lit(b, ",\"cases_done\":") || jsonw_i64(b, r->cases_done) || jsonw_lit(b, ",\"facts\":") ||
	       buf_add(b, p->facts.p, p->facts.len) ? -1 : 0;
}

/* A JSON object text as json_text_or_empty gives it ({} when not one). */
static int object_text(struct buf *b, const char *text)
{
	json_t *o;
	int rc;

	if (text && strcmp(text, "{}") == 0)    /* most runs' params */
		return jsonw_lit(b, "{}");
	o = json_text_or_empty(text);
	rc = jsonw_val(b, o);
	json_decref(o);
	return rc;
}

/* run_fn: one run of the page into the body (its object left open for
 * tags and meta), or nothing when a value cannot be JSON. */
static void page_run(const struct run_row *r, void *vp)
{
	struct page *p = vp;
	struct buf *b = &p->body;
	size_t start = b->len, tok;

	if (p->n == p->cap) {
		struct run_at *a = realloc(p->runs, (p->cap = p->cap ? p->cap * 2 : 128) * sizeof(*a));

		if (!a)
			return;
		p->runs = a;
	}
	if (jsonw_lit(b, "{\"id\":") || jsonw_i64(b, r->id) || jsonw_key(b, "lab") || jsonw_dbval(b, &r->lab) ||
	    machine(b, r) || jsonw_key(b, "suite") || jsonw_dbval(b, &r->suite) || jsonw_key(b, "params") ||
	    object_text(b, r->params) || members(b, r, run_mid, sizeof(run_mid) / sizeof(*run_mid)) ||
	    counts_and_facts(b, p, r)) {
		jsonw_cut(b, start);
		return;
	}
	/* The token for admins, unless jansson would refuse it (with_token). */
	tok = b->len;
	if (p->with_token && r->token && (jsonw_key(b, "token") || jsonw_str(b, r->token)))
		jsonw_cut(b, tok);
	p->runs[p->n++] = (struct run_at){ r->id, start, b->len };
}

/* label_fn: one tag or field of a run of the page, kept for the writing. */
static void page_label(int64_t run, const char *name, const char *value, void *vp)
{
	struct page *p = vp;
	struct label *l;

	if (p->nl == p->capl) {
		l = realloc(p->labels, (p->capl = p->capl ? p->capl * 2 : 64) * sizeof(*l));
		if (!l)
			return;
		p->labels = l;
	}
	l = &p->labels[p->nl];
	l->run = run;
	l->name = strdup(name);
	l->value = value ? strdup(value) : NULL;
	if (l->name && (l->value || !value))
		p->nl++;
	else {
		free(l->name);
		free(l->value);
	}
}

/* The first of p's labels (ordered by run id) of run, or p->nl. */
static size_t labels_of(const struct page *p, int64_t run)
{
	size_t lo = 0, hi = p->nl;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->labels[mid].run < run)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* ,"tags":[…],"meta":{…}} of run: each one jansson would accept. */
static int tags_and_meta(struct buf *b, const struct page *p, int64_t run)
{
	size_t first = labels_of(p, run);

	for (int meta = 0; meta < 2; meta++) {
		if (buf_add(b, meta ? ",\"meta\":{" : ",\"tags\":[", 9))
			return -1;
		for (size_t i = first; i < p->nl && p->labels[i].run == run; i++) {
			const struct label *l = &p->labels[i];
			size_t at = b->len;

			if (!l->value == !meta && (meta ? jsonw_key(b, l->name) || jsonw_str(b, l->value)
					      : (b->p[b->len - 1] != '[' && jsonw_lit(b, ",")) || jsonw_str(b, l->name)))
				jsonw_cut(b, at);
		}
		if (buf_add(b, meta ? "}" : "]", 1))
			return -1;
	}
	return jsonw_lit(b, "}");
}

/* An empty b with room for cap bytes: one allocation instead of a
 * doubling series of reallocs and copies (with the page faults of each new
 * block, the list's largest cost once its tree was gone). 0 or -1. */
static int reserve(struct buf *b, size_t cap)
{
	char *p = realloc(b->p, cap + 1);

	if (!p)
		return -1;
	b->p = p;
	b->cap = cap + 1;
	b->len = 0;
	p[0] = 0;
	return 0;
}

/* Frees what p holds. */
static void page_free(struct page *p)
{
	for (size_t i = 0; i < p->nl; i++) {
		free(p->labels[i].name);
		free(p->labels[i].value);
	}
	free(p->labels);
	free(p->runs);
	buf_free(&p->body);
	buf_free(&p->facts);
	free(p->hello);
}

int runlist_json(struct dbi *db, const struct run_filters *f, int with_token, struct buf *out)
{
	struct page p = { .with_token = with_token };
	int64_t total, *ids;
	size_t labels;
	int bad = 0;

	/* a run's JSON is ~600 bytes; a list is at most 1000 runs */
	reserve(&p.body, 768 * (size_t)(f->limit > 0 && f->limit < 1000 ? f->limit : 1000));
	if (runs_list(db, f, page_run, &p, &total)) {
		page_free(&p);
		return -1;
	}
	ids = calloc(p.n + 1, sizeof(*ids));
	for (size_t i = 0; ids && i < p.n; i++)
		ids[i] = p.runs[i].id;
	/* as labels_attach: a page whose labels cannot be read (all or
	 * some) is no page (500), never runs that look unlabelled */
	if (!ids || labels_each(db, ids, p.n, page_label, &p)) {
		free(ids);
		page_free(&p);
		return -1;
	}
	free(ids);
	labels = 0;
	for (size_t i = 0; i < p.nl; i++)
		labels += strlen(p.labels[i].name) * 2 + (p.labels[i].value ? strlen(p.labels[i].value) * 2 : 0) + 8;
	/* the body, each run's tags and meta, the totals: a hint (buf_add grows it past) */
	bad = reserve(out, p.body.len + 32 * p.n + labels + 128) || jsonw_lit(out, "{\"runs\":[");
	for (size_t i = 0; i < p.n && !bad; i++)
		bad = (i && jsonw_lit(out, ",")) ||
		      buf_add(out, p.body.p + p.runs[i].start, p.runs[i].end - p.runs[i].start) ||
		      tags_and_meta(out, &p, p.runs[i].id);
	bad = bad || buf_addf(out, "],\"total\":%lld,\"limit\":%lld,\"offset\":%lld}", (long long)total,
			      (long long)f->limit, (long long)f->offset);
	page_free(&p);
	return bad ? -1 : 0;
}
