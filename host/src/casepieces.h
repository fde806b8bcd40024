/*
 * casepieces.h — a case stored from more than one CASE frame: its x_cpus in
 * pieces (x_cpus+I/N, proto/README.md "CASE pieces") merged into the stored
 * config in any order, and the CPU lists (x_cpus, x_readers, x_leaders) turned into
 * their one canonical form (proto/xcb_cpulist.h) before a case is stored or
 * compared, so nothing downstream reads the payload's short form.
 */
#ifndef XCB_CASEPIECES_H
#define XCB_CASEPIECES_H

#include <jansson.h>

/* Whether cfg (a CASE frame's keys) holds a piece of a wide line. */
int case_has_pieces(json_t *cfg);
/* Whether cfg continues a case: its id and pieces, nothing else. */
int case_is_continuation(json_t *cfg);
/* Merges frame in into stored (the case's config as stored): 0, stored
 * updated (a piece added; all N in: joined, canonical); -1 when in is
 * another config (a key stored with another value, a piece that differs
 * from the stored one, or a whole frame whose keys are not the stored
 * ones), stored unchanged. */
int case_merge(json_t *stored, json_t *in);
/* x_cpus, x_readers and x_leaders of cfg in canonical form. A value that is no list
 * (or would expand past CASE_CANON_MAX bytes: only a forged frame's "="
 * after "=") is kept as sent: never data lost. */
void case_canon_cpus(json_t *cfg);

#define CASE_CANON_MAX (1u << 20)

#endif
