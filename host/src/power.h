/*
 * power.h — switching a lab machine on and off through its power driver:
 * `ipmi` (IPMI v2 lanplus through ipmitool, power_ipmi.c), `command` (a
 * template run for each action: a PDU, virsh, redfishtool; power_command.c)
 * or `manual` (a person; power.c). The password is never held here: only
 * the path of a file, which the drivers hand on by name.
 */
#ifndef XCB_POWER_H
#define XCB_POWER_H

#include <stddef.h>

enum power_action { POWER_ON, POWER_OFF, POWER_CYCLE, POWER_STATUS, POWER_PXE, POWER_NACTIONS };

/* One machine's power settings, as jobs_db.c reads them. */
struct power_cfg {
	char mac[18];
	char driver[16];           /* ipmi | command | manual ("" = manual) */
	char host[256];
	int port;                  /* 0: the driver's default (623) */
	char user[64];
	char password_file[512];
	char command[1024];
	int sol;                   /* capture serial-over-LAN (ipmi) */
};

/* POWER_TIMEOUT_S, POWER_ACTION_MAX_S: shared with the CLI. */
#include "power_bounds.h"

/* "on", "off", ... */
const char *power_action_name(enum power_action a);
/* The action named s, or -1. */
int power_action_parse(const char *s);

/* Why a driver call failed, as the lab shows it: GET /api/v1/lab's state
 * of a machine whose last call failed (jobs_db_lab_json) is the fault's
 * name (power.c's table), so the operator reads what to fix: the BMC's
 * address or network (unreachable), the user or password (auth_refused),
 * the driver's settings or tool (misconfigured), or what the tool said
 * (power_failed: the BMC or command answered, and said no). */
enum power_fault { POWER_FAULT_UNREACHABLE, POWER_FAULT_AUTH, POWER_FAULT_CONFIG, POWER_FAULT_FAILED,
		   POWER_NFAULTS };
const char *power_fault_name(enum power_fault f);
/* The fault power_do's failure message msg (as stored) says: a message
 * "KIND: why" (no BMC or action named: power_spawn's "cannot run", a
 * settings check) is misconfigured; one with an auth phrase
 * (POWER_SAYS_*) auth_refused; "no answer" unreachable; else power_failed. */
enum power_fault power_fault_of(const char *msg);
/* The phrases of power_ipmi.c's session failures, which power_fault_of
 * reads back: one spelling, here. */
#define POWER_SAYS_NO_ANSWER "no answer"
#define POWER_SAYS_REFUSED "the BMC refused the password"
#define POWER_SAYS_NO_USER "the BMC knows no user"
#define POWER_SAYS_NO_SESSION "the BMC opened no session"
/* a command template's exit 77 (EX_NOPERM: power_command.c) */
#define POWER_SAYS_CREDENTIALS "the device refused the credentials"

/* Checks settings before they are stored: 0, or -1 with the reason in why
 * (the driver known, the fields it needs present and well-formed, the
 * password file readable by the daemon and by nobody else; for manual,
 * none of the fields given). */
int power_check(const struct power_cfg *c, char *why, size_t whylen);

/* Runs action a. 0 on success, with the state ("on"/"off") in msg for
 * POWER_STATUS and what was done otherwise; 1 for a manual machine (msg:
 * what a person must do); -1 on failure with a one-line reason in msg that
 * names the BMC and never the password. */
int power_do(const struct power_cfg *c, enum power_action a, char *msg, size_t msglen);

/* The drivers (power_ipmi.c, power_command.c). */
int power_ipmi(const struct power_cfg *c, enum power_action a, char *msg, size_t msglen);
int power_ipmi_check(const struct power_cfg *c, char *why, size_t whylen);
/* The ipmitool argument vector for `sol activate` on c (static storage,
 * for sol.c): the password by file, never on the command line. */
char *const *power_ipmi_sol_argv(const struct power_cfg *c, int deactivate);
int power_command(const struct power_cfg *c, enum power_action a, char *msg, size_t msglen);
int power_command_check(const struct power_cfg *c, char *why, size_t whylen);

/* 1 if s is 1..max characters of letters, digits and extra, not starting
 * with '-' (safe as one argument and inside a sh command). */
int power_word_ok(const char *s, const char *extra, size_t max);
/* The password file's own check (power.c), path given (not ""): 0, or -1
 * with why. */
int power_password_file_ok(const char *path, char *why, size_t whylen);
/* The last non-empty line of out that is not in skip[] (NULL-terminated
 * list of substrings), trimmed and with control bytes replaced, into dst. */
void power_last_line(const char *out, const char *const skip[], char *dst, size_t dstlen);

/* One run of a driver's program (power_spawn): the driver names it for the
 * messages, power_spawn fills in the rest. */
struct power_run {
	const char *kind;  /* "ipmi", "command": the messages' first word */
	const char *what;  /* what it addressed ("host:port", the action) */
	const char *hint;  /* added when the program cannot run ("" for none) */
	int rc;            /* its exit status */
	char out[4096];    /* its output */
	char line[256];    /* its last line not in noise (power_last_line) */
};
/* Runs argv (env: NULL for the daemon's) for at most POWER_TIMEOUT_S into
 * r: 0 when it ran and ended (r->rc its exit status, a failure or not), -1
 * with msg when it could not run ("KIND: why HINT") or did not end in time
 * ("KIND WHAT: no answer in N s") or was abandoned (spawn_cancel_on:
 * "KIND WHAT: abandoned: the daemon is stopping"): the failures every
 * driver words alike. */
int power_spawn(char *const argv[], char *const env[], const char *const noise[], struct power_run *r,
		char *msg, size_t msglen);

#endif
