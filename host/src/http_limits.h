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
/* A handler that waits on something slow by nature (a BMC: power.h's
 * POWER_TIMEOUT_S a call) moves its request's deadline to at least seconds
 * from now, so its answer is not cut off; the request is complete by then,
 * so no trickling client gains from it. */
void http_limits_extend(struct MHD_Connection *c, double seconds);
int http_limits_start(void);
void http_limits_stop(void);

#endif
