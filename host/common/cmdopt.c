/*
 * cmdopt.c — one command's option table applied to its command line
 * (cmdopt.h): the getopt_long table and short options derived from it,
 * and each kind's check and store.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdopt.h"
#include "util.h"

/* The most options one table may hold (xcbenchd has the most, ~20). */
#define CMDOPT_MAX 40

/* 1 when o takes a value (all kinds but a flag and a flag-like fn). */
static int takes_value(const struct cmdopt *o)
{
	return o->kind != CMDOPT_FLAG && !o->noarg;
}

int cmdopt_int(const struct cmdopt *o, const char *arg, int *out, char *err, size_t errlen)
{
	uint64_t v;

	if (parse_u64(arg, &v) || v < (uint64_t)o->lo || v > (uint64_t)o->hi) {
		snprintf(err, errlen, "--%s: '%s' is not a number in %d..%d", o->name, arg, o->lo, o->hi);
		return -1;
	}
	*out = (int)v;
	return 0;
}

/* arg as a real number in o's dlo..dhi into *out: 0, or -1 with why in
 * err. strtod alone took "nan" and "inf" (never past a range check: a
 * --loss of nan dropped nothing, a --give-up of nan never gave up), an
 * overflow (1e999: inf with ERANGE), leading blanks, and any value at all
 * for an option whose range was only in its usage text (--loss 5). */
int cmdopt_num(const struct cmdopt *o, const char *arg, double *out, char *err, size_t errlen)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || *end || isspace((unsigned char)arg[0]) || errno || !isfinite(v) ||
	    v < o->dlo || v > o->dhi) {
		snprintf(err, errlen, "--%s: '%s' is not a number in %g..%g", o->name, arg, o->dlo, o->dhi);
		return -1;
	}
	*out = v;
	return 0;
}

/* "a, b or c" into err: what a CMDOPT_WORD value must be. */
static void list_words(const char *const *w, int n, char *err, size_t errlen)
{
	size_t len;

	for (int i = 0; i < n; i++) {
		len = strlen(err);
		snprintf(err + len, errlen - len, "%s%s", w[i], i + 2 < n ? ", " : i + 1 < n ? " or " : "");
	}
}

/* Checks arg for o and stores it: 0, or -1 with why in err. */
static int apply(const struct cmdopt *o, const char *arg, char *err, size_t errlen)
{
	switch (o->kind) {
	case CMDOPT_FLAG:
		*(int *)o->dst = 1;
		return 0;
	case CMDOPT_STR:
		/* '' is what an unset variable gives ("--algo-a $ALGO"): a path,
		 * an address, a filter or a name that is empty was taken as
		 * given, and the daemon reads an empty query argument as none,
		 * so compare --algo-a '' compared every algorithm without a word */
		if (!arg[0] && !o->empty_ok) {
			snprintf(err, errlen, "--%s needs a value, not ''", o->name);
			return -1;
		}
		*(const char **)o->dst = arg;
		return 0;
	case CMDOPT_INT:
		return cmdopt_int(o, arg, o->dst, err, errlen);
	case CMDOPT_NUM:
		return cmdopt_num(o, arg, o->dst, err, errlen);
	case CMDOPT_U64:
	case CMDOPT_HEX64:
		if (o->kind == CMDOPT_U64 ? parse_u64(arg, o->dst) : parse_hex64(arg, o->dst)) {
			snprintf(err, errlen, "--%s: '%s' is not a %s", o->name, arg,
				 o->kind == CMDOPT_U64 ? "whole number" : "hex number of 1..16 digits");
			return -1;
		}
		return 0;
	case CMDOPT_WORD:
		for (int i = 0; i < o->nwords; i++)
			if (strcmp(arg, o->words[i]) == 0) {
				*(int *)o->dst = i;
				return 0;
			}
		snprintf(err, errlen, "--%s: '%s' is not ", o->name, arg);
		list_words(o->words, o->nwords, err, errlen);
		return -1;
	case CMDOPT_FN:
		return o->fn(o, arg, err, errlen);
	}
	return -1;
}

/* c's table as getopt_long's (each option's val its index + 256, --help
 * 'h') and its short options (":h" and each letter): 0, or -1 when the
 * table is too long (a programming error, said on stderr). */
