/*
 * client.h — what every xcbench subcommand shares: the server URL and admin
 * token (global options), a minimal HTTP/1.1 client for the daemon's API,
 * and small output helpers.
 */
#ifndef XCB_CLIENT_H
#define XCB_CLIENT_H

#include <jansson.h>
#include <stdio.h>

#include "cmdopt.h"
#include "util.h"

extern const char *opt_server;     /* --server URL (default http://127.0.0.1:8080) */
extern const char *opt_server_from; /* where it came from, for messages: "--server" or "XCBENCH_SERVER" */
extern const char *opt_token_file; /* --token-file FILE (or $XCBENCH_TOKEN) */
/* How long a call waits: for the connection, and then for each next byte
 * of the answer ($XCBENCH_TIMEOUT). Not for the whole answer: a CSV export
 * streams for as long as it streams, and a power call on the daemon may
 * take ~65 s before its first byte (a BMC that does not answer). */
#define XCB_CONNECT_TIMEOUT_S 10
#define XCB_IDLE_TIMEOUT_S 120
extern int opt_idle_timeout;       /* seconds (XCB_IDLE_TIMEOUT_S) */

struct http_resp {
	int status;
	struct buf body;   /* empty when streamed to a file */
};

/* method path [body JSON]: 0 with resp filled (any status), -1 on a
 * connection error, a timeout, an unreadable --token-file or a failed
 * write to out (message printed). With out != NULL a 2xx body is
 * written there as it arrives (constant memory). */
int http_call(const char *method, const char *path, const char *body, struct http_resp *resp,
	      FILE *out);
/* http_call with another Host header (host_hdr "HOST:PORT"; NULL: the
 * server's): the daemon builds boot answers from the Host a machine uses,
 * and a virtual machine reaches a loopback daemon under another address. */
int http_call_as(const char *host_hdr, const char *method, const char *path, const char *body,
		 struct http_resp *resp, FILE *out);
/* The last message a call said (its error: no connection, an HTTP error
 * status and the API's message, ...) without its newline; with http_quiet
 * set, calls say nothing on stderr, only keep it here (a caller that
 * decides what to say: `job wait` waits through an outage). */
extern int http_quiet;
const char *http_said(void);
/* 1 when the last call failed on the server's side of the connection:
 * refused or unanswered, reset, closed before or in the middle of its
 * answer (a daemon restarting); 0 for an answer, or a fault of this
 * command's (its --server or --token-file). */
int http_unreached(void);
/* GET/POST returning the parsed JSON object of a 2xx answer; prints the
 * API's error (or that the answer is no JSON object) and returns NULL
 * otherwise. */
json_t *api_json(const char *method, const char *path, json_t *body);
/* The same for a body built from cmd's options: a 400 whose message names
 * one of their JSON keys ("password_file: ...") names the option instead
 * ("xcbench machine: --password-file: ..."). */
json_t *api_json_for(const struct cmd *cmd, const char *method, const char *path, json_t *body);
/* The HTTP status of api_json/api_json_for's last answer, 0 when none came
 * (a refused request, 400, is the user's to fix: exit 2, not 1). */
int api_last_status(void);
/* 1 when api_json/api_json_for's last answer was an error of xcbenchd's
 * own ({"error": ...}, as its every error is): a daemon there, whatever
 * it said; 0 for no answer, a 2xx or another server's error page. */
int api_last_error_ours(void);
/* "xcbench: writing the output failed: " and err's text (none for 0). */
void say_output_failed(int err);
/* What to add to an HTTP error status's message: a hint for 401 (to pass
 * a token when none was sent; that the daemon refused the one sent, naming
 * its --token-file or $XCBENCH_TOKEN), else "". */
/* An answer's error for a person: the API's "error" message (not the JSON
 * around it), else that it is not xcbenchd's, naming --server. A copy to
 * free; never NULL unless out of memory. */
char *http_error_text(const struct http_resp *r);
const char *http_status_hint(int status);
/* Host part of opt_server (for UDP), and its port. */
int server_host(char *host, size_t len, int *port);
/* URL-encodes s into b. */
void url_encode(struct buf *b, const char *s);
/* Prints a JSON value as text ("-" for null). */
const char *jstr(json_t *v, char *tmp, size_t len);
/* The bounded stages, as the daemon's timeouts objects name them
 * (cmd_job.c): bound i's. */
extern const char *const job_bound_names[3];

/* Shared by the subcommands (subcmd.c; their option loops: cmdopt.h).
 * A run or job id: the whole of s, decimal, 1 .. INT64_MAX (none larger
 * exists): 0, or -1. */
int parse_id(const char *s, uint64_t *id);
/* argv[optind] must be the only argument left and a run id (> 0): 0, or
 * 2 after an error naming cmd, and its usage, on stderr. */
