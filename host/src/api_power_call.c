/*
 * api_power_call.c — a power action asked over HTTP, run on a thread of its
 * own. The driver call (ipmitool against a silent BMC: ~12 s, up to
 * POWER_ACTION_MAX_S) made on the libmicrohttpd worker stalled every other
 * connection that worker served (a dashboard's keep-alive connection,
 * another operator's request) until its whole-request deadline closed it
 * unanswered. Here the handler suspends its connection, a thread runs the
 * call and stores its state, then resumes the connection; the handler, on
 * re-entry, answers with what was stored.
 *
 * Ownership: the call is its own allocation, pointed to by its request
 * (rq->power). Its thread owns it until it calls MHD_resume_connection and
 * touches it no more after; then the request does: the re-entered handler
 * reads it and the completed callback frees it. A suspended connection is
 * never closed by libmicrohttpd, so the request outlives the thread.
 *
 * Shutdown: MHD_stop_daemon must find no connection suspended, so
 * http_stop first drains the calls (power_calls_drain). Waiting each call
 * out held a SIGTERM up to POWER_ACTION_MAX_S (60 s against a silent BMC):
 * the drain instead makes the cancel pipe readable, every call's spawn_run
 * kills its ipmitool (or command) group at once and returns, and the
 * client is answered 503 "abandoned" (the BMC may or may not have acted:
 * nothing is stored of it). The drain then gives the resumed connections
 * a moment to be answered before MHD_stop_daemon closes them.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "api_power_call.h"
#include "jobs_db.h"
#include "runproc.h"

struct power_call {
	struct MHD_Connection *conn;
	struct power_cfg c;
	enum power_action a;
	/* Written by the thread before it resumes the connection; read by
	 * the re-entered handler after (under mu, both). */
	int done, rc, abandoned;
	char msg[600];
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER; /* pairs: running, unanswered, stopping, cancel, every call's done/rc/abandoned/msg */
static pthread_cond_t idle = PTHREAD_COND_INITIALIZER; /* running or unanswered fell (signalled under mu): power_calls_drain waits */
static int running, unanswered, stopping;
/* Readable once the daemon stops (power_calls_drain writes it, nobody
 * reads it): every call's spawn_run polls its read end. Made with the
 * first call. */
static int cancel[2] = { -1, -1 };

/* Seconds the drain waits for abandoned calls' answers to be sent. */
#define ANSWER_GRACE_S 3

/* Runs pc's driver call, stores its state (jobs_db_power_state, as the
 * call made on the HTTP thread did), and marks it done. */
static void call(struct power_call *pc)
{
	char msg[sizeof(pc->msg)];
	enum power_action a = pc->a;
	int rc, abandoned;

	pthread_mutex_lock(&mu);
	spawn_cancel_on(cancel[0]);
	pthread_mutex_unlock(&mu);
	rc = power_do(&pc->c, a, msg, sizeof(msg));
	/* Not this thread's next spawn_run (the inline call is the HTTP
	 * thread's). */
	spawn_cancel_on(-1);
	pthread_mutex_lock(&mu);
	/* A call that failed once the stop began was (most likely) cut by
	 * it: its error says nothing of the BMC, so none is stored. */
	abandoned = stopping && rc < 0;
	pthread_mutex_unlock(&mu);
	if (rc < 0 && !abandoned)
		jobs_db_power_state(pc->c.mac, NULL, msg);
	else if (rc == 0)
		jobs_db_power_state(pc->c.mac, a == POWER_STATUS ? msg : a == POWER_OFF ? "off" : a == POWER_PXE ? NULL : "on",
				    NULL);
	pthread_mutex_lock(&mu);
	pc->rc = rc;
	pc->abandoned = abandoned;
	memcpy(pc->msg, msg, sizeof(msg));
	pc->done = 1;
	pthread_mutex_unlock(&mu);
}

/* The call's thread: the call, then the connection back to libmicrohttpd
 * (after which pc is the request's), then one call fewer running. */
static void *thread(void *arg)
{
	struct power_call *pc = arg;
	struct MHD_Connection *conn = pc->conn;

	call(pc);
	MHD_resume_connection(conn);
	/* After the resume: power_calls_drain's caller stops the daemon
	 * once running is 0, and no resume may come after that. */
	pthread_mutex_lock(&mu);
	running--;
	pthread_cond_broadcast(&idle);
	pthread_mutex_unlock(&mu);
	return NULL;
}

