/*
 * cmdopt.h — the option loop every command-line tool here shares (xcbench's
 * subcommands, xcb-gen, xcb-load): getopt_long over one command's table,
 * --help and bad options answered the one way from the command's usage
 * text, and whole-number options checked against their range.
 */
#ifndef XCB_CMDOPT_H
#define XCB_CMDOPT_H

#include <getopt.h>

/* One command: what names it in messages, its usage text, its options. */
struct cmd {
	const char *name;            /* "xcbench runs", "xcb-gen" */
	const char *usage;           /* the whole --help text, ending in a newline */
	const struct option *opts;   /* getopt_long's table, with { "help", 0, NULL, 'h' } */
	const char *shortopts;       /* NULL: "h" */
};

/* cmd_next's answer when the command must end now, with *rc its status. */
#define CMD_EXIT (-2)

/* The next option of argv (getopt_long; -1 after the last). --help prints
 * the usage on stdout (*rc = 0), a bad option (getopt_long has named it)
 * prints it on stderr (*rc = 2): both answer CMD_EXIT. */
int cmd_next(const struct cmd *c, int argc, char **argv, int *rc);
/* Prints c's usage on stderr after a usage error; returns 2 (the status). */
int cmd_usage_error(const struct cmd *c);
/* arg of option opt as a whole number in lo..hi (0 <= lo) into *out: 0, or -1 after
 * naming c, opt, arg and the range on stderr. */
int cmd_int(const struct cmd *c, const char *opt, const char *arg, int lo, int hi, int *out);

#endif
