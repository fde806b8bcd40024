/*
 * power_ipmi.c — the `ipmi` power driver: IPMI v2 (RMCP+, "lanplus")
 * through ipmitool, a maintained client, rather than RMCP+ of our own. The
 * password reaches ipmitool by file name (-f), so it is on no command line
 * that `ps` shows; ipmitool's own messages are reduced to one line that
 * names the BMC.
 */
#include <stdio.h>
#include <string.h>

#include "power.h"

/* Lines ipmitool prints that say nothing about the outcome (a BMC without
 * the optional Get Channel Cipher Suites command still works). */
static const char *const noise[] = { "Unable to Get Channel Cipher Suites", NULL };

int power_ipmi_check(const struct power_cfg *c, char *why, size_t whylen)
{
	if (!power_word_ok(c->host, ".-:[]", 253)) {
		snprintf(why, whylen, "host: expected the BMC's address (a name or IP address)");
		return -1;
	}
	if (c->port < 0 || c->port > 65535) {
		snprintf(why, whylen, "port: %d is not a UDP port", c->port);
		return -1;
	}
	if (!power_word_ok(c->user, "._-@", 16)) {
		snprintf(why, whylen, "user: expected an IPMI user name (at most 16 letters, digits, '._-@')");
		return -1;
	}
	/* What is missing, and what to give: "needed by this driver" left
	 * both to guess. */
	if (!c->password_file[0]) {
		snprintf(why, whylen, "password_file: the ipmi driver needs the BMC's password: the absolute path "
			 "of a file on the daemon's machine holding it (mode 600)");
		return -1;
	}
	return power_password_file_ok(c->password_file, why, whylen);
}

/* argv for ipmitool on c, then the words in tail (NULL-terminated);
 * diagnose: verbose, one try (session_failure's second look). */
static void build_argv(const struct power_cfg *c, const char *const tail[], int diagnose, char *argv[],
		       size_t max, char *port, size_t portlen)
{
	size_t n = 0;

	snprintf(port, portlen, "%d", c->port ? c->port : 623);
	argv[n++] = "ipmitool";
	argv[n++] = "-I";
	argv[n++] = "lanplus";
	/* Cipher suite 3 (RAKP-HMAC-SHA1, AES-128), which IPMI v2 BMCs
	 * implement: without -C, ipmitool first asks for the suites, and a BMC
	 * that lacks that optional command (ipmi_sim) costs a 10 s timeout. */
	argv[n++] = "-C";
	argv[n++] = "3";
	argv[n++] = "-H";
	argv[n++] = (char *)c->host;
	argv[n++] = "-p";
	argv[n++] = port;
	argv[n++] = "-U";
	argv[n++] = (char *)c->user;
	argv[n++] = "-f";
	argv[n++] = (char *)c->password_file;
	/* One retry, two seconds each: a dead BMC answers within the
	 * daemon's bound, and the job runner retries in its own time. */
	argv[n++] = "-N";
	argv[n++] = diagnose ? "1" : "2";
	argv[n++] = "-R";
	argv[n++] = diagnose ? "1" : "2";
	if (diagnose)
		argv[n++] = "-v";
	for (size_t i = 0; tail[i] && n + 1 < max; i++)
		argv[n++] = (char *)tail[i];
	argv[n] = NULL;
}

/* Why no session opened: ipmitool says "Unable to establish IPMI v2 /
 * RMCP+ session" alike for a wrong password, an unknown user and a BMC
 * that never answers, and says which only when verbose, whose other lines
 * would garble every answer's last line. So the failure is asked again
 * once, verbose and with one try (a wrong password answers at once, a dead
 * BMC in ~2 s), and named: the fix differs (the password file, the user,
 * the address or the BMC's power). */
