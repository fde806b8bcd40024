/*
 * store_results.c — the frames that carry measurements: CASE (a case's
 * config and matching key), RESULT (one repetition of one initiator) and
 * the HISTO / SAMPLES chunks (a HISTO a row per non-empty bucket, a
 * SAMPLES one row of sample_chunks). Each is insert-once: it refuses
 * (STORE_REFUSED) before it writes a row that would change a stored one.
 */
#include <stdlib.h>

#include "casekey.h"
#include "csv.h"
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

int64_t store_frame_case(unsigned type, const uint8_t *p, size_t n)
{
	union {
		struct xcb_result r;
		struct xcb_histo x;
		struct xcb_samples y;
	} u;
	json_t *cfg;
	int64_t cid;

	switch (type) {
	case XCB_T_CASE:
		cfg = kv_to_json((const char *)p, n, NULL);
		cid = case_id_of(cfg);
		json_decref(cfg);
		return cid;
	case XCB_T_RESULT: return xcb_dec_result(p, n, &u.r) ? -1 : (int64_t)u.r.case_id;
	case XCB_T_HISTO: return xcb_dec_histo(p, n, &u.x) ? -1 : (int64_t)u.x.case_id;
	case XCB_T_SAMPLES: return xcb_dec_samples(p, n, &u.y) ? -1 : (int64_t)u.y.case_id;
	default: return -1;
	}
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
	struct dbi_stmt *s = store_st[S_RESULT];
	struct xcb_result r;
	int64_t v[XCB_N_RESULT_FIELDS];
	unsigned char null[XCB_N_RESULT_FIELDS];
	int cols = 0, rc;

	if (xcb_dec_result(p, n, &r))
		return STORE_REFUSED; /* malformed: nothing written (the collector checks first) */
	/* Every field with a column, in XCB_SQL_RESULT_COLS order. An appended
	 * one the RESULT does not reach (an older sender's) decodes as 0 and is
	 * stored as NULL (not measured), where 0 could not be told from a value. */
	for (unsigned i = 0; i < XCB_N_RESULT_FIELDS; i++) {
		enum xcb_part part = xcb_result_fields[i].part;
		int present = xcb_result_fields[i].offset + xcb_result_fields[i].bits / 8 <= n;

		if (part == XCB_PART_PAD)
			continue;
		null[cols] = part == XCB_PART_APPENDED && !present;
		v[cols] = null[cols] ? 0 : store_i64(xcb_result_get(&r, i));
		cols++;
	}
	/* fast: the case is known; on PostgreSQL the row goes in a block
	 * whose ON CONFLICT is the insert-once check (store_data.c). */
	if (fast && store_data_on())
		return store_data_result(id, v, null, cols) ? -1 : (store_rows++, 0);
	dbi_bind_i64(s, 1, id);
	for (int i = 0; i < cols; i++)
		if (!null[i])
			dbi_bind_i64(s, i + 2, v[i]);
	/* fast: the insert-once check is the statement's own; one row it
	 * must insert. */
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
	rc = store_may_add(store_st[S_RESULT_HAS], id, r.case_id, r.rep, r.initiator, 0, 0);
	return rc ? rc : STORE_REFUSED;
}

/* A HISTO chunk: n buckets from at under one row key, refused when any
 * of them is stored already (insert-once); only non-empty buckets are
 * rows. */
struct chunk {
	uint32_t case_id;
	unsigned rep, initiator, n;
	int64_t at;
	const struct xcb_histo *raw;
};

/* Inserts rows points (pos[i], val[i]) under one row key with one
 * multi-row statement, none if a row in [lo, hi] is stored (deferred when
 * fast, all rows required): 0 or -1. */
static int put_points(int64_t id, const struct chunk *c, const int64_t *pos, const int64_t *val,
		      unsigned rows, int64_t lo, int64_t hi, int fast)
{
	struct dbi_stmt *s = store_points_stmt((int)rows);

	if (!s)
		return -1;
	for (unsigned i = 0; i < rows; i++) {
		int at = (int)i * 6;

		dbi_bind_i64(s, at + 1, id);
		dbi_bind_i64(s, at + 2, c->case_id);
		dbi_bind_i64(s, at + 3, c->rep);
		dbi_bind_i64(s, at + 4, c->initiator);
		dbi_bind_i64(s, at + 5, pos[i]);
		dbi_bind_i64(s, at + 6, val[i]);
	}
	dbi_bind_i64(s, (int)rows * 6 + 1, lo);
	dbi_bind_i64(s, (int)rows * 6 + 2, hi);
	if (store_write(s, fast, rows))
		return -1;
	store_rows += rows;
	return 0;
}

/* 1 if chunk c has a non-empty bucket (a row to carry its statement's
 * insert-once check), else 0. */
static int has_rows(const struct chunk *c)
{
	for (unsigned i = 0; i < c->n; i++)
		if (xcb_histo_count(c->raw, i))
			return 1;
	return 0;
}

/* The fast path on PostgreSQL: chunk c's non-empty buckets kept in the
 * HISTO block (store_data.c), its range probed by the block's statement;
 * STORE_SLOW (nothing kept) when a kept chunk of its stream meets its
 * range. */
