/*
 * xcbench.c — the command-line client of xcbenchd. Subcommands live one per
 * file (cmd_*.c) and are listed in the table below; a new one (e.g. `vm`)
 * adds its file and one line here. Global options: --server URL,
 * --token-file FILE (admin token for write routes; or $XCBENCH_TOKEN).
 * What every subcommand would otherwise have to get right is checked here
 * once: arguments that are not UTF-8 before, output that could not be
 * written after.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "version.h"

static const struct {
	const char *name, *summary;
	int (*fn)(int argc, char **argv);
} cmds[] = {
	{ "runs", "list runs of every lab (filters: --status --verdict --machine --suite --label --tag --lab --since; paged)", cmd_runs },
	{ "label", "set a run's label, tags and key=value fields", cmd_label },
	{ "show", "one run: facts, cases, stats", cmd_show },
	{ "compare", "compare two runs or groups of runs (or two algorithms)", cmd_compare },
	{ "check", "CI verdict: exit 1 when B regressed against --baseline A", cmd_check },
	{ "baseline", "mark runs as the baseline of their machine + suite (or list them)", cmd_baseline },
	{ "calibrate", "the false-positive rate of comparisons on N boots of one configuration", cmd_calibrate },
	{ "export", "one run's results as CSV", cmd_export },
	{ "samples", "one run's raw samples (each call's cycles) as CSV", cmd_samples },
	{ "queue", "queue a suite for the next boot of a MAC", cmd_queue },
	{ "ingest", "submit a serial capture (XCB1 lines) as a run", cmd_ingest },
	{ "machine", "a lab machine's power driver (set, --take), power action (power), lab and jobs (show)", cmd_machine },
	{ "job", "the jobs (list), one job's lifecycle and events (show), followed to its end (wait), or cancel it", cmd_job },
	{ "vm", "boot virtual lab machines in QEMU (PXE or direct) and follow their runs", cmd_vm },
};
#define NCMDS (sizeof(cmds) / sizeof(cmds[0]))

static void usage(FILE *f)
{
	fprintf(f, "usage: xcbench [--server URL] [--token-file FILE] COMMAND [args]\n\n");
	for (size_t i = 0; i < NCMDS; i++)
		fprintf(f, "  %-9s %s\n", cmds[i].name, cmds[i].summary);
	fprintf(f, "\n  --server URL       xcbenchd address (default http://127.0.0.1:8080, or $XCBENCH_SERVER)\n"
		   "  --token-file FILE  admin token for writes (or $XCBENCH_TOKEN)\n"
		   "  --version          this client's release and build (the daemon's: GET /api/v1/health)\n"
		   "  $XCBENCH_TIMEOUT   seconds without a byte from xcbenchd before giving up (default %d)\n"
		   "Exit status: 0 done; 1 failed (xcbenchd unreachable, or its error); 2 a usage error,\n"
		   "as is a value xcbenchd refused (HTTP 400); check and compare say their own.\n"
		   "'xcbench COMMAND --help' describes each command.\n", XCB_IDLE_TIMEOUT_S);
}

/* Every argument must be UTF-8: the API's requests are JSON, and jansson
 * turns text that is not into NULL, so a subcommand would drop a --notes
 * or --tag without a word. 0, or 2 (a usage error) after naming it. */
static int check_utf8(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!utf8_valid(argv[i])) {
			fprintf(stderr, "xcbench: argument %d is not valid UTF-8\n", i);
			return 2;
		}
	return 0;
}

/* $XCBENCH_TIMEOUT, when set, into opt_idle_timeout: 0, or 2 after saying
 * what is wrong with it. */
static int read_timeout_env(void)
{
	const char *s = getenv("XCBENCH_TIMEOUT");
	uint64_t v;

	if (!s || !s[0])
		return 0;
	if (parse_u64(s, &v) || v == 0 || v > 86400) {
		fprintf(stderr, "xcbench: XCBENCH_TIMEOUT='%s': expected whole seconds, 1 to 86400\n", s);
		return 2;
	}
	opt_idle_timeout = (int)v;
	return 0;
}

/* The subcommand's status rc, or 1 when its standard output could not all
 * be written (a full disk): a truncated export or listing must not end
 * like a complete one. A subcommand that failed has said why already (a
 * streamed answer's write, client.c). A closed pipe (`| head`) ends
 * xcbench by SIGPIPE before this, silently, as it should. */
