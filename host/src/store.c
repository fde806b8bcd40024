/*
 * store.c — applies one validated frame to the database, on the writer
 * thread, with statements prepared once. The dedupe ledger is two tables:
 * frames, a row a frame of the careful path (ledger(), S_FRAME), and
 * frame_spans, a row a span of consecutive seqs of the fast path
 * (store_ledger.c: a row a frame was half a run's rows and the PostgreSQL
 * server's biggest cost); each insert probes the other, so a (run, seq)
 * is in one of them once. A (run, seq) already there changes nothing, so
 * replaying a frame (retransmission, daemon restart, `xcbench ingest`
 * twice) is harmless.
 *
 * Results are insert-once: a frame with a new seq that would change a row
 * already stored (a second RESULT for the same case/rep/initiator, a CASE
 * with another config, a HELLO changing a fact, a second DONE) is refused
 * (STORE_REFUSED); so is anything for a complete run or past its DONE
 * count. Nothing is ever REPLACEd. Each frame is checked before it writes
 * a row (cheap primary-key lookups), so a refused frame leaves nothing but
 * its ledger row, which is deleted again: no savepoint per frame needed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casekey.h"
#include "run_limits.h"
#include "store.h"
#include "store_sql.h"
#include "util.h"
#include "xcbd.h"

int64_t store_create_run(struct dbi *db, uint64_t token, int64_t machine_id, int64_t job_id,
			 const char *suite, const char *params, const char *label)
{
	struct dbi_stmt *s = store_st[S_NEW_RUN];
	char hex[17];

	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)token);
	dbi_bind_text(s, 1, hex, -1);
	if (machine_id)
		dbi_bind_i64(s, 2, machine_id);
	if (job_id)
		dbi_bind_i64(s, 3, job_id);
	if (suite)
		dbi_bind_text(s, 4, suite, -1);
	if (params)
		dbi_bind_text(s, 5, params, -1);
	if (label)
		dbi_bind_text(s, 6, label, -1);
	dbi_bind_i64(s, 7, now_s());
	dbi_bind_text(s, 8, cfg.lab, -1);
	if (store_step(s))
		return 0;
	return dbi_last_id(db);
}

/* Takes back the ledger row of a refused frame (nothing else was written). */
static int unledger(int64_t id, uint32_t seq)
{
	dbi_bind_i64(store_st[S_FRAME_DEL], 1, id);
	dbi_bind_i64(store_st[S_FRAME_DEL], 2, seq);
	return store_step(store_st[S_FRAME_DEL]) ? -1 : STORE_REFUSED;
}

/* The run of token, created if new (--open: a HELLO starts it); 0 if it
 * cannot be, STORE_REFUSED when the token is another lab's run (that lab's
 * daemon collects it), STORE_LIMIT when peer already has OPEN_RUNS_PER_ADDR
 * live runs it started that way. */
static int64_t find_or_create(struct dbi *db, uint64_t token, const char *peer)
{
	struct dbi_stmt *s = store_st[S_FIND_RUN];
	char hex[17];
	int64_t id = 0;
	int ours = 1;

	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)token);
	dbi_bind_text(s, 1, hex, -1);
	dbi_bind_text(s, 2, cfg.lab, -1);
	if (dbi_step(s) == DBI_ROW) {
		id = dbi_column_i64(s, 0);
		ours = dbi_column_int(s, 1);
	}
	dbi_reset(s);
	dbi_clear(s);
	if (id && !ours)
		return STORE_REFUSED;
	if (id)
		return id;
	if (peer) {
		/* The runs this batch started count once their peer is written. */
		if (store_flush())
			return 0;
		s = store_st[S_OPEN_LIVE];
		dbi_bind_text(s, 1, peer, -1);
		if (store_query_int(s) >= OPEN_RUNS_PER_ADDR)
			return STORE_LIMIT;
	}
	return store_create_run(db, token, 0, 0, NULL, NULL, NULL);
}

/* A frame refused by a per-run limit: its ledger row taken back, the refusal
 * counted in the run (and said once in its events). */
static int limit_refuse(int64_t id, uint32_t seq, int which)
{
	int rc = unledger(id, seq);

	if (rc != STORE_REFUSED || store_limit_hit(id, which))
		return -1;
	return STORE_LIMIT;
}

/* 1 if a key of add is in have with another value (HELLO facts are
 * insert-once too: a later HELLO may add keys, never change one). */
