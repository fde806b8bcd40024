/*
 * http_limits.h — whole-request deadlines (http_limits.c, see there).
 */
#ifndef XCB_HTTP_LIMITS_H
#define XCB_HTTP_LIMITS_H

#include <microhttpd.h>

void http_limits_notify(void *cls, struct MHD_Connection *c, void **ctx,
			enum MHD_ConnectionNotificationCode code);
void http_limits_answered(struct MHD_Connection *c);     /* a response is queued */
void http_limits_request_done(struct MHD_Connection *c); /* the next request begins */
int http_limits_start(void);
void http_limits_stop(void);

#endif
