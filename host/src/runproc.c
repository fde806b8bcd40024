/*
 * runproc.c — helper programs for the power drivers and the console capture
 * (runproc.h). posix_spawn rather than fork: the daemon is multi-threaded, and
 * a child must not inherit its sockets or database files, so every
 * descriptor above 2 is closed in the child (closefrom).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runproc.h"

extern char **environ;

/* spawn_cancel_on's descriptor, per thread: only the calls of a thread
 * that asked for it are abandoned (a job's power-on is drained, not cut:
 * job_runner.c). */
static __thread int cancel_fd = -1;

void spawn_cancel_on(int fd)
{
	cancel_fd = fd;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* environ followed by add (both NULL-terminated), in a fresh array. */
static char **env_with(char *const add[])
{
	size_t n = 0, k = 0;
	char **e;

	while (environ[n])
		n++;
	while (add && add[k])
		k++;
	e = calloc(n + k + 1, sizeof(*e));
	if (!e)
		return NULL;
	memcpy(e, environ, n * sizeof(*e));
	if (k)
		memcpy(e + n, add, k * sizeof(*e));
	return e;
}

/* Spawns argv with stdout/stderr on a new pipe (*fd its read end). */
static pid_t start(char *const argv[], char *const env[], int *fd, int *in)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	int p[2], q[2] = { -1, -1 }, rc;
	char **e;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	if (in && pipe2(q, O_CLOEXEC)) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	e = env_with(env);
	if (!e) {
		close(p[0]);
		close(p[1]);
		if (in) {
			close(q[0]);
			close(q[1]);
		}
		errno = ENOMEM;
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	if (in)
		posix_spawn_file_actions_adddup2(&fa, q[0], 0);
	else
		posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_adddup2(&fa, p[1], 2);
	posix_spawn_file_actions_addclosefrom_np(&fa, 3);
	posix_spawnattr_init(&at);
	/* Its own group, so a timeout ends a shell's children too; default
	 * signal dispositions and mask (the daemon blocks SIGTERM in every
	 * thread and ignores SIGPIPE: a child must not inherit either). */
	{
		sigset_t none, dflt;

		sigemptyset(&none);
		sigemptyset(&dflt);
		sigaddset(&dflt, SIGPIPE);
		sigaddset(&dflt, SIGTERM);
		sigaddset(&dflt, SIGINT);
		posix_spawnattr_setsigmask(&at, &none);
		posix_spawnattr_setsigdefault(&at, &dflt);
	}
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	rc = posix_spawnp(&pid, argv[0], &fa, &at, argv, e);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	free(e);
	close(p[1]);
	if (in)
		close(q[0]);
	if (rc) {
		close(p[0]);
		if (in)
			close(q[1]);
		errno = rc;
		return -1;
	}
	*fd = p[0];
	if (in)
		*in = q[1];
	return pid;
}

int spawn_run(char *const argv[], char *const env[], int timeout_s, char *out, size_t outlen)
{
	long long deadline = now_ms() + (long long)timeout_s * 1000;
	size_t len = 0;
	int fd, status, timed_out = 0, cancelled = 0;
	pid_t pid = start(argv, env, &fd, NULL);

	if (pid < 0) {
		snprintf(out, outlen, "cannot run %s: %s", argv[0], strerror(errno));
		return -1;
	}
	for (;;) {
		/* pf[1]: the cancel descriptor (fd -1: poll skips it). */
		struct pollfd pf[2] = { { .fd = fd, .events = POLLIN }, { .fd = cancel_fd, .events = POLLIN } };
		long long left = deadline - now_ms();
		char tmp[512];
		ssize_t n;

		if (left <= 0) {
			timed_out = 1;
			break;
		}
		if (poll(pf, 2, (int)(left > 1000 ? 1000 : left)) <= 0)
			continue;
		if (pf[1].revents) {
			cancelled = 1;
			break;
		}
		n = read(fd, tmp, sizeof(tmp));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (len + 1 < outlen) {
			size_t k = (size_t)n < outlen - 1 - len ? (size_t)n : outlen - 1 - len;

			memcpy(out + len, tmp, k);
			len += k;
		}
	}
	close(fd);
	if (outlen)
		out[len] = 0;
	if (timed_out || cancelled)
		kill(-pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (cancelled)
		return -3;
	if (timed_out)
		return -2;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

pid_t spawn_pipe(char *const argv[], int *fd, int *in)
{
	return start(argv, NULL, fd, in);
}

void spawn_end(pid_t pid)
{
	int status;

	if (pid <= 0)
		return;
	kill(-pid, SIGTERM);
	for (int i = 0; i < 20; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return;
		usleep(50000);
	}
	kill(-pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
}
