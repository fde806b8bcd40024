/*
 * slow_note.c — a progress line for a slow call, on a terminal only
 * (slow_note.h). A thread that waits on a condition variable with a
 * deadline: no signal (SIGALRM) interrupts the HTTP client's blocking
 * socket calls.
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "slow_note.h"

/* The note's thread: waits SLOW_NOTE_AFTER_S (on CLOCK_MONOTONIC: a clock
 * step neither hastens nor holds it) for slow_note_end, else says the line. */
static void *note_thread(void *arg)
{
	struct slow_note *n = arg;
	struct timespec until;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += SLOW_NOTE_AFTER_S;
	pthread_mutex_lock(&n->mu);
	while (!n->done && pthread_cond_timedwait(&n->cv, &n->mu, &until) == 0)
		;
	/* under mu: slow_note_end sets done under it, so once it has the
	 * lock after us, the line is out whole, never after its return */
	if (!n->done) {
		fprintf(stderr, "%s\n", n->line);
		fflush(stderr);
	}
	pthread_mutex_unlock(&n->mu);
	return NULL;
}

void slow_note_start(struct slow_note *n, const char *line)
{
	pthread_condattr_t ca;

	n->started = n->done = 0;
	if (!isatty(STDERR_FILENO))
		return;
	snprintf(n->line, sizeof(n->line), "%s", line);
	pthread_mutex_init(&n->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&n->cv, &ca);
	pthread_condattr_destroy(&ca);
	if (pthread_create(&n->thread, NULL, note_thread, n) == 0)
		n->started = 1;
	else
		pthread_cond_destroy(&n->cv), pthread_mutex_destroy(&n->mu);
}

void slow_note_end(struct slow_note *n)
{
	if (!n->started)
		return;
	/* pairs with note_thread's wait and its test of done under mu */
	pthread_mutex_lock(&n->mu);
	n->done = 1;
	pthread_cond_signal(&n->cv);
	pthread_mutex_unlock(&n->mu);
	pthread_join(n->thread, NULL);
	pthread_cond_destroy(&n->cv);
	pthread_mutex_destroy(&n->mu);
	n->started = 0;
}
