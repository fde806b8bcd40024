/*
 * cmd_machine.c — `xcbench machine`: a lab machine's power settings (`set`),
 * a power action through its driver (`power`), and the machine with its
 * power state and jobs (`show`). A password is given as a file the daemon
 * reads (--password-file), never on this command line.
 */
#include <getopt.h>
#include <string.h>
#include <unistd.h>

#include "client.h"
#include "power_bounds.h"
#include "slow_note.h"

static const char usage[] =
"usage: xcbench machine set MAC --power ipmi --host BMC [--port N] --user U --password-file FILE [--sol] [--take]\n"
"       xcbench machine set MAC --power command --command 'TEMPLATE' [--password-file FILE]\n"
"       xcbench machine set MAC --power manual\n"
"       xcbench machine power MAC on|off|cycle|status|pxe\n"
"       xcbench machine show MAC\n"
"       xcbench machine list\n"
"How the daemon switches a lab machine on and off for its jobs (--json: each\n"
"command prints the daemon's answer as JSON).\n"
"  ipmi     IPMI v2 (lanplus) through ipmitool; FILE holds the BMC password,\n"
"           is read by the daemon (an absolute path on its machine, mode 600)\n"
"           and never shown; --sol captures the serial console into the runs\n"
"  command  TEMPLATE runs through /bin/sh for each action: {action} ($1) is\n"
"           on|off|cycle|status|pxe, {mac} ($2), {host} {port} {user};\n"
"           $XCB_POWER_PASSWORD_FILE names FILE. 'status' prints on or off.\n"
"  manual   a person powers the machine; its jobs wait for its boot\n"
"A daemon with --lab sets, powers and boots its own lab's machines only; a\n"
"machine is the lab's whose daemon first booted it or set its power. --take\n"
"moves a machine of another lab into this daemon's (it is on this lab's\n"
"network: that lab's daemon never sees it boot); refused while that lab\n"
"works on one of its jobs. `show` names the machine's lab; `list` shows\n"
"every machine of every lab: its lab, driver, state, and job.\n"
"Writes need the admin token (--token-file) unless the daemon runs with --open.\n";

/* 1 (after saying so) when an argument tries to give a password itself:
 * --password, --pass=…, --passwd…. getopt_long took "--password SECRET"
 * as an abbreviation of --password-file, and the daemon's refusal of the
 * path 'SECRET' printed the password; an unknown "--passwd=SECRET" was
 * printed by getopt's own message. Only the option's name is said, never
 * what follows it. */
static int password_given(int argc, char **argv)
{
	static const char full[] = "--password-file";

	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		size_t n = strcspn(argv[i], "=");

		/* --password-f… (longer than --password) still names the file */
		if (strncmp(argv[i], "--pas", 5) || (n > 10 && n <= sizeof(full) - 1 && strncmp(argv[i], full, n) == 0))
			continue;
		fprintf(stderr, "xcbench machine: %.*s: a password is never given on the command line (every user "
			"sees it in ps); write it to a file only the daemon's user can read (mode 600) and give "
			"--password-file FILE\n", (int)(n < 40 ? n : 40), argv[i]);
		return 1;
	}
	return 0;
}

/* The MAC as the daemon stored it (00:25:90:..., whatever was typed:
 * 00-25-90-... and capitals are the same machine), else as typed. */
static const char *stored_mac(json_t *v, const char *typed)
{
	const char *m = json_string_value(json_object_get(v, "mac"));

	return m ? m : typed;
}

static int machine_set(const struct cmd *cmd, const char *mac, json_t *body, int as_json)
{
	char path[128];
	json_t *o, *m, *p;
	int rc;

	snprintf(path, sizeof(path), "/api/v1/machines/%s/power", mac);
	json_incref(body);	/* api_answer takes it; the caller frees its own */
	o = api_answer_for(cmd, "PUT", path, body, as_json, &rc);
	if (!o)
		return rc;
	m = json_object_get(o, "machine");
	p = json_object_get(m, "power");
	printf("%s: power driver %s%s", stored_mac(m, mac), json_string_value(json_object_get(p, "driver")),
	       json_is_true(json_object_get(p, "sol")) ? ", serial-over-LAN captured" : "");
	if (json_is_true(json_object_get(body, "take")))
		printf(", in lab '%s'", json_string_value(json_object_get(m, "lab")));
	printf("\n");
	json_decref(o);
	return 0;
}

