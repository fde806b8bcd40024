/*
 * test_schema.c — proto/xcb_schema.h, the SQL schema and the wire agree:
 * the database as the daemon migrates it (db_open_rw: db/schema.sql + every
 * db/migrations file) has exactly the schema's columns; a CASE and a RESULT
 * with a distinct value in every field go through the real encoder, decoder
 * and store (store_frame) and come back out of SQL unchanged; the
 * vocabularies and axis descriptors are self-consistent; a SAMPLES frame
 * is one insert-once row of sample_chunks, and migration 011 turns an older
 * database's samples into such rows; a HISTO frame one of histogram_chunks
 * (migration 013 the same for histograms); the fast path's ledger rows go many a
 * statement, a duplicate still a wrong prediction.
 *
 * With XCB_TEST_PG set to a postgresql:// URL (tests/t-pg-schema.sh) the
 * same tests run on PostgreSQL: each empties that database's public schema
 * and migrates it from scratch.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "db.h"
#include "run_limits.h"
#include "store.h"
#include "store_block.h"
#include "util.h"
#include "xcbd.h"
#include "xcb_cpulist.h"
#include "xcb_proto.h"
#include "xcb_schema.h"

/* The daemon's configuration (main.c defines it there; db.c reads it). */
struct xcbd_config cfg;

/* The migrations as the daemon embeds them (host/gen-migrations.sh). */
extern const char *const xcb_migrations[];
extern const int xcb_nmigrations;

/* A fresh database in a temporary directory, migrated by the daemon's code. */
struct fixture {
	char dir[64], path[96];
	struct dbi *db;
};

/* A fresh database migrated to schema version upto (xcb_nmigrations: the
 * newest, as the daemon opens it). */
