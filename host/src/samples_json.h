/*
 * samples_json.h — the JSON of GET /api/v1/runs/{id}/cases/{case}/samples
 * (samples_json.c): a case's raw sample streams, written straight into a
 * buffer (jsonw.h) as the chunks are read, never as a jansson tree.
 */
#ifndef XCB_SAMPLES_JSON_H
#define XCB_SAMPLES_JSON_H

#include <stdint.h>

#include "dbi.h"
#include "samples_db.h"
#include "util.h"

/* The most samples one answer lists (?limit= may ask for fewer): ~1 MB
 * of JSON. A case may hold the run's whole samples limit (2^20 by
 * default); the samples CSV has them all. */
#define SAMPLES_JSON_MAX 100000

/* Writes the answer for sel (its case_id set) into b: the filters echoed,
 * tsc_khz, one object per (rep, initiator) stream with its first samples
 * (at most limit in all), and every stream's count and holes (host/API.md).
 * 0, or -1 when the query failed or memory ran out (b's text is then no
 * answer). */
int samples_json(struct buf *b, struct dbi *db, const struct samples_sel *sel, const struct dbval *tsc_khz,
		 int64_t limit);

#endif
