/* runs_json.c — the JSON of runs, cases, events and histograms (see runs_json.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "casestats.h"
#include "jsonw.h"
#include "runs_json.h"
#include "sqljson.h"
#include "stats.h"
#include "xcb_histo.h"

/* The HELLO keys a run list shows (machine, CPU model, hypervisor, APIC
 * mode, TSC rate, boot firmware and loader), so a list needs no request per
 * run; strings as sent. */
const char *const run_summary_facts[RUN_SUMMARY_NFACTS] = { "vendor", "brand", "family", "model", "stepping",
	"cpus", "hypervisor", "apic_mode", "tsc_khz", "boot_fw", "uefi_rev", "boot_fw_vendor", "boot_fw_rev", "loader" };

int64_t run_cases_planned(const json_t *hello)
{
	const char *planned = json_string_value(json_object_get(hello, "cases_planned"));
	uint64_t np;

	return planned && parse_u64(planned, &np) == 0 && np < (1ull << 53) ? (int64_t)np : -1;
}

json_t *run_row_json(const struct run_row *r)
{
	json_t *machine = r->machine_id.type == DBI_NULL ? json_null()
		: json_pack("{s:I, s:o}", "id", (json_int_t)r->machine_id.i, "mac", dbval_json(&r->mac));
	json_t *hello = json_text_or_empty(r->hello), *facts = json_object(), *o;
	int64_t planned = run_cases_planned(hello);

	for (size_t i = 0; i < RUN_SUMMARY_NFACTS; i++) {
		json_t *v = json_object_get(hello, run_summary_facts[i]);

		if (v)
			json_object_set(facts, run_summary_facts[i], v);
	}
	/* No "token": it is the run's only credential on the wire, so a run's
	 * JSON never carries it by default. (runlist_json.c writes the same
	 * members in the same order for the run list: keep them in step.) */
	o = json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
			 "s:o, s:o, s:I, s:o, s:o, s:o}",
		"id", (json_int_t)r->id,
		"lab", dbval_json(&r->lab), "machine", machine, "suite", dbval_json(&r->suite), "params", json_text_or_empty(r->params),
		"label", dbval_json(&r->label), "notes", dbval_json(&r->notes), "status", dbval_json(&r->status),
		"source", dbval_json(&r->source), "created", dbval_iso(&r->created),
		"started", dbval_iso(&r->started), "last_frame", dbval_iso(&r->last_frame),
		"finished", dbval_iso(&r->finished), "frames_received", dbval_json(&r->frames_received),
		"frames_expected", dbval_json(&r->frames_expected), "done_status", dbval_json(&r->done_status),
		"cases", (json_int_t)r->cases, "cpus", dbval_json(&r->cpus),
		"tsc_khz", dbval_json(&r->tsc_khz), "error", dbval_json(&r->error));
	json_object_set_new(o, "cases_planned", planned >= 0 ? json_integer((json_int_t)planned) : json_null());
	json_object_set_new(o, "cases_done", json_integer(r->cases_done));
	json_object_set_new(o, "facts", facts);
	json_decref(hello);
	return o;
}

/* The member "key": v as dbval_json gives it, or none where jansson has
 * no value (json_object_set_new of a NULL leaves the key out). 0 or -1. */
static int mdbval(struct buf *b, const char *key, const struct dbval *v)
{
	size_t at = b->len;

	if (jsonw_key(b, key) || jsonw_dbval(b, v))
		jsonw_cut(b, at);
	return b->p ? 0 : -1;
}

/* A case's config read as jsonw_flat_each: whether its keys ascend (then
 * none repeats, and the text is its own compact dump), and where its
 * x_delivery_used is. */
struct cfg_scan {
	const char *last, *used;
	size_t lastn, usedn;
	int ascending;
};

/* jsonw_member_fn: one member of a case's config into a struct cfg_scan. */
static void cfg_member(const char *k, size_t kn, const char *v, size_t vn, void *ctx)
{
	struct cfg_scan *c = ctx;
	int cmp = c->last ? memcmp(c->last, k, c->lastn < kn ? c->lastn : kn) : -1;

	if (cmp > 0 || (cmp == 0 && c->lastn >= kn))
		c->ascending = 0;
	c->last = k;
	c->lastn = kn;
	if (kn == 15 && memcmp(k, "x_delivery_used", 15) == 0) {
		c->used = v;
		c->usedn = vn;
	}
}

/* "delivery_used" and "config": the delivery the payload resolved (never
 * `auto`; `delivery` is what was asked), then every key as sent. The
 * store's text (flat, sorted) is written as it is; any other goes through
 * jansson. 0 or -1. */