static int output_status(int rc)
{
	int failed = ferror(stdout);
	/* A write that failed earlier (output past stdio's buffer: show of a
	 * long run) left its errno, and stdio dropped what it held: the
	 * close then fails without one, or succeeds. */
	int early = failed ? errno : 0;

	errno = 0;
	failed |= fclose(stdout) != 0;
	if (!failed || rc)
		return rc;
	say_output_failed(errno ? errno : early);
	return 1;
}

/* A global option's value into *dst: 0, or 2 after saying it was given
 * before (the last was taken without a word, as a subcommand's options
 * were: common/cmdopt.c refuses those the same way). */
static int global_once(const char *name, const char *value, const char **dst)
{
	if (*dst) {
		fprintf(stderr, "xcbench: --%s: given more than once ('%s', then '%s'); it takes one value\n", name,
			*dst, value);
		return 2;
	}
	*dst = value;
	return 0;
}

int main(int argc, char **argv)
{
	const char *server = NULL, *token_file = NULL;	/* as given on the command line */
	char **rest;
	int n = 0;

	if (check_utf8(argc, argv) || read_timeout_env())
		return 2;
	rest = calloc((size_t)argc + 1, sizeof(char *));
	if (!rest)
		return 1;
	if (getenv("XCBENCH_SERVER") && getenv("XCBENCH_SERVER")[0]) {
		opt_server = getenv("XCBENCH_SERVER");
		opt_server_from = "XCBENCH_SERVER";
	}
	/* Global options may appear anywhere; everything else is passed on. */
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--server") == 0 || strcmp(argv[i], "--token-file") == 0) {
			if (i + 1 >= argc) {
				fprintf(stderr, "xcbench: %s needs a value\n", argv[i]);
				free(rest);
				return 2;
			}
			if (global_once(argv[i] + 2, argv[i + 1], argv[i][2] == 's' ? &server : &token_file)) {
				free(rest);
				return 2;
			}
			i++;
		} else if (strncmp(argv[i], "--server=", 9) == 0 || strncmp(argv[i], "--token-file=", 13) == 0) {
			int is_server = argv[i][2] == 's';

			if (global_once(is_server ? "server" : "token-file", argv[i] + (is_server ? 9 : 13),
					is_server ? &server : &token_file)) {
				free(rest);
				return 2;
			}
		} else {
			rest[n++] = argv[i];
		}
	}
	if (server) {
		opt_server = server;
		opt_server_from = "--server";
	}
	if (token_file)
		opt_token_file = token_file;
	/* Only as the command: a subcommand's own arguments are its own. */
	if (n == 1 && strcmp(rest[0], "--version") == 0) {
		printf("xcbench %s (build %s)\n", XCBENCH_RELEASE, xcb_build_rev);
		free(rest);
		return output_status(0);
	}
	/* `xcbench help COMMAND`: that command's --help (it printed the
	 * list of commands, exit 0, as if COMMAND were not there). */
	if (n == 2 && strcmp(rest[0], "help") == 0) {
		for (size_t i = 0; i < NCMDS; i++)
			if (strcmp(rest[1], cmds[i].name) == 0) {
				char *sub[] = { rest[1], "--help", NULL };
				int rc = cmds[i].fn(2, sub);

				free(rest);
				return output_status(rc);
			}
		fprintf(stderr, "xcbench: help: no command '%s'\n", rest[1]);
		usage(stderr);
		free(rest);
		return 2;
	}
	if (n == 0 || strcmp(rest[0], "--help") == 0 || strcmp(rest[0], "-h") == 0 ||
	    strcmp(rest[0], "help") == 0) {
		usage(n ? stdout : stderr);
		free(rest);
		return n ? output_status(0) : 2;
	}
	for (size_t i = 0; i < NCMDS; i++) {
		if (strcmp(rest[0], cmds[i].name) == 0) {
			int rc = cmds[i].fn(n, rest);

			/* A failure on the daemon's 400 is its check of the
			 * command's own arguments (compare --fdr abc, runs
			 * --since yesterday): a usage error like any the
			 * command finds itself, so a script tells a typo (2)
			 * from a daemon that is down or failing (1). */
			if (rc == 1 && api_last_status() == 400)
				rc = 2;
			free(rest);
			return output_status(rc);
		}
	}
	fprintf(stderr, "xcbench: unknown command '%s'\n", rest[0]);
	usage(stderr);
	free(rest);
	return 2;
}