static int histo_block(int64_t id, const struct chunk *c)
{
	int64_t pos[XCB_HISTO_CHUNK], val[XCB_HISTO_CHUNK], hi = c->at + c->n - 1;
	unsigned rows = 0;

	if (!store_data_free(0, id, c->case_id, c->rep, c->initiator, c->at, hi))
		return STORE_SLOW;
	for (unsigned i = 0; i < c->n && i < XCB_HISTO_CHUNK; i++) {
		uint64_t v = xcb_histo_count(c->raw, i);

		if (v) {
			pos[rows] = c->at + i;
			val[rows++] = store_i64(v);
		}
	}
	if (store_data_histo(id, c->case_id, c->rep, c->initiator, c->at, hi, pos, val, rows))
		return -1;
	store_rows += rows;
	return 0;
}

/* fast: the chunk's checks are each block's statement's own (its range
 * is the chunk's, cut at the blocks' ends; on PostgreSQL histo_block's),
 * so nothing is asked first. */
static int store_histo(int64_t id, const struct chunk *c, int fast)
{
	int64_t pos[STORE_POINTS_BLOCK], val[STORE_POINTS_BLOCK], lo = c->at;
	unsigned rows = 0;
	int rc = 0;

	/* fast: a chunk of empty buckets has no statement to check it, but the
	 * careful path refuses it when its range holds a stored row: its way. */
	if (fast && !has_rows(c))
		return STORE_SLOW;
	if (fast && store_data_on())
		return histo_block(id, c);
	if (!fast)
		rc = store_may_add(store_st[S_HISTO_HAS], id, c->case_id, c->rep, c->initiator, c->at,
				   c->at + c->n - 1);
	if (rc)
		return rc;
	for (unsigned i = 0; i < c->n && rc == 0; i++) {
		uint64_t v = xcb_histo_count(c->raw, i);

		if (v) {
			pos[rows] = c->at + i;
			val[rows++] = store_i64(v);
		}
		if (rows == STORE_POINTS_BLOCK || (i + 1 == c->n && rows)) {
			int64_t hi = i + 1 == c->n ? c->at + c->n - 1 : pos[rows - 1];

			rc = put_points(id, c, pos, val, rows, lo, hi, fast);
			lo = hi + 1;
			rows = 0;
		}
	}
	return rc;
}

/* A SAMPLES frame: its n values as ONE row of sample_chunks (values
 * idx0 .. idx0+n-1 as comma-separated decimals), refused when a stored
 * chunk of the stream overlaps it (insert-once). Still n samples against
 * the run's samples limit (store_rows). fast: the overlap check is
 * S_SAMPLES's own, so nothing is asked first. */
static int store_samples(int64_t id, const struct xcb_samples *y, int fast)
{
	/* Values are >= 4 bytes of a frame, so a frame holds at most
	 * XCB_FRAME_MAX / 4; csv_put_i64 writes a number and its comma. */
	static char vals[XCB_FRAME_MAX / 4 * CSV_NUM_MAX + 1];
	struct dbi_stmt *s = store_st[S_SAMPLES];
	char *e = vals;
	int rc = 0;

	/* An empty chunk overlaps nothing (hi -1): only its case is checked. */
	if (!fast)
		rc = store_may_add(store_st[S_SAMPLE_HAS], id, y->case_id, y->rep, y->initiator,
				   y->index, y->n ? (int64_t)y->index + y->n - 1 : -1);
	if (rc || y->n == 0)
		return rc;
	for (unsigned i = 0; i < y->n; i++)
		e = csv_put_i64(e, store_i64(xcb_sample(y, i)));
	/* On PostgreSQL, kept in the SAMPLES block, whose statement probes
	 * each chunk's overlap (store_data.c); one meeting a kept chunk of its
	 * stream is left to the careful path. */
	if (fast && store_data_on()) {
		if (!store_data_free(1, id, y->case_id, y->rep, y->initiator, y->index,
				     (int64_t)y->index + y->n - 1))
			return STORE_SLOW;
		if (store_data_samples(id, y->case_id, y->rep, y->initiator, y->index, y->n, vals,
				       (int)(e - 1 - vals)))
			return -1;
		store_rows += y->n;
		return 0;
	}
	store_bind_key(s, id, y->case_id, y->rep, y->initiator, y->index, y->n);
	dbi_bind_text(s, 7, vals, (int)(e - 1 - vals)); /* the last comma dropped */
	if (store_write(s, fast, 1))
		return -1;
	store_rows += y->n;
	return 0;
}

/* HISTO or SAMPLES (type): decoded and stored by store_histo or
 * store_samples. */
int store_points(int64_t id, unsigned type, const uint8_t *p, size_t n, int fast)
{
	struct xcb_histo x;
	struct xcb_samples y;
	struct chunk c;

	/* malformed: nothing written (the collector checks first) */
	if (type == XCB_T_HISTO) {
		if (xcb_dec_histo(p, n, &x))
			return STORE_REFUSED;
		c = (struct chunk){ x.case_id, x.rep, x.initiator, x.n, x.first, &x };
		return store_histo(id, &c, fast);
	}
	if (xcb_dec_samples(p, n, &y))
		return STORE_REFUSED;
	return store_samples(id, &y, fast);
}
