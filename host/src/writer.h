/*
 * writer.h — the one thread that writes SQLite (writer.c): frames from the
 * collector, small tasks from HTTP, one transaction per batch, ACKs after
 * the commit through the callback the collector gives at start.
 */
#ifndef XCB_WRITER_H
#define XCB_WRITER_H

#include <netinet/in.h>
#include "dbi.h"
#include <stddef.h>
#include <stdint.h>

#include "registry.h"
#include "xcb_proto.h"

typedef void (*wtask_fn)(struct dbi *db, void *arg);
/* Tells r's peer what is committed (cumulative ACK); called with reg_lock
 * held, once per touched run after each commit. */
typedef void (*writer_ack_fn)(struct run *r);

/* Starts the thread on db; ack is how committed frames are acknowledged. */
int writer_start(struct dbi *db, writer_ack_fn ack);
/* Queues a frame already validated by the collector (copied); src is where
 * it came from (recorded as the run's peer). 0, or -1 when the queue is full. */
int writer_frame(struct run *r, const struct xcb_hdr *h, const uint8_t *payload,
		 struct in_addr src);
/* Runs fn(db, arg) on the writer thread inside its transaction and waits for
 * the commit. Returns 0, or -1 if the writer is gone or the commit failed
 * (then nothing fn wrote is in the database). */
int writer_call(wtask_fn fn, void *arg);
/* Why this thread's last writer_call returned -1, said for an answer ("the
 * database is unavailable: REASON", or "the daemon is shutting down"); ""
 * after a success. */
const char *writer_call_failure(void);
/* The bytes of a failed task's reason (writer.c). */
#define WRITER_WHY 200
/* Drains the queue, commits, joins. */
void writer_stop(void);
/* 1 while the last write failed (disk full, I/O error): reason in buf. */
int writer_degraded(char *buf, size_t n);

#endif