/* What a slow power call of machine mac waits on, into line: the BMC at
 * HOST:PORT for ipmi, the command for command, and for how long at most;
 * "" for a manual machine (nothing is run) or one the daemon does not
 * have (the POST says so). Asked of the daemon only for a terminal. */
static void power_waits_on(const char *mac, char *line, size_t n)
{
	char path[128];
	struct http_resp r = { 0 };
	json_t *o, *p;
	const char *drv, *host;

	line[0] = 0;
	if (!isatty(STDERR_FILENO))
		return;
	snprintf(path, sizeof(path), "/api/v1/machines/%s", mac);
	if (http_call("GET", path, NULL, &r, NULL) || r.status != 200 || !r.body.p) {
		buf_free(&r.body);
		return;
	}
	o = json_loadb(r.body.p, r.body.len, 0, NULL);
	buf_free(&r.body);
	term_safe(o);	/* the host is printed on a terminal */
	p = json_object_get(json_object_get(o, "machine"), "power");
	drv = json_string_value(json_object_get(p, "driver"));
	host = json_string_value(json_object_get(p, "host"));
	if (drv && strcmp(drv, "ipmi") == 0 && host) {
		json_int_t port = json_integer_value(json_object_get(p, "port"));

		/* port 0: not given, ipmitool's 623 (machine_show) */
		snprintf(line, n, "xcbench machine: waiting for the BMC at %s:%lld (ipmi, up to %d s)...", host,
			 port > 0 ? (long long)port : 623LL, POWER_ACTION_MAX_S(1));
	} else if (drv && strcmp(drv, "command") == 0) {
		snprintf(line, n, "xcbench machine: waiting for the power command of %s (up to %d s)...", mac,
			 POWER_ACTION_MAX_S(0));
	}
	json_decref(o);
}

/* `power MAC ACTION`: the daemon runs the driver before it answers, ~12 s
 * for a BMC that never answers; a terminal is told what it waits on. */
static int machine_power(const char *mac, const char *action, int as_json)
{
	char path[128], wait[512];
	struct slow_note note;
	json_t *o;
	int rc;

	power_waits_on(mac, wait, sizeof(wait));
	snprintf(path, sizeof(path), "/api/v1/machines/%s/power", mac);
	if (wait[0])
		slow_note_start(&note, wait);
	o = api_answer("POST", path, json_pack("{s:s}", "action", action), as_json, &rc);
	if (wait[0])
		slow_note_end(&note);
	if (!o)
		return rc;
	printf("%s: %s: %s\n", stored_mac(o, mac), action, json_string_value(json_object_get(o, "result")));
	json_decref(o);
	return 0;
}

/* The stage limits a job of machine m that sets none runs under (the
 * daemon's timeouts_default, by the machine's driver now: never a copy of
 * the defaults here) and its SOL wait: what `queue --power-timeout` and
 * its kin override. Nothing from a daemon without them. */
static void print_defaults(json_t *m)
{
	const char *const *names = job_bound_names;
	json_t *d = json_object_get(m, "timeouts_default"), *sol = json_object_get(m, "sol_wait");

	if (!json_is_object(d))
		return;
	printf("  limits of a job that sets none:");
	for (int i = 0; i < 3; i++) {
		json_t *e = json_object_get(d, names[i]);

		if (json_is_integer(e))
			printf("%s %s %lld s", i ? "," : "", names[i], (long long)json_integer_value(e));
		else
			printf("%s %s none", i ? "," : "", names[i]);
	}
	if (json_is_integer(sol))
		printf("; up to %lld s for its serial-over-LAN session before the power-on",
		       (long long)json_integer_value(sol));
	printf("\n");
}