static int facts_conflict(json_t *have, json_t *add)
{
	const char *k;
	json_t *v;

	json_object_foreach(add, k, v) {
		json_t *old = json_object_get(have, k);

		if (old && !json_equal(old, v))
			return 1;
	}
	return 0;
}

/* How many facts have and add make together. */
static int64_t facts_after(json_t *have, json_t *add)
{
	int64_t n = (int64_t)json_object_size(have);
	const char *k;
	json_t *v;

	json_object_foreach(add, k, v)
		n += json_object_get(have, k) == NULL;
	return n;
}

/* The first HELLO of a run boot.c rendered: its job is consumed now (not at
 * the GET), the boot request's uuid/serial reach the machine, and the
 * MAC's other pending runs expire; peer (the HELLO's source) may become
 * the machine's known boot address (S_HELLO_MACHINE). */
static int hello_booted(int64_t id, const char *peer)
{
	for (int i = S_HELLO_JOB; i <= S_HELLO_OTHERS; i++) {
		dbi_bind_i64(store_st[i], 1, id);
		dbi_bind_i64(store_st[i], 2, now_s());
		if (peer && i == S_HELLO_MACHINE)	/* the one with ?3 */
			dbi_bind_text(store_st[i], 3, peer, -1);
		if (store_step(store_st[i]))
			return -1;
	}
	return 0;
}

static int store_hello(int64_t id, const uint8_t *p, size_t n, const char *peer)
{
	struct dbi_stmt *s = store_st[S_GET_HELLO];
	json_t *obj = NULL, *add;
	char *dump;
	int rc;

	dbi_bind_i64(s, 1, id);
	if (dbi_step(s) == DBI_ROW)
		obj = json_loads(dbi_column_text(s, 0), 0, NULL);
	dbi_reset(s);
	if (!json_is_object(obj)) {
		json_decref(obj);
		obj = json_object();
	}
	add = kv_to_json((const char *)p, n, NULL);
	if (!add || facts_conflict(obj, add)) {
		json_decref(add);
		json_decref(obj);
		return add ? STORE_REFUSED : -1;
	}
	if (facts_after(obj, add) > run_limits[LIM_FACTS].max) {
		json_decref(add);
		json_decref(obj);
		return STORE_LIMIT; /* before anything is written */
	}
	if (json_object_size(obj) == 0 && hello_booted(id, peer)) {
		json_decref(add);
		json_decref(obj);
		return -1;
	}
	json_object_update(obj, add);
	json_decref(add);
	kv_join_pieces(obj);	/* a wide fact's last piece: the fact (xcb_proto.h) */

	dump = json_dumps(obj, JSON_COMPACT | JSON_SORT_KEYS);
	s = store_st[S_SET_HELLO];
	dbi_bind_text(s, 1, dump ? dump : "{}", -1);
	store_bind_json_int(s, 2, obj, "cpus");
	store_bind_json_int(s, 3, obj, "tsc_khz");
	store_bind_json_text(s, 4, obj, "transport");
	store_bind_json_text(s, 5, obj, "suite");
	dbi_bind_i64(s, 6, id);
	rc = store_step(s);
	free(dump);
	json_decref(obj);
	return rc;
}

static int store_event(int64_t id, uint32_t seq, int error, const uint8_t *p, size_t n)
{
	struct dbi_stmt *s = store_st[S_EVENT];
	char *text = sanitize_text((const char *)p, n);
	int rc;

	if (!text)
		return -1;
	dbi_bind_i64(s, 1, id);
	dbi_bind_i64(s, 2, seq);
	dbi_bind_text(s, 3, error ? "error" : "log", -1);
	dbi_bind_text(s, 4, text, -1);
	dbi_bind_i64(s, 5, now_s());
	rc = store_step(s);
	store_rows += rc == 0; /* one event row (run_limits.h: events) */
	if (error && rc == 0) {
		char *nl = strchr(text, '\n');

		if (nl)
			*nl = 0;
		s = store_st[S_CRASH];
		dbi_bind_text(s, 1, text, -1);
		dbi_bind_i64(s, 2, id);
		rc = store_step(s);
	}
	free(text);
	return rc;
}

static int store_done(int64_t id, const uint8_t *p, size_t n)
{
	struct dbi_stmt *s = store_st[S_DONE];
	struct xcb_done d;
	int rc;

	if (xcb_dec_done(p, n, &d))
		return STORE_REFUSED; /* malformed: nothing written (the collector checks first) */
	/* Stored as the run's total: DONE's count plus DONE itself. */
	dbi_bind_i64(s, 1, (int64_t)d.frames + 1);
	dbi_bind_i64(s, 2, d.status);
	dbi_bind_i64(s, 3, id);
	rc = store_step(s);
	return rc;
}

