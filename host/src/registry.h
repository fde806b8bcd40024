/*
 * registry.h — token → in-memory run state (registry.c): what the collector
 * has seen and what the writer has committed, under one mutex.
 */
#ifndef XCB_REGISTRY_H
#define XCB_REGISTRY_H

#include <netinet/in.h>
#include <pthread.h>
#include "dbi.h"
#include <stdint.h>

#include "seqset.h"

/* How far ahead of a run's cumulative edge a frame may be. The payload keeps
 * at most 128 frames unacked (UDPT_WINDOW) and xcbench ingest 128: 4096 is
 * room to spare, and bounds a run's receive bitmaps to 512 bytes each, so a
 * forged seq cannot make the daemon allocate (it was 2 x 128 KiB a frame). */
#define RUN_WINDOW 4096u

struct run {
	uint64_t token;
	int64_t id;                 /* database id; 0 until the writer creates it */
	struct seqset recv;         /* seen by the collector (stored or queued) */
	struct seqset stored;       /* committed: what ACKs report */
	struct sockaddr_in peer;    /* where the last frame came from */
	int have_peer;
	struct in_addr bound;       /* the source of its first valid frame: the only one */
	int is_bound;               /* ... accepted from then on (also after a restart) */
	int closed;                 /* every frame through DONE stored: only duplicates */
	uint32_t expected;          /* frames in the run (DONE's count + 1); 0 = unknown */
	unsigned ack_mark;          /* writer: ACK owed after this commit */
	struct run *next_in_bucket;
};

/* Guards the table and every struct run in it (collector, writer, HTTP). */
extern pthread_mutex_t reg_lock;
/* The run of token, or NULL. reg_lock held. */
struct run *reg_find(uint64_t token);
/* The run of token, added (with database id, 0 = none yet) if new; NULL
 * when out of memory. reg_lock held. */
struct run *reg_add(uint64_t token, int64_t id);
/* After a commit that stored DONE or the last missing frame: closes the run
 * when it is whole and frees what only an open run needs. reg_lock held. */
void reg_maybe_close(struct run *r);
/* Loads every stored run at start, before the threads: 0 or -1. */
int reg_load(struct dbi *db);
/* Frees every run (at exit, after the threads). */
void reg_free_all(void);
/* A new run token: random, never 0 (a run's only credential on the wire). */
uint64_t fresh_token(void);

#endif
