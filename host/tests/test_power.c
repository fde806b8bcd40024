/*
 * test_power.c — the power drivers' checks and the command driver, for
 * real (a /bin/sh template, real files and modes): what power.c,
 * power_command.c and power_ipmi.c refuse, how a template is expanded and
 * run, how a status is read, what a program that cannot start is answered
 * (power_spawn), and that an error names no password.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "power.h"

static char dir[64];
static char pwfile[128];

static int setup(void **state)
{
	FILE *f;

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/xcb-test-power.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(pwfile, sizeof(pwfile), "%s/pass", dir);
	f = fopen(pwfile, "w");
	if (!f)
		return -1;
	fputs("s3cret-pw\n", f);
	fclose(f);
	return chmod(pwfile, 0600);
}

static int teardown(void **state)
{
	char cmd[160];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void cfg_command(struct power_cfg *c, const char *tmpl)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->mac, sizeof(c->mac), "52:54:00:00:00:07");
	snprintf(c->driver, sizeof(c->driver), "command");
	snprintf(c->command, sizeof(c->command), "%s", tmpl);
	snprintf(c->password_file, sizeof(c->password_file), "%s", pwfile);
}

static void test_actions(void **state)
{
	(void)state;
	for (int a = 0; a < POWER_NACTIONS; a++)
		assert_int_equal(power_action_parse(power_action_name(a)), a);
	assert_int_equal(power_action_parse("reboot"), -1);
	assert_int_equal(power_action_parse(NULL), -1);
}

static void test_password_file_modes(void **state)
{
	char why[300];

	(void)state;
	assert_int_equal(power_password_file_ok(pwfile, why, sizeof(why)), 0);
	chmod(pwfile, 0640);
	assert_int_equal(power_password_file_ok(pwfile, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "readable by others"));
	chmod(pwfile, 0600);
	assert_int_equal(power_password_file_ok("pass", why, sizeof(why)), -1);
	assert_non_null(strstr(why, "absolute"));
	assert_int_equal(power_password_file_ok("/nonexistent/x", why, sizeof(why)), -1);
	assert_int_equal(power_password_file_ok(dir, why, sizeof(why)), -1); /* a directory */
}

static void test_ipmi_check(void **state)
{
	struct power_cfg c = { 0 };
	char why[300];

	(void)state;
	snprintf(c.driver, sizeof(c.driver), "ipmi");
	snprintf(c.host, sizeof(c.host), "-oProxyCommand=x");   /* an option, not a host */
	snprintf(c.user, sizeof(c.user), "admin");
	snprintf(c.password_file, sizeof(c.password_file), "%s", pwfile);
	assert_int_equal(power_check(&c, why, sizeof(why)), -1);
	snprintf(c.host, sizeof(c.host), "bmc1.lab");
	assert_int_equal(power_check(&c, why, sizeof(why)), 0);
	snprintf(c.user, sizeof(c.user), "a b");
	assert_int_equal(power_check(&c, why, sizeof(why)), -1);
	snprintf(c.driver, sizeof(c.driver), "telnet");
	assert_int_equal(power_check(&c, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "not ipmi, command or manual"));
}

static void test_command_runs_template(void **state)
{
	struct power_cfg c;
	char msg[400], tmpl[300], out[200];
	FILE *f;

	(void)state;
	/* {action} and {mac} expanded; $1/$2 and the password file's path in
	 * the environment, never the password itself. */
	snprintf(out, sizeof(out), "%s/log", dir);
	snprintf(tmpl, sizeof(tmpl), "echo \"{action} {mac} $1 $2 $XCB_POWER_PASSWORD_FILE\" >%s", out);
	cfg_command(&c, tmpl);
	assert_int_equal(power_do(&c, POWER_CYCLE, msg, sizeof(msg)), 0);
	f = fopen(out, "r");
	assert_non_null(f);
	assert_non_null(fgets(msg, sizeof(msg), f));
	fclose(f);
	snprintf(tmpl, sizeof(tmpl), "cycle 52:54:00:00:00:07 cycle 52:54:00:00:00:07 %s\n", pwfile);
	assert_string_equal(msg, tmpl);
}

