/*
 * samples_db.h — read access to a run's raw samples (samples_db.c): the
 * chunks of sample_chunks (migration 011, one row per SAMPLES frame) in
 * stream order, each with its values read back, for the samples route and
 * the samples CSV. The SQL and its column positions live in the .c file.
 */
#ifndef XCB_SAMPLES_DB_H
#define XCB_SAMPLES_DB_H

#include <stdint.h>

#include "dbi.h"
#include "util.h"
#include "xcb_proto.h"

/* The most values a stored chunk holds: a SAMPLES frame's at width 4. */
#define SAMPLES_CHUNK_MAX ((XCB_PAYLOAD_MAX - XCB_SAMPLES_HDR_LEN) / 4)

/* Which streams of a run: each of case_id, rep, init < 0 for any. */
struct samples_sel {
	int64_t run, case_id;
	int rep, init;
};

/* One stored chunk: the values idx0 .. idx0+n-1 of stream (case, rep,
 * initiator). */
struct sample_chunk {
	int64_t case_id, idx0, n;
	int rep, init;
};

/* The chunks sel selects, in (case, rep, initiator, idx0) order: a stream's
 * chunks together, in index order (one statement: one snapshot). */
struct samples_cursor {
	struct dbi_stmt *st;
};
/* 0, or -1 when the query does not prepare. */
int samples_open(struct dbi *db, const struct samples_sel *sel, struct samples_cursor *c);
/* 1 with *k the next chunk, 0 at the end, -1 when a step failed. */
int samples_next(struct samples_cursor *c, struct sample_chunk *k);
void samples_close(struct samples_cursor *c);

/* The values of the chunk in st's row (samples_next's, or an export
 * row's: the cursor's st) into v (room for SAMPLES_CHUNK_MAX): 0, or -1 when its text does
 * not read back as its n values. */
int samples_row_vals(struct dbi_stmt *st, int64_t *v);
/* The chunk in st's row (an export row). */
void samples_row_read(struct dbi_stmt *st, struct sample_chunk *k);

/* The streamed CSV export (csvstream.h): the chunks sel selects, one %s
 * where the resume predicate goes, :limit rows a block; the predicate and
 * its key columns; samples_bind binds sel (:run and the filters given). */
void samples_export_sql(const struct samples_sel *sel, struct buf *sql);
extern const char samples_export_resume[];
enum { SAMPLES_EXPORT_NKEYS = 4 };
extern const int samples_export_keycol[SAMPLES_EXPORT_NKEYS];
void samples_bind(struct dbi_stmt *st, const struct samples_sel *sel);

#endif
