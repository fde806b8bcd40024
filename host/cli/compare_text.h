/*
 * compare_text.h — what `xcbench compare`, `check` and `calibrate` share:
 * the request of a comparison (two sides, each a run list with key=value
 * restrictions), its API path, and the paste-ready report of an answer
 * (compare_text.c): a header naming both sides, one table per group of
 * the other axes with absolute p50 values, % change and interval, the
 * warnings and a summary line; plain text or Markdown, at most 80 columns,
 * numbers right-aligned, no trailing spaces.
 */
#ifndef XCB_COMPARE_TEXT_H
#define XCB_COMPARE_TEXT_H

#include <jansson.h>

#include "util.h"

struct cmp_args {
	const char *a, *b;              /* "1" or "1,2,3" */
	const char *algo_a, *algo_b;
	const char *a_where, *b_where;  /* "k=v,k=v" */
	const char *fdr, *min_effect;   /* as typed; NULL: the daemon's default */
	const char *row;                /* --row: NULL, the all row; writer_hold, ... */
	const char *stat;               /* --stat: NULL, the median; mean, p99, ... */
};

/* /api/v1/compare[.csv]?a=…&b=…&… into path. */
void compare_path(const struct cmp_args *c, int csv, struct buf *path);
/* The statistic answer o compares each repetition by when it is not the
 * median (its `stat`: "mean", "p99", ...), else NULL: the views' words
 * for the median's figure ("p50") stay theirs. */
const char *compare_stat_other(json_t *o);
/* What each repetition gives a case in answer o, for a column head or a
 * title: the row's figure (pseudo_words.h: "p50", lock_hold's "hold"),
 * or the statistic asked for instead of the median. */
const char *compare_figure(json_t *o);
/* A run list: "1" or "1,2,3" of run ids (parse_id); 0, or -1. */
int compare_run_list(const char *s);
/* The same, appending each id to the array ids (when not NULL). */
int compare_run_ids(const char *s, json_t *ids);
/* Checks ca's sides (A: a run list, stored, last:N or label:L; B: a run
 * list or label:L) and spells stored as the API does: 0, or -1 after
 * naming cmd and the bad side on stderr. */
int compare_sides(const char *cmd, struct cmp_args *ca);
/* 1 when case c is a regression a check counts: significantly slower than
 * a baseline that passed its checks (a_failed false: against a baseline
 * that lost calls, a correct B's "slower" is no verdict), B's case not of
 * method none (b_no_flush false: it flushes nothing, a cost figure). */
int compare_regressed(json_t *c);
/* The mark of a case or pivot cell that failed a check (the answer's
 * a_failed/b_failed: calls lost, duplicated or out of order, a stale
 * translation, a watchdog): "!A", "!B", "!AB" by the side(s) whose boots
 * failed it, "" when none did. */
const char *compare_failed_mark(json_t *c);
/* Prints the line that says what compare_failed_mark's marks mean when
 * answer o has a case so marked (its summary's failed_a/failed_b): 1,
 * else 0 and nothing. */
int compare_failed_legend(json_t *o);
/* The mark of a case or pivot cell of method none on a side (the answer's
 * a_no_flush/b_no_flush: it invalidates nothing, its stale reads are not
 * checked): "0A", "0B", "0AB" by the side(s), "" when neither. */
const char *compare_no_flush_mark(json_t *c);
/* What compare_no_flush_mark's marks mean: the one line every form (seed,
 * text, Markdown, HTML) prints below a table with such a case; the HTML
 * form's mark has it as a single-quoted title: no quote, no <, >, &. */
#define COMPARE_NO_FLUSH_LEGEND                                                                      \
	"0A, 0B, 0AB: the case is of method none on side A, side B, both sides: it invalidates nothing " \
	"(a cost figure, never a pass; its stale reads are not checked), so its change is not that of a " \
	"shootdown"
/* Prints COMPARE_NO_FLUSH_LEGEND when answer o has a case so marked (its
 * summary's no_flush_a/no_flush_b): 1, else 0 and nothing. */
int compare_no_flush_legend(json_t *o);
/* The levels of the cases (or pivot cells, rows of them; null: none) in
 * arr, their `level`s OR-ed: CMP_BETWEEN (compared between boots: the
 * figures are the boots' geometric means), CMP_WITHIN (within one boot:
 * the repetitions' medians). Both: a table whose title cannot say one
 * figure, and whose within-boot cases are marked (compare_level_mark). */
enum { CMP_BETWEEN = 1, CMP_WITHIN = 2 };
unsigned compare_levels(json_t *arr);
/* "1 boot" for a case or cell compared within one boot in a table of both
 * levels (levels: compare_levels'), else "". */
const char *compare_level_mark(json_t *c, unsigned levels);
/* Prints the line that says what compare_level_mark's mark means when a
 * case of answer o is so marked: 1, else 0 and nothing. */
int compare_level_legend(json_t *o);
/* The cases of an answer by group (every key but mask and inits, as text)
 * in their order: a new object of arrays. only_verdict: only the cases a
 * check's verdict is of (compare_regressed, or failed a check in B). */
json_t *compare_groups(json_t *cases, int only_verdict);
/* Case (or pivot cell) c's interval as every view writes it: "[lo, hi]";
 * "~[lo, hi]" when it is the histograms' resolution (ci_at_resolution);
 * else why there is none, "(too few reps)", "(too few boots)", or none_text.
 * Returns out. */
const char *compare_ci_text(json_t *c, char *out, size_t cap, const char *none_text);
/* The notes under a table on its intervals: why a case had none (too few
 * repetitions, too few boots) and what '~' is, each once where a case
 * (of compare_groups(cases, only_verdict)) has it, each a line through
 * line(text, arg) (compare_wrap's words); the number printed. */
int compare_interval_notes(json_t *cases, int only_verdict, void (*line)(const char *text, void *arg), void *arg);

enum cmp_format { CMP_TEXT, CMP_MARKDOWN };
/* The whole report of answer o on stdout. only_verdict: list only the
 * cases a check's verdict is of (compare_groups). Returns the number of
 * cases. */
size_t compare_report(json_t *o, enum cmp_format f, int only_verdict);
/* The warnings of o, one "warning: …" line each (wrapped at 80), on stdout. */
void compare_warnings(json_t *o);
/* "A: runs ... (N boots); labels, machines, payload, dates" and B's: what
 * a pasted table needs beside it (the text report's header). */
void compare_sides_header(json_t *o);
/* The summary line of o (wrapped at 80) on stdout. */
void compare_summary(json_t *o);

/* Prints text wrapped at 80 columns at spaces: the first line after first,
 * the rest after indent; no trailing spaces. */
void compare_wrap(const char *first, const char *indent, const char *text);

/* The comparison as one self-contained HTML file at path (compare_html.c):
 * 0, or -1 after naming the file on stderr. */
int compare_html(json_t *o, const char *path);

#endif
