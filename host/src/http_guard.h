/*
 * http_guard.h — who may talk to the daemon (http_guard.c): the Host rule
 * and the write rules (Origin, content type, token).
 */
#ifndef XCB_HTTP_GUARD_H
#define XCB_HTTP_GUARD_H

#include "http.h"

/* MHD_OPTION_UNESCAPE_CALLBACK: %XX decoding that keeps %00. */
size_t http_unescape(void *cls, struct MHD_Connection *c, char *s);
/* 1 if the Host header names this daemon. */
int host_allowed(const char *host);
/* NULL if this write request may go on; else the reason and *status. */
const char *write_refused(struct req *rq, unsigned *status);

#endif