static int machine_show(const char *mac, int as_json)
{
	char path[128], t1[64], t2[64], t3[64];
	json_t *o, *m, *p, *j;
	size_t i;
	int rc;

	snprintf(path, sizeof(path), "/api/v1/machines/%s", mac);
	o = get_answer(path, as_json, &rc);
	if (!o)
		return rc;
	m = json_object_get(o, "machine");
	p = json_object_get(m, "power");
	/* Its lab: another lab's daemon refuses to set, power or boot it. */
	if (json_string_value(json_object_get(m, "lab")))
		printf("machine %s  lab %s\n", stored_mac(m, mac), json_string_value(json_object_get(m, "lab")));
	else
		printf("machine %s\n", stored_mac(m, mac));
	/* No record (id null): a MAC that only its queued jobs name. */
	if (json_is_null(json_object_get(m, "id")))
		printf("  not booted yet, no power settings: its jobs wait for its first boot\n");
	printf("  power: %s", json_string_value(json_object_get(p, "driver")));
	if (json_string_value(json_object_get(p, "host"))) {
		/* Port 0 is "not given": ipmitool's 623 for ipmi (it showed
		 * ":0", a port no BMC answers on), none for a command. */
		json_int_t port = json_integer_value(json_object_get(p, "port"));
		const char *drv = json_string_value(json_object_get(p, "driver"));

		printf(" %s@%s", jstr(json_object_get(p, "user"), t1, sizeof(t1)),
		       json_string_value(json_object_get(p, "host")));
		if (port > 0 || (drv && strcmp(drv, "ipmi") == 0))
			printf(":%lld", port > 0 ? (long long)port : 623LL);
	}
	printf(", password %s, state %s\n", json_is_true(json_object_get(p, "password_set")) ? "set" : "not set",
	       jstr(json_object_get(p, "state"), t3, sizeof(t3)));
	if (json_string_value(json_object_get(p, "error")))
		printf("  last error: %s\n", json_string_value(json_object_get(p, "error")));
	print_defaults(m);
	json_array_foreach(json_object_get(m, "jobs"), i, j) {
		json_int_t at = json_integer_value(json_object_get(j, "attempt"));

		/* attempt 0: none begun ("attempt 0" read as one that ran) */
		snprintf(t1, sizeof(t1), "%lld", (long long)at);
		printf("  job %lld  %-11s attempt %s  %s\n", (long long)json_integer_value(json_object_get(j, "id")),
		       json_string_value(json_object_get(j, "stage")), at > 0 ? t1 : "-",
		       jstr(json_object_get(j, "reason"), t2, sizeof(t2)));
	}
	json_decref(o);
	return 0;
}

/* `list`: every machine the store knows (GET /api/v1/lab), one a line;
 * the operator had the dashboard or curl to see what was registered. */
static int machine_list(int as_json)
{
	char t1[64], t2[64];
	json_t *o, *m;
	size_t i;
	int rc;

	o = get_answer("/api/v1/lab", as_json, &rc);
	if (!o)
		return rc;
	printf("%-17s  %-10s %-8s %-13s %-5s %s\n", "MAC", "LAB", "DRIVER", "STATE", "POWER", "JOB / LAST RUN");
	json_array_foreach(json_object_get(o, "machines"), i, m) {
		json_t *job = json_object_get(m, "job"), *run = json_object_get(m, "last_run");
		json_t *last = json_object_get(m, "last_job");

		printf("%-17s  %-10s %-8s %-13s %-5s ", json_string_value(json_object_get(m, "mac")),
		       jstr(json_object_get(m, "lab"), t1, sizeof(t1)), json_string_value(json_object_get(m, "driver")),
		       json_string_value(json_object_get(m, "state")), jstr(json_object_get(m, "power_state"), t2, sizeof(t2)));
		/* The job under way; else the last that ended and the last run,
		 * as the lab page says them ("last: job 4 timed_out"): a job
		 * that timed out made no run, and the column said "-". */
		if (json_is_object(job))
			printf("job %lld %s", (long long)json_integer_value(json_object_get(job, "id")),
			       json_string_value(json_object_get(job, "stage")));
		else if (json_is_object(last) || json_is_object(run)) {
			printf("last:");
			if (json_is_object(last))
				printf(" job %lld %s", (long long)json_integer_value(json_object_get(last, "id")),
				       json_string_value(json_object_get(last, "stage")));
			if (json_is_object(run))
				printf("%s run %lld %s", json_is_object(last) ? "," : "",
				       (long long)json_integer_value(json_object_get(run, "id")),
				       json_string_value(json_object_get(run, "status")));
		} else
			printf("-");
		printf("\n");
		/* Why: STATE names the kind of failure (unreachable,
		 * auth_refused, misconfigured, power_failed); the driver's own
		 * words say which address, user or program. */
		if (json_string_value(json_object_get(m, "power_error")))
			printf("    power error: %s\n", json_string_value(json_object_get(m, "power_error")));
	}
	json_decref(o);
	return 0;
}