static int config_members(struct buf *b, const struct case_row *c)
{
	struct cfg_scan sc = { .ascending = 1 };
	json_t *cfg, *used;
	size_t at;
	int bad;

	if (jsonw_flat_each(c->config, cfg_member, &sc) && sc.ascending) {
		bad = sc.used ? jsonw_lit(b, ",\"delivery_used\":\"") || buf_add(b, sc.used, sc.usedn) ||
				jsonw_lit(b, "\"")
			      : mdbval(b, "delivery_used", &c->delivery);
		return bad || jsonw_lit(b, ",\"config\":") || buf_add(b, c->config, strlen(c->config)) ? -1 : 0;
	}
	cfg = json_text_or_empty(c->config);
	used = json_object_get(cfg, "x_delivery_used");
	at = b->len;
	if (!used)
		bad = mdbval(b, "delivery_used", &c->delivery);
	else if ((bad = jsonw_key(b, "delivery_used") || jsonw_val(b, used)))
		jsonw_cut(b, at);
	bad = !b->p || jsonw_key(b, "config") || jsonw_val(b, cfg);
	json_decref(cfg);
	return bad ? -1 : 0;
}

/* The member "key": one aggregate row's field per repetition, null where
 * not measured (NULL or 0): the run page's floor over time (issue 21). */
static int rep_series(struct buf *b, const char *key, const struct resrow *rows, size_t k, int field)
{
	if (jsonw_key(b, key) || jsonw_lit(b, "["))
		return -1;
	for (size_t i = 0; i < k; i++) {
		double v = rows[i].v[field];

		if ((i && jsonw_lit(b, ",")) ||
		    (isnan(v) || v <= 0 ? jsonw_lit(b, "null") : jsonw_i64(b, (int64_t)v)))
			return -1;
	}
	return jsonw_lit(b, "]");
}

/* A case column's text, NULL when it is not text (NULL in the store). */
static const char *col_text(const struct dbval *v)
{
	return v->type == DBI_TEXT ? v->s : NULL;
}

/* The member "lock" (casestats.h, LOCK). Its name needs two config keys
 * (flush, rwlock): the config is parsed only for a case that took a lock. */
static int lock_member(struct buf *b, const struct case_row *c, const struct agg *a, const struct resrow *rows,
		       size_t n)
{
	json_t *cfg = a->sum[RV_lock_acq - RV_ipis] > 0 ? json_text_or_empty(c->config) : NULL;
	int bad = agg_lock_write(b, a, rows, n, col_text(&c->kind), col_text(&c->algo),
				 json_string_value(json_object_get(cfg, "flush")),
				 json_string_value(json_object_get(cfg, "rwlock")));

	json_decref(cfg);
	return bad;
}

int case_write(struct buf *b, const struct case_row *c, struct resrow *rows, size_t n, double tsc_khz)
{
	struct agg a;
	size_t k;
	int bad = buf_addf(b, "{\"case_id\":%lld", (long long)c->case_id);

#define CASE_COLUMN(key) bad = bad || mdbval(b, #key, &c->key);
	CASE_COLUMNS
#undef CASE_COLUMN
	bad = bad || config_members(b, c) || initiators_write(b, rows, n) || jsonw_key(b, "pseudo") ||
	      pseudo_write(b, rows, n);
	if (bad)
		return -1;
	k = pick_aggregate(rows, n);
	agg_compute(rows, k, &a);
	/* a floor case (kind=raw) has no ratio to the floor: its RESULT
	 * carries the boot's HELLO floor, measured at another moment, and
	 * p50/that read as "below 1: a harness bug" (README) */
	if (col_text(&c->kind) && strcmp(col_text(&c->kind), XCB_NAME(kind, XCB_KIND_RAW)) == 0)
		a.ipi_ratio = NAN;
	bad = jsonw_key(b, "stats") || agg_write(b, &a) || lock_member(b, c, &a, rows, k) || jsonw_key(b, "ns") ||
	      agg_ns_write(b, &a, tsc_khz) ||
	      jsonw_key(b, "rep_p50") || jsonw_lit(b, "[");
	/* null for a repetition with no timed call, as rep_series' */
	for (size_t i = 0; i < k && !bad; i++)
		bad = (i && jsonw_lit(b, ",")) ||
		      (isnan(rows[i].v[RV_p50]) ? jsonw_lit(b, "null") : jsonw_i64(b, (int64_t)rows[i].v[RV_p50]));
	return bad || jsonw_lit(b, "]") || rep_series(b, "rep_ipi_floor", rows, k, RV_ipi_floor) ||
	       rep_series(b, "rep_floor_paired", rows, k, RV_floor_paired) || jsonw_lit(b, "}") ? -1 : 0;
}

