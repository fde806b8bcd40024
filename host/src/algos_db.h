/*
 * algos_db.h — the cross-call algorithms the host has learned from the
 * payloads' HELLOs (algos=, algo.NAME=description), read back from the
 * stored runs (algos_db.c holds the SQL). The host keeps no list of its own.
 */
#ifndef XCB_ALGOS_DB_H
#define XCB_ALGOS_DB_H

#include <jansson.h>
#include "dbi.h"

/* [{name, description, runs, last_run}, ...] sorted by name: every
 * algorithm any stored run's HELLO listed, its description from the
 * newest run that gave one. NULL on a database error (never the
 * algorithms read before it). */
json_t *algos_db_learned(struct dbi *db);

#endif
