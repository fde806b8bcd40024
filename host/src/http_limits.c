/*
 * http_limits.c — a deadline for each whole request. libmicrohttpd's own
 * timeout is an idle timeout: one byte every few seconds resets it, so 520
 * trickling requests held every connection slot for minutes. Here every
 * connection gets a deadline when it opens and again when a request on it
 * completes (keep-alive); the deadline ends when a response is queued.
 * A sweeper thread shuts down (shutdown(2), which libmicrohttpd then sees
 * as a closed peer) every connection past its deadline. Responses already
 * streaming (a slow CSV reader) are not cut: that is csvstream.c's concern.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

#include "http_limits.h"
#include "util.h"
#include "xcbd.h"

struct slot {
	struct slot *prev, *next;
	int fd;
	int armed;          /* waiting for a request to be complete */
	double deadline;    /* now_mono() seconds */
};

static pthread_mutex_t lim_lock = PTHREAD_MUTEX_INITIALIZER; /* pairs: the slot list, every slot's fields */
static struct slot *slots;
static pthread_t sweeper;
static atomic_int stopping;
static int running;
static atomic_ullong cut;

static void arm(struct slot *s)
{
	s->armed = 1;
	s->deadline = now_mono() + cfg.request_timeout;
}

void http_limits_notify(void *cls, struct MHD_Connection *c, void **ctx,
			enum MHD_ConnectionNotificationCode code)
{
	const union MHD_ConnectionInfo *ci;
	struct slot *s = *ctx;

	(void)cls;
	pthread_mutex_lock(&lim_lock);
	if (code == MHD_CONNECTION_NOTIFY_STARTED && !s) {
		ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		s = ci ? calloc(1, sizeof(*s)) : NULL;
		if (s) {
			s->fd = ci->connect_fd;
			/* A closed connection's number may come back at once:
			 * no stale slot may cut the new one. */
			for (struct slot *o = slots; o; o = o->next)
				if (o->fd == s->fd)
					o->armed = 0;
			arm(s);
			s->next = slots;
			if (slots)
				slots->prev = s;
			slots = s;
			*ctx = s;
		}
	} else if (code == MHD_CONNECTION_NOTIFY_CLOSED && s) {
		if (s->prev)
			s->prev->next = s->next;
		else
			slots = s->next;
		if (s->next)
			s->next->prev = s->prev;
		free(s);
		*ctx = NULL;
	}
	pthread_mutex_unlock(&lim_lock);
}

static struct slot *slot_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci ? ci->socket_context : NULL;
}

void http_limits_answered(struct MHD_Connection *c)
{
	struct slot *s;

	pthread_mutex_lock(&lim_lock);
	if ((s = slot_of(c)))
		s->armed = 0;
	pthread_mutex_unlock(&lim_lock);
}

void http_limits_request_done(struct MHD_Connection *c)
{
	struct slot *s;

	pthread_mutex_lock(&lim_lock);
	if ((s = slot_of(c)))
		arm(s); /* keep-alive: the next request has its own deadline */
	pthread_mutex_unlock(&lim_lock);
}

void http_limits_extend(struct MHD_Connection *c, double seconds)
{
	struct slot *s;

	pthread_mutex_lock(&lim_lock);
	if ((s = slot_of(c)) && s->armed && s->deadline < now_mono() + seconds)
		s->deadline = now_mono() + seconds;
	pthread_mutex_unlock(&lim_lock);
}

static void *sweep(void *unused)
{
	struct timespec ts = { 0, 200 * 1000 * 1000 };

	(void)unused;
	while (!atomic_load(&stopping)) {
		double now = now_mono();

		pthread_mutex_lock(&lim_lock);
		for (struct slot *s = slots; s; s = s->next) {
			if (s->armed && now > s->deadline) {
				s->armed = 0;
				shutdown(s->fd, SHUT_RDWR);
				atomic_fetch_add(&cut, 1);
			}
		}
		pthread_mutex_unlock(&lim_lock);
		nanosleep(&ts, NULL);
	}
	return NULL;
}

int http_limits_start(void)
{
	running = pthread_create(&sweeper, NULL, sweep, NULL) == 0;
	return running ? 0 : -1;
}

void http_limits_stop(void)
{
	atomic_store(&stopping, 1);
	if (running)
		pthread_join(sweeper, NULL);
	running = 0;
}