int one_run_id(const struct cmd *cmd, int argc, char **argv, uint64_t *id);
/* --json: prints o indented on stdout and frees it; returns 0. */
int print_json(json_t *o);
/* The arguments from optind on, each KEY=VALUE, into params (strings): 0,
 * or 2 after naming the first that is not, that is no key the payload
 * knows or has a word its vocabulary lacks (payload_keys.h), or whose key
 * came before (cmd, on stderr). */
int kv_args(const char *cmd, int argc, char **argv, json_t *params);
/* GETs path: the answer for the caller to print as text; NULL when there
 * is nothing left to do: *rc = 1 after an error (printed), *rc = 0 after
 * printing the answer as JSON (as_json). */
json_t *get_answer(const char *path, int as_json, int *rc);
/* GET /api/v1/runs/{id} with every case: the answer holds a page of cases
 * (cases_next: where the next starts), so the pages after it are read and
 * their cases appended; the answer as the API gives it (not made terminal
 * safe), without cases_next. NULL after an error (printed). */
json_t *api_run_whole(uint64_t id);
/* 1 if suite is one of the payload's suites (proto's XCB_VOCAB_SUITE),
 * else 0 after naming them (cmd, on stderr): said before anything boots. */
int suite_ok(const char *cmd, const char *suite);
/* Masks, as '?', the control characters (C0 but newline and tab, DEL, C1)
 * in every string of v, for printing as text (termsafe.c): a terminal
 * obeys them; in a label or tags, newline and tab too (one line each).
 * api_answer does it to every answer it returns. */
void term_safe(json_t *v);
/* The same for a method with a body (taken: freed here; NULL for none). */
json_t *api_answer(const char *method, const char *path, json_t *body, int as_json, int *rc);
/* api_answer with api_json_for's errors for cmd's options. */
json_t *api_answer_for(const struct cmd *cmd, const char *method, const char *path, json_t *body, int as_json,
		       int *rc);
/* The text form of an answer of one object: prints prefix, then o's member
 * key with print, and frees o. o is get_answer's or api_answer's result and
 * rc what they set: returned as it is when o is NULL (nothing left to do). */
int print_member(json_t *o, int rc, const char *prefix, const char *key, void (*print)(json_t *));
/* Options that build a JSON request body (cmdopt.h's CMDOPT_FN actions on
 * subcmd.c): obj is the json_t * it goes in, k the key (NULL: the option's
 * name). STR sets obj[k] to the value, ADD appends it to the array obj, INT
 * sets a whole number in lo..hi, KV takes KEY=VALUE into obj[KEY], TRUE
 * (no value) sets obj[k] to true. */
cmdopt_fn opt_json_str, opt_json_add, opt_json_int, opt_json_kv, opt_json_true;
#define OPT_JSON_STR(n, obj, k)         OPT_FN(n, opt_json_str, obj, k)
#define OPT_JSON_ADD(n, arr)            OPT_FN_MANY(n, opt_json_add, arr, NULL)
#define OPT_JSON_INT(n, obj, k, l, h)   { .name = (n), .kind = CMDOPT_FN, .fn = opt_json_int, .dst = (obj), .key = (k), .lo = (l), .hi = (h) }
#define OPT_JSON_KV(n, obj)             OPT_FN_MANY(n, opt_json_kv, obj, NULL)
#define OPT_JSON_TRUE(n, obj, k)        OPT_FN_FLAG(n, opt_json_true, obj, k)
/* GETs path, writing a 200 body to out as it arrives; 0, or 1 after an
 * error (named after cmd) on stderr. */
int http_get_to(const char *cmd, const char *path, FILE *out);
/* The same into FILE (NULL: standard output) through FILE.tmp, renamed
 * once the whole answer is there (a failed export leaves no FILE and no
 * FILE.tmp); 2 after naming an empty FILE a usage error. */
int http_get_file(const char *cmd, const char *path, const char *file);

/* Subcommands (one file each). Each gets argv[0] = its name. */
int cmd_runs(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_queue(int argc, char **argv);
int cmd_ingest(int argc, char **argv);
int cmd_vm(int argc, char **argv);   /* cmd_vm.c, vm_qemu.c */
int cmd_machine(int argc, char **argv);
int cmd_job(int argc, char **argv);
/* `job list` (cmd_job_list.c): the jobs, newest first; only MAC's, LAB's
 * machines', the pending ones where given. Its exit status. */
int job_list(const struct cmd *cmd, const char *mac, const char *lab, int pending, int as_json);
int cmd_check(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_baseline(int argc, char **argv);
int cmd_label(int argc, char **argv);
int cmd_samples(int argc, char **argv);

#endif
