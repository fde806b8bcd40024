/*
 * store_results.c — the frames that carry measurements: CASE (a case's
 * config and matching key), RESULT (one repetition of one initiator) and
 * the HISTO / SAMPLES chunks (a HISTO one row of histogram_chunks, a
 * SAMPLES one row of sample_chunks). Each is insert-once: it refuses
 * (STORE_REFUSED) before it writes a row that would change a stored one.
 */
#include <stdlib.h>

#include "casekey.h"
#include "casepieces.h"
#include "chunkvals.h"
#include "store_sql.h"
#include "util.h"
#include "xcb_histo.h"
#include "xcb_proto.h"
#include "xcb_schema.h"

/* Whether case cfg (dump: its stored form) of run id is stored with the
 * same config: 1, 0 (another one), -1 (not stored). */
static int case_same(int64_t id, json_t *cfg, const char *dump)
{
	struct dbi_stmt *s = store_st[S_CASE_SAME];

	dbi_bind_i64(s, 1, id);
	store_bind_json_int(s, 2, cfg, "id");
	dbi_bind_text(s, 3, dump ? dump : "{}", -1);
	return (int)store_query_int(s);
}

/* A CASE's case id (cfg: its keys), or -1 when it names none that fits
 * RESULT's u32 case_id. */
static int64_t case_id_of(json_t *cfg)
{
	const char *cid = cfg ? json_string_value(json_object_get(cfg, "id")) : NULL;
	uint64_t v;

	return !cid || parse_u64(cid, &v) || v > UINT32_MAX ? -1 : (int64_t)v;
}

int64_t store_frame_case(unsigned type, const uint8_t *p, size_t n, union store_dec *d)
{
	json_t *cfg;
	int64_t cid;

	switch (type) {
	case XCB_T_CASE:
		cfg = kv_to_json((const char *)p, n, NULL);
		cid = case_id_of(cfg);
		json_decref(cfg);
		return cid;
	case XCB_T_RESULT: return xcb_dec_result(p, n, &d->r) ? -1 : (int64_t)d->r.case_id;
	case XCB_T_HISTO: return xcb_dec_histo(p, n, &d->x) ? -1 : (int64_t)d->x.case_id;
	case XCB_T_SAMPLES: return xcb_dec_samples(p, n, &d->y) ? -1 : (int64_t)d->y.case_id;
	default: return -1;
	}
}

/* A CASE frame with pieces of x_cpus (casepieces.c), of case cfg: 1 when it
 * is to be stored as a new case (a head, its case not stored: its pieces
 * kept as keys until the others come), else what store_case answers: 0
 * merged into the stored config (the last piece joins them), STORE_REFUSED
 * another config, STORE_NO_CASE a continuation that overtook its head
 * (unACKed: resent, it is merged after the head), STORE_SLOW (fast: a
 * continuation needs the stored config, the careful path's). A case whose
 * pieces never all come keeps those that came, x_cpus+I/N, and no x_cpus:
 * an incomplete note, never a wrong one (and its run never complete). */
