/*
 * http.h — the HTTP server (http.c): the request every handler gets, and
 * starting and stopping libmicrohttpd. What route files share besides is in
 * http_reply.h (replies, query and body parsing, the admin check), the
 * request guards in http_guard.h and http_limits.h, the route handlers in
 * routes.h, streamed CSV in csvstream.h.
 */
#ifndef XCB_HTTP_H
#define XCB_HTTP_H

#include <microhttpd.h>

#include "util.h"

#define BODY_MAX (64 * 1024)

struct power_call;

struct req {
	struct MHD_Connection *conn;
	struct power_call *power; /* a power action's call (api_power_call.c), owned once it resumed us */
	const char *method, *url;
	struct buf body;
	int too_big;
	char allow[48]; /* a 405's Allow header: the methods the path takes */
};

/* Starts libmicrohttpd on cfg.listen: 0 or -1. */
int http_start(void);
void http_stop(void);

#endif
