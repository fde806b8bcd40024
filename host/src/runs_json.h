/*
 * runs_json.h — the JSON of runs, cases, events and histograms (runs_json.c),
 * built from runs_db.h's rows; the shapes are host/API.md's.
 */
#ifndef XCB_RUNS_JSON_H
#define XCB_RUNS_JSON_H

#include <jansson.h>
#include "dbi.h"
#include <stddef.h>
#include <stdint.h>

#include "results_db.h"
#include "runs_db.h"

/* The HELLO keys a RUN's "facts" holds (those the run sent), in order. */
#define RUN_SUMMARY_NFACTS 14
extern const char *const run_summary_facts[RUN_SUMMARY_NFACTS];
/* A RUN's cases_planned: the HELLO key as a number, or -1 (null). */
int64_t run_cases_planned(const json_t *hello);
/* The RUN object, without its token (admins get it: api_runs.c). */
json_t *run_row_json(const struct run_row *r);
/* One case of GET /runs/{id} appended to b as JSON text (reply_json's
 * bytes): its columns, config, per-initiator stats, fairness,
 * pseudo-initiators, STATS (ns too with tsc_khz > 0) and the median per
 * repetition, from its RESULT rows (RV_p10 attached; reordered). 0 or -1. */
int case_write(struct buf *b, const struct case_row *c, struct resrow *rows, size_t n, double tsc_khz);
/* The JSON array of run id's cases as case_write writes them, at most
 * limit of them, those with case_id > after: three queries (cases, RESULT
 * rows, histograms) stepped together, whatever the number of cases.
 * *next (if given): the case_id to ask the next page after, or -1 when
 * this page ends the run. 0 or -1 (out of memory). */
int run_cases_write(struct buf *b, struct dbi *db, int64_t id, double tsc_khz, int64_t after, int64_t limit,
		    int64_t *next);
/* The most cases one GET /runs/{id} answers (?cases_after= pages on): 1000
 * cases are ~2 MB of JSON, built in memory (issue 26: 10,000 took 20 MB a
 * request and four at once 280 MB of RSS). The default page is the first
 * RUN_CASES_PAGE cases. */
#define RUN_CASES_PAGE 1000
/* The version of run_cases_write's bytes as the store keeps them
 * (run_renders.format, runrender.c): change it with any change to what a
 * case's JSON says or how, so that no daemon serves another's rendering. */
#define RUN_CASES_FORMAT 5	/* 2: kind=raw has no ipi_ratio, an initiator no lock_wait_cycles (null); 3: a repetition with no timed call has no latencies (rep_p50 null, not in p50, min, reps); 4: a case's "lock"; 5: reals in their shortest round-trip form (common/jsontext.c) */
/* run_cases_write of run r into a new buffer: the text (malloc'd, *len
 * bytes, NUL-terminated), or NULL (out of memory). after, limit, *next as
 * run_cases_write's. */
char *run_cases_text(struct dbi *db, const struct run_row *r, int64_t after, int64_t limit, int64_t *next,
		     size_t *len);
/* An event: {seq, kind, text, received}, or without kind (a run's errors). */
json_t *event_json(const struct event_row *e, int with_kind);
/* GET /runs/{id}/cases/{case}/histogram: rep/init -1 = all. */
json_t *histogram_json(int64_t run, int64_t cid, int rep, int init, json_t *tsc_khz,
		       const uint32_t *idx, const uint64_t *cnt, size_t n);

#endif