static int case_pieces(int64_t id, json_t *cfg, int fast)
{
	struct dbi_stmt *s = store_st[S_CASE_CONFIG];
	json_t *stored = NULL;
	char *dump;
	int rc;

	if (fast)
		return case_is_continuation(cfg) ? STORE_SLOW : 1;
	dbi_bind_i64(s, 1, id);
	store_bind_json_int(s, 2, cfg, "id");
	rc = dbi_step(s);
	if (rc == DBI_ROW)
		stored = json_loads(dbi_column_text(s, 0), 0, NULL);
	dbi_reset(s);
	dbi_clear(s);
	if (rc != DBI_ROW && rc != DBI_DONE)
		return -1;
	if (!stored)
		return rc == DBI_ROW ? -1 : case_is_continuation(cfg) ? STORE_NO_CASE : 1;
	if (!json_is_object(stored) || case_merge(stored, cfg)) {
		json_decref(stored);
		return STORE_REFUSED;
	}
	dump = json_dumps(stored, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(stored);
	if (!dump)
		return -1;
	s = store_st[S_CASE_SET];
	dbi_bind_i64(s, 1, id);
	store_bind_json_int(s, 2, cfg, "id");
	dbi_bind_text(s, 3, dump, -1);
	rc = store_step(s);
	free(dump);
	return rc;
}

int store_case(int64_t id, const uint8_t *p, size_t n, int fast)
{
	struct dbi_stmt *s = store_st[S_CASE];
	json_t *cfg_obj = kv_to_json((const char *)p, n, NULL);
	struct buf key = { 0 };
	char *dump;
	int rc;

	/* A CASE must name its case (a number that fits RESULT's u32 case_id):
	 * refused, not written, so a malformed frame with a valid CRC can never
	 * make the whole batch fail a constraint (found by fuzz_frame). */
	if (case_id_of(cfg_obj) < 0) {
		json_decref(cfg_obj);
		return STORE_REFUSED;
	}
	/* x_cpus in pieces: merged into its case, or the head stored with its
	 * piece; the CPU lists stored canonical, so the same case compares
	 * the same however it was spelt (xcb_cpulist.h). */
	if (case_has_pieces(cfg_obj) && (rc = case_pieces(id, cfg_obj, fast)) != 1) {
		json_decref(cfg_obj);
		return rc;
	}
	case_canon_cpus(cfg_obj);
	dump = json_dumps(cfg_obj, JSON_COMPACT | JSON_SORT_KEYS);
	/* Stored already? The same config is a harmless repeat (nothing to
	 * write); another one would rewrite what results refer to. (fast: the
	 * run's cases in memory say it is not.) */
	rc = fast ? -1 : case_same(id, cfg_obj, dump);
	if (rc != -1) {
		free(dump);
		json_decref(cfg_obj);
		return rc == 1 ? 0 : STORE_REFUSED;
	}
	s = store_st[S_CASE];
	case_match_key(cfg_obj, 0, &key);
	dbi_bind_i64(s, 1, id);
	store_bind_json_int(s, 2, cfg_obj, "id");
	int at = 3; /* the schema's COL axes, in XCB_SQL_CASE_COLS order */
	for (unsigned i = 0; i < XCB_N_AXES; i++) {
		const struct xcb_axis *a = &xcb_axes[i];

		if (!a->column)
			continue;
		if (a->type == XCB_TY_INT)
			store_bind_json_int(s, at++, cfg_obj, a->key);
		else
			store_bind_json_text(s, at++, cfg_obj, a->key);
	}
	dbi_bind_text(s, at++, dump ? dump : "{}", -1);
	dbi_bind_text(s, at, key.p, -1);
	rc = store_write(s, fast, 1);
	store_rows += rc == 0;
	free(dump);
	buf_free(&key);
	json_decref(cfg_obj);
	return rc;
}

int store_result(int64_t id, const uint8_t *p, size_t n, int fast)
{
	struct xcb_result r;

	if (xcb_dec_result(p, n, &r))
		return STORE_REFUSED; /* malformed: nothing written (the collector checks first) */
	return store_result_dec(id, &r, n, fast);
}

int store_result_dec(int64_t id, const struct xcb_result *r, size_t n, int fast)
{
	struct dbi_stmt *s = store_st[S_RESULT];
	int64_t v[XCB_N_RESULT_FIELDS];
	unsigned char null[XCB_N_RESULT_FIELDS];
	int cols = 0, rc;

	/* Every field with a column, in XCB_SQL_RESULT_COLS order. An appended
	 * one the RESULT does not reach (an older sender's) decodes as 0 and is
	 * stored as NULL (not measured), where 0 could not be told from a value. */
	for (unsigned i = 0; i < XCB_N_RESULT_FIELDS; i++) {
		enum xcb_part part = xcb_result_fields[i].part;
		int present = xcb_result_fields[i].offset + xcb_result_fields[i].bits / 8 <= n;

		if (part == XCB_PART_PAD)
			continue;
		null[cols] = part == XCB_PART_APPENDED && !present;
		v[cols] = null[cols] ? 0 : store_i64(xcb_result_get(r, i));
		cols++;
	}
	/* fast: the case is known; on PostgreSQL the row goes in a block
	 * whose ON CONFLICT is the insert-once check (store_data.c). */
	if (fast && store_data_on())
		return store_data_result(id, v, null, cols) ? -1 : (store_rows++, 0);
	/* fast on SQLite: the row alone (S_RESULT_ROW), the case known. */
	if (fast)
		s = store_st[S_RESULT_ROW];
	dbi_bind_i64(s, 1, id);
	for (int i = 0; i < cols; i++)
		if (!null[i])
			dbi_bind_i64(s, i + 2, v[i]);
	/* fast: the insert-once check is the statement's own (its primary
	 * key); one row it must insert. */
	if (fast)
		return store_write(s, fast, 1) ? -1 : (store_rows++, 0);
	if (store_step(s))
		return -1;
	if (dbi_changes(dbi_db(s)) == 1) {
		store_rows++;
		return 0;
	}
	/* Not inserted: a RESULT of a case nobody described could never be
	 * read as a case (issue 26): refused, unACKed, and stored when resent
	 * after its CASE (a frame that overtook it on a lossy link;
	 * rejected.no_case); or its row is stored already (insert-once). */
	rc = store_may_add(store_st[S_RESULT_HAS], id, r->case_id, r->rep, r->initiator, 0, 0);
	return rc ? rc : STORE_REFUSED;
}

/* A HISTO frame: its buckets from the first to the last non-empty one as
 * ONE row of histogram_chunks (their counts as chunkvals.h's text), none
 * when all are empty; refused when a stored chunk of the histogram overlaps
 * the frame's whole range [first, first+n-1] (insert-once: stored chunks
 * never overlap). Still one row per non-empty bucket against the run's
 * histogram limit (store_rows). fast: on PostgreSQL the overlap check is
 * the HISTO block's own, so nothing is asked first; on SQLite S_HISTO_FREE
 * is asked, then the row inserted. */
static int store_histo(int64_t id, const struct xcb_histo *x, int fast)
{
	static int64_t cnt[XCB_HISTO_CHUNK];
	static char text[CHUNK_VALS_MAX(XCB_HISTO_CHUNK)];
	struct dbi_stmt *s = store_st[S_HISTOS];
	int64_t first = x->first, last = (int64_t)x->first + x->n - 1;
	unsigned lo = 0, hi = 0, used = 0;
	int rc = 0, len;

	if (!fast)
		rc = store_may_add(store_st[S_HISTO_HAS], id, x->case_id, x->rep, x->initiator, first, last);
	if (rc)
		return rc;
	for (unsigned i = 0; i < x->n; i++) {
		cnt[i] = store_i64(xcb_histo_count(x, i));
		if (cnt[i]) {
			lo = used++ ? lo : i;
			hi = i;
		}
	}
	/* fast: a frame of empty buckets has no row to carry the insert-once
	 * check, but the careful path refuses it when a stored chunk overlaps
	 * its range: its way (nothing written). */
	if (used == 0)
		return fast ? STORE_SLOW : 0;
	len = (int)chunk_vals_put(text, cnt + lo, hi - lo + 1);
	/* On PostgreSQL, kept in the HISTO block, whose statement probes each
	 * chunk's frame range (store_data.c); one meeting a kept chunk of its
	 * histogram is left to the careful path. */
	if (fast && store_data_on()) {
		if (!store_data_free(0, id, x->case_id, x->rep, x->initiator, first, last))
			return STORE_SLOW;
		if (store_data_histo(id, x->case_id, x->rep, x->initiator, first + lo, hi - lo + 1, text, len,
				     first, last))
			return -1;
		store_rows += used;
		return 0;
	}
	/* fast on SQLite: S_HISTO_FREE asked, then the row alone (S_HISTOS_ROW:
	 * S_HISTOS goes through a temporary table there); anything but "may
	 * go in" is the careful path's to refuse, nothing written yet. */
	if (fast) {
		rc = store_may_add(store_st[S_HISTO_FREE], id, x->case_id, x->rep, x->initiator, first, last);
		if (rc)
			return rc == -1 ? -1 : STORE_SLOW;
		s = store_st[S_HISTOS_ROW];
	}
	store_bind_key(s, id, x->case_id, x->rep, x->initiator, first + lo, hi - lo + 1);
	dbi_bind_text(s, 7, text, len);
	if (!fast) {
		dbi_bind_i64(s, 8, first);
		dbi_bind_i64(s, 9, last);
	}
	if (store_write(s, fast, 1))
		return -1;
	store_rows += used;
	return 0;
}

/* A SAMPLES frame: its n values as ONE row of sample_chunks (values
 * idx0 .. idx0+n-1 as comma-separated decimals), refused when a stored
 * chunk of the stream overlaps it (insert-once). Still n samples against
 * the run's samples limit (store_rows). fast: on PostgreSQL the overlap
 * check is the SAMPLES block's own, so nothing is asked first; on SQLite
 * S_SAMPLE_FREE is asked, then the row inserted. */
static int store_samples(int64_t id, const struct xcb_samples *y, int fast)
{
	/* Values are >= 4 bytes of a frame, so a frame holds at most
	 * XCB_FRAME_MAX / 4. */
	static int64_t v[XCB_FRAME_MAX / 4];
	static char vals[CHUNK_VALS_MAX(XCB_FRAME_MAX / 4)];
	struct dbi_stmt *s = store_st[S_SAMPLES];
	int rc = 0, len;

	/* An empty chunk overlaps nothing (hi -1): only its case is checked. */
	if (!fast)
		rc = store_may_add(store_st[S_SAMPLE_HAS], id, y->case_id, y->rep, y->initiator,
				   y->index, y->n ? (int64_t)y->index + y->n - 1 : -1);
	if (rc || y->n == 0)
		return rc;
	for (unsigned i = 0; i < y->n; i++)
		v[i] = store_i64(xcb_sample(y, i));
	len = (int)chunk_vals_put(vals, v, y->n);
	/* On PostgreSQL, kept in the SAMPLES block, whose statement probes
	 * each chunk's overlap (store_data.c); one meeting a kept chunk of its
	 * stream is left to the careful path. */
	if (fast && store_data_on()) {
		if (!store_data_free(1, id, y->case_id, y->rep, y->initiator, y->index,
				     (int64_t)y->index + y->n - 1))
			return STORE_SLOW;
		if (store_data_samples(id, y->case_id, y->rep, y->initiator, y->index, y->n, vals, len))
			return -1;
		store_rows += y->n;
		return 0;
	}
	/* fast on SQLite: S_SAMPLE_FREE asked, then the row alone (as HISTO). */
	if (fast) {
		rc = store_may_add(store_st[S_SAMPLE_FREE], id, y->case_id, y->rep, y->initiator, y->index,
				   (int64_t)y->index + y->n - 1);
		if (rc)
			return rc == -1 ? -1 : STORE_SLOW;
		s = store_st[S_SAMPLES_ROW];
	}
	store_bind_key(s, id, y->case_id, y->rep, y->initiator, y->index, y->n);
	dbi_bind_text(s, 7, vals, len);
	if (store_write(s, fast, 1))
		return -1;
	store_rows += y->n;
	return 0;
}

/* HISTO or SAMPLES (type): decoded and stored by store_histo or
 * store_samples. */
int store_points(int64_t id, unsigned type, const uint8_t *p, size_t n, int fast)
{
	union store_dec d;

	/* malformed: nothing written (the collector checks first) */
	if (type == XCB_T_HISTO ? xcb_dec_histo(p, n, &d.x) : xcb_dec_samples(p, n, &d.y))
		return STORE_REFUSED;
	return store_points_dec(id, type, &d, fast);
}

int store_points_dec(int64_t id, unsigned type, const union store_dec *d, int fast)
{
	return type == XCB_T_HISTO ? store_histo(id, &d->x, fast) : store_samples(id, &d->y, fast);
}
