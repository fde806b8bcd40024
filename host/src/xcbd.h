/*
 * xcbd.h — the daemon's configuration (main.c parses it) and counters (the
 * collector and writer count, /health shows). Each module has its own
 * header: registry.h, db.h, writer.h, store.h, collector.h, http.h.
 */
#ifndef XCBD_H
#define XCBD_H

#include <netinet/in.h>
#include <stdatomic.h>
#include <stdint.h>

#include "version.h"
#include "xcb_proto.h"

struct xcbd_config {
	struct sockaddr_in listen, udp;
	const char *db_path, *web_dir, *firmware, *token_file, *suite;
	const char *lab;       /* --lab: this daemon's lab (NULL: none) */
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
       REJ_PEER, REJ_STORE, REJ_LIMIT, REJ_NO_CASE, REJ_NREASONS };
/* Names of the REJ_* reasons, for /health (api_misc.c). */
#define REJ_NAMES { "unknown_token", "seq_window", "busy", "conflict", "closed", "wrong_source", "store_failed", "run_limit", "no_case" }

struct xcbd_counters {
	atomic_ullong received, stored, duplicate, acks_sent, queued;
	atomic_ullong rejected[REJ_NREASONS]; /* index = -xcb_err, or REJ_* */
};
extern struct xcbd_counters ctr;
extern int64_t start_time;


#endif
