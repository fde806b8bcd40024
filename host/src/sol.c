/*
 * sol.c — serial-over-LAN capture (sol.h): one thread per captured job runs
 * `ipmitool sol activate` (the password by file, as power_ipmi.c does),
 * cuts what it prints into lines and stores them as the console of the
 * job's run (console.h) through the writer. The run exists from the
 * machine's /boot.ipxe on; lines from before it (firmware, the NIC ROM) are
 * kept in memory and stored as its first lines when it appears. A session
 * that drops (the BMC restarted, the machine was power-cycled) is opened
 * again after a second; `sol deactivate` first clears a stale one.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "console.h"
#include "db.h"
#include "jobs_db.h"
#include "sol.h"
#include "runproc.h"
#include "writer.h"

#define LINE_MAX_BYTES 2048
#define PENDING_MAX (256 * 1024) /* console kept while no run exists yet */
#define NOTE_LINES 30             /* of it, what a job without a run keeps */

struct sol {
	int64_t job;
	struct power_cfg cfg;
	pthread_t thr;
	atomic_int stop;          /* set by sol_stop, read by the thread */
	atomic_int active;        /* set by the thread once ipmitool says the session is up */
	struct sol *next;
	/* The thread's own: */
	char *pending;            /* complete lines not yet stored */
	size_t plen, pcap;
	char line[LINE_MAX_BYTES];
	size_t llen;
	int esc;                  /* inside an ANSI escape sequence: 1 after ESC, 2 in CSI */
	int64_t run, next_line;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER; /* guards list */
static struct sol *list;

struct store_task {
	int64_t run, first;
	const char *text;
	size_t len;
	int64_t stored;
};

static void store_fn(struct dbi *db, void *arg)
{
	struct store_task *t = arg;

	t->stored = console_store(db, t->run, t->first, t->text, t->len, NULL);
}

/* The job's run (the latest one its boots created), or 0. */
static int64_t job_run(int64_t job)
{
	struct dbi *db = db_ro();

	return db ? dbi_i64(db, "SELECT max(id) FROM runs WHERE job_id = ?", 0, DBI_I(job)) : 0;
}

/* Stores the pending lines once the run is known. A new run (the next
 * attempt's boot) starts its console at line 0. */
static void flush(struct sol *s)
{
	int64_t run = job_run(s->job);
	struct store_task t;

	if (!run)
		return;
	if (run != s->run) {
		s->run = run;
		s->next_line = 0;
	}
	if (!s->plen)
		return;
	t = (struct store_task){ .run = run, .first = s->next_line, .text = s->pending, .len = s->plen };
	if (writer_call(store_fn, &t))
		return;
	for (size_t i = 0; i < s->plen; i++)
		s->next_line += s->pending[i] == '\n';
	s->plen = 0;
}

/* What ipmitool itself says about the session, not what the machine
 * printed. */
static int client_noise(const char *l, size_t n)
{
	static const char *const noise[] = { "[SOL Session operational", "tcgetattr:", "[SOL session closed",
					     "Unable to Get Channel Cipher Suites", NULL };

	for (int i = 0; noise[i]; i++)
		if (n >= strlen(noise[i]) && memcmp(l, noise[i], strlen(noise[i])) == 0)
			return 1;
	return 0;
}

static void add_line(struct sol *s)
{
	static const char up[] = "[SOL Session operational";

	if (s->llen >= sizeof(up) - 1 && memcmp(s->line, up, sizeof(up) - 1) == 0)
		atomic_store(&s->active, 1);
	if (client_noise(s->line, s->llen)) {
		s->llen = 0;
		return;
	}
	if (s->plen + s->llen + 1 > PENDING_MAX) {
		s->llen = 0; /* no run for a long time: keep the first lines */
		return;
	}
	if (s->plen + s->llen + 1 > s->pcap) {
		size_t cap = s->pcap ? s->pcap * 2 : 8192;
		char *p;

		while (cap < s->plen + s->llen + 1)
			cap *= 2;
		p = realloc(s->pending, cap);
		if (!p) {
			s->llen = 0;
			return;
		}
		s->pending = p;
		s->pcap = cap;
	}
	memcpy(s->pending + s->plen, s->line, s->llen);
	s->plen += s->llen;
	s->pending[s->plen++] = '\n';
	s->llen = 0;
}

static void feed(struct sol *s, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		/* Terminal control (SeaBIOS and iPXE clear the screen, set
		 * colours) is dropped: ESC [ params final-byte, or ESC x. */
		if (s->esc == 1) {
			s->esc = p[i] == '[' ? 2 : 0;
			continue;
		}
		if (s->esc == 2) {
			if (p[i] >= 0x40 && p[i] <= 0x7e)
				s->esc = 0;
			continue;
		}
		if (p[i] == 0x1b) {
			s->esc = 1;
			continue;
		}
		if (p[i] == '\n') {
			add_line(s);
			continue;
		}
		if (p[i] == '\r')
			continue;
		s->line[s->llen++] = p[i];
		if (s->llen == sizeof(s->line))
			add_line(s);
	}
}

