/* compare_stat.h — which statistic of a repetition's calls compare takes
 * from each repetition (GET /api/v1/compare?stat=, compare_req.stat):
 * derived from the schema's RESULT fields (compare_stat.c), so a field
 * the payload adds is named the same way everywhere. */
#ifndef XCB_COMPARE_STAT_H
#define XCB_COMPARE_STAT_H

#include <stddef.h>

/* The default: each repetition's median (its RESULT p50), as before ?stat=. */
#define COMPARE_STAT_DEFAULT "median"

/* The RESULT field (results_db.h RV_*) a statistic's name stands for:
 * "median" (or "p50"), "mean", "p99", ...: 0, else -1. */
int compare_stat_parse(const char *name, int *field);
/* The name of field's statistic ("median", "mean", "p99") into out. */
void compare_stat_name(int field, char *out, size_t cap);
/* What one repetition gives the case, in the compare texts' words: "p50"
 * for the median (its RESULT field), else the statistic's name. */
void compare_stat_figure(int field, char *out, size_t cap);
/* Every name compare_stat_parse takes but the alias p50, ", " between. */
void compare_stat_names(char *out, size_t cap);
/* The field a request's stat (0: none given) stands for: RV_p50 for 0. */
int compare_stat_field(int stat);
/* 1 when field's value is a histogram percentile, its bucket's midpoint
 * (p50, p90, p99, p999: firmware/bench/emit.c histo_percentile), so an
 * interval of it is no finer than the buckets (compare.c at_resolution);
 * 0 for min, max and mean, which the payload counts exactly. */
int compare_stat_bucketed(int field);

#endif
