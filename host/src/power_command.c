/*
 * power_command.c — the `command` power driver: an administrator's template
 * run through /bin/sh for each action, for whatever has no IPMI (a PDU,
 * `virsh`, Debian's `redfishtool` against a Redfish BMC). The template sees
 * the action as {action} and $1, the MAC as {mac} and $2, the settings as
 * {host} {port} {user}, and the password file's path (never the password)
 * as $XCB_POWER_PASSWORD_FILE. Exit 0 is success; for `status` the last
 * word "on" or "off" in its output is the state. A failure may say what
 * failed with sysexits.h's codes: 77 (EX_NOPERM) the credentials refused,
 * 68/69 (EX_NOHOST, EX_UNAVAILABLE) no answer, 78 (EX_CONFIG) the
 * settings wrong; any other is the device's "no".
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <sysexits.h>

#include "power.h"

int power_command_check(const struct power_cfg *c, char *why, size_t whylen)
{
	if (!c->command[0]) {
		snprintf(why, whylen, "command: the command driver needs a template (e.g. 'my-pdu {action} 3')");
		return -1;
	}
	for (const char *p = c->command; *p; p++)
		if ((unsigned char)*p < 0x20 && *p != '\t') {
			snprintf(why, whylen, "command: control characters are not allowed in the template");
			return -1;
		}
	/* {host} and {user} land inside a sh command: plain words only. */
	if ((c->host[0] && !power_word_ok(c->host, ".-:[]", 253)) || (c->user[0] && !power_word_ok(c->user, "._-@", 64))) {
		snprintf(why, whylen, "host, user: letters, digits and '.-:[]' / '._-@' only");
		return -1;
	}
	if (c->password_file[0])
		return power_password_file_ok(c->password_file, why, whylen);
	return 0;
}

/* The template with {action} {mac} {host} {port} {user} replaced; -1 if it
 * does not fit. The values are checked words (power_check), safe in sh. */
static int expand(const struct power_cfg *c, const char *action, char *dst, size_t dstlen)
{
	char port[16];
	const struct { const char *k, *v; } keys[] = {
		{ "{action}", action }, { "{mac}", c->mac }, { "{host}", c->host },
		{ "{port}", port }, { "{user}", c->user },
	};
	size_t n = 0;

	snprintf(port, sizeof(port), "%d", c->port);
	for (const char *p = c->command; *p;) {
		const char *v = NULL;
		size_t klen = 0;

		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (strncmp(p, keys[i].k, strlen(keys[i].k)) == 0) {
				v = keys[i].v;
				klen = strlen(keys[i].k);
			}
		if (!v) {
			if (n + 1 >= dstlen)
				return -1;
			dst[n++] = *p++;
			continue;
		}
		if (n + strlen(v) >= dstlen)
			return -1;
		memcpy(dst + n, v, strlen(v));
		n += strlen(v);
		p += klen;
	}
	dst[n] = 0;
	return 0;
}

/* The last word of out that is "on" or "off" (any case), or NULL. */
static const char *state_word(const char *out)
{
	const char *state = NULL;

	for (const char *p = out; *p;) {
		size_t n = 0;

		while (p[n] && isalnum((unsigned char)p[n]))
			n++;
		if (n == 2 && strncasecmp(p, "on", 2) == 0)
			state = "on";
		else if (n == 3 && strncasecmp(p, "off", 3) == 0)
			state = "off";
		p += n ? n : 1;
	}
	return state;
}

int power_command(const struct power_cfg *c, enum power_action a, char *msg, size_t msglen)
{
	char cmd[2048], why[300];
	char env_file[600], env_action[64], env_mac[48];
	char *env[] = { env_file, env_action, env_mac, NULL };
	const char *act = power_action_name(a), *st;
	char *argv[] = { "/bin/sh", "-c", cmd, "xcb-power", (char *)act, (char *)c->mac, NULL };
	struct power_run r = { .kind = "command", .what = act, .hint = "" };
	const char *line = r.line;

	if (power_command_check(c, why, sizeof(why))) {
		snprintf(msg, msglen, "command: %s", why);
		return -1;
	}
	if (expand(c, act, cmd, sizeof(cmd))) {
		snprintf(msg, msglen, "command: the expanded template is over %zu characters", sizeof(cmd) - 1);
		return -1;
	}
	snprintf(env_file, sizeof(env_file), "XCB_POWER_PASSWORD_FILE=%s", c->password_file);
	snprintf(env_action, sizeof(env_action), "XCB_POWER_ACTION=%s", act);
	snprintf(env_mac, sizeof(env_mac), "XCB_MAC=%s", c->mac);
	if (power_spawn(argv, env, NULL, &r, msg, msglen))
		return -1;
	/* sh's 127 and 126: the template's program is missing or cannot
	 * run, the template's fault ("command: ...", misconfigured). */
	if (r.rc == 127 || r.rc == 126) {
		snprintf(msg, msglen, "command: the template's program %s (exit %d): %s",
			 r.rc == 127 ? "was not found" : "cannot be run", r.rc, line[0] ? line : "no message");
		return -1;
	}
	/* sysexits.h's words, which a template may use to say what failed
	 * (README's Redfish script does): the lab then shows the fault to
	 * fix, auth_refused, unreachable or misconfigured, where any other
	 * exit is power_failed (power_fault_of reads these phrases back). */
	if (r.rc == EX_NOPERM) {
		snprintf(msg, msglen, "command %s: exit %d (%s): %s", act, r.rc, POWER_SAYS_CREDENTIALS,
			 line[0] ? line : "no message");
		return -1;
	}
	if (r.rc == EX_NOHOST || r.rc == EX_UNAVAILABLE) {
		snprintf(msg, msglen, "command %s: exit %d (%s from the device): %s", act, r.rc, POWER_SAYS_NO_ANSWER,
			 line[0] ? line : "no message");
		return -1;
	}
	if (r.rc == EX_CONFIG) {
		snprintf(msg, msglen, "command: the template says its settings are wrong (%s, exit %d): %s", act, r.rc,
			 line[0] ? line : "no message");
		return -1;
	}
	if (r.rc) {
		snprintf(msg, msglen, "command %s: exit %d: %s", act, r.rc, line[0] ? line : "no message");
		return -1;
	}
	if (a == POWER_STATUS) {
		st = state_word(r.out);
		if (!st) {
			snprintf(msg, msglen, "command status: no 'on' or 'off' in '%s'", line);
			return -1;
		}
		snprintf(msg, msglen, "%s", st);
		return 0;
	}
	snprintf(msg, msglen, "command %s: %s", act, line[0] ? line : "done");
	return 0;
}
