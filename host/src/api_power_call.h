/*
 * api_power_call.h — POST /api/v1/machines/{mac}/power's driver call, off
 * the HTTP worker thread (api_power_call.c).
 */
#ifndef XCB_API_POWER_CALL_H
#define XCB_API_POWER_CALL_H

#include "http_reply.h"
#include "power.h"

struct power_call;

/* Suspends rq's connection and runs action a on c (mac's settings) on a
 * thread of its own; the connection is resumed when it ends, and
 * power_call_answer answers it. Returns what the handler returns. */
enum MHD_Result power_call_begin(struct req *rq, const struct power_cfg *c, enum power_action a);

/* The answer of rq's finished call (rq->power set): http.c's handler calls
 * it when libmicrohttpd hands the resumed request back. */
enum MHD_Result power_call_answer(struct req *rq);

/* Frees a call whose thread has ended (NULL: nothing); the request's
 * completed callback. */
void power_call_free(struct power_call *pc);

/* Refuses new calls, abandons those running (their driver's child killed,
 * their clients answered 503) and waits for them to resume their
 * connections, then a few seconds at most for those answers to be sent:
 * before MHD_stop_daemon, which must find none suspended. */
void power_calls_drain(void);

#endif