int cmd_machine(int argc, char **argv)
{
	json_t *body = json_object();
	const char *verb, *mac;
	int rc, as_json = 0;
	const struct cmdopt opts[] = {
		OPT_JSON_STR("power", body, "driver"), OPT_JSON_STR("host", body, NULL),
		OPT_JSON_INT("port", body, NULL, 1, 65535), OPT_JSON_STR("user", body, NULL),
		OPT_JSON_STR("password-file", body, "password_file"), OPT_JSON_STR("command", body, NULL),
		OPT_JSON_TRUE("sol", body, NULL), OPT_JSON_TRUE("take", body, NULL), OPT_FLAG("json", &as_json),
		OPT_END,
	};
	const struct cmd cmd = { "xcbench machine", usage, opts };

	if (password_given(argc, argv)) {
		json_decref(body);
		return 2;
	}
	if (cmd_parse(&cmd, argc, argv, &rc)) {
		json_decref(body);
		return rc;
	}
	if (argc - optind == 1 && strcmp(argv[optind], "list") == 0 && json_object_size(body) == 0) {
		json_decref(body);
		return machine_list(as_json);
	}
	if (argc - optind < 2) {
		json_decref(body);
		fprintf(stderr, "xcbench machine: expected list, or set|power|show and a MAC\n");
		return cmd_usage_error(&cmd);
	}
	verb = argv[optind];
	mac = argv[optind + 1];
	if (strcmp(verb, "set") == 0 && argc - optind == 2) {
		if (!json_object_get(body, "driver")) {
			json_decref(body);
			fprintf(stderr, "xcbench machine set: --power ipmi|command|manual is required\n");
			return 2;
		}
		rc = machine_set(&cmd, mac, body, as_json);
	} else if (strcmp(verb, "power") == 0 && argc - optind == 3 && json_object_size(body) == 0) {
		rc = machine_power(mac, argv[optind + 2], as_json);
	} else if (strcmp(verb, "show") == 0 && argc - optind == 2 && json_object_size(body) == 0) {
		rc = machine_show(mac, as_json);
	} else {
		json_decref(body);
		if (strcmp(verb, "set") && strcmp(verb, "power") && strcmp(verb, "show"))
			fprintf(stderr, "xcbench machine: '%s': expected set, power, show or list\n", verb);
		else if (strcmp(verb, "power") == 0 && argc - optind == 2)
			fprintf(stderr, "xcbench machine power %s: expected an action: on, off, cycle, status or pxe\n",
				mac);
		else if (strcmp(verb, "set") == 0)
			fprintf(stderr, "xcbench machine set: expected the MAC alone after set, and options\n");
		else
			fprintf(stderr, "xcbench machine %s: %s\n", verb,
				strcmp(verb, "power") == 0 ? "expected a MAC and one action, no options but --json"
							   : "expected a MAC alone, no options but --json");
		return cmd_usage_error(&cmd);
	}
	json_decref(body);
	return rc;
}