int run_cases_write(struct buf *b, struct dbi *db, int64_t id, double tsc_khz, int64_t after, int64_t limit,
		    int64_t *next)
{
	struct case_cursor cc;
	struct result_cursor rc;
	struct histo_cursor hc;
	struct case_row c;
	struct p10s p10 = { 0 };
	int64_t shown = 0;
	int bad = jsonw_lit(b, "[");

	if (next)
		*next = -1;
	if (bad || cases_open(db, id, &cc))
		return -1; /* not "[]": a run whose cases cannot be read has some */
	if (results_open(db, id, -1, &rc))
		goto err_results;
	if (histos_open(db, id, -1, &hc))
		goto err_histos;
	while (!bad && cases_next(&cc, &c)) {
		struct resrow *rows;
		size_t n;
		int64_t cid = c.case_id;

		if (shown >= limit) {
			/* A page is full: the next one starts after the last case
			 * shown (the cursors stop here, nothing more is read). */
			if (next)
				*next = after;
			case_row_free(&c);
			break;
		}
		results_take(&rc, c.case_id, &rows, &n);
		p10s_clear(&p10);
		histos_take(&hc, c.case_id, p10s_add, &p10);
		if (cid > after) {
			p10s_apply(&p10, rows, n);
			bad = (shown && jsonw_lit(b, ",")) || case_write(b, &c, rows, n, tsc_khz);
			shown++;
			after = cid;
		}
		free(rows);
		case_row_free(&c);
	}
	free(p10.h);
	/* a read that failed mid-way: not the cases (or their results) before
	 * it as the run's (nor stored as its page) */
	bad = bad || cc.failed || rc.failed || hc.failed;
	histos_close(&hc);
err_histos:
	results_close(&rc);
err_results:
	cases_close(&cc);
	return bad || jsonw_lit(b, "]") ? -1 : 0;
}

char *run_cases_text(struct dbi *db, const struct run_row *r, int64_t after, int64_t limit, int64_t *next,
		     size_t *len)
{
	struct buf b = { 0 };

	/* ~73 KB for a run of 48 cases: one allocation instead of a doubling
	 * series (a hint: buf_add grows it past) */
	if (!buf_room(&b, 96 << 10) || run_cases_write(&b, db, r->id, r->tsc_khz.d, after, limit, next)) {
		buf_free(&b);
		return NULL;
	}
	*len = b.len;
	return b.p;
}

json_t *event_json(const struct event_row *e, int with_kind)
{
	if (!with_kind)
		return json_pack("{s:o, s:o, s:o}", "seq", dbval_json(&e->seq), "text", dbval_json(&e->text),
				 "received", dbval_iso(&e->received));
	return json_pack("{s:o, s:o, s:o, s:o}", "seq", dbval_json(&e->seq), "kind", dbval_json(&e->kind),
			 "text", dbval_json(&e->text), "received", dbval_iso(&e->received));
}

json_t *histogram_json(int64_t run, int64_t cid, int rep, int init, json_t *tsc_khz,
		       const uint32_t *idx, const uint64_t *cnt, size_t n)
{
	json_t *b = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(b, json_pack("{s:I, s:I, s:I, s:I}", "i", (json_int_t)idx[i],
			"low", (json_int_t)xcb_histo_low(idx[i]), "high", (json_int_t)xcb_histo_high(idx[i]),
			"count", (json_int_t)cnt[i]));
	return json_pack("{s:I, s:I, s:o, s:o, s:O, s:I, s:o, s:{s:f, s:f, s:f, s:f, s:f}}",
		"run", (json_int_t)run, "case_id", (json_int_t)cid,
		"rep", rep >= 0 ? json_integer(rep) : json_null(),
		"initiator", init >= 0 ? json_integer(init) : json_string("all"),
		"tsc_khz", tsc_khz,
		"total", (json_int_t)stats_histo_total(cnt, n), "buckets", b,
		"percentiles",
		"p10", stats_histo_quantile(idx, cnt, n, 0.1), "p50", stats_histo_quantile(idx, cnt, n, 0.5),
		"p90", stats_histo_quantile(idx, cnt, n, 0.9), "p99", stats_histo_quantile(idx, cnt, n, 0.99),
		"p999", stats_histo_quantile(idx, cnt, n, 0.999));
}