static int getopt_tables(const struct cmd *c, struct option *lo, char *so)
{
	size_t n = 0, s = 0;

	so[s++] = ':';	/* a missing value is ':', not '?' (bad_option) */
	so[s++] = 'h';
	for (; c->opts[n].name; n++) {
		if (n + 2 > CMDOPT_MAX) {
			fprintf(stderr, "%s: more than %d options\n", c->name, CMDOPT_MAX - 2);
			return -1;
		}
		lo[n] = (struct option){ c->opts[n].name, takes_value(&c->opts[n]), NULL, (int)n + 256 };
		if (c->opts[n].letter) {
			so[s++] = c->opts[n].letter;
			if (takes_value(&c->opts[n]))
				so[s++] = ':';
		}
	}
	lo[n++] = (struct option){ "help", 0, NULL, 'h' };
	lo[n] = (struct option){ NULL, 0, NULL, 0 };
	so[s] = 0;
	return 0;
}

/* Says what getopt_long refused (o: '?' an unknown option, ':' one
 * without its value) under the command's name. getopt's own message named
 * argv[0]: a subcommand's word ("runs: unrecognized option") or the
 * binary's path ("./host/build/xcbenchd: ..."). */
static void bad_option(const struct cmd *c, int o, char **argv)
{
	/* optopt: an option's val (index + 256, or 'h'), a short letter, or 0
	 * for a long option that is none (getopt_long has passed its word) */
	const char *word = argv[optind - 1];

	if (o == ':' && optopt >= 256)
		fprintf(stderr, "%s: --%s needs a value\n", c->name, c->opts[optopt - 256].name);
	else if (o == ':')
		fprintf(stderr, "%s: -%c needs a value\n", c->name, optopt);
	else if (optopt >= 256)
		fprintf(stderr, "%s: --%s takes no value\n", c->name, c->opts[optopt - 256].name);
	else if (optopt == 'h' && strncmp(word, "--", 2) == 0)
		fprintf(stderr, "%s: --help takes no value\n", c->name);
	else if (optopt)
		fprintf(stderr, "%s: unknown option '-%c'\n", c->name, optopt);
	else
		fprintf(stderr, "%s: unknown option '%s'\n", c->name, word);
}

/* 0, or -1 after saying that opt was given before (with *first, its
 * value then) and takes one value; else records arg as its first.
 * last_wins: c's table ends with OPT_END_LAST_WINS. */
static int once(const struct cmd *c, int last_wins, const struct cmdopt *opt, const char **first, const char *arg)
{
	if (last_wins || opt->many || !takes_value(opt))
		return 0;
	if (*first) {
		fprintf(stderr, "%s: --%s: given more than once ('%s', then '%s'); it takes one value\n", c->name,
			opt->name, *first, arg);
		return -1;
	}
	*first = arg;
	return 0;
}

int cmd_parse(const struct cmd *c, int argc, char **argv, int *rc)
{
	struct option lo[CMDOPT_MAX];
	const char *first[CMDOPT_MAX] = { 0 };	/* each option's first value */
	char so[2 * CMDOPT_MAX + 2], err[512];
	int o, n = 0;

	*rc = 2;
	if (getopt_tables(c, lo, so))
		return CMD_EXIT;
	while (c->opts[n].name)
		n++;
	optind = 1;
	opterr = 0;
	while ((o = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		const struct cmdopt *opt = NULL;

		if (o == 'h') {
			fputs(c->usage, stdout);
			*rc = 0;
			return CMD_EXIT;
		}
		if (o >= 256)
			opt = &c->opts[o - 256];
		for (size_t i = 0; !opt && c->opts[i].name; i++)
			if (c->opts[i].letter == o)
				opt = &c->opts[i];
		if (!opt) {	/* '?' or ':' */
			bad_option(c, o, argv);
			*rc = cmd_usage_error(c);
			return CMD_EXIT;
		}
		if (once(c, c->opts[n].many, opt, &first[opt - c->opts], optarg))
			return CMD_EXIT;
		err[0] = 0;
		if (apply(opt, optarg, err, sizeof(err))) {
			fprintf(stderr, "%s: %s\n", c->name, err);
			return CMD_EXIT;
		}
	}
	*rc = 0;
	return 0;
}

int cmd_usage_error(const struct cmd *c)
{
	fputs(c->usage, stderr);
	return 2;
}

const char *cmdopt_key(const struct cmdopt *o)
{
	return o->key ? o->key : o->name;
}
