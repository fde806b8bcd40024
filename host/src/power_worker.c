/*
 * power_worker.c — one thread per machine whose power is being switched
 * (power_worker.h). Each driver call may take seconds (ipmitool against a
 * dead BMC: two calls of two 2-s tries before its job fails) or up to
 * POWER_TIMEOUT_S; the job runner's pass serves every machine's job, so a
 * call made inside it held every other machine's job as long. A worker
 * holds its own machine only: the runner skips that machine's jobs while
 * it runs.
 *
 * The runner holds no state between passes: it reads the jobs table each
 * pass. A worker's changes go through the writer (jobs_db_change, which
 * returns after their COMMIT), so a pass that read the table after a
 * worker ended sees them; one that read it before may not, and must not
 * act on that machine again (a second power-on for one attempt). Hence a
 * worker that ended stays listed, holding its machine, until the next
 * pass begins (power_workers_pass), which reads the table after.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "power_worker.h"

struct power_worker {
	struct job_row j;
	struct power_cfg c;
	power_work_fn fn;
	int ended;                 /* mu */
	struct power_worker *next; /* mu */
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER; /* guards list, running and each ended */
static pthread_cond_t idle = PTHREAD_COND_INITIALIZER; /* running fell (under mu): drain waits on it */
static struct power_worker *list;
static int running;

void power_workers_pass(void)
{
	struct power_worker **pp, *w;

	pthread_mutex_lock(&mu);
	for (pp = &list; (w = *pp);) {
		if (w->ended) {
			*pp = w->next;
			free(w);
		} else {
			pp = &w->next;
		}
	}
	pthread_mutex_unlock(&mu);
}

/* The entry for mac, or NULL; under mu. */
static struct power_worker *find(const char *mac)
{
	for (struct power_worker *w = list; w; w = w->next)
		if (strcmp(w->c.mac, mac) == 0)
			return w;
	return NULL;
}

int power_worker_held(const char *mac)
{
	int held;

	pthread_mutex_lock(&mu);
	held = find(mac) != NULL;
	pthread_mutex_unlock(&mu);
	return held;
}

static void *worker(void *arg)
{
	struct power_worker *w = arg;

	w->fn(&w->j, &w->c);
	/* Its changes are committed (jobs_db_change waited for the writer):
	 * marked ended after them, so the pass that forgets it reads them. */
	pthread_mutex_lock(&mu);
	w->ended = 1;
	running--;
	pthread_cond_broadcast(&idle);
	pthread_mutex_unlock(&mu);
	return NULL;
}

int power_worker_start(power_work_fn fn, const struct job_row *j, const struct power_cfg *c)
{
	struct power_worker *w;
	pthread_attr_t attr;
	pthread_t thr;
	int rc = -1;

	pthread_mutex_lock(&mu);
	if (find(c->mac) || running >= POWER_WORKERS_MAX)
		goto out;
	w = calloc(1, sizeof(*w));
	if (!w)
		goto out;
	w->j = *j;
	w->c = *c;
	w->fn = fn;
	/* Detached: nobody joins a worker; drain waits for running to fall. */
	if (pthread_attr_init(&attr)) {
		free(w);
		goto out;
	}
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&thr, &attr, worker, w)) {
		fprintf(stderr, "xcbenchd: no thread for %s's power action; tried again next pass\n", c->mac);
		free(w);
	} else {
		/* Listed under mu before the worker can take it to mark it ended. */
		w->next = list;
		list = w;
		running++;
		rc = 0;
	}
	pthread_attr_destroy(&attr);
out:
	pthread_mutex_unlock(&mu);
	return rc;
}

void power_workers_drain(void)
{
	char macs[256] = "";
	size_t n = 0;
	int more = 0;

	pthread_mutex_lock(&mu);
	for (struct power_worker *w = list; w; w = w->next) {
		if (w->ended)
			continue;
		if (n + strlen(w->c.mac) + 3 < sizeof(macs))
			n += (size_t)snprintf(macs + n, sizeof(macs) - n, "%s%s", n ? ", " : "", w->c.mac);
		else
			more = 1;
	}
	/* A job's power action is waited out, not cut (job_runner.c): its
	 * event and stamp keep a restarted daemon from a second power-on. */
	if (running > 0)
		fprintf(stderr, "xcbenchd: waiting for %d power action%s under way to end (%s%s; up to %d s each: "
			"a job's power-on is finished so a restart does not power the machine on twice)\n", running,
			running == 1 ? "" : "s", macs, more ? ", ..." : "", POWER_TIMEOUT_S);
	while (running > 0)
		pthread_cond_wait(&idle, &mu);
	pthread_mutex_unlock(&mu);
	power_workers_pass();
}