/* A machine that never asked for its boot script has no run to hold its
 * console: the last lines it printed become an event of the job, so the
 * job still shows where it stopped (a firmware without a NIC ROM, a hang
 * before iPXE). */
static void note_unbooted(struct sol *s)
{
	const char *p = s->pending + s->plen;
	char *text;
	int lines = 0;

	/* The last NOTE_LINES lines (pending ends with a newline). */
	while (p > s->pending && lines <= NOTE_LINES)
		if (*--p == '\n')
			lines++;
	if (p > s->pending)
		p++;
	if (asprintf(&text, "console over serial-over-LAN, no run (the machine has not asked for /boot.ipxe):\n%.*s",
		     (int)(s->pending + s->plen - p), p) < 0)
		return;
	jobs_db_note(s->job, text);
	free(text);
}

/* One session: until it ends or the capture is stopped. */
static void session(struct sol *s)
{
	char out[512];
	int fd, in;
	pid_t pid;

	spawn_run(power_ipmi_sol_argv(&s->cfg, 1), NULL, 10, out, sizeof(out));
	pid = spawn_pipe(power_ipmi_sol_argv(&s->cfg, 0), &fd, &in);
	if (pid < 0)
		return;
	while (!atomic_load(&s->stop)) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		char buf[4096];
		ssize_t n;

		if (poll(&pf, 1, 500) > 0) {
			n = read(fd, buf, sizeof(buf));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			feed(s, buf, (size_t)n);
		}
		flush(s);
	}
	close(in); /* ipmitool's EOF on stdin: it closes the session */
	close(fd);
	spawn_end(pid);
}

static void *sol_thread(void *arg)
{
	struct sol *s = arg;

	while (!atomic_load(&s->stop)) {
		session(s);
		for (int i = 0; i < 10 && !atomic_load(&s->stop); i++)
			usleep(100000);
	}
	if (s->llen)
		add_line(s);
	flush(s);
	if (!s->run && s->plen)
		note_unbooted(s);
	db_ro_close();
	return NULL;
}

void sol_ensure(int64_t job, const struct power_cfg *c)
{
	struct sol *s;

	if (!c->sol || strcmp(c->driver, "ipmi"))
		return;
	pthread_mutex_lock(&mu);
	for (s = list; s; s = s->next)
		if (s->job == job)
			break;
	if (!s && (s = calloc(1, sizeof(*s)))) {
		s->job = job;
		s->cfg = *c;
		if (pthread_create(&s->thr, NULL, sol_thread, s)) {
			free(s);
		} else {
			s->next = list;
			list = s;
		}
	}
	pthread_mutex_unlock(&mu);
}

int sol_active(int64_t job)
{
	int up = -1;

	pthread_mutex_lock(&mu);
	for (struct sol *s = list; s; s = s->next)
		if (s->job == job)
			up = atomic_load(&s->active);
	pthread_mutex_unlock(&mu);
	return up;
}

static void finish(struct sol *s)
{
	atomic_store(&s->stop, 1);
	pthread_join(s->thr, NULL);
	free(s->pending);
	free(s);
}

void sol_stop(int64_t job)
{
	struct sol **pp, *s = NULL;

	pthread_mutex_lock(&mu);
	for (pp = &list; *pp; pp = &(*pp)->next)
		if ((*pp)->job == job) {
			s = *pp;
			*pp = s->next;
			break;
		}
	pthread_mutex_unlock(&mu);
	if (s)
		finish(s);
}

void sol_stop_all(void)
{
	struct sol *s;

	pthread_mutex_lock(&mu);
	s = list;
	list = NULL;
	pthread_mutex_unlock(&mu);
	while (s) {
		struct sol *next = s->next;

		finish(s);
		s = next;
	}
}
