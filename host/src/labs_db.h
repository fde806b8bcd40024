/*
 * labs_db.h — which lab a machine belongs to (labs_db.c), for a daemon that
 * serves one lab (--lab) of a database several share: it boots, and serves
 * the jobs of, its own lab's machines only.
 */
#ifndef XCB_LABS_DB_H
#define XCB_LABS_DB_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "dbi.h"

/* 1 if machine mac is known with a lab other than cfg.lab (its name in
 * other), else 0. */
int lab_machine_elsewhere(struct dbi *db, const char *mac, char *other, size_t n);
/* Gives machine id this daemon's lab if it has none yet (a machine first
 * booted by a daemon without --lab, or created before labs). */
void lab_machine_adopt(struct dbi *db, int64_t id);
/* Appends to names (a JSON array) every lab the store knows, sorted: the
 * labs of its runs and machines, and this daemon's own (cfg.lab, known
 * before it stores anything). 0, or -1 when the query failed. */
int labs_names(struct dbi *db, json_t *names);
/* For a run list filtered by lab: 0 when lab is one of labs_names' (a lab
 * with no run yet lists nothing, rightly); 1 when it is none of them, with
 * why ("lab: no lab 'C' in this store (its labs: A, B)"); -1 when the query
 * failed. A typo listed an empty page, which read as "no runs there". */
int labs_filter_unknown(struct dbi *db, const char *lab, char *why, size_t n);

#endif
