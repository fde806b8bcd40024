/*
 * cmdopt.h — the command line of every tool here (xcbenchd, xcbench's
 * subcommands, xcb-gen, xcb-load, xcb-copy) as one declarative table: each
 * option names where its value goes and how it is checked; cmd_parse runs
 * getopt_long over it, answers --help and bad options the one way from the
 * command's usage text, and names the option, the value and what it should
 * be on a bad value. A command keeps only its table and its operands.
 */
#ifndef XCB_CMDOPT_H
#define XCB_CMDOPT_H

#include <stddef.h>
#include <stdint.h>

/* What an option does with its value (cmdopt.c's apply). */
enum cmdopt_kind {
	CMDOPT_FLAG,    /* no value: *(int *)dst = 1 */
	CMDOPT_STR,     /* *(const char **)dst = the value, never '' unless
	                 * empty_ok (OPT_STR_ANY) */
	CMDOPT_INT,     /* a whole number in lo..hi into *(int *)dst */
	CMDOPT_NUM,     /* a finite real number in dlo..dhi into *(double *)dst */
	CMDOPT_U64,     /* a decimal whole number into *(uint64_t *)dst */
	CMDOPT_HEX64,   /* 1..16 hex digits into *(uint64_t *)dst */
	CMDOPT_WORD,    /* one of words[0..nwords-1]: its index into *(int *)dst */
	CMDOPT_FN,      /* fn(o, value, err): the command's own check and store */
};

struct cmdopt;
/* A CMDOPT_FN option's action: 0, or -1 with why in err (cmd_parse prints
 * "NAME: err" and ends with status 2). */
typedef int cmdopt_fn(const struct cmdopt *o, const char *arg, char *err, size_t errlen);

/* One option of a command's table (ended by { NULL }). */
struct cmdopt {
	const char *name;            /* the long name without its dashes: "json" */
	enum cmdopt_kind kind;
	void *dst;                   /* where the value goes (see the kinds) */
	int lo, hi;                  /* CMDOPT_INT's range */
	double dlo, dhi;             /* CMDOPT_NUM's range (each command states it: a
	                              * fraction, seconds; nan and inf are in none) */
	const char *const *words;    /* CMDOPT_WORD's words, nwords of them */
	int nwords;
	cmdopt_fn *fn;               /* CMDOPT_FN's action */
	const char *key;             /* for fn: a name of its own (a JSON key); NULL: name */
	char letter;                 /* a short option -letter besides --name; 0: none */
	char noarg;                  /* CMDOPT_FN: 1 when it takes no value (--sol) */
	char empty_ok;               /* CMDOPT_STR: '' is a value (a label cleared) */
	char many;                   /* may be given more than once, each use adding
	                              * (--tag T...); else once (cmd_parse). On a
	                              * table's end: OPT_END_LAST_WINS */
};

#define OPT_FLAG(n, p)            { .name = (n), .kind = CMDOPT_FLAG, .dst = (p) }
#define OPT_STR(n, p)             { .name = (n), .kind = CMDOPT_STR, .dst = (p) }
/* A text option whose empty value means something (--label ''). */
#define OPT_STR_ANY(n, p)         { .name = (n), .kind = CMDOPT_STR, .dst = (p), .empty_ok = 1 }
#define OPT_INT(n, p, l, h)       { .name = (n), .kind = CMDOPT_INT, .dst = (p), .lo = (l), .hi = (h) }
#define OPT_NUM(n, p, l, h)       { .name = (n), .kind = CMDOPT_NUM, .dst = (p), .dlo = (l), .dhi = (h) }
#define OPT_U64(n, p)             { .name = (n), .kind = CMDOPT_U64, .dst = (p) }
#define OPT_HEX64(n, p)           { .name = (n), .kind = CMDOPT_HEX64, .dst = (p) }
/* w an array (its size is taken), e.g. proto's xcb_boot_words */
#define OPT_WORD(n, p, w)         { .name = (n), .kind = CMDOPT_WORD, .dst = (p), .words = (w), \
                                    .nwords = (int)(sizeof(w) / sizeof((w)[0])) }
#define OPT_FN(n, f, p, k)        { .name = (n), .kind = CMDOPT_FN, .fn = (f), .dst = (p), .key = (k) }
/* A CMDOPT_FN option that may be given again, each value adding (--tag). */
#define OPT_FN_MANY(n, f, p, k)   { .name = (n), .kind = CMDOPT_FN, .fn = (f), .dst = (p), .key = (k), .many = 1 }
/* A CMDOPT_FN option whose fn takes no value (e.g. --sol). */
#define OPT_FN_FLAG(n, f, p, k)   { .name = (n), .kind = CMDOPT_FN, .fn = (f), .dst = (p), .key = (k), .noarg = 1 }
#define OPT_END                   { .name = NULL }
/* The end of a table whose options take the last of several values, where
 * every other table refuses a single-valued option given twice (cmd_parse):
 * xcbenchd's, which scripts start from a base command line plus overrides
 * (tests/lib/net.sh's --db, t-cli-errors.sh's --listen ''). */
#define OPT_END_LAST_WINS         { .name = NULL, .many = 1 }

/* One command: what names it in messages, its usage text, its options. */
struct cmd {
	const char *name;            /* "xcbench runs", "xcb-gen" */
	const char *usage;           /* the whole --help text, ending in a newline */
	const struct cmdopt *opts;   /* its table; --help (-h) is always there */
};

/* cmd_parse's answer when the command must end now, with *rc its status. */
#define CMD_EXIT (-2)

/* Applies argv's options to c's table (optind is reset first): 0 with
 * optind at the first operand, or CMD_EXIT with *rc = 0 after --help (the
 * usage on stdout) or *rc = 2 after a bad option or value (said on stderr,
 * with the usage for a bad option). An option that takes a value and is
 * not many is refused the second time, naming both values: the last one
 * was taken without a word (vm --suite seed ... --suite tlb ran tlb); a
 * flag given twice means what it means once; a table that ends with
 * OPT_END_LAST_WINS takes the last. */
int cmd_parse(const struct cmd *c, int argc, char **argv, int *rc);
/* Prints c's usage on stderr after a usage error; returns 2 (the status). */
int cmd_usage_error(const struct cmd *c);
/* arg as a whole number in o's lo..hi into *out: 0, or -1 with why in err
 * (CMDOPT_INT's check, for an OPT_FN that stores a number elsewhere). */
int cmdopt_int(const struct cmdopt *o, const char *arg, int *out, char *err, size_t errlen);
/* arg as a finite real number in o's dlo..dhi into *out: 0, or -1 with
 * why in err (CMDOPT_NUM's check, for an OPT_FN that takes a list). */
int cmdopt_num(const struct cmdopt *o, const char *arg, double *out, char *err, size_t errlen);
/* The key an OPT_FN option stores under: its key, else its name. */
const char *cmdopt_key(const struct cmdopt *o);

#endif
