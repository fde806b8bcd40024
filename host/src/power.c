/*
 * power.c — the power driver dispatch (power.h), the `manual` driver, and
 * what every driver shares: the password file check and picking the line of
 * a tool's output worth showing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "power.h"
#include "runproc.h"
#include "util.h"
#include "xcb_schema.h"

static const char *const action_names[POWER_NACTIONS] = { "on", "off", "cycle", "status", "pxe" };

/* Name and parse: proto's one pair over any name table. */
const char *power_action_name(enum power_action a)
{
	return xcb_vocab_name(action_names, POWER_NACTIONS, (unsigned)a);
}

int power_action_parse(const char *s)
{
	return s ? xcb_vocab_index(action_names, POWER_NACTIONS, s) : -1;
}

static const char *const fault_names[POWER_NFAULTS] = { "unreachable", "auth_refused", "misconfigured",
							"power_failed" };

const char *power_fault_name(enum power_fault f)
{
	return xcb_vocab_name(fault_names, POWER_NFAULTS, (unsigned)f);
}

enum power_fault power_fault_of(const char *msg)
{
	static const char *const kinds[] = { "ipmi: ", "command: " };
	static const char *const auth[] = { POWER_SAYS_REFUSED, POWER_SAYS_NO_USER, POWER_SAYS_NO_SESSION,
					    POWER_SAYS_CREDENTIALS };

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strncmp(msg, kinds[i], strlen(kinds[i])) == 0)
			return POWER_FAULT_CONFIG;
	for (size_t i = 0; i < sizeof(auth) / sizeof(auth[0]); i++)
		if (strstr(msg, auth[i]))
			return POWER_FAULT_AUTH;
	if (strstr(msg, POWER_SAYS_NO_ANSWER))
		return POWER_FAULT_UNREACHABLE;
	return POWER_FAULT_FAILED;
}

int power_word_ok(const char *s, const char *extra, size_t max)
{
	/* never an option to the tool it is passed to */
	return s[0] != '-' && text_is_word(s, extra, max);
}

int power_password_file_ok(const char *path, char *why, size_t whylen)
{
	struct stat st;
	int fd;

	/* Not echoed: a relative "path" is most often the password itself,
	 * typed where the file's name belongs, and this answer is printed. */
	if (path[0] != '/') {
		snprintf(why, whylen, "password_file: not an absolute path (the value is not shown: it may be the "
			 "password itself); give the full path of a mode-600 file on the daemon's machine");
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, whylen, "password_file: cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(why, whylen, "password_file: '%s' is not a regular file", path);
		return -1;
	}
	close(fd);
	/* A password others can read is a password others know. */
	if (st.st_mode & 077) {
		snprintf(why, whylen, "password_file: '%s' is readable by others (mode %03o): chmod 600 it",
			 path, (unsigned)(st.st_mode & 0777));
		return -1;
	}
	return 0;
}

void power_last_line(const char *out, const char *const skip[], char *dst, size_t dstlen)
{
	const char *p = out, *best = NULL;
	size_t bestlen = 0;

	while (*p) {
		size_t n = strcspn(p, "\r\n");
		const char *s = p;
		size_t k = n;
		int skipped = 0;

		while (k && (*s == ' ' || *s == '\t'))
			s++, k--;
		while (k && (s[k - 1] == ' ' || s[k - 1] == '\t'))
			k--;
		for (int i = 0; skip && skip[i]; i++)
			if (k && memmem(s, k, skip[i], strlen(skip[i])))
				skipped = 1;
		if (k && !skipped) {
			best = s;
			bestlen = k;
		}
		p += n;
		while (*p == '\r' || *p == '\n')
			p++;
	}
	if (!dstlen)
		return;
	if (bestlen >= dstlen)
		bestlen = dstlen - 1;
	for (size_t i = 0; i < bestlen; i++)
		dst[i] = (unsigned char)best[i] < 0x20 || best[i] == 0x7f ? '?' : best[i];
	dst[bestlen] = 0;
}

/* manual: a person powers the machine, so none of the settings a driver
 * runs with is used. One given anyway was stored and shown ("manual -@x")
 * as if it did something: refused, named, as the other drivers refuse
 * what they cannot use. */
static int manual_check(const struct power_cfg *c, char *why, size_t whylen)
{
	const char *given = c->host[0] ? "host" : c->port ? "port" : c->user[0] ? "user"
			  : c->password_file[0] ? "password_file" : c->command[0] ? "command" : NULL;

	if (!given)
		return 0;
	snprintf(why, whylen, "%s: the manual driver uses no host, port, user, password_file or command "
		 "(a person powers the machine)", given);
	return -1;
}

int power_check(const struct power_cfg *c, char *why, size_t whylen)
{
	if (!c->driver[0] || strcmp(c->driver, "manual") == 0)
		return manual_check(c, why, whylen);
	if (strcmp(c->driver, "ipmi") == 0)
		return power_ipmi_check(c, why, whylen);
	if (strcmp(c->driver, "command") == 0)
		return power_command_check(c, why, whylen);
	snprintf(why, whylen, "driver: '%s' is not ipmi, command or manual", c->driver);
	return -1;
}

int power_do(const struct power_cfg *c, enum power_action a, char *msg, size_t msglen)
{
	if (strcmp(c->driver, "ipmi") == 0)
		return power_ipmi(c, a, msg, msglen);
	if (strcmp(c->driver, "command") == 0)
		return power_command(c, a, msg, msglen);
	/* manual: nothing to run; say what a person has to do. */
	if (a == POWER_STATUS)
		snprintf(msg, msglen, "unknown");
	else if (a == POWER_PXE)
		snprintf(msg, msglen, "manual: set the next boot of %s to the network", c->mac);
	else
		snprintf(msg, msglen, "manual: someone must power %s %s", c->mac,
			 a == POWER_CYCLE ? "off and on" : power_action_name(a));
	return 1;
}

int power_spawn(char *const argv[], char *const env[], const char *const noise[], struct power_run *r,
		char *msg, size_t msglen)
{
	r->rc = spawn_run(argv, env, POWER_TIMEOUT_S, r->out, sizeof(r->out));
	power_last_line(r->out, noise, r->line, sizeof(r->line));
	if (r->rc == -1) {
		snprintf(msg, msglen, "%s: %s%s", r->kind, r->out, r->hint);
		return -1;
	}
	if (r->rc == -3) {
		snprintf(msg, msglen, "%s %s: abandoned: the daemon is stopping", r->kind, r->what);
		return -1;
	}
	if (r->rc == -2) {
		snprintf(msg, msglen, "%s %s: " POWER_SAYS_NO_ANSWER " in %d s", r->kind, r->what, POWER_TIMEOUT_S);
		return -1;
	}
	return 0;
}