static int open_fresh(void **state, int upto)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char err[512];

	const char *pg = getenv("XCB_TEST_PG");
	const char *url = pg;

	if (!f)
		return -1;
	if (pg) {
		struct dbi *db = dbi_open(pg, DBI_RW, err, sizeof(err));

		if (!db || dbi_exec(db, "DROP SCHEMA public CASCADE; CREATE SCHEMA public")) {
			fprintf(stderr, "%s\n", db ? dbi_errmsg(db) : err);
			dbi_close(db);
			free(f);
			return -1;
		}
		dbi_close(db);
	} else {
		snprintf(f->dir, sizeof(f->dir), "/tmp/test_schema.XXXXXX");
		if (!mkdtemp(f->dir)) {
			free(f);
			return -1;
		}
		snprintf(f->path, sizeof(f->path), "%s/x.db", f->dir);
		url = f->path;
	}
	f->db = dbi_open(url, DBI_RW, err, sizeof(err));
	if (f->db && db_migrate_to(f->db, upto, err, sizeof(err))) {
		dbi_close(f->db);
		f->db = NULL;
	}
	if (!f->db) {
		fprintf(stderr, "%s\n", err);
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int setup(void **state)
{
	return open_fresh(state, xcb_nmigrations);
}

/* The migration that creates table (sample_chunks: 011, histogram_chunks:
 * 013): its number, found by its text so a later migration does not move
 * it. */
static int chunks_migration(const char *table)
{
	char create[64];

	snprintf(create, sizeof(create), "CREATE TABLE %s ", table);
	for (int v = 1; v <= xcb_nmigrations; v++)
		if (strstr(xcb_migrations[v - 1], create))
			return v;
	return 0;
}

/* A database one migration short of sample_chunks: samples one per row. */
static int setup_before_chunks(void **state)
{
	int v = chunks_migration("sample_chunks");

	return v > 1 ? open_fresh(state, v - 1) : -1;
}

/* A database one migration short of histogram_chunks: histograms a row
 * per bucket. */
static int setup_before_histo_chunks(void **state)
{
	int v = chunks_migration("histogram_chunks");

	return v > 1 ? open_fresh(state, v - 1) : -1;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char side[128];

	store_close();
	dbi_close(f->db);
	if (!f->dir[0]) {
		free(f);
		return 0;
	}
	unlink(f->path);
	snprintf(side, sizeof(side), "%s-wal", f->path);
	unlink(side);
	snprintf(side, sizeof(side), "%s-shm", f->path);
	unlink(side);
	rmdir(f->dir);
	free(f);
	return 0;
}

/* The columns of a table, in order, as one "a,b,c" string (malloc'd). */
static char *table_columns(struct dbi *db, const char *table)
{
	struct buf b = { 0 };
	struct dbi_stmt *st;
	char sql[256];

	if (dbi_engine(db) == DBI_PG)
		snprintf(sql, sizeof(sql), "SELECT column_name FROM information_schema.columns "
			 "WHERE table_schema = 'public' AND table_name = '%s' ORDER BY ordinal_position", table);
	else
		snprintf(sql, sizeof(sql), "SELECT name FROM pragma_table_info('%s') ORDER BY cid", table);
	assert_int_equal(dbi_prepare(db, sql, &st), DBI_OK);
	while (dbi_step(st) == DBI_ROW)
		buf_addf(&b, "%s%s", b.len ? "," : "", dbi_column_text(st, 0));
	dbi_finalize(st);
	return b.p;
}

/* ", a, b" (an XCB_SQL_* list) as "a,b". */
static void strip_list(const char *in, char *out, size_t cap)
{
	size_t o = 0;

	for (const char *p = in; *p && o + 1 < cap; p++)
		if (*p != ' ')
			out[o++] = *p;
	out[o] = 0;
	if (out[0] == ',')
		memmove(out, out + 1, o);
}

static void sql_columns_are_the_schemas(void **state)
{
	struct fixture *f = *state;
	char want[4096], list[2048];
	char *got;

	/* results: run_id, then every stored RESULT field in wire order. */
	strip_list(XCB_SQL_RESULT_COLS, list, sizeof(list));
	snprintf(want, sizeof(want), "run_id,%s", list);
	got = table_columns(f->db, "results");
	assert_string_equal(got, want);
	free(got);
	/* cases: run_id, the ID column, the COL axes, config, match_key. */
	strip_list(XCB_SQL_CASE_COLS, list, sizeof(list));
	snprintf(want, sizeof(want), "run_id,%s,%s,config,match_key", XCB_SQL_CASE_ID, list);
	got = table_columns(f->db, "cases");
	assert_string_equal(got, want);
	free(got);
	/* And the descriptors say the same as the macros. */
	struct buf b = { 0 };
	for (unsigned i = 0; i < XCB_N_RESULT_FIELDS; i++)
		if (xcb_result_fields[i].part != XCB_PART_PAD)
			buf_addf(&b, ", %s", xcb_result_fields[i].name);
	assert_string_equal(b.p, XCB_SQL_RESULT_COLS);
	buf_free(&b);
	for (unsigned i = 0; i < XCB_N_AXES; i++)
		if (xcb_axes[i].column)
			buf_addf(&b, ", %s", xcb_axes[i].key);
	assert_string_equal(b.p, XCB_SQL_CASE_COLS);
	buf_free(&b);
}

static void result_layout(void **state)
{
	unsigned off = 0;

	(void)state;
	for (unsigned i = 0; i < XCB_N_RESULT_FIELDS; i++) {
		const struct xcb_field *fd = &xcb_result_fields[i];

		assert_int_equal(fd->offset, off); /* struct offset = running wire offset */
		assert_true(fd->bits == 16 || fd->bits == 32 || fd->bits == 64);
		assert_int_equal(off % (fd->bits / 8), 0);
		off += fd->bits / 8;
		if (fd->part != XCB_PART_APPENDED)
			assert_true(off <= XCB_RESULT_LEN);
		else
			assert_true(fd->offset >= XCB_RESULT_LEN);
	}
	assert_int_equal(off, XCB_RESULT_LEN_FULL);
	assert_int_equal(XCB_RESULT_LEN, 152);  /* the v1 wire size (proto/README.md) */
	assert_int_equal(XCB_RESULT_LEN_FULL, 240);
}

/* Distinct, width-filling values: every byte of field i is i + 1. */
static void distinct_result(struct xcb_result *r)
{
	memset(r, 0, sizeof(*r));
	for (unsigned i = 0; i < XCB_N_RESULT_FIELDS; i++) {
		const struct xcb_field *fd = &xcb_result_fields[i];
		uint8_t *m = (uint8_t *)r + fd->offset;
		uint64_t v = 0;

		if (fd->part == XCB_PART_PAD)
			v = 0xdeadbeef; /* what a caller may leave: must not reach the wire */
		else /* every byte i + 1: distinct per field, < 2^63 (SQLite-safe) */
			v = (uint64_t)(i + 1) * 0x0101010101010101ull >> (64 - fd->bits);
		memcpy(m, &v, fd->bits / 8);
	}
	r->initiator = 3; /* a CPU: the store's key */
}

static void round_trip_every_field(void **state)
{
	uint8_t buf[XCB_FRAME_MAX];
	const uint8_t *p;
	struct xcb_hdr h = { .token = 1, .seq = 0 };
	struct xcb_result in, out, v1;
	size_t n;

	(void)state;
	distinct_result(&in);
	n = xcb_enc_result(buf, sizeof(buf), &h, &in);
	assert_int_equal(n, XCB_HDR_LEN + XCB_RESULT_LEN_FULL);
	assert_int_equal(xcb_decode(buf, n, &h, &p), XCB_OK);
	for (unsigned i = 0; i < XCB_N_RESULT_FIELDS; i++) {
		const struct xcb_field *fd = &xcb_result_fields[i];
		uint64_t wire = 0;

		for (unsigned k = fd->bits / 8; k--;)
			wire = wire << 8 | p[fd->offset + k];
		/* little-endian at the schema's offset; PAD sent as 0 */
		assert_true(wire == (fd->part == XCB_PART_PAD ? 0 : xcb_result_get(&in, i)));
	}
	assert_int_equal(xcb_dec_result(p, h.length, &out), XCB_OK);
	for (unsigned i = 0; i < XCB_N_RESULT_FIELDS; i++)
		if (xcb_result_fields[i].part != XCB_PART_PAD)
			assert_true(xcb_result_get(&out, i) == xcb_result_get(&in, i));
	/* A v1 RESULT: the appended fields decode as 0, the rest as sent. */
	assert_int_equal(xcb_dec_result(p, XCB_RESULT_LEN, &v1), XCB_OK);
	for (unsigned i = 0; i < XCB_N_RESULT_FIELDS; i++) {
		enum xcb_part part = xcb_result_fields[i].part;

		if (part == XCB_PART_APPENDED || part == XCB_PART_PAD)
			assert_true(xcb_result_get(&v1, i) == 0);
		else
			assert_true(xcb_result_get(&v1, i) == xcb_result_get(&in, i));
	}
}

/* One frame through the real store; 1 = stored. */
static int store(struct dbi *db, int64_t *run, unsigned type, uint32_t seq, const void *pl, size_t len)
{
	uint8_t buf[XCB_FRAME_MAX];
	struct xcb_hdr h = { .type = (uint8_t)type, .token = 0x5c4e3a, .seq = seq };
	const uint8_t *p;
	size_t n = type == XCB_T_RESULT	 ? xcb_enc_result(buf, sizeof(buf), &h, pl)
		   : type == XCB_T_SAMPLES ? xcb_enc_samples(buf, sizeof(buf), &h, pl)
		   : type == XCB_T_HISTO   ? xcb_enc_histo(buf, sizeof(buf), &h, pl)
					   : xcb_enc_text(buf, sizeof(buf), &h, pl, len);

	assert_true(n > 0);
	assert_int_equal(xcb_decode(buf, n, &h, &p), XCB_OK);
	return store_frame(db, run, h.token, &h, p, "127.0.0.1");
}

/* The run's stored HELLO facts, parsed (the caller frees). */
static json_t *stored_hello(struct dbi *db)
{
	struct dbi_stmt *st;
	json_t *o;

	assert_int_equal(dbi_prepare(db, "SELECT hello FROM runs", &st), DBI_OK);
	assert_int_equal(dbi_step(st), DBI_ROW);
	o = json_loads(dbi_column_text(st, 0), 0, NULL);
	dbi_finalize(st);
	assert_non_null(o);
	return o;
}

/* A wide fact (xcb_proto.h: apic_ids of 1024 CPUs, ~5 KB, in pieces that
 * fit a frame, as the payload's report.c sends it) through the real store,
 * its frames in reverse order: no fact until the last piece, then exactly
 * the value sent, the pieces gone. Before, the daemon kept no piece (its
 * key is no fact key) and, from an older payload, a first frame's cut. */
static void store_joins_wide_facts(void **state)
{
	struct fixture *f = *state;
	static char val[16384], line[XCB_PAYLOAD_MAX];
	size_t vlen = 0;
	int64_t run = 0;
	unsigned n;
	json_t *o;

	assert_int_equal(store_open(f->db), 0);
	for (unsigned i = 0; i < 1024; i++)
		vlen += (size_t)snprintf(val + vlen, sizeof(val) - vlen, "%s%u", i ? "," : "", (i / 256) << 12 | (i % 256) * 2);
	n = xcb_pieces(strlen("apic_ids"), vlen, XCB_PAYLOAD_MAX);
	assert_in_range(n, 4, 9);
	assert_int_equal(store(f->db, &run, XCB_T_HELLO, 0, "fw=test\ncpus=1024\n", 18), 1);
	for (unsigned i = n; i >= 1; i--) {
		size_t len = xcb_piece_line(line, sizeof(line), "apic_ids", 8, val, vlen, i, n, XCB_PAYLOAD_MAX);

		assert_in_range(len, 1, XCB_PAYLOAD_MAX);
		assert_int_equal(store(f->db, &run, XCB_T_HELLO, n + 1 - i, line, len), 1);
		o = stored_hello(f->db);
		if (i > 1) {	/* pieces kept, no fact yet */
			char key[32];

			snprintf(key, sizeof(key), "apic_ids+%u/%u", i, n);
			assert_null(json_object_get(o, "apic_ids"));
			assert_non_null(json_object_get(o, key));
		} else {	/* the last: the fact, whole; no piece left */
			const char *k;
			json_t *v;

			assert_string_equal(json_string_value(json_object_get(o, "apic_ids")), val);
			assert_string_equal(json_string_value(json_object_get(o, "cpus")), "1024");
			json_object_foreach(o, k, v)
				assert_null(strchr(k, '+'));
		}
		json_decref(o);
	}
}

/* The widest CASE the payload sends at 1024 CPUs (firmware emit.c: one
 * frame, the CPU lists as ranges; test_stats_report test_wide_case builds
 * it the firmware's way): 32 initiators, each aimed at every CPU but
 * itself, filled to the frame's last byte with a long algorithm name.
 * Stored through the real store, its x_cpus comes back whole. */
static void store_keeps_widest_case(void **state)
{
	struct fixture *f = *state;
	static char text[XCB_PAYLOAD_MAX + 1], cpus[XCB_PAYLOAD_MAX];
	size_t n = 0, c = 0;
	struct dbi_stmt *st;
	int64_t run = 0;
	json_t *o;

	assert_int_equal(store_open(f->db), 0);
	for (unsigned k = 0; k < 32; k++) {
		c += (size_t)snprintf(cpus + c, sizeof(cpus) - c, "%s%u:", k ? ";" : "", k);
		if (k == 1 || k == 2)
			c += (size_t)snprintf(cpus + c, sizeof(cpus) - c, k == 1 ? "0," : "0,1,");
		else if (k > 2)
			c += (size_t)snprintf(cpus + c, sizeof(cpus) - c, "0-%u,", k - 1);
		c += (size_t)snprintf(cpus + c, sizeof(cpus) - c, "%u-1023", k + 1);
	}
	n += (size_t)snprintf(text + n, sizeof(text) - n, "id=1\nkind=xcall\ninits=32\nmask=1023\nx_cpus=%s\nx_note=", cpus);
	while (n < XCB_PAYLOAD_MAX - 1)
		text[n++] = 'x';
	text[n++] = '\n';
	assert_int_equal(n, XCB_PAYLOAD_MAX);
	assert_int_equal(store(f->db, &run, XCB_T_CASE, 0, text, n), 1);
	assert_int_equal(dbi_prepare(f->db, "SELECT config FROM cases", &st), DBI_OK);
	assert_int_equal(dbi_step(st), DBI_ROW);
	o = json_loads(dbi_column_text(st, 0), 0, NULL);
	dbi_finalize(st);
	assert_non_null(o);
	assert_string_equal(json_string_value(json_object_get(o, "x_cpus")), cpus);
	assert_int_equal(json_string_length(json_object_get(o, "x_note")), XCB_PAYLOAD_MAX - 1 - (size_t)(strstr(text, "x_note=") - text) - 7);
	json_decref(o);
}

/* The run's case id's config, parsed (the caller frees). */
static json_t *stored_case(struct dbi *db, unsigned id)
{
	struct dbi_stmt *st;
	json_t *o;

	assert_int_equal(dbi_prepare(db, "SELECT config FROM cases WHERE case_id = ?", &st), DBI_OK);
	dbi_bind_i64(st, 1, id);
	assert_int_equal(dbi_step(st), DBI_ROW);
	o = json_loads(dbi_column_text(st, 0), 0, NULL);
	dbi_finalize(st);
	assert_non_null(o);
	return o;
}

/* One frame stored as the writer stores it: its own batch, fast or not. */
static int store_as_writer(struct dbi *db, int64_t *run, int fast, uint32_t seq, const char *text, size_t len)
{
	int rc;

	store_fast(fast);
	assert_int_equal(dbi_exec(db, "BEGIN"), DBI_OK);
	rc = store(db, run, XCB_T_CASE, seq, text, len);
	assert_int_equal(store_flush(), 0);
	assert_int_equal(dbi_sync(db), DBI_OK);
	assert_int_equal(dbi_exec(db, "COMMIT"), DBI_OK);
	store_fast(0);
	return rc;
}

/* The canonical list of the CPUs set in bits[0..1024) (xcb_cpulist.h),
 * written the plain way: the oracle for what the daemon stores. */
static size_t canon_list(char *out, size_t cap, const uint64_t *bits)
{
	size_t n = 0;
	int first = 1;

	for (unsigned c = 0; c < 1024; c++) {
		unsigned e = c;

		if (!(bits[c / 64] >> (c % 64) & 1))
			continue;
		while (e + 1 < 1024 && bits[(e + 1) / 64] >> ((e + 1) % 64) & 1)
			e++;
		n += (size_t)snprintf(out + n, cap - n, e - c >= 2 ? "%s%u-%u" : "%s%u", first ? "" : ",", c, e);
		c = e - c >= 2 ? e : c;
		first = 0;
	}
	return n;
}

/* A case whose x_cpus is wider than a frame, as the payload sends it
 * (firmware/bench/casetext.c): 32 initiators at 1024 CPUs, each aimed at
 * an irregular half of them (~55 KB in the short form; initiator 1 "=",
 * the same as 0), the head with x_cpus+1/N, then "id" and a piece per
 * frame. Stored through the real store, careful and fast, its frames
 * shuffled: the continuations that overtake the head are refused no_case
 * (nothing stored, unACKed) and resent after it; one is resent with its
 * own seq again (a duplicate: changes nothing) and one with another seq
 * (a repeat: merged, changes nothing). Until the last piece the case holds
 * the pieces that came and no x_cpus (incomplete, not wrong); then x_cpus
 * is the canonical list of each initiator's CPUs exactly, no piece left,
 * the match key the head's. A piece that differs from a stored one is
 * refused. A whole CASE in the short form (every other CPU: 1-1023:1/2,
 * "=") is stored canonical too. Before, the daemon refused every CASE
 * frame after the first of a case as another config. */
static void store_merges_case_pieces(void **state)
{
	struct fixture *f = *state;
	static char xc[1 << 17], want[1 << 17], frames[99][XCB_PAYLOAD_MAX + 1], text[XCB_PAYLOAD_MAX + 1];
	static uint64_t bits[32][XCB_CPULIST_WORDS];
	size_t flen[99], xlen = 0, wlen = 0, hlen;
	const char *head = "id=5\nkind=xcall\nalgo=tree\ninits=32\nmask=512\nplacement=spread\n";
	uint64_t x = 0x243f6a8885a308d3ull;
	unsigned n, order[99];
	json_t *o;

	assert_int_equal(store_open(f->db), 0);
	for (unsigned k = 0; k < 32; k++) {
		memset(bits[k], 0, sizeof(bits[k]));
		for (unsigned c = 0; c < 1024; c++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			if (k == 1 ? bits[0][c / 64] >> (c % 64) & 1 : x & 1)
				bits[k][c / 64] |= 1ull << (c % 64);
		}
		xlen += (size_t)snprintf(xc + xlen, sizeof(xc) - xlen, "%s%u:", k ? ";" : "", 32 * k);
		wlen += (size_t)snprintf(want + wlen, sizeof(want) - wlen, "%s%u:", k ? ";" : "", 32 * k);
		if (k == 1)
			xc[xlen++] = '=';
		else
			xlen += xcb_cpulist_put(xc + xlen, sizeof(xc) - xlen, bits[k], 1024, 1);
		wlen += canon_list(want + wlen, sizeof(want) - wlen, bits[k]);
	}
	hlen = strlen(head);
	n = xcb_pieces(6, xlen, XCB_PAYLOAD_MAX - hlen);
	assert_in_range(n, 20, 99);
	for (unsigned i = 0; i < n; i++) {
		size_t at = i ? (size_t)snprintf(frames[i], sizeof(frames[i]), "id=5\n") : hlen;

		if (!i)
			memcpy(frames[0], head, hlen);
		flen[i] = at + xcb_piece_line(frames[i] + at, sizeof(frames[i]) - at, "x_cpus", 6, xc, xlen, i + 1, n,
					      XCB_PAYLOAD_MAX - hlen);
		assert_in_range(flen[i], at + 1, XCB_PAYLOAD_MAX);
		order[i] = i;
	}
	/* shuffled, the head in the middle */
	for (unsigned i = n - 1; i > 0; i--) {
		unsigned j = (unsigned)((x ^= x << 13, x ^= x >> 7, x ^= x << 17) % (i + 1)), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (unsigned i = 0; i < n; i++)
		if (order[i] == 0) {
			order[i] = order[n / 2];
			order[n / 2] = 0;
		}
	for (int fast = 0; fast <= 1; fast++) {
		int64_t run = 0;
		unsigned seq0 = 1000 * (unsigned)(fast + 1), stored = 0;
		char piece1[32];

		snprintf(piece1, sizeof(piece1), "x_cpus+1/%u", n);
		if (fast) {	/* the same case again, the fast way (other seqs) */
			assert_int_equal(dbi_exec(f->db, "DELETE FROM cases"), DBI_OK);
			store_runs_forget_all();
		}
		int before_head = 1;
		unsigned early[99], nearly = 0;

		for (unsigned i = 0; i < n; i++) {
			unsigned fi = order[i];
			int rc = store_as_writer(f->db, &run, fast, seq0 + fi, frames[fi], flen[fi]);

			if (fi == 0)
				before_head = 0;
			if (before_head) {
				assert_int_equal(rc, STORE_NO_CASE);
				early[nearly++] = fi;
				continue;
			}
			assert_int_equal(rc, 1);
			if (++stored == 1 || stored < n - nearly) {
				/* not all in: the pieces kept, no x_cpus */
				o = stored_case(f->db, 5);
				assert_null(json_object_get(o, "x_cpus"));
				assert_non_null(json_object_get(o, piece1));
				json_decref(o);
			}
			if (i == n / 2 + 1) {
				/* a duplicate (its seq again) and a repeat (another seq) */
				assert_int_equal(store_as_writer(f->db, &run, fast, seq0 + fi, frames[fi], flen[fi]), 0);
				assert_int_equal(store_as_writer(f->db, &run, fast, seq0 + 500 + fi, frames[fi], flen[fi]), 1);
			}
		}
		assert_int_equal(nearly, n / 2);	/* the continuations before the head */
		/* the early ones resent after the head */
		for (unsigned i = 0; i < nearly; i++)
			assert_int_equal(store_as_writer(f->db, &run, fast, seq0 + early[i], frames[early[i]], flen[early[i]]), 1);
		o = stored_case(f->db, 5);
		assert_string_equal(json_string_value(json_object_get(o, "x_cpus")), want);
		assert_string_equal(json_string_value(json_object_get(o, "kind")), "xcall");
		{
			const char *k;
			json_t *v;

			json_object_foreach(o, k, v)
				assert_null(strchr(k, '+'));
		}
		json_decref(o);
		/* late repeats change nothing; a piece that differs is refused */
		assert_int_equal(store_as_writer(f->db, &run, fast, seq0 + 600, frames[3], flen[3]), 1);
		assert_int_equal(store_as_writer(f->db, &run, fast, seq0 + 601, frames[0], flen[0]), 1);
		o = stored_case(f->db, 5);
		assert_string_equal(json_string_value(json_object_get(o, "x_cpus")), want);
		json_decref(o);
	}

	/* a piece that differs from the one stored: refused, nothing changed */
	{
		int64_t run = 0;
		char bad[XCB_PAYLOAD_MAX + 1];

		assert_int_equal(dbi_exec(f->db, "DELETE FROM cases"), DBI_OK);
		assert_int_equal(store(f->db, &run, XCB_T_CASE, 3000, frames[0], flen[0]), 1);
		assert_int_equal(store(f->db, &run, XCB_T_CASE, 3002, frames[2], flen[2]), 1);
		memcpy(bad, frames[2], flen[2]);
		bad[flen[2] - 2] = bad[flen[2] - 2] == '1' ? '2' : '1';
		assert_int_equal(store(f->db, &run, XCB_T_CASE, 3003, bad, flen[2]), STORE_REFUSED);
		o = stored_case(f->db, 5);
		assert_null(json_object_get(o, "x_cpus"));
		json_decref(o);
	}

	/* every other CPU, 32 initiators, in one frame the short way */
	{
		int64_t run = 0;
		size_t t = 0, w = 0;
		uint64_t odd[XCB_CPULIST_WORDS] = { 0 };

		for (unsigned c = 1; c < 1024; c += 2)
			odd[c / 64] |= 1ull << (c % 64);
		t += (size_t)snprintf(text, sizeof(text), "id=6\nkind=xcall\nx_readers=1-1023:1/2\nx_leaders=1-1023:1/2\nx_cpus=");
		for (unsigned k = 0; k < 32; k++) {
			t += (size_t)snprintf(text + t, sizeof(text) - t, k ? ";%u:=" : "%u:1-1023:1/2", 2 * k);
			w += (size_t)snprintf(want + w, sizeof(want) - w, "%s%u:", k ? ";" : "", 2 * k);
			w += canon_list(want + w, sizeof(want) - w, odd);
		}
		text[t++] = '\n';
		assert_int_equal(store(f->db, &run, XCB_T_CASE, 4000, text, t), 1);
		o = stored_case(f->db, 6);
		assert_string_equal(json_string_value(json_object_get(o, "x_cpus")), want);
		assert_true(strlen(want) > 32 * 2004);	/* 2 KB an initiator, as it was sent before */
		/* the tree's leaders at G=2 (emit.c case_groups_key): canonical too */
		canon_list(want, sizeof(want), odd);
		assert_string_equal(json_string_value(json_object_get(o, "x_leaders")), want);
		json_decref(o);
	}
}

/* A run at its cases limit (--run-limit cases=1) still takes its last
 * case's continuations (they add no case: store_limits.c rows_max), and the
 * case completes; a further case is refused by the limit. */
static void case_pieces_are_one_case(void **state)
{
	struct fixture *f = *state;
	const char head[] = "id=7\nkind=xcall\nx_cpus+1/2=0:1,3\n", cont[] = "id=7\nx_cpus+2/2=,5,7\n",
		   other[] = "id=8\nkind=xcall\n";
	int64_t saved = run_limits[LIM_CASES].max, run = 0;
	json_t *o;

	assert_int_equal(store_open(f->db), 0);
	run_limits[LIM_CASES].max = 1;
	for (int fast = 0; fast <= 1; fast++) {
		unsigned seq0 = 100 * (unsigned)(fast + 1);

		run = 0;
		assert_int_equal(dbi_exec(f->db, "DELETE FROM cases"), DBI_OK);
		assert_int_equal(dbi_exec(f->db, "UPDATE runs SET use_cases = 0"), DBI_OK);
		store_runs_forget_all();
		assert_int_equal(store_as_writer(f->db, &run, fast, seq0, head, strlen(head)), 1);
		assert_int_equal(store_as_writer(f->db, &run, fast, seq0 + 1, cont, strlen(cont)), 1);
		o = stored_case(f->db, 7);
		assert_string_equal(json_string_value(json_object_get(o, "x_cpus")), "0:1,3,5,7");
		json_decref(o);
		assert_int_equal(store_as_writer(f->db, &run, fast, seq0 + 2, other, strlen(other)), STORE_LIMIT);
	}
	run_limits[LIM_CASES].max = saved;
}

static void store_keeps_every_field(void **state)
{
	struct fixture *f = *state;
	struct xcb_result in;
	struct buf cfg = { 0 };
	struct dbi_stmt *st;
	int64_t run = 0;

	assert_int_equal(store_open(f->db), 0);
	/* A CASE with a distinct value for every schema key of a column. */
	buf_addf(&cfg, "id=1\n");
	for (unsigned i = 0; i < XCB_N_AXES; i++)
		if (xcb_axes[i].column)
			buf_addf(&cfg, xcb_axes[i].type == XCB_TY_INT ? "%s=%u\n" : "%s=v%u\n", xcb_axes[i].key, 100 + i);
	assert_int_equal(store(f->db, &run, XCB_T_CASE, 0, cfg.p, cfg.len), 1);
	buf_free(&cfg);
	distinct_result(&in);
	in.case_id = 1;
	assert_int_equal(store(f->db, &run, XCB_T_RESULT, 1, &in, 0), 1);

	assert_int_equal(dbi_prepare(f->db, "SELECT 0" XCB_SQL_CASE_COLS " FROM cases", &st), DBI_OK);
	assert_int_equal(dbi_step(st), DBI_ROW);
	for (unsigned i = 0, col = 1; i < XCB_N_AXES; i++) {
		char want[32];

		if (!xcb_axes[i].column)
			continue;
		if (xcb_axes[i].type == XCB_TY_INT) {
			assert_int_equal(dbi_column_type(st, (int)col), DBI_INT);
			assert_int_equal(dbi_column_i64(st, (int)col), 100 + i);
		} else {
			snprintf(want, sizeof(want), "v%u", 100 + i);
			assert_string_equal(dbi_column_text(st, (int)col), want);
		}
		col++;
	}
	dbi_finalize(st);

	assert_int_equal(dbi_prepare(f->db, "SELECT 0" XCB_SQL_RESULT_COLS " FROM results", &st), DBI_OK);
	assert_int_equal(dbi_step(st), DBI_ROW);
	for (unsigned i = 0, col = 1; i < XCB_N_RESULT_FIELDS; i++) {
		if (xcb_result_fields[i].part == XCB_PART_PAD)
			continue;
		assert_true((uint64_t)dbi_column_i64(st, (int)col) == xcb_result_get(&in, i));
		col++;
	}
	dbi_finalize(st);
}

/* dbi_column_i64s reads a row of numbers as dbi_column_i64 and
 * dbi_column_type read it column by column: a stored RESULT whose first
 * appended field is made NULL, its second 0 (a 0 that is not a NULL) and
 * its first V1 field negative, on either engine. */
static void row_of_numbers_reads_as_columns(void **state)
{
	struct fixture *f = *state;
	const char *null_col = NULL, *zero_col = NULL, *neg_col = NULL;
	struct xcb_result in;
	struct dbi_stmt *st;
	int64_t run = 0, v[64];
	uint64_t nulls;
	char sql[256];
	int n, saw_null = 0, saw_zero = 0, saw_neg = 0;

	assert_int_equal(store_open(f->db), 0);
	assert_int_equal(store(f->db, &run, XCB_T_CASE, 0, "id=1\n", 5), 1);
	distinct_result(&in);
	in.case_id = 1;
	assert_int_equal(store(f->db, &run, XCB_T_RESULT, 1, &in, 0), 1);
	for (unsigned i = 0; i < XCB_N_RESULT_FIELDS; i++) {
		const struct xcb_field *fd = &xcb_result_fields[i];

		if (fd->part == XCB_PART_APPENDED && !null_col)
			null_col = fd->name;
		else if (fd->part == XCB_PART_APPENDED && !zero_col)
			zero_col = fd->name;
		else if (fd->part == XCB_PART_V1 && !neg_col)
			neg_col = fd->name;
	}
	assert_non_null(zero_col);
	snprintf(sql, sizeof(sql), "UPDATE results SET %s = NULL, %s = 0, %s = -123456789012",
		 null_col, zero_col, neg_col);
	assert_int_equal(dbi_exec(f->db, sql), DBI_OK);

	assert_int_equal(dbi_prepare(f->db, "SELECT 'x', case_id, rep, initiator" XCB_SQL_RESULT_COLS
				     " FROM results", &st), DBI_OK);
	assert_int_equal(dbi_step(st), DBI_ROW);
	n = dbi_column_count(st) - 1;
	assert_true(n > 4 && n <= 64);
	dbi_column_i64s(st, 1, n, v, &nulls);
	for (int k = 0; k < n; k++) {
		int is_null = dbi_column_type(st, 1 + k) == DBI_NULL;

		assert_true(v[k] == dbi_column_i64(st, 1 + k));
		assert_int_equal((int)(nulls >> k & 1), is_null);
		saw_null += is_null;
		saw_zero += !is_null && v[k] == 0;
		saw_neg += v[k] == -123456789012;
	}
	assert_int_equal(saw_null, 1);
	assert_true(saw_zero >= 1);
	assert_int_equal(saw_neg, 1);
	dbi_finalize(st);
}

/* Rows of a statement read column by column (dbi_column_i64, _type): the
 * reference dbi_fetch_ints is held to. Up to 8 rows of n columns. */
static int steps_of(struct dbi_stmt *st, int n, int64_t want[8][64], uint64_t *wnulls)
{
	int rows = 0;

	while (rows < 8 && dbi_step(st) == DBI_ROW) {
		assert_int_equal(dbi_column_count(st), n);
		wnulls[rows] = 0;
		for (int k = 0; k < n; k++) {
			want[rows][k] = dbi_column_i64(st, k);
			wnulls[rows] |= (uint64_t)(dbi_column_type(st, k) == DBI_NULL) << k;
		}
		rows++;
	}
	dbi_reset(st);
	return rows;
}

/* dbi_fetch_ints of st (bound) with max gives rows first.. of want: exactly
 * nexp of them, counted as one execution. */
static void fetch_gives(struct dbi_stmt *st, int n, int max, int64_t want[8][64], const uint64_t *wnulls,
			int first, int nexp)
{
	int64_t v[8 * 64];
	uint64_t nulls[8];
	int64_t execs = dbi_executions(dbi_db(st));
	int got = -1;

	assert_int_equal(dbi_fetch_ints(st, n, max, v, nulls, &got), DBI_OK);
	assert_int_equal(got, nexp);
	assert_int_equal(dbi_executions(dbi_db(st)), execs + 1);
	for (int r = 0; r < got; r++) {
		assert_true(nulls[r] == wnulls[first + r]);
		for (int k = 0; k < n; k++)
			assert_true(v[r * n + k] == want[first + r][k]);
	}
}

/* Stored RESULTs of 5 reps of case 1, one's first appended field NULL
 * (rep 1), another's 0 with a negative count (rep 3). */
static void five_results(struct fixture *f)
{
	struct xcb_result in;
	int64_t run = 0;

	assert_int_equal(store_open(f->db), 0);
	assert_int_equal(store(f->db, &run, XCB_T_CASE, 0, "id=1\n", 5), 1);
	distinct_result(&in);
	in.case_id = 1;
	for (uint32_t rep = 0; rep < 5; rep++) {
		in.rep = (uint16_t)rep;
		assert_int_equal(store(f->db, &run, XCB_T_RESULT, 1 + rep, &in, 0), 1);
	}
	for (unsigned i = 0, appended = 0; i < XCB_N_RESULT_FIELDS; i++) {
		const struct xcb_field *fd = &xcb_result_fields[i];
		char sql[160];

		if (fd->part != XCB_PART_APPENDED || appended++ > 0)
			continue;
		snprintf(sql, sizeof(sql), "UPDATE results SET %s = NULL WHERE rep = 1; UPDATE results "
			 "SET %s = 0, count = -123456789012 WHERE rep = 3", fd->name, fd->name);
		assert_int_equal(dbi_exec(f->db, sql), DBI_OK);
	}
}

/* dbi_fetch_ints reads a block of rows as dbi_step and the column calls
 * read them, on either engine (on PostgreSQL a COPY with the bound
 * integers written into its text: a negative one, a LIMIT of -1 that is
 * NULL there; a statement bound with text, or with a column that is not
 * an integer, is stepped): stored RESULTs of 5 reps, one's first appended
 * field NULL, another's 0, a V1 field negative. */
static void block_of_numbers_reads_as_steps(void **state)
{
	struct fixture *f = *state;
	struct dbi_stmt *st;
	int64_t want[8][64];
	uint64_t wnulls[8];
	int n, rows;

	five_results(f);
	assert_int_equal(dbi_prepare(f->db, "SELECT rep, case_id, initiator" XCB_SQL_RESULT_COLS
				     " FROM results WHERE rep >= :from ORDER BY rep LIMIT :limit", &st), DBI_OK);
	dbi_bind_i64(st, dbi_param_index(st, ":from"), -1);
	dbi_bind_i64(st, dbi_param_index(st, ":limit"), -1);
	n = 3; /* rep, case_id, initiator, then the stored fields */
	for (unsigned i = 0; i < XCB_N_RESULT_FIELDS; i++)
		n += xcb_result_fields[i].part != XCB_PART_PAD;
	assert_true(n <= 64);
	rows = steps_of(st, n, want, wnulls);
	assert_int_equal(rows, 5);
	assert_true(wnulls[1] != 0 && wnulls[3] == 0);
	fetch_gives(st, n, 3, want, wnulls, 0, 3);   /* max under the rows there are */
	dbi_bind_i64(st, dbi_param_index(st, ":from"), 2);
	fetch_gives(st, n, 8, want, wnulls, 2, 3);   /* LIMIT -1: all from rep 2 */
	dbi_bind_i64(st, dbi_param_index(st, ":limit"), 2);
	fetch_gives(st, n, 8, want, wnulls, 2, 2);   /* its LIMIT */
	dbi_bind_i64(st, dbi_param_index(st, ":limit"), 0);
	fetch_gives(st, n, 8, want, wnulls, 0, 0);
	dbi_finalize(st);

	/* A parameter bound with text (never written into a COPY): stepped. */
	assert_int_equal(dbi_prepare(f->db, "SELECT rep, case_id, initiator" XCB_SQL_RESULT_COLS
				     " FROM results WHERE rep >= CAST(:from AS BIGINT) ORDER BY rep", &st), DBI_OK);
	dbi_bind_text(st, dbi_param_index(st, ":from"), "3", -1);
	fetch_gives(st, n, 8, want, wnulls, 3, 2);
	dbi_finalize(st);

	/* A column that is not an integer: read as dbi_column_i64 reads it. */
	assert_int_equal(dbi_prepare(f->db, "SELECT rep, rep * 0.5 FROM results ORDER BY rep", &st), DBI_OK);
	assert_int_equal(steps_of(st, 2, want, wnulls), 5);
	fetch_gives(st, 2, 8, want, wnulls, 0, 5);
	dbi_finalize(st);
}

/* dbi_fetch_ints keeps a statement's order and rows whatever names them
 * (on SQLite it reads the result columns packed into one, a rewriting of
 * the statement's text, dbi_sqlite_ints.c): an ORDER BY by a result
 * column's number (which would then number the packed column), by names,
 * a GROUP BY, a compound SELECT, a DISTINCT. The numbers' order differs
 * from their bytes' (a negative count). */
static void block_order_is_the_statements(void **state)
{
	static const char *const sql[] = {
		"SELECT count, rep FROM results ORDER BY 1",
		"SELECT count, rep FROM results ORDER BY 1 DESC, 2",
		"SELECT count, rep FROM results ORDER BY count DESC, results.rep",
		"SELECT count, max(rep) FROM results GROUP BY count ORDER BY 1",
		"SELECT count, rep FROM results UNION SELECT count, rep + 1 FROM results ORDER BY 1, 2",
		"SELECT DISTINCT count, rep FROM results ORDER BY 1, 2",
		"SELECT count, rep FROM results WHERE rep IN (SELECT rep FROM results ORDER BY 1) ORDER BY 1",
	};
	struct fixture *f = *state;
	struct dbi_stmt *st;
	int64_t want[8][64];
	uint64_t wnulls[8];

	five_results(f);
	for (size_t i = 0; i < sizeof(sql) / sizeof(sql[0]); i++) {
		int rows;

		assert_int_equal(dbi_prepare(f->db, sql[i], &st), DBI_OK);
		rows = steps_of(st, 2, want, wnulls);
		assert_true(rows >= 2);
		fetch_gives(st, 2, 8, want, wnulls, 0, rows);
		dbi_finalize(st);
	}
}

static void vocabularies(void **state)
{
	(void)state;
	assert_true(xcb_n_vocabs > 0);
	for (unsigned i = 0; i < xcb_n_vocabs; i++) {
		const struct xcb_vocab *v = &xcb_vocabs[i];
		int aliased = 0;

		assert_ptr_equal(xcb_vocab_find(v->name), v);
		for (unsigned a = 0; a < v->n; a++) {
			aliased |= strcmp(v->words[a], v->names[a]) != 0;
			for (unsigned b = a + 1; b < v->n; b++) {
				assert_true(strcmp(v->names[a], v->names[b]) != 0);
				assert_true(strcmp(v->words[a], v->words[b]) != 0);
			}
		}
		/* The firmware parses every other vocabulary by its names alone
		 * (bench/suite.c), so only delivery may have aliases. */
		assert_int_equal(aliased, strcmp(v->name, "delivery") == 0);
	}
	assert_string_equal(xcb_delivery_names[XCB_DELIVERY_SHORTHAND], "allbutself");
	assert_string_equal(xcb_delivery_words[XCB_DELIVERY_SHORTHAND], "shorthand");
	assert_string_equal(XCB_CLI_LIST(XCB_VOCAB_DELIVERY), "auto,unicast,cluster,shorthand");
	assert_null(xcb_vocab_find("nonesuch"));
	/* the one generic name/parse every vocabulary uses */
	assert_string_equal(XCB_NAME(wait, XCB_WAIT_ACK), "ack");
	assert_string_equal(XCB_NAME(wait, XCB_N_wait), "?");
	assert_int_equal(XCB_PARSE(wait, "done"), XCB_WAIT_DONE);
	assert_int_equal(XCB_PARSE(wait, "don"), -1);
	assert_int_equal(XCB_PARSE(wait, "doner"), -1);
	assert_int_equal(XCB_PARSE(delivery, "allbutself"), XCB_DELIVERY_SHORTHAND);
	assert_int_equal(XCB_PARSE_WORD(delivery, "shorthand"), XCB_DELIVERY_SHORTHAND);
	assert_int_equal(XCB_PARSE_WORD(delivery, "allbutself"), -1);
}

/* Hypervisor signatures to names (XCB_HYPERVISORS): the HELLO's value as
 * sent, a leading space (VirtualBox), bare metal in its spellings, and an
 * unknown signature left to the caller. */
static void hypervisor_names(void **state)
{
	(void)state;
	assert_true(xcb_n_hypervisors > 0);
	for (unsigned i = 0; i < xcb_n_hypervisors; i++)
		assert_string_equal(xcb_hypervisor_name(xcb_hypervisors[i].signature), xcb_hypervisors[i].name);
	assert_string_equal(xcb_hypervisor_name("TCGTCGTCGTCG"), "QEMU TCG");
	assert_string_equal(xcb_hypervisor_name("KVMKVMKVM"), "KVM");
	assert_string_equal(xcb_hypervisor_name(" VBoxVBoxVBox"), "VirtualBox");
	assert_string_equal(xcb_hypervisor_name(""), XCB_HV_BARE_METAL);
	assert_string_equal(xcb_hypervisor_name("  "), XCB_HV_BARE_METAL);
	assert_string_equal(xcb_hypervisor_name("none"), XCB_HV_BARE_METAL);
	assert_string_equal(xcb_hypervisor_name("0"), XCB_HV_BARE_METAL);
	assert_null(xcb_hypervisor_name("nonesuch"));
	assert_null(xcb_hypervisor_name("TCGTCG"));	/* a prefix of a signature is not one */
	assert_null(xcb_hypervisor_name("Linux KVM Hv"));
}

static void axes(void **state)
{
	(void)state;
	for (unsigned i = 0; i < XCB_N_AXES; i++) {
		const struct xcb_axis *a = &xcb_axes[i];
		int note = strncmp(a->key, XCB_NOTE_PREFIX, strlen(XCB_NOTE_PREFIX)) == 0;

		assert_ptr_equal(xcb_axis_find(a->key, strlen(a->key)), a);
		if (a->vocabulary)
			assert_non_null(xcb_vocab_find(a->vocabulary));
		/* x_* is exactly the NOTE role, the rule for unlisted keys too */
		assert_int_equal(note, a->role == XCB_ROLE_NOTE);
		/* a preferred value is a choice's: only AXIS keys have one */
		if (a->preferred)
			assert_int_equal(a->role, XCB_ROLE_AXIS);
	}
	assert_string_equal(XCB_KEY(x_cpus), "x_cpus");
	assert_string_equal(XCB_KEY_EQ(x_cpus), "x_cpus=");
	assert_true(xcb_axis_matches("delivery", 0));
	assert_true(xcb_axis_matches("algo", 0));
	assert_false(xcb_axis_matches("algo", 1));
	assert_false(xcb_axis_matches("warmup", 0));
	assert_false(xcb_axis_matches("x_new_note", 0));
	assert_true(xcb_axis_matches("new_axis", 0));
	assert_null(xcb_axis_find("kin", 3));
}

/* Stream (case 1, rep 0, initiator 3)'s values first .. first+n-1 as one
 * SAMPLES frame through the real store (value i: 1000 + i, 8 bytes); its
 * outcome (1 stored). */
static int samples(struct dbi *db, int64_t *run, uint32_t seq, uint32_t first, uint16_t n)
{
	uint64_t v[100];
	struct xcb_samples y = { .case_id = 1, .rep = 0, .initiator = 3, .index = first, .width = 8,
				 .n = n, .values = v };

	assert_true(n <= 100);
	for (unsigned i = 0; i < n; i++)
		v[i] = 1000 + first + i;
	return store(db, run, XCB_T_SAMPLES, seq, &y, 0);
}

/* The ledger's stored (run, seq)s: the careful path's frames rows and the
 * seqs of the fast path's spans (store_ledger.c). */
#define LEDGER_SEQS "SELECT (SELECT count(*) FROM frames) + (SELECT COALESCE(sum(hi - lo + 1), 0) FROM frame_spans)"

/* A number a one-row query answers (-1: no row). */
static int64_t one_number(struct dbi *db, const char *sql)
{
	struct dbi_stmt *st;
	int64_t v = -1;

	assert_int_equal(dbi_prepare(db, sql, &st), DBI_OK);
	if (dbi_step(st) == DBI_ROW)
		v = dbi_column_i64(st, 0);
	dbi_finalize(st);
	return v;
}

/* Ends a fast-path batch (store_fast(1), BEGIN, frames) as the writer
 * does when dbi_sync finds a wrong prediction, asserting that it does:
 * rolled back, the runs' sums and memory forgotten, back to careful. */
static void fast_batch_predicted_wrong(struct dbi *db)
{
	assert_int_equal(store_flush(), 0);
	assert_int_equal(dbi_sync(db), DBI_MISMATCH);
	assert_int_equal(dbi_exec(db, "ROLLBACK"), DBI_OK);
	store_touch_discard();
	store_runs_forget_all();
	store_fast(0);
}

/* A fast-path chunk that overlaps a stored one (rc: what storing it
 * answered), and the batch ended: on PostgreSQL its block statement's own
 * check, a wrong prediction dbi_sync reports (the batch rolled back, as the
 * writer would redo it the careful way); on SQLite the fast path probes
 * first (store_results.c: S_*_FREE) and leaves it to the careful path,
 * which refuses it at once and the batch commits. Either way nothing of it
 * is stored. */
static void fast_overlap_refused(struct dbi *db, int rc)
{
	if (dbi_engine(db) == DBI_PG) {
		assert_int_equal(rc, 1);
		fast_batch_predicted_wrong(db);
		return;
	}
	assert_int_equal(rc, STORE_REFUSED);
	assert_int_equal(store_flush(), 0);
	assert_int_equal(dbi_sync(db), DBI_OK);
	assert_int_equal(dbi_exec(db, "COMMIT"), DBI_OK);
	store_fast(0);
}

/* A SAMPLES frame is one row of sample_chunks holding its values, and is
 * insert-once: a chunk overlapping a stored one by one index, from either
 * side or inside, is refused and writes nothing; one that fills a gap
 * exactly is stored. The careful way (each check a query) and the fast
 * path (fast_overlap_refused) on either engine. */
static void samples_are_chunks_stored_once(void **state)
{
	struct fixture *f = *state;
	struct dbi_stmt *st;
	struct buf want = { 0 };
	int64_t run = 0;

	assert_int_equal(store_open(f->db), 0);
	assert_int_equal(store(f->db, &run, XCB_T_CASE, 0, "id=1\n", 5), 1);
	assert_int_equal(samples(f->db, &run, 1, 0, 64), 1);
	assert_int_equal(samples(f->db, &run, 2, 32, 64), STORE_REFUSED);  /* across its end */
	assert_int_equal(samples(f->db, &run, 3, 63, 1), STORE_REFUSED);   /* its last index */
	assert_int_equal(samples(f->db, &run, 4, 10, 5), STORE_REFUSED);   /* inside */
	assert_int_equal(samples(f->db, &run, 5, 64, 64), 1);
	assert_int_equal(samples(f->db, &run, 6, 200, 10), 1);
	assert_int_equal(samples(f->db, &run, 7, 190, 11), STORE_REFUSED); /* into the next */
	assert_int_equal(samples(f->db, &run, 8, 128, 72), 1);             /* the gap, exactly */
	assert_int_equal(one_number(f->db, "SELECT count(*) * 1000 + sum(n) FROM sample_chunks"), 4 * 1000 + 210);
	assert_int_equal(store_flush(), 0); /* the run's counters, as the writer before COMMIT */

	/* The fast path: refused too (fast_overlap_refused says how). */
	store_fast(1);
	assert_int_equal(dbi_exec(f->db, "BEGIN"), DBI_OK);
	fast_overlap_refused(f->db, samples(f->db, &run, 9, 209, 2));
	assert_int_equal(one_number(f->db, "SELECT sum(n) FROM sample_chunks"), 210);
	assert_int_equal(one_number(f->db, "SELECT use_samples FROM runs"), 210);

	/* The values as sent, in order. */
	for (int i = 0; i < 64; i++)
		buf_addf(&want, "%s%d", i ? "," : "", 1000 + i);
	assert_int_equal(dbi_prepare(f->db, "SELECT vals FROM sample_chunks WHERE idx0 = 0", &st), DBI_OK);
	assert_int_equal(dbi_step(st), DBI_ROW);
	assert_string_equal(dbi_column_text(st, 0), want.p);
	dbi_finalize(st);
	buf_free(&want);
}

/* Histogram (case 1, rep 0, initiator 3)'s buckets first .. first+n-1 as
 * one HISTO frame through the real store, counts from the string c (a
 * digit each, bucket first + i's count c[i] - '0'); its outcome. */
static int histo(struct dbi *db, int64_t *run, uint32_t seq, uint32_t first, const char *c)
{
	uint32_t v[64];
	uint16_t n = (uint16_t)strlen(c);
	struct xcb_histo x = { .case_id = 1, .rep = 0, .initiator = 3, .first = first, .n = n, .counts = v };

	assert_true(n <= 64);
	for (unsigned i = 0; i < n; i++)
		v[i] = (uint32_t)(c[i] - '0');
	return store(db, run, XCB_T_HISTO, seq, &x, 0);
}

/* A HISTO frame is one row of histogram_chunks, from its first to its last
 * non-empty bucket, and is insert-once: a frame whose range overlaps a
 * stored chunk (at its last bucket, inside, even at an empty bucket inside
 * it) is refused and writes nothing; one that only overlaps the empty
 * buckets a stored frame had at its ends is stored, as when buckets were
 * rows; an all-empty frame stores nothing and blocks nothing. The run's
 * histogram use counts non-empty buckets. The careful way and the fast
 * path's deferred INSERT (the overlap a wrong prediction) on either
 * engine. */
static void histograms_are_chunks_stored_once(void **state)
{
	struct fixture *f = *state;
	struct dbi_stmt *st;
	int64_t run = 0;

	assert_int_equal(store_open(f->db), 0);
	assert_int_equal(store(f->db, &run, XCB_T_CASE, 0, "id=1\n", 5), 1);
	/* buckets 12..25 non-empty but 20: stored as [12, 25] */
	assert_int_equal(histo(f->db, &run, 1, 10, "00123456708912340000"), 1);
	assert_int_equal(histo(f->db, &run, 2, 25, "1"), STORE_REFUSED);      /* its last bucket */
	assert_int_equal(histo(f->db, &run, 3, 20, "5"), STORE_REFUSED);      /* its empty bucket */
	assert_int_equal(histo(f->db, &run, 4, 0, "0000000000001"), STORE_REFUSED); /* its first */
	assert_int_equal(histo(f->db, &run, 5, 26, "0031"), 1);  /* the sent range's empty end */
	assert_int_equal(histo(f->db, &run, 6, 40, "0000"), 1);  /* all empty: nothing */
	assert_int_equal(histo(f->db, &run, 7, 40, "2"), 1);     /* not blocked by it */
	assert_int_equal(histo(f->db, &run, 8, 0, "0"), 1);      /* before the first's non-empty */
	assert_int_equal(one_number(f->db, "SELECT count(*) * 1000 + sum(n) FROM histogram_chunks"),
			 3 * 1000 + 14 + 2 + 1);
	assert_int_equal(store_flush(), 0);
	assert_int_equal(one_number(f->db, "SELECT use_histo FROM runs"), 13 + 2 + 1);
	assert_int_equal(dbi_prepare(f->db, "SELECT bucket0, counts FROM histogram_chunks ORDER BY bucket0", &st),
			 DBI_OK);
	assert_int_equal(dbi_step(st), DBI_ROW);
	assert_int_equal(dbi_column_i64(st, 0), 12);
	assert_string_equal(dbi_column_text(st, 1), "1,2,3,4,5,6,7,0,8,9,1,2,3,4");
	assert_int_equal(dbi_step(st), DBI_ROW);
	assert_int_equal(dbi_column_i64(st, 0), 28);
	assert_string_equal(dbi_column_text(st, 1), "3,1");
	dbi_finalize(st);

	/* The fast path: refused too (fast_overlap_refused says how). */
	store_fast(1);
	assert_int_equal(dbi_exec(f->db, "BEGIN"), DBI_OK);
	fast_overlap_refused(f->db, histo(f->db, &run, 9, 29, "07"));
	assert_int_equal(one_number(f->db, "SELECT count(*) * 1000 + sum(n) FROM histogram_chunks"),
			 3 * 1000 + 17);
	assert_int_equal(one_number(f->db, "SELECT use_histo FROM runs"), 16);
}

/* The fast path's ledger and data rows go many a statement on PostgreSQL
 * (store_ledger.c, store_data.c): 300 frames in one batch are all in the
 * ledger and sample_chunks after a few statements, not 300 each; a seq stored already, in a later batch, is still a wrong prediction
 * (DBI_MISMATCH) that writes nothing once rolled back. */
static void ledger_rows_go_together(void **state)
{
	struct fixture *f = *state;
	int64_t run = 0, before;

	assert_int_equal(store_open(f->db), 0);
	assert_int_equal(store(f->db, &run, XCB_T_CASE, 0, "id=1\n", 5), 1);
	assert_int_equal(store_flush(), 0);
	store_fast(1);
	assert_int_equal(dbi_exec(f->db, "BEGIN"), DBI_OK);
	before = dbi_executions(f->db);
	for (uint32_t seq = 1; seq <= 300; seq++)
		assert_int_equal(samples(f->db, &run, seq, seq, 1), 1);
	assert_int_equal(store_flush(), 0);
	assert_int_equal(dbi_sync(f->db), DBI_OK);
	/* 300 chunks as one statement over arrays on PostgreSQL and the
	 * ledger's one span a statement (on SQLite a statement a chunk, and
	 * a chunk's overlap probe before its INSERT, then the span's:
	 * store_ledger.c and store_results.c say why), the run's counters,
	 * and its state and cases read once (store_runs.c) */
	assert_int_equal(dbi_executions(f->db) - before, (dbi_engine(f->db) == DBI_PG ? 1 + 1 : 2 * 300 + 1) + 1 + 2);
	assert_int_equal(dbi_exec(f->db, "COMMIT"), DBI_OK);
	assert_int_equal(one_number(f->db, LEDGER_SEQS), 301);
	/* the 300 fast frames one span, the careful CASE a frames row */
	assert_int_equal(one_number(f->db, "SELECT count(*) * 1000 + min(lo) * 100 + max(hi) FROM frame_spans"),
			 1000 + 100 + 300);
	assert_int_equal(one_number(f->db, "SELECT count(*) FROM frames"), 1);
	assert_int_equal(one_number(f->db, "SELECT frames_received FROM runs"), 301);

	assert_int_equal(dbi_exec(f->db, "BEGIN"), DBI_OK);
	assert_int_equal(samples(f->db, &run, 301, 400, 1), 1);
	assert_int_equal(samples(f->db, &run, 150, 401, 1), 1); /* a stored seq */
	fast_batch_predicted_wrong(f->db);
	assert_int_equal(one_number(f->db, "SELECT count(*) * 1000 + sum(n) FROM sample_chunks"), 300 * 1000 + 300);
}

/* An older database's rows, one per position, migrated into chunks of
 * one: ins inserts a row (?1..?5: run, rep, initiator, position, value)
 * into the old table, for two streams (run 7, rep 0, initiator 3: first
 * rows at positions 0, step, 2 * step...; run 8, rep 1, initiator 65535:
 * twice as many, values past 2^62); then db_migrate, and sel (run, rep,
 * initiator, first position, text of the chunks, in that order) must
 * read each row back as a chunk of one with the same value; count the
 * chunks and the sum of their n equal the rows. */
static void old_rows_become_chunks(struct dbi *db, const char *ins, const char *sel, const char *count,
				   int first, int step)
{
	struct dbi_stmt *st;
	char err[256], want[32];
	int64_t rows = 0;

	assert_int_equal(dbi_prepare(db, ins, &st), DBI_OK);
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < first + first * s; i++, rows++) {
			dbi_bind_i64(st, 1, 7 + s);
			dbi_bind_i64(st, 2, s);
			dbi_bind_i64(st, 3, s ? 65535 : 3);
			dbi_bind_i64(st, 4, step * i);
			dbi_bind_i64(st, 5, s ? (INT64_C(1) << 62) + i : 7 * i + 1);
			assert_int_equal(dbi_step(st), DBI_DONE);
			dbi_reset(st);
		}
	dbi_finalize(st);
	assert_int_equal(db_migrate(db, err, sizeof(err)), 0);
	assert_int_equal(one_number(db, count), rows * 1000 + rows);
	assert_int_equal(dbi_prepare(db, sel, &st), DBI_OK);
	for (int64_t r = 0; r < rows; r++) {
		int s = r >= first, i = (int)(s ? r - first : r);

		assert_int_equal(dbi_step(st), DBI_ROW);
		assert_int_equal(dbi_column_i64(st, 0), 7 + s);
		assert_int_equal(dbi_column_i64(st, 1), s);
		assert_int_equal(dbi_column_i64(st, 2), s ? 65535 : 3);
		assert_int_equal(dbi_column_i64(st, 3), step * i);
		snprintf(want, sizeof(want), "%lld", (long long)(s ? (INT64_C(1) << 62) + i : 7 * i + 1));
		assert_string_equal(dbi_column_text(st, 4), want);
	}
	assert_int_equal(dbi_step(st), DBI_DONE);
	dbi_finalize(st);
}

/* A frame of a test batch (tbatch): RESULT rep of stream (case 1,
 * initiator 3); HISTO buckets first .. first+n-1, bucket first+k counting
 * 7 where bit k of set is 1, else empty; SAMPLES first .. first+n-1. */
struct tframe {
	unsigned type;
	uint32_t seq, first;
	uint16_t n;
	uint32_t set; /* HISTO: the non-empty buckets; RESULT: its rep */
};

/* Stores fr as the frame it describes; store_frame's outcome. */
static int tframe_store(struct dbi *db, int64_t *run, const struct tframe *fr)
{
	uint32_t counts[32] = { 0 };
	struct xcb_histo x = { .case_id = 1, .rep = 0, .initiator = 3, .first = fr->first, .n = fr->n,
			       .counts = counts };
	struct xcb_result r;

	if (fr->type == XCB_T_SAMPLES)
		return samples(db, run, fr->seq, fr->first, fr->n);
	if (fr->type == XCB_T_RESULT) {
		distinct_result(&r);
		r.case_id = 1;
		r.rep = (uint16_t)fr->set;
		r.initiator = 3;
		return store(db, run, XCB_T_RESULT, fr->seq, &r, 0);
	}
	assert_true(fr->n <= 32);
	for (unsigned k = 0; k < fr->n; k++)
		counts[k] = fr->set >> k & 1 ? 7 : 0;
	return store(db, run, XCB_T_HISTO, fr->seq, &x, 0);
}

/* Applies n frames as ONE writer batch (writer.c process): the fast path
 * first, and on a wrong prediction (dbi_sync) rolled back and again the
 * careful way; committed, with the outcomes in out. 1 if it went the
 * careful way, else 0. */
static int tbatch(struct dbi *db, int64_t *run, const struct tframe *fr, int n, int *out)
{
	int fast = 1, sync;

again:
	store_fast(fast);
	assert_int_equal(dbi_exec(db, "BEGIN"), DBI_OK);
	for (int i = 0; i < n; i++)
		assert_int_not_equal(out[i] = tframe_store(db, run, &fr[i]), -1);
	assert_int_equal(store_flush(), 0);
	sync = dbi_sync(db);
	if (sync == DBI_MISMATCH && fast) {
		assert_int_equal(dbi_exec(db, "ROLLBACK"), DBI_OK);
		store_touch_discard();
		store_runs_forget_all();
		fast = 0;
		goto again;
	}
	assert_int_equal(sync, DBI_OK);
	assert_int_equal(dbi_exec(db, "COMMIT"), DBI_OK);
	store_fast(0);
	return !fast;
}

/* Insert-once on the fast path (on PostgreSQL its rows many a statement:
 * store_data.c) refuses exactly what the careful way refuses, and stores
 * everything else: (a) a RESULT whose key is stored; (b) a HISTO chunk
 * whose range overlaps a stored chunk, no non-empty bucket coinciding;
 * (c) two HISTO chunks of one batch, the second's range holding the
 * first's stored part, no bucket coinciding; (d) two SAMPLES chunks of one
 * batch that overlap; (e) a HISTO chunk of empty buckets whose range
 * overlaps a stored chunk. */
static void fast_batches_refuse_as_careful(void **state)
{
	struct fixture *f = *state;
	int64_t run = 0;
	int out[8], manyout[30], pg = dbi_engine(f->db) == DBI_PG;
	struct tframe many[30];
	const struct tframe stored[] = {
		{ XCB_T_RESULT, 1, 0, 0, 0 },            /* rep 0 */
		{ XCB_T_HISTO, 2, 0, 10, 1u << 0 | 1u << 9 }, /* buckets 0 and 9 of [0, 9] */
		{ XCB_T_SAMPLES, 3, 0, 64, 0 },          /* [0, 63] */
	};
	const struct tframe b1[] = {
		{ XCB_T_RESULT, 10, 0, 0, 1 },           /* rep 1: new */
		{ XCB_T_RESULT, 11, 0, 0, 0 },           /* (a) rep 0: stored */
		{ XCB_T_SAMPLES, 14, 64, 10, 0 },        /* [64, 73] */
	};
	const struct tframe b1b[] = {
		{ XCB_T_HISTO, 12, 7, 4, 1 },            /* (b) bucket 7 of [7, 10], which holds 9 */
		{ XCB_T_HISTO, 13, 10, 10, 1 },          /* bucket 10 of [10, 19] */
	};
	const struct tframe b2[] = {
		{ XCB_T_HISTO, 20, 100, 10, 1u << 6 },   /* bucket 106 of [100, 109] */
		{ XCB_T_HISTO, 21, 105, 11, 1u << 5 },   /* (c) bucket 110 of [105, 115], holds 106 */
		{ XCB_T_SAMPLES, 22, 200, 10, 0 },       /* [200, 209] */
		{ XCB_T_SAMPLES, 23, 205, 10, 0 },       /* (d) [205, 214] */
		{ XCB_T_RESULT, 24, 0, 0, 2 },           /* rep 2: new */
		{ XCB_T_HISTO, 25, 120, 10, 1 },         /* bucket 120 of [120, 129] */
		{ XCB_T_SAMPLES, 26, 300, 10, 0 },       /* [300, 309] */
	};
	const struct tframe b3[] = {
		{ XCB_T_HISTO, 30, 8, 2, 0 },            /* (e) [8, 9], empty, holds 9 */
		{ XCB_T_HISTO, 31, 130, 2, 0 },          /* [130, 131], empty: nothing */
	};

	assert_int_equal(store_open(f->db), 0);
	assert_int_equal(store(f->db, &run, XCB_T_CASE, 0, "id=1\n", 5), 1);
	for (int i = 0; i < 3; i++)
		assert_int_equal(tframe_store(f->db, &run, &stored[i]), 1);
	assert_int_equal(store_flush(), 0);

	/* (a), then (b), each alone in its batch: the statements' own checks,
	 * a wrong prediction; on SQLite (b) is the fast path's probe's, which
	 * leaves the chunk to the careful path at once (store_results.c). */
	assert_int_equal(tbatch(f->db, &run, b1, 3, out), 1);
	assert_int_equal(out[0], 1);
	assert_int_equal(out[1], STORE_REFUSED);
	assert_int_equal(out[2], 1);
	assert_int_equal(tbatch(f->db, &run, b1b, 2, out), pg);
	assert_int_equal(out[0], STORE_REFUSED);
	assert_int_equal(out[1], 1);

	/* (c), (d): the second of each pair meets a chunk of the same batch:
	 * on PostgreSQL its block statement could not see that one, and the
	 * careful path refuses it after the blocks are written; on SQLite the
	 * fast path's probe sees it (its rows are written as they come) and
	 * leaves it to the careful path. Either way the rest of the batch
	 * stays fast. */
	assert_int_equal(tbatch(f->db, &run, b2, 7, out), 0);
	for (int i = 0; i < 7; i++)
		assert_int_equal(out[i], i == 1 || i == 3 ? STORE_REFUSED : 1);

	/* (e): no row to carry the check: the careful path asks. */
	tbatch(f->db, &run, b3, 2, out);
	assert_int_equal(out[0], STORE_REFUSED);
	assert_int_equal(out[1], 1);

	assert_int_equal(one_number(f->db, "SELECT count(*) * 100 + sum(rep) FROM results"), 3 * 100 + 3);
	/* chunks [0, 9] (buckets 0 and 9), [10, 10], [106, 106], [120, 120] */
	assert_int_equal(one_number(f->db, "SELECT count(*) * 1000 + sum(bucket0) FROM histogram_chunks"),
			 4 * 1000 + 0 + 10 + 106 + 120);
	assert_int_equal(one_number(f->db, "SELECT count(*) * 1000 + sum(n) FROM sample_chunks"), 4 * 1000 + 94);
	/* Every stored frame in the ledger and counted, no refused one. */
	assert_int_equal(one_number(f->db, LEDGER_SEQS), 1 + 3 + 3 + 5 + 1);
	assert_int_equal(one_number(f->db, "SELECT frames_received * 1000 + use_histo FROM runs"),
			 (1 + 3 + 3 + 5 + 1) * 1000 + 5);
	assert_int_equal(one_number(f->db, "SELECT use_samples FROM runs"), 94);

	/* 30 chunks of 10 buckets in one batch, side by side: none meets
	 * another, so all are stored, the batch fast on either engine. */
	for (int k = 0; k < 30; k++)
		many[k] = (struct tframe){ XCB_T_HISTO, (uint32_t)(40 + k), (uint32_t)(1000 + 10 * k), 10, 0x3ff };
	assert_int_equal(tbatch(f->db, &run, many, 30, manyout), 0);
	for (int k = 0; k < 30; k++)
		assert_int_equal(manyout[k], 1);
	assert_int_equal(one_number(f->db, "SELECT count(*) * 1000000 + sum(bucket0) * 10 + sum(n) "
				    "FROM histogram_chunks WHERE bucket0 >= 1000"),
			 30 * 1000000 + (30 * 1000 + 10 * 435) * 10 + 300);
	assert_int_equal(one_number(f->db, "SELECT use_histo FROM runs"), 5 + 300);
}

/* A unique key meeting a row of the same batch or a stored one, where
 * on PostgreSQL the rows go by COPY (dbi_copy_in: a duplicate key fails
 * it, in a savepoint) or by one statement over arrays: each frame's
 * outcome is the careful path's, on either engine. (f) a RESULT key twice
 * in one batch; (g) a seq twice in one batch; (h) a stored RESULT key,
 * then a frame that goes the careful way in the same batch (a HISTO of
 * empty buckets: its queries run after the failed COPY, in the
 * transaction the savepoint kept), then more fast frames. */
static void copy_conflicts_refuse_as_careful(void **state)
{
	struct fixture *f = *state;
	int64_t run = 0;
	int out[8];
	const struct tframe stored[] = {
		{ XCB_T_RESULT, 1, 0, 0, 0 },            /* rep 0 */
	};
	const struct tframe b1[] = {
		{ XCB_T_RESULT, 10, 0, 0, 1 },           /* rep 1: new */
		{ XCB_T_RESULT, 11, 0, 0, 1 },           /* (f) rep 1 again */
		{ XCB_T_SAMPLES, 12, 0, 10, 0 },         /* [0, 9] */
		{ XCB_T_SAMPLES, 12, 10, 10, 0 },        /* (g) seq 12 again */
	};
	const struct tframe b2[] = {
		{ XCB_T_RESULT, 20, 0, 0, 0 },           /* (h) rep 0: stored */
		{ XCB_T_HISTO, 21, 0, 4, 0 },            /* empty: the careful way */
		{ XCB_T_SAMPLES, 22, 20, 10, 0 },        /* [20, 29] */
		{ XCB_T_RESULT, 23, 0, 0, 2 },           /* rep 2: new */
	};
	const struct tframe b3[] = {
		{ XCB_T_SAMPLES, 30, 40, 5, 0 },         /* [40, 44] */
		{ XCB_T_RESULT, 31, 0, 0, 3 },           /* rep 3: new */
	};

	assert_int_equal(store_open(f->db), 0);
	assert_int_equal(store(f->db, &run, XCB_T_CASE, 0, "id=1\n", 5), 1);
	assert_int_equal(tframe_store(f->db, &run, &stored[0]), 1);
	assert_int_equal(store_flush(), 0);

	/* (f), (g): the careful way refuses the RESULT, and the second seq 12
	 * is a duplicate that changes nothing. */
	assert_int_equal(tbatch(f->db, &run, b1, 4, out), 1);
	assert_int_equal(out[0], 1);
	assert_int_equal(out[1], STORE_REFUSED);
	assert_int_equal(out[2], 1);
	assert_int_equal(out[3], 0);

	/* (h) */
	assert_int_equal(tbatch(f->db, &run, b2, 4, out), 1);
	assert_int_equal(out[0], STORE_REFUSED);
	for (int i = 1; i < 4; i++)
		assert_int_equal(out[i], 1);

	/* A batch that meets nothing stays fast. */
	assert_int_equal(tbatch(f->db, &run, b3, 2, out), 0);
	assert_int_equal(out[0], 1);
	assert_int_equal(out[1], 1);

	assert_int_equal(one_number(f->db, "SELECT count(*) * 100 + sum(rep) FROM results"), 4 * 100 + 6);
	assert_int_equal(one_number(f->db, "SELECT count(*) * 1000 + sum(n) FROM sample_chunks"), 3 * 1000 + 25);
	assert_int_equal(one_number(f->db, "SELECT count(*) FROM histogram_chunks"), 0);
	/* CASE, seq 1, 10, 12, 21, 22, 23, 30, 31 */
	assert_int_equal(one_number(f->db, LEDGER_SEQS), 9);
	assert_int_equal(one_number(f->db, "SELECT frames_received FROM runs"), 9);
}

/* The fast path's ledger spans are insert-once at the database, not only
 * in the writer's memory (store_ledger.c): a batch whose span meets a
 * stored span or a frames row (here put there by SQL, as a daemon whose
 * memory was lost would find them) is a wrong prediction, and the careful
 * way stores each of its frames once, the stored seqs duplicates (S_FRAME
 * probes the spans); a batch meeting nothing stays fast, one span. */
static void ledger_spans_meet_stored_seqs(void **state)
{
	struct fixture *f = *state;
	int64_t run = 0;
	int out[10];
	struct tframe b[10];
	char sql[200];

	assert_int_equal(store_open(f->db), 0);
	assert_int_equal(store(f->db, &run, XCB_T_CASE, 0, "id=1\n", 5), 1);
	assert_int_equal(store_flush(), 0);
	snprintf(sql, sizeof(sql), "INSERT INTO frame_spans(run_id, lo, hi, received) VALUES (%lld, 5, 7, 0)",
		 (long long)run);
	assert_int_equal(dbi_exec(f->db, sql), DBI_OK);
	snprintf(sql, sizeof(sql), "INSERT INTO frames(run_id, seq, type, received) VALUES (%lld, 15, 5, 0)",
		 (long long)run);
	assert_int_equal(dbi_exec(f->db, sql), DBI_OK);

	/* seqs 1..10 (5..7 a stored span), 11..20 (15 a frames row), 21..30
	 * (nothing): each frame a chunk of its own */
	for (int k = 0; k < 3; k++) {
		for (int i = 0; i < 10; i++)
			b[i] = (struct tframe){ XCB_T_SAMPLES, (uint32_t)(10 * k + i + 1), (uint32_t)(100 * k + 10 * i), 5, 0 };
		assert_int_equal(tbatch(f->db, &run, b, 10, out), k < 2);
		for (int i = 0; i < 10; i++) {
			uint32_t seq = b[i].seq;

			assert_int_equal(out[i], (seq >= 5 && seq <= 7) || seq == 15 ? 0 : 1);
		}
	}
	/* a retransmitted seq of the fast span [21, 30] (new content: only
	 * the ledger can tell), with a new one */
	b[0] = (struct tframe){ XCB_T_SAMPLES, 25, 1000, 5, 0 };
	b[1] = (struct tframe){ XCB_T_SAMPLES, 31, 1010, 5, 0 };
	assert_int_equal(tbatch(f->db, &run, b, 2, out), 1);
	assert_int_equal(out[0], 0);
	assert_int_equal(out[1], 1);

	/* seqs 0..31 each once; the two put there by SQL not counted */
	assert_int_equal(one_number(f->db, LEDGER_SEQS), 32);
	assert_int_equal(one_number(f->db, "SELECT frames_received FROM runs"), 32 - 4);
	assert_int_equal(one_number(f->db, "SELECT count(*) * 1000 + sum(lo) * 10 + sum(hi) FROM frame_spans"),
			 2 * 1000 + (5 + 21) * 10 + 7 + 30);
	assert_int_equal(one_number(f->db, "SELECT count(*) * 100 + sum(n) FROM sample_chunks"), 27 * 100 + 27 * 5);
}

/* The INSERT of rows (k, t) rows into blk (store_block.h's sql). */
static void blk_sql(struct buf *q, int rows)
{
	buf_addf(q, "INSERT INTO blk(k, t) VALUES ");
	for (int i = 0; i < rows; i++)
		buf_addf(q, "%s(?, ?)", i ? ", " : "");
}

/* blk_sql for a block over arrays: any number of rows. */
static void blk_arrays_sql(struct buf *q, int rows)
{
	(void)rows;
	buf_addf(q, "INSERT INTO blk(k, t) SELECT * FROM unnest(CAST(? AS int8[]), CAST(? AS text[]))");
}

/* A block's rows (store_block.h), kept as parameters, as COPY's text or as
 * arrays (the last two on PostgreSQL; SQLite opens no arrays block),
 * read back as written: texts with
 * each character COPY's text format or an array literal treats apart
 * (tab, newline, return, backslash, quote, comma, braces, "\N", "NULL",
 * empty), int64's edges and NULL; and a duplicate key in a COPY is a
 * wrong prediction that keeps no row of it. */
static void block_texts_round_trip(void **state)
{
	struct fixture *f = *state;
	static const char *const texts[] = { "a\tb", "l1\nl2\r", "back\\slash", "\"q\"", "1,2", "{x}", "\\N",
					     "NULL", "", " sp " };
	int n = (int)(sizeof(texts) / sizeof(texts[0]));
	struct store_block b[3] = { { .ncols = 2, .sql = blk_sql },
				    { .ncols = 2, .sql = blk_sql, .copy = "blk(k, t)" },
				    { .ncols = 2, .sql = blk_arrays_sql, .arrays = 1 } };

	/* (arrays: PostgreSQL's only) */
	int modes = dbi_engine(f->db) == DBI_PG ? 3 : 2;

	assert_int_equal(dbi_exec(f->db, "CREATE TABLE blk(k BIGINT PRIMARY KEY, t TEXT)"), DBI_OK);
	assert_int_equal(store_block_open(&b[2], f->db, STORE_BLOCK_ROWS), modes == 3 ? 0 : -1);
	for (int m = 0; m < modes; m++) {
		struct dbi_stmt *st;
		int64_t base = 1000 * (m + 1);
		int got = 0;

		assert_int_equal(store_block_open(&b[m], f->db, STORE_BLOCK_ROWS), 0);
		assert_int_equal(dbi_exec(f->db, "BEGIN"), DBI_OK);
		for (int i = 0; i < n; i++) {
			store_block_int(&b[m], base + i);
			store_block_text(&b[m], texts[i], (int)strlen(texts[i]));
			assert_int_equal(store_block_row(&b[m]), 0);
		}
		store_block_int(&b[m], INT64_MIN + m);
		store_block_null(&b[m]);
		assert_int_equal(store_block_row(&b[m]), 0);
		store_block_int(&b[m], INT64_MAX - m);
		store_block_text(&b[m], "max", 3);
		assert_int_equal(store_block_row(&b[m]), 0);
		assert_int_equal(store_block_flush(&b[m]), 0);
		assert_int_equal(dbi_sync(f->db), DBI_OK);
		assert_int_equal(dbi_exec(f->db, "COMMIT"), DBI_OK);
		assert_int_equal(dbi_prepare(f->db, "SELECT k, t FROM blk WHERE k >= ? AND k < ? ORDER BY k", &st),
				 DBI_OK);
		dbi_bind_i64(st, 1, base);
		dbi_bind_i64(st, 2, base + 1000);
		for (; dbi_step(st) == DBI_ROW; got++) {
			assert_int_equal(dbi_column_i64(st, 0), base + got);
			assert_string_equal(dbi_column_text(st, 1), texts[got]);
		}
		dbi_finalize(st);
		assert_int_equal(got, n);
		assert_int_equal(one_number(f->db, "SELECT count(*) FROM blk WHERE t IS NULL"), m + 1);
		assert_int_equal(one_number(f->db, "SELECT count(*) FROM blk WHERE t = 'max'"), m + 1);
	}
	/* A key stored, and one twice in the rows: no row of the COPY kept. */
	if (b[1].copying) {
		assert_int_equal(dbi_exec(f->db, "BEGIN"), DBI_OK);
		for (int k = 0; k < 2; k++) {
			store_block_int(&b[1], k ? 1000 : 5000);
			store_block_text(&b[1], "dup", 3);
			assert_int_equal(store_block_row(&b[1]), 0);
			assert_int_equal(store_block_flush(&b[1]), 0);
		}
		assert_int_equal(dbi_sync(f->db), DBI_MISMATCH);
		assert_int_equal(dbi_exec(f->db, "COMMIT"), DBI_OK);
		assert_int_equal(one_number(f->db, "SELECT count(*) FROM blk WHERE t = 'dup'"), 1);
	}
	for (int m = 0; m < 3; m++)
		store_block_close(&b[m]);
}

/* Migration 011 on a database that holds samples one per row: each
 * becomes a chunk of one with the same value (the counts equal, a value
 * past 2^62 kept exactly), and the samples table is gone. */
static void migration_makes_samples_chunks(void **state)
{
	struct fixture *f = *state;

	old_rows_become_chunks(f->db, "INSERT INTO samples(run_id, case_id, rep, initiator, idx, value) "
			       "VALUES (?, 2, ?, ?, ?, ?)",
			       "SELECT run_id, rep, initiator, idx0, vals FROM sample_chunks ORDER BY run_id, idx0",
			       "SELECT count(*) * 1000 + sum(n) FROM sample_chunks", 50, 1);
	assert_int_not_equal(dbi_exec(f->db, "SELECT count(*) FROM samples"), DBI_OK);
}

/* Migration 013 on a database that holds histograms a row per non-empty
 * bucket: each becomes a chunk of one with the same count (a count past
 * 2^62 kept exactly), and the histograms table is gone. */
static void migration_makes_histogram_chunks(void **state)
{
	struct fixture *f = *state;

	old_rows_become_chunks(f->db, "INSERT INTO histograms(run_id, case_id, rep, initiator, bucket, count) "
			       "VALUES (?, 2, ?, ?, ?, ?)",
			       "SELECT run_id, rep, initiator, bucket0, counts FROM histogram_chunks "
			       "ORDER BY run_id, bucket0",
			       "SELECT count(*) * 1000 + sum(n) FROM histogram_chunks", 40, 3);
	assert_int_not_equal(dbi_exec(f->db, "SELECT count(*) FROM histograms"), DBI_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(sql_columns_are_the_schemas, setup, teardown),
		cmocka_unit_test(result_layout),
		cmocka_unit_test(round_trip_every_field),
		cmocka_unit_test_setup_teardown(store_keeps_every_field, setup, teardown),
		cmocka_unit_test_setup_teardown(store_joins_wide_facts, setup, teardown),
		cmocka_unit_test_setup_teardown(store_keeps_widest_case, setup, teardown),
		cmocka_unit_test_setup_teardown(store_merges_case_pieces, setup, teardown),
		cmocka_unit_test_setup_teardown(case_pieces_are_one_case, setup, teardown),
		cmocka_unit_test_setup_teardown(row_of_numbers_reads_as_columns, setup, teardown),
		cmocka_unit_test_setup_teardown(block_of_numbers_reads_as_steps, setup, teardown),
		cmocka_unit_test_setup_teardown(block_order_is_the_statements, setup, teardown),
		cmocka_unit_test_setup_teardown(samples_are_chunks_stored_once, setup, teardown),
		cmocka_unit_test_setup_teardown(ledger_rows_go_together, setup, teardown),
		cmocka_unit_test_setup_teardown(fast_batches_refuse_as_careful, setup, teardown),
		cmocka_unit_test_setup_teardown(copy_conflicts_refuse_as_careful, setup, teardown),
		cmocka_unit_test_setup_teardown(ledger_spans_meet_stored_seqs, setup, teardown),
		cmocka_unit_test_setup_teardown(block_texts_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(migration_makes_samples_chunks, setup_before_chunks, teardown),
		cmocka_unit_test_setup_teardown(histograms_are_chunks_stored_once, setup, teardown),
		cmocka_unit_test_setup_teardown(migration_makes_histogram_chunks, setup_before_histo_chunks, teardown),
		cmocka_unit_test(vocabularies),
		cmocka_unit_test(hypervisor_names),
		cmocka_unit_test(axes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
