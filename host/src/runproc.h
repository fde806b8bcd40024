/*
 * runproc.h — running a helper program (ipmitool, a power command template,
 * a serial-over-LAN client) from the daemon: its output captured, a time
 * bound, no daemon file descriptor inherited, nothing through a shell
 * unless the caller asks for one.
 */
#ifndef XCB_RUNPROC_H
#define XCB_RUNPROC_H

#include <stddef.h>
#include <sys/types.h>

/* Runs argv[0] (searched in PATH) with argv, stdin /dev/null, stdout and
 * stderr into out (at most outlen-1 bytes kept, NUL-terminated), env added
 * to the daemon's environment ("NAME=value" strings, NULL-terminated, may be
 * NULL). Kills its process group after timeout_s. The exit status (0..255),
 * 128+signal, -1 if it could not start (out says why), -2 on timeout, -3
 * when this thread's cancel descriptor (spawn_cancel_on) became readable:
 * its group killed at once, reaped, nothing left behind. */
int spawn_run(char *const argv[], char *const env[], int timeout_s, char *out, size_t outlen);

/* This thread's spawn_run calls end early (-3) once fd is readable; -1:
 * none (the default). The daemon's stop abandons an HTTP power call's
 * ipmitool this way (api_power_call.c) rather than wait out its bound. */
void spawn_cancel_on(int fd);

/* Starts argv with stdout and stderr on a pipe whose read end is *fd and
 * stdin on one whose write end is *in (both close-on-exec: an interactive
 * client such as `ipmitool sol activate` ends at EOF on stdin, so the
 * caller keeps *in open for as long as the child should run); its own
 * process group. The pid, or -1 (errno set). */
pid_t spawn_pipe(char *const argv[], int *fd, int *in);

/* Ends a spawn_pipe child: SIGTERM to its group, SIGKILL after a second,
 * then reaps it. */
void spawn_end(pid_t pid);

#endif