enum MHD_Result power_call_begin(struct req *rq, const struct power_cfg *c, enum power_action a)
{
	struct power_call *pc = calloc(1, sizeof(*pc));
	pthread_attr_t attr;
	pthread_t thr;
	int started = 0;

	if (!pc)
		return reply_error(rq, 503, "out of memory for the power call");
	pc->conn = rq->conn;
	pc->c = *c;
	pc->a = a;
	pthread_mutex_lock(&mu);
	if (stopping) {
		pthread_mutex_unlock(&mu);
		free(pc);
		return reply_error(rq, 503, "the daemon is stopping: power %s from the next one", c->mac);
	}
	if (cancel[0] < 0 && pipe2(cancel, O_CLOEXEC)) {
		pthread_mutex_unlock(&mu);
		free(pc);
		return reply_error(rq, 503, "no pipe for the power call: try again");
	}
	running++;
	unanswered++;
	pthread_mutex_unlock(&mu);
	rq->power = pc;
	/* Suspended before the thread exists: its resume may come at once,
	 * and resuming a connection not suspended is undefined. */
	MHD_suspend_connection(rq->conn);
	/* Detached: nobody joins it; power_calls_drain waits for running. */
	if (pthread_attr_init(&attr) == 0) {
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		started = pthread_create(&thr, &attr, thread, pc) == 0;
		pthread_attr_destroy(&attr);
	}
	if (!started) {
		/* No thread now: the call here, as before (this worker's other
		 * connections wait), rather than no answer. */
		fprintf(stderr, "xcbenchd: no thread for %s's power call: made on the HTTP thread\n", c->mac);
		thread(pc);
	}
	return MHD_YES;
}

enum MHD_Result power_call_answer(struct req *rq)
{
	struct power_call *pc = rq->power;
	int done, rc, abandoned;

	pthread_mutex_lock(&mu);
	done = pc->done;
	rc = pc->rc;
	abandoned = pc->abandoned;
	pthread_mutex_unlock(&mu);
	if (!done) /* not reached: the thread resumes after marking it done */
		return reply_error(rq, 500, "power call resumed unfinished");
	if (abandoned)
		/* 503: the daemon, not the BMC; whether the BMC acted is unknown. */
		return reply_error(rq, 503, "the daemon is stopping: power %s of %s was abandoned (its %s call "
				   "killed; the BMC may or may not have acted): ask again once the daemon is back",
				   power_action_name(pc->a), pc->c.mac, pc->c.driver);
	if (rc < 0)
		/* 502: the daemon is fine; the BMC (or the tool) said no. */
		return reply_error(rq, 502, "%s", pc->msg);
	return reply_json(rq, 200, json_pack("{s:s, s:s, s:s, s:s, s:b}", "mac", pc->c.mac, "driver",
					     pc->c.driver[0] ? pc->c.driver : "manual", "action",
					     power_action_name(pc->a), "result", pc->msg, "manual", rc == 1));
}

void power_call_free(struct power_call *pc)
{
	if (!pc)
		return;
	free(pc);
	/* Its answer is sent (or its client gone): the drain's grace waits
	 * for this. */
	pthread_mutex_lock(&mu);
	unanswered--;
	pthread_cond_broadcast(&idle);
	pthread_mutex_unlock(&mu);
}

void power_calls_drain(void)
{
	struct timespec until;

	pthread_mutex_lock(&mu);
	stopping = 1;
	/* Never read: stays readable, so every call's spawn_run sees it,
	 * those running and any begun before stopping was set. */
	if (cancel[1] >= 0 && write(cancel[1], "x", 1) != 1)
		fprintf(stderr, "xcbenchd: power calls not cancelled; waiting them out\n");
	while (running > 0)
		pthread_cond_wait(&idle, &mu);
	/* The resumed connections answered while libmicrohttpd still runs
	 * (MHD_stop_daemon closes them unanswered); a client that reads
	 * nothing does not hold the stop past the grace. */
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += ANSWER_GRACE_S;
	while (unanswered > 0 && pthread_cond_timedwait(&idle, &mu, &until) == 0)
		;
	pthread_mutex_unlock(&mu);
}
