/*
 * xcbd.h — the daemon's shared state: configuration, counters, and the
 * interfaces between its parts (collector thread → writer thread → SQLite;
 * HTTP threads → read-only SQLite, and → writer for the rare writes).
 */
#ifndef XCBD_H
#define XCBD_H

#include <netinet/in.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdint.h>

#include "seqset.h"
#include "xcb_proto.h"

#define XCBD_VERSION "0.1.0"

struct xcbd_config {
	struct sockaddr_in listen, udp;
	const char *db_path, *web_dir, *firmware, *token_file, *suite;
	char *admin_token;     /* NULL: writes refused unless open */
	int open;              /* accept unknown tokens, writes without auth */
	int lost_after;        /* seconds */
	int threads;           /* HTTP worker threads */
	int request_timeout;   /* seconds to send a whole request (headers and body) */
	int per_ip_conns;      /* HTTP connections per client address */
	double test_drop;      /* test only: drop this fraction of datagrams */
	const char *host_names[16]; /* --host-name: names the Host header may use */
	int nhost_names;
};
extern struct xcbd_config cfg;

/* Reasons beyond the protocol's own (xcb_err) that the collector counts. */
enum { REJ_UNKNOWN_TOKEN = XCB_E_NREASONS, REJ_SEQ_WINDOW, REJ_BUSY, REJ_CONFLICT, REJ_CLOSED,
       REJ_PEER, REJ_STORE, REJ_NREASONS };
/* Names of the REJ_* reasons, for /health (api_misc.c). */
#define REJ_NAMES { "unknown_token", "seq_window", "busy", "conflict", "closed", "wrong_source", "store_failed" }

/* How far ahead of a run's cumulative edge a frame may be. The payload keeps
 * at most 128 frames unacked (UDPT_WINDOW) and xcbench ingest 128: 4096 is
 * room to spare, and bounds a run's receive bitmaps to 512 bytes each, so a
 * forged seq cannot make the daemon allocate (it was 2 × 128 KiB a frame). */
#define RUN_WINDOW 4096u
struct xcbd_counters {
	atomic_ullong received, stored, duplicate, acks_sent, queued;
	atomic_ullong rejected[REJ_NREASONS]; /* index = -xcb_err, or REJ_* */
};
extern struct xcbd_counters ctr;
extern int64_t start_time;
extern int udp_fd;

/* ---- registry.c: token → in-memory run state (one mutex) ---- */
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
extern pthread_mutex_t reg_lock;
struct run *reg_find(uint64_t token);              /* reg_lock held */
struct run *reg_add(uint64_t token, int64_t id);   /* reg_lock held */
/* After a commit that stored DONE or the last missing frame: closes the run
 * when it is whole and frees what only an open run needs. reg_lock held. */
void reg_maybe_close(struct run *r);
int reg_load(sqlite3 *db);                         /* at start, before threads */
void reg_free_all(void);

/* ---- db.c ---- */
sqlite3 *db_open_rw(const char *path, char *err, size_t errlen); /* + migrations */
sqlite3 *db_ro(void);    /* this thread's read-only connection (lazily opened) */
void db_ro_close(void);  /* closes this thread's connection */

/* ---- writer.c: the one thread that writes SQLite ---- */
struct wtask;
typedef void (*wtask_fn)(sqlite3 *db, void *arg);
int writer_start(sqlite3 *db);
/* Queues a frame already validated by the collector (copied); src is where
 * it came from (recorded as the run's peer). */
int writer_frame(struct run *r, const struct xcb_hdr *h, const uint8_t *payload,
		 struct in_addr src);
/* Runs fn(db, arg) on the writer thread inside its transaction and waits for
 * the commit. Returns 0, or -1 if the writer is gone or the commit failed
 * (then nothing fn wrote is in the database). */
int writer_call(wtask_fn fn, void *arg);
void writer_stop(void);  /* drains the queue, commits, joins */
/* 1 while the last write failed (disk full, I/O error): reason in buf. */
int writer_degraded(char *buf, size_t n);
size_t writer_queued(void);

/* ---- store.c: applies one frame to the database (writer thread only) ---- */
int store_prepare(sqlite3 *db);
void store_finalize(void);
/* Returns 1 stored, 0 duplicate, -1 error (the database failed), -2 refused
 * (the frame would change a stored row, or the run is finished: nothing of
 * it is written). Creates the run row if id == 0. */
enum { STORE_REFUSED = -2 };
int store_frame(sqlite3 *db, int64_t *run_id, uint64_t token, const struct xcb_hdr *h,
		const uint8_t *payload, const char *peer);
void store_mark_lost(sqlite3 *db, int lost_after);
int64_t store_create_run(sqlite3 *db, uint64_t token, int64_t machine_id, int64_t job_id,
			 const char *suite, const char *params, const char *label);

/* ---- collector.c ---- */
int collector_start(void);
void collector_stop(void);
void send_ack(struct run *r);   /* reg_lock held */

/* ---- http.c ---- */
int http_start(void);
void http_stop(void);

#endif
