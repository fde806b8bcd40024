/*
 * csvahead.h — blocks of integer rows read ahead on a thread of their own
 * (csvahead.c), for a streamed CSV export: the database is read on one
 * core while the HTTP thread formats the block before on another.
 */
#ifndef XCB_CSVAHEAD_H
#define XCB_CSVAHEAD_H

#include <stddef.h>
#include <stdint.h>

#include "dbi.h"

/* Reads one block into v/nulls (room for the rows the ahead was started
 * with) on the ahead's thread, over db (that thread's own read
 * connection): its rows, or -1 on a failure; *more 0 when it was the last
 * block. */
typedef int (*ahead_fill_fn)(void *arg, struct dbi *db, int64_t *v, uint64_t *nulls, int *more);

/* Called on the thread before it ends and gives db back (kept for the
 * next export's thread): what fill left on db (its prepared statement) is
 * freed here. */
typedef void (*ahead_end_fn)(void *arg, struct dbi *db);

struct ahead;
/* Starts the thread: it fills two blocks of rows x ncols numbers in turn,
 * each as soon as it is free again. NULL if it cannot start, or
 * AHEAD_MAX exports already read ahead (the caller then reads inline). */
struct ahead *ahead_start(ahead_fill_fn fill, ahead_end_fn end, void *arg, size_t rows, int ncols);
/* The next block in order, waiting for it: its rows (0 or -1: the end, or
 * a failure), with v and nulls until ahead_done. */
int ahead_take(struct ahead *a, const int64_t **v, const uint64_t **nulls);
/* The block ahead_take gave is formatted: the thread may fill it again. */
void ahead_done(struct ahead *a);
/* Stops the thread (after the block it is filling) and frees a. */
void ahead_stop(struct ahead *a);
/* Closes the read connections kept for later exports: once no export
 * runs (after http_stop). */
void ahead_close_spares(void);

#endif