static void test_command_status_and_errors(void **state)
{
	struct power_cfg c;
	char msg[400];

	(void)state;
	cfg_command(&c, "echo '{\"PowerState\": \"On\"}'");
	assert_int_equal(power_do(&c, POWER_STATUS, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "on");
	cfg_command(&c, "echo Chassis Power is off");
	assert_int_equal(power_do(&c, POWER_STATUS, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "off");
	cfg_command(&c, "echo maybe");
	assert_int_equal(power_do(&c, POWER_STATUS, msg, sizeof(msg)), -1);
	cfg_command(&c, "echo PDU says no >&2; exit 3");
	assert_int_equal(power_do(&c, POWER_ON, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "exit 3"));
	assert_non_null(strstr(msg, "PDU says no"));
	assert_null(strstr(msg, "s3cret"));
	assert_int_equal(power_fault_of(msg), POWER_FAULT_FAILED);
	/* sysexits.h's codes name the fault the lab shows: a Redfish 401
	 * was power_failed, as any "no" of the device is. */
	cfg_command(&c, "echo 'status_code: 401 -- Unauthorized'; exit 77");
	assert_int_equal(power_do(&c, POWER_STATUS, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "401 -- Unauthorized"));
	assert_int_equal(power_fault_of(msg), POWER_FAULT_AUTH);
	cfg_command(&c, "echo 'Error getting service root'; exit 69");
	assert_int_equal(power_do(&c, POWER_ON, msg, sizeof(msg)), -1);
	assert_int_equal(power_fault_of(msg), POWER_FAULT_UNREACHABLE);
	cfg_command(&c, "exit 68");
	assert_int_equal(power_do(&c, POWER_ON, msg, sizeof(msg)), -1);
	assert_int_equal(power_fault_of(msg), POWER_FAULT_UNREACHABLE);
	cfg_command(&c, "echo 'no outlet 9 on this PDU'; exit 78");
	assert_int_equal(power_do(&c, POWER_OFF, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "no outlet 9"));
	assert_int_equal(power_fault_of(msg), POWER_FAULT_CONFIG);
	/* A template with a control character is refused before it runs. */
	cfg_command(&c, "echo a\nrm -rf /");
	assert_int_equal(power_do(&c, POWER_ON, msg, sizeof(msg)), -1);
}

static void test_manual(void **state)
{
	struct power_cfg c = { 0 };
	char msg[200];

	(void)state;
	snprintf(c.mac, sizeof(c.mac), "52:54:00:00:00:08");
	assert_int_equal(power_do(&c, POWER_ON, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "someone must power 52:54:00:00:00:08 on"));
	assert_int_equal(power_do(&c, POWER_STATUS, msg, sizeof(msg)), 1);
	assert_string_equal(msg, "unknown");
}

/* A driver whose program cannot be started says so in the driver's words:
 * ipmitool missing from PATH (an empty folder here) is "ipmi: cannot run
 * ipmitool: ... (is ipmitool installed?)", naming no password; a program
 * that runs hands back its status and its last line not in noise. */
static void test_spawn_failure(void **state)
{
	static const char *const noise[] = { "noise", NULL };
	struct power_cfg c = { 0 };
	struct power_run r = { .kind = "command", .what = "on", .hint = "" };
	char *ok_argv[] = { "/bin/sh", "-c", "echo answer; echo noise; exit 4", NULL };
	char *bad_argv[] = { "/nonexistent/xcb-power", NULL };
	char msg[400], *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;

	(void)state;
	assert_int_equal(power_spawn(ok_argv, NULL, noise, &r, msg, sizeof(msg)), 0);
	assert_int_equal(r.rc, 4);
	assert_string_equal(r.line, "answer");
	assert_int_equal(power_spawn(bad_argv, NULL, NULL, &r, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "command: cannot run /nonexistent/xcb-power: No such file or directory");
	snprintf(c.driver, sizeof(c.driver), "ipmi");
	snprintf(c.host, sizeof(c.host), "bmc1.lab");
	snprintf(c.user, sizeof(c.user), "admin");
	snprintf(c.password_file, sizeof(c.password_file), "%s", pwfile);
	setenv("PATH", dir, 1);
	assert_int_equal(power_do(&c, POWER_ON, msg, sizeof(msg)), -1);
	if (path)
		setenv("PATH", path, 1);
	free(path);
	assert_string_equal(msg, "ipmi: cannot run ipmitool: No such file or directory (is ipmitool installed?)");
}

static void test_last_line(void **state)
{
	static const char *const skip[] = { "noise", NULL };
	char dst[32];

	(void)state;
	power_last_line("first\r\n  real answer \nnoise here\n\n", skip, dst, sizeof(dst));
	assert_string_equal(dst, "real answer");
	power_last_line("a\x1b[31mb\n", NULL, dst, sizeof(dst));
	assert_string_equal(dst, "a?[31mb");
	power_last_line("", NULL, dst, sizeof(dst));
	assert_string_equal(dst, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_actions),
		cmocka_unit_test(test_password_file_modes),
		cmocka_unit_test(test_ipmi_check),
		cmocka_unit_test(test_command_runs_template),
		cmocka_unit_test(test_command_status_and_errors),
		cmocka_unit_test(test_manual),
		cmocka_unit_test(test_last_line),
		cmocka_unit_test(test_spawn_failure),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