/* Enters frame h of run id in the frames ledger (S_FRAME): 1 if it is new,
 * with whether the run is closed for it in *closed and what the run holds
 * against each limit in used (enum run_limit_kind order; 0 without a run
 * row, whose frame then fails or changes nothing in its own statements);
 * 0 for a duplicate; -1 on error. */
static int ledger(int64_t id, const struct xcb_hdr *h, int64_t now, int *closed, int64_t *used)
{
	struct dbi_stmt *s = store_st[S_FRAME];
	int rc;

	dbi_bind_i64(s, 1, id);
	dbi_bind_i64(s, 2, h->seq);
	dbi_bind_i64(s, 3, h->type);
	dbi_bind_i64(s, 4, now);
	rc = dbi_step(s);
	if (rc == DBI_ROW) {
		*closed = dbi_column_int(s, 0);
		for (int k = 0; k <= LIM_EVENTS; k++)
			used[k] = dbi_column_i64(s, k + 1);
	}
	if (rc != DBI_ROW && rc != DBI_DONE && rc != DBI_IOERR)
		fprintf(stderr, "xcbenchd: %s: %s\n", dbi_sql(s), dbi_errmsg(dbi_db(s)));
	dbi_reset(s);
	dbi_clear(s);
	return rc == DBI_ROW ? 1 : rc == DBI_DONE ? 0 : -1;
}

int store_open(struct dbi *db)
{
	if (store_ledger_open(db) || store_data_open(db))
		return -1;
	return store_prepare(db);
}

void store_close(void)
{
	store_touch_discard();
	store_runs_forget_all();
	store_ledger_close();
	store_data_close();
	store_finalize();
}

int store_fast_mode;

void store_fast(int on)
{
	store_fast_mode = on;
}

/* The fast path: a CASE of a new case, or a RESULT/HISTO/SAMPLES of a
 * known one, for a run open to it and within its limits, all known from
 * memory (store_runs.c): its seq in its run's ledger span (written with
 * the batch's others, store_ledger.c) and its rows are deferred (dbi_defer), each with the
 * rows it must change, or kept in a block (store_data.c), and nothing is
 * asked. Anything else, or anything memory cannot vouch for (a chunk
 * meeting one kept in a block: its handler says), is STORE_SLOW, before
 * anything of it is written.
 * A wrong prediction (a duplicate seq, a stored RESULT) is found by
 * dbi_sync, and the writer redoes the batch the careful way. */
static int fast_frame(int64_t id, const struct xcb_hdr *h, const uint8_t *p, int64_t now,
		      const char *peer)
{
	int64_t used[LIM_EVENTS + 1], cid, changes;
	struct store_run *r;
	union store_dec d;
	int which, rc = 0;

	if (h->type != XCB_T_CASE && h->type != XCB_T_RESULT && h->type != XCB_T_HISTO &&
	    h->type != XCB_T_SAMPLES)
		return STORE_SLOW;
	r = store_run_get(id);
	/* (a seq in a span this batch keeps: its insert could not see the
	 * span, so the careful path decides, after the spans are written) */
	if (!r || store_run_closed(r, h->seq, h->type) || store_ledger_kept(id, h->seq))
		return STORE_SLOW;
	memcpy(used, r->used, sizeof(used));
	store_touch_pending(id, used);
	cid = store_frame_case(h->type, p, h->length, &d);
	/* A CASE is new, the others' case is known: else the careful way
	 * (a repeated CASE, a RESULT that overtook its CASE: no_case). */
	if (store_limit_check(used, h->type, p, h->length, &which) || cid < 0 ||
	    (h->type == XCB_T_CASE) == store_run_has_case(r, (uint32_t)cid))
		return STORE_SLOW;
	changes = store_rows;
	switch (h->type) {
	case XCB_T_CASE:
		rc = store_case(id, p, h->length, 1);
		if (rc == 0 && store_run_add_case(r, (uint32_t)cid))
			rc = -1;
		break;
	case XCB_T_RESULT: rc = store_result_dec(id, &d.r, h->length, 1); break;
	default: rc = store_points_dec(id, h->type, &d, 1); break;
	}
	/* (It decoded above: only the database can fail it now, or a block
	 * hold a chunk it meets.) */
	if (rc == STORE_SLOW)
		return STORE_SLOW;
	/* Its seq joins its run's span of the batch (store_ledger.c). */
	if (rc || store_ledger_add(id, h->seq, now))
		return -1;
	changes = store_rows - changes;
	return store_touch_add(id, now, peer, store_limit_kind(h->type, changes), changes) ? -1 : 1;
}

