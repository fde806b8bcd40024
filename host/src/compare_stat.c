/*
 * compare_stat.c — the statistics compare can take from each repetition
 * (compare_stat.h). Not a list of its own: every RESULT field that is a
 * figure of the timed calls' times (results_db.h rv_is_latency: min, p50,
 * p90, p99, p999, max, mean) but their spread (stddev, no time whose %
 * change means a slower call), named as the schema names the field less
 * its fixed-point suffix (mean_x1000: the rows hold it divided already,
 * results_db.h struct resrow), p50 also, and first, as "median".
 */
#include <stdio.h>
#include <string.h>

#include "compare_stat.h"
#include "results_db.h"

/* The fixed-point suffix a stored field's name carries (mean_x1000). */
#define FIXED_SUFFIX "_x1000"

static int is_stat(int i)
{
	return i >= 0 && i < RV_NCOL && rv_is_latency(i) && i != RV_stddev_x1000;
}

/* The length of field i's name without its fixed-point suffix. */
static size_t base_len(int i)
{
	size_t n = strlen(rv_names[i]), s = strlen(FIXED_SUFFIX);

	return n > s && strcmp(rv_names[i] + n - s, FIXED_SUFFIX) == 0 ? n - s : n;
}

int compare_stat_parse(const char *name, int *field)
{
	if (!name)
		return -1;
	if (strcmp(name, COMPARE_STAT_DEFAULT) == 0) {
		*field = RV_p50;
		return 0;
	}
	for (int i = 0; i < RV_NCOL; i++)
		if (is_stat(i) && strlen(name) == base_len(i) && strncmp(name, rv_names[i], base_len(i)) == 0) {
			*field = i;
			return 0;
		}
	return -1;
}

void compare_stat_name(int field, char *out, size_t cap)
{
	if (field == RV_p50 || !is_stat(field))
		snprintf(out, cap, "%s", COMPARE_STAT_DEFAULT);
	else
		snprintf(out, cap, "%.*s", (int)base_len(field), rv_names[field]);
}

void compare_stat_figure(int field, char *out, size_t cap)
{
	if (field == RV_p50 || !is_stat(field))
		snprintf(out, cap, "%s", rv_names[RV_p50]);
	else
		compare_stat_name(field, out, cap);
}

void compare_stat_names(char *out, size_t cap)
{
	size_t len = 0;

	out[0] = 0;
	len += (size_t)snprintf(out, cap, "%s", COMPARE_STAT_DEFAULT);
	for (int i = 0; i < RV_NCOL && len < cap; i++)
		if (is_stat(i) && i != RV_p50)
			len += (size_t)snprintf(out + len, cap - len, ", %.*s", (int)base_len(i), rv_names[i]);
}

int compare_stat_field(int stat)
{
	return is_stat(stat) ? stat : RV_p50;
}

int compare_stat_bucketed(int field)
{
	return field == RV_p50 || field == RV_p90 || field == RV_p99 || field == RV_p999;
}