static void session_failure(const struct power_cfg *c, char *msg, size_t msglen)
{
	static const char *const status[] = { "chassis", "power", "status", NULL };
	char *argv[24], port[16], where[300], ignored[300];
	struct power_run r = { .kind = "ipmi", .what = where, .hint = "" };
	int ran;

	build_argv(c, status, 1, argv, sizeof(argv) / sizeof(argv[0]), port, sizeof(port));
	snprintf(where, sizeof(where), "%s:%s", c->host, port);
	ran = power_spawn(argv, NULL, noise, &r, ignored, sizeof(ignored)) == 0;
	if (ran && strstr(r.out, "HMAC is invalid"))
		snprintf(msg, msglen, "ipmi %s: " POWER_SAYS_REFUSED " for user '%s' (wrong password?)",
			 where, c->user);
	else if (ran && strstr(r.out, "unauthorized name"))
		snprintf(msg, msglen, "ipmi %s: " POWER_SAYS_NO_USER " '%s' (wrong user?)", where, c->user);
	else if (ran && (strstr(r.out, "Get Auth Capabilities error") || strstr(r.out, "No response")))
		snprintf(msg, msglen, "ipmi %s: " POWER_SAYS_NO_ANSWER " from a BMC there (wrong address or port, "
			 "or the BMC or its network down?)", where);
	else
		snprintf(msg, msglen, "ipmi %s: " POWER_SAYS_NO_SESSION " for user '%s' (wrong user or "
			 "password, or no cipher suite 3?)", where, c->user);
}

int power_ipmi(const struct power_cfg *c, enum power_action a, char *msg, size_t msglen)
{
	static const char *const tails[POWER_NACTIONS][4] = {
		[POWER_ON] = { "chassis", "power", "on", NULL },
		[POWER_OFF] = { "chassis", "power", "off", NULL },
		[POWER_CYCLE] = { "chassis", "power", "cycle", NULL },
		[POWER_STATUS] = { "chassis", "power", "status", NULL },
		[POWER_PXE] = { "chassis", "bootdev", "pxe", NULL },
	};
	char *argv[24], port[16], where[300], why[300];
	struct power_run r = { .kind = "ipmi", .what = where, .hint = " (is ipmitool installed?)" };
	const char *out = r.out, *line = r.line;

	if (power_ipmi_check(c, why, sizeof(why))) {
		snprintf(msg, msglen, "ipmi: %s", why);
		return -1;
	}
	build_argv(c, tails[a], 0, argv, sizeof(argv) / sizeof(argv[0]), port, sizeof(port));
	snprintf(where, sizeof(where), "%s:%s", c->host, port);
	if (power_spawn(argv, NULL, noise, &r, msg, msglen))
		return -1;
	if (strstr(out, "Unable to establish IPMI v2") || strstr(out, "RAKP")) {
		session_failure(c, msg, msglen);
		return -1;
	}
	if (r.rc) {
		snprintf(msg, msglen, "ipmi %s:%s: %s %s failed: %s", c->host, port, tails[a][1], tails[a][2],
			 line[0] ? line : "no message");
		return -1;
	}
	if (a == POWER_STATUS) {
		if (strstr(out, "Power is on"))
			snprintf(msg, msglen, "on");
		else if (strstr(out, "Power is off"))
			snprintf(msg, msglen, "off");
		else {
			snprintf(msg, msglen, "ipmi %s:%s: unexpected status '%s'", c->host, port, line);
			return -1;
		}
		return 0;
	}
	snprintf(msg, msglen, "ipmi %s:%s: %s", c->host, port, line[0] ? line : "done");
	return 0;
}

char *const *power_ipmi_sol_argv(const struct power_cfg *c, int deactivate)
{
	static const char *const act[] = { "sol", "activate", NULL };
	static const char *const deact[] = { "sol", "deactivate", NULL };
	static __thread char *argv[24];
	static __thread char port[16];

	build_argv(c, deactivate ? deact : act, 0, argv, sizeof(argv) / sizeof(argv[0]), port, sizeof(port));
	return argv;
}