/* The careful path: each check a query before the write (S_FRAME's
 * RETURNING, the handlers' S_*_HAS), every refusal with its reason. */
static int careful_frame(int64_t *run_id, const struct xcb_hdr *h, const uint8_t *p, int64_t now,
			 const char *peer)
{
	int rc = 0, which = 0, closed = 0;
	int64_t changes, used[LIM_EVENTS + 1] = { 0 };

	rc = ledger(*run_id, h, now, &closed, used);
	if (rc <= 0)
		return rc; /* 0: already stored, a duplicate changes nothing */
	if (closed)
		return unledger(*run_id, h->seq); /* complete, past its DONE, or a second DONE */
	store_touch_pending(*run_id, used);

	if (store_limit_check(used, h->type, p, h->length, &which) == STORE_LIMIT)
		return limit_refuse(*run_id, h->seq, which);
	changes = store_rows;
	rc = 0;
	/* Each refuses (STORE_REFUSED) before it writes a row. */
	switch (h->type) {
	case XCB_T_HELLO: rc = store_hello(*run_id, p, h->length, peer); break;
	case XCB_T_CASE: rc = store_case(*run_id, p, h->length, 0); break;
	case XCB_T_RESULT: rc = store_result(*run_id, p, h->length, 0); break;
	case XCB_T_HISTO:
	case XCB_T_SAMPLES: rc = store_points(*run_id, h->type, p, h->length, 0); break;
	case XCB_T_LOG: rc = store_event(*run_id, h->seq, 0, p, h->length); break;
	case XCB_T_ERROR: rc = store_event(*run_id, h->seq, 1, p, h->length); break;
	case XCB_T_DONE: rc = store_done(*run_id, p, h->length); break;
	}
	if (rc == STORE_LIMIT)
		return limit_refuse(*run_id, h->seq, LIM_FACTS);
	if (rc == STORE_REFUSED || rc == STORE_NO_CASE) {
		int u = unledger(*run_id, h->seq);

		return u == STORE_REFUSED ? rc : u;
	}
	if (rc)
		return rc;
	changes = store_rows - changes;
	return store_touch_add(*run_id, now, peer, store_limit_kind(h->type, changes), changes) ? -1 : 1;
}

int store_frame(struct dbi *db, int64_t *run_id, uint64_t token, const struct xcb_hdr *h,
		const uint8_t *p, const char *peer)
{
	int64_t now = now_s();
	int rc;

	if (!*run_id) {
		int64_t id = find_or_create(db, token, peer);

		if (id == STORE_REFUSED || id == STORE_LIMIT)
			return (int)id; /* nothing written; the sender retries, refused again */
		*run_id = id;
	}
	if (!*run_id)
		return -1;
	rc = store_fast_mode ? fast_frame(*run_id, h, p, now, peer) : STORE_SLOW;
	if (rc != STORE_SLOW)
		return rc;
	/* The careful checks below are queries: they must see the rows the
	 * batch's fast frames keep in blocks, as they would have seen a
	 * statement a frame (store_data.c), and S_FRAME the spans the ledger
	 * keeps (store_ledger.c). */
	if (store_fast_mode && (store_ledger_flush() || store_data_flush()))
		return -1;
	rc = careful_frame(run_id, h, p, now, peer);
	/* Its statements (HELLO, DONE, ERROR, a limit) may have changed the
	 * run's row: memory reads it again. */
	store_run_forget(*run_id);
	return rc;
}

int store_mark_lost(struct dbi *db, int lost_after)
{
	struct dbi_stmt *s = store_st[S_LOST];
	int changed;

	if (store_flush())
		return 0;
	/* Runs that never sent a frame expire first (S_EXPIRE), then the
	 * silent ones become lost (they may resume). */
	dbi_bind_i64(store_st[S_EXPIRE], 1, now_s() - lost_after);
	dbi_bind_text(store_st[S_EXPIRE], 2, cfg.lab, -1);
	store_step(store_st[S_EXPIRE]);
	/* An expired run is closed (store_runs.c reads it again). */
	if ((changed = dbi_changes(db) > 0))
		store_runs_forget_all();
	dbi_bind_i64(s, 1, now_s() - lost_after);
	dbi_bind_text(s, 2, cfg.lab, -1);
	store_step(s);
	return changed || dbi_changes(db) > 0;
}
