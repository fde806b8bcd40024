/*
 * http.c — the libmicrohttpd server: an internal thread pool over epoll,
 * request bodies collected up to BODY_MAX, and the route tables. Each worker
 * thread reads through its own read-only SQLite connection (db_ro), so HTTP
 * never waits for the writer and never shares a connection across threads.
 * A power action's request is suspended while its driver call runs on a
 * thread of its own (api_power_call.c), so the worker serves its other
 * connections meanwhile. What the handlers use to answer is http_reply.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_power_call.h"
#include "http.h"
#include "http_guard.h"
#include "http_limits.h"
#include "routes.h"
#include "xcbd.h"

static struct MHD_Daemon *mhd;

/* Splits "/api/v1/a/b/c" after the prefix into at most 8 segments (empty
 * segments vanish: "runs//1/" is "runs/1"). strtok_r, never strtok: the
 * worker threads route at once, and strtok's one hidden position is shared
 * by all of them (t-load-ingest-api saw "runs/8/events" answer 404). */
static int split(char *path, char **seg, int max)
{
	char *save = NULL;
	int n = 0;

	for (char *p = strtok_r(path, "/", &save); p && n < max; p = strtok_r(NULL, "/", &save))
		seg[n++] = p;
	return n;
}

static int is(const char *m, const char *want)
{
	return strcmp(m, want) == 0;
}

/* A case id: 0 .. 2^32-1 (CASE ids are u32 on the wire). */
static int parse_case(const char *s, int64_t *id)
{
	uint64_t v;

	if (parse_u64(s, &v) || v > UINT32_MAX)
		return -1;
	*id = (int64_t)v;
	return 0;
}

/* A path parameter: how it parses, what a bad one answers, and whether it
 * is checked as soon as the segments before it match (a bad run id is a 400
 * under every runs/ path) or only once the whole pattern matches. */
struct param {
	const char *name;
	int (*parse)(const char *s, int64_t *v);
	const char *bad;
	int eager;
};
static const struct param params[] = {
	{ "{run}", parse_id, "bad run id '%s'", 1 },
	{ "{case}", parse_case, "bad case id '%s'", 0 },
	{ "{job}", parse_id, "bad job id '%s'", 0 },
	{ "{mac}", parse_mac_param, "bad MAC address '%s'", 0 },
};

/* The compare route's two answers (api_compare.c). */
static enum MHD_Result compare_json(struct req *rq)
{
	return api_compare(rq, 0);
}

static enum MHD_Result compare_csv(struct req *rq)
{
	return api_compare(rq, 1);
}

/* The API: method, path after /api/v1/ (segments; "{x}" a parameter,
 * "{x}.csv" one with that suffix), and the handler taking 0, 1 or 2 of the
 * parameters. The first route whose path matches answers; a path that
 * matches with another method only is a 405. */
static const struct route {
	const char *method, *pattern;
	enum MHD_Result (*h0)(struct req *rq);
	enum MHD_Result (*h1)(struct req *rq, int64_t a);
	enum MHD_Result (*h2)(struct req *rq, int64_t a, int64_t b);
} routes[] = {
	{ "GET", "health", .h0 = api_health },
	{ "GET", "schema", .h0 = api_schema },	/* api_schema.c */
	{ "GET", "machines", .h0 = api_machines },
	{ "GET", "labs", .h0 = api_labs },
	{ "GET", "runs", .h0 = api_runs },
	{ "POST", "runs", .h0 = api_run_create },
	{ "GET", "runs.csv", .h0 = api_runs_csv },
	{ "GET", "runs/{run}.csv", .h1 = api_run_csv },
	{ "GET", "runs/{run}", .h1 = api_run },
	{ "PATCH", "runs/{run}", .h1 = api_run_patch },
	{ "GET", "runs/{run}/events", .h1 = api_run_events },
	{ "POST", "runs/{run}/console", .h1 = api_run_console },
	{ "GET", "runs/{run}/cases/{case}/histogram", .h2 = api_histogram },
	{ "GET", "runs/{run}/cases/{case}/samples", .h2 = api_samples },	/* api_samples.c */
	{ "GET", "runs/{run}/samples.csv", .h1 = api_samples_csv },
	{ "GET", "compare", .h0 = compare_json },
	{ "GET", "compare.csv", .h0 = compare_csv },
	{ "GET", "calibrate", .h0 = api_calibrate },
	{ "GET", "baselines", .h0 = api_baselines },
	{ "POST", "baselines", .h0 = api_baseline_set },
	{ "GET", "jobs", .h0 = api_jobs },
	{ "POST", "jobs", .h0 = api_job_create },
	{ "DELETE", "jobs/{job}", .h1 = api_job_delete },
	{ "GET", "jobs/{job}", .h1 = api_job },			/* api_machines.c */
	{ "POST", "jobs/{job}/cancel", .h1 = api_job_cancel },
	{ "GET", "machines/{mac}", .h1 = api_machine },
	{ "PUT", "machines/{mac}/power", .h1 = api_machine_power_set },
	{ "POST", "machines/{mac}/power", .h1 = api_machine_power },
	{ "GET", "lab", .h0 = api_lab },
	{ "POST", "jobs/{job}/requeue", .h1 = api_job_requeue },	/* api_job_bind.c */
};

/* What matching a route against the segments found. */
enum match { NO_MATCH, MATCH, BAD_PARAM };

/* Matches r against seg[0..n): MATCH with the parameters in arg[]; or
 * BAD_PARAM with the 400 message in bad: an eager parameter whose segments
 * before it matched, or any parameter of a whole match; else NO_MATCH. */
static enum match match(const struct route *r, char **seg, int n, int64_t *arg, char *bad, size_t badlen)
{
	char pat[128], *ps[8], val[512];
	const struct param *failed = NULL;
	int np, na = 0;

	snprintf(pat, sizeof(pat), "%s", r->pattern);
	np = split(pat, ps, 8);
	if (np > n)
		return NO_MATCH;
	for (int i = 0; i < np; i++) {
		const struct param *p = NULL;
		size_t sl = strlen(seg[i]), pl;

		for (size_t k = 0; k < sizeof(params) / sizeof(*params) && !p; k++)
			if (strncmp(ps[i], params[k].name, strlen(params[k].name)) == 0)
				p = &params[k];
		if (!p) {
			if (!is(ps[i], seg[i]))
				return NO_MATCH;
			continue;
		}
		/* "{run}.csv": the segment ends with the suffix and holds more. */
		pl = strlen(ps[i] + strlen(p->name));
		if (pl && (sl <= pl || strcmp(seg[i] + sl - pl, ps[i] + strlen(p->name))))
			return NO_MATCH;
		snprintf(val, sizeof(val), "%.*s", (int)(sl - pl), seg[i]);
		if (!failed && p->parse(val, &arg[na])) {
			failed = p;
			snprintf(bad, badlen, p->bad, val);
			/* A bare eager parameter is wrong whatever follows it. */
			if (p->eager && !pl)
				return BAD_PARAM;
		}
		na++;
	}
	if (np != n)
		return NO_MATCH;
	return failed ? BAD_PARAM : MATCH;
}

/* MHD_get_connection_values's iterator: clears *cls at the first query
 * argument whose name or value is not UTF-8, and stops there. */
static enum MHD_Result arg_utf8(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	int *ok = cls;

	(void)kind;
	if (utf8_valid(key) && (!value || utf8_valid(value)))
		return MHD_YES;
	*ok = 0;
	return MHD_NO;
}

/* The query argument names arg_once has seen, and the first one it saw
 * twice. Past ARGS_SEEN names it remembers no more (no route reads more
 * than a dozen), so a repeat among those is let through as before. */
#define ARGS_SEEN 64
struct args_seen {
	const char *name[ARGS_SEEN];
	int n;
	const char *twice;
};

/* MHD_get_connection_values's iterator: stops at the first query argument
 * whose name came before (args_seen.twice). */
static enum MHD_Result arg_once(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	struct args_seen *s = cls;

	(void)kind, (void)value;
	for (int i = 0; i < s->n; i++) {
		if (!strcmp(s->name[i], key)) {
			s->twice = key;
			return MHD_NO;
		}
	}
	if (s->n < ARGS_SEEN)
		s->name[s->n++] = key;
	return MHD_YES;
}

/* Adds method (and HEAD after GET) to rq's Allow list, once each. */
static void allow_add(struct req *rq, const char *method)
{
	size_t n = strlen(rq->allow);
	const char *p = strstr(rq->allow, method);

	if (p && (p == rq->allow || p[-1] == ' ') && (!p[strlen(method)] || p[strlen(method)] == ','))
		return;
	snprintf(rq->allow + n, sizeof(rq->allow) - n, "%s%s", n ? ", " : "", method);
	if (is(method, "GET"))
		allow_add(rq, "HEAD");
}

/* Answers an /api/v1/ path with the first route that matches it: 400 for
 * a bad parameter, 405 when only other methods match, else 404. */
static enum MHD_Result route_api(struct req *rq, const char *path)
{
	char copy[512], *seg[8], bad[600] = "";
	const struct route *allowed = NULL;
	int n, bad_param = 0, utf8 = 1;
	struct args_seen once = { .n = 0 };
	int64_t arg[2];

	if (strlen(path) >= sizeof(copy))
		return reply_error(rq, 404, "no such API route");
	/* Query arguments are text: a handler puts them in its JSON answer
	 * (compare's algo_a, a_where), which jansson cannot build from bytes
	 * that are not UTF-8 (fuzz_http: compare?algo_a=%FF answered 500). */
	MHD_get_connection_values(rq->conn, MHD_GET_ARGUMENT_KIND, arg_utf8, &utf8);
	if (!utf8)
		return reply_error(rq, 400, "query arguments must be UTF-8 text");
	/* A handler reads an argument's first value (qarg): a second was
	 * dropped without a word, so ?status=complete&status=crashed (and
	 * xcbench runs --status complete --status crashed) listed the
	 * complete runs only, as if that were every run asked for. */
	MHD_get_connection_values(rq->conn, MHD_GET_ARGUMENT_KIND, arg_once, &once);
	if (once.twice)
		return reply_error(rq, 400, "%.64s: given more than once (each query argument once)", once.twice);
	snprintf(copy, sizeof(copy), "%s", path);
	n = split(copy, seg, 8);
	for (size_t i = 0; i < sizeof(routes) / sizeof(*routes) && !bad_param; i++) {
		const struct route *r = &routes[i];

		switch (match(r, seg, n, arg, bad, sizeof(bad))) {
		case NO_MATCH:
			continue;
		case BAD_PARAM:
			/* Unless an earlier route took the path (another method):
			 * "runs/1.csv" is no bad "runs/{run}". */
			bad_param = !allowed;
			continue;
		case MATCH:
			break;
		}
		/* HEAD is GET without the body (libmicrohttpd sends none), as
		 * the boot routes and static files take it: curl -I of an API
		 * route answered 405 */
		if (!is(rq->method, r->method) && !(is(rq->method, "HEAD") && is(r->method, "GET"))) {
			allowed = r;
			allow_add(rq, r->method);
			continue;
		}
		return r->h0 ? r->h0(rq) : r->h1 ? r->h1(rq, arg[0]) : r->h2(rq, arg[0], arg[1]);
	}
	if (bad_param)
		return reply_error(rq, 400, "%s", bad);
	if (allowed)
		return reply_error(rq, 405, "%s not allowed on %s", rq->method, path);
	return reply_error(rq, 404, "no such API route: %s", path);
}

/* Outside /api/: the iPXE routes (boot.c), GET or HEAD: exact paths, or
 * the payload images, whose routes boot.c's table names (boot_is_payload);
 * everything else is a static file. */
static const struct {
	const char *path;
	enum MHD_Result (*fn)(struct req *rq);
	int (*match)(const char *url);	/* instead of path */
} boot_routes[] = {
	{ "/boot.ipxe", boot_ipxe, NULL },
	{ "/boot.json", boot_json, NULL },
	{ NULL, boot_firmware, boot_is_payload },
};

static enum MHD_Result handler(void *cls, struct MHD_Connection *conn, const char *url,
			       const char *method, const char *version, const char *upload,
			       size_t *upload_size, void **con_cls)
{
	struct req *rq = *con_cls;

	(void)cls;
	(void)version;
	if (!rq) {
		rq = calloc(1, sizeof(*rq));
		if (!rq)
			return MHD_NO;
		rq->conn = conn;
		rq->method = method;
		rq->url = url;
		*con_cls = rq;
		return MHD_YES; /* headers only; the body (if any) follows */
	}
	if (*upload_size) {
		if (rq->body.len + *upload_size > BODY_MAX)
			rq->too_big = 1;
		else if (buf_add(&rq->body, upload, *upload_size))
			rq->too_big = 1;
		*upload_size = 0;
		return MHD_YES;
	}
	/* Resumed after its power call's thread ended: the answer is ready. */
	if (rq->power)
		return power_call_answer(rq);
	if (rq->too_big)
		return reply_error(rq, 413, "request body larger than %d bytes", BODY_MAX);
	{
		const char *host = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Host"), *why;
		unsigned status;

		if (!host_allowed(host))
			return reply_error(rq, 421, "Host '%.100s' does not name this daemon (see --host-name)",
					   host ? host : "");
		/* Only a write that would be allowed (admin, or --open) needs
		 * the check: the others get their 401/404/405 from the routes. */
		if (!is(method, "GET") && !is(method, "HEAD") && is_admin(rq) &&
		    (why = write_refused(rq, &status)))
			return reply_error(rq, status, "%s", why);
	}
	if (strncmp(url, "/api/v1/", 8) == 0)
		return route_api(rq, url + 8);
	if (strncmp(url, "/api/", 5) == 0 || strcmp(url, "/api") == 0)
		return reply_error(rq, 404, "no such API route: %s", url);
	for (size_t i = 0; i < sizeof(boot_routes) / sizeof(*boot_routes); i++) {
		if (boot_routes[i].match ? boot_routes[i].match(url) : strcmp(url, boot_routes[i].path) == 0) {
			if (is(method, "GET") || is(method, "HEAD"))
				return boot_routes[i].fn(rq);
			allow_add(rq, "GET");
			return reply_error(rq, 405, "%s not allowed", method);
		}
	}
	if (!is(method, "GET") && !is(method, "HEAD")) {
		allow_add(rq, "GET");
		return reply_error(rq, 405, "%s not allowed on static files", method);
	}
	return static_file(rq);
}

static void completed(void *cls, struct MHD_Connection *conn, void **con_cls,
		      enum MHD_RequestTerminationCode toe)
{
	struct req *rq = *con_cls;

	(void)cls;
	(void)toe;
	http_limits_request_done(conn);
	if (rq) {
		buf_free(&rq->body);
		power_call_free(rq->power);
		free(rq);
		*con_cls = NULL;
	}
}

int http_start(void)
{
	if (http_limits_start())
		return -1;
	/* Idle timeout as before, plus a per-address cap so one host cannot
	 * take every connection (the global cap stays below the fd limit),
	 * plus the whole-request deadline of http_limits.c. No
	 * MHD_OPTION_LISTENING_ADDRESS_REUSE: its 1 is SO_REUSEPORT, under
	 * which a second daemon bound the same port and the kernel split the
	 * connections between the two stores; MHD's default (SO_REUSEADDR)
	 * still lets a restart skip TIME_WAIT. */
	mhd = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG |
				       MHD_ALLOW_SUSPEND_RESUME,
			       0, NULL, NULL, handler, NULL,
			       MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&cfg.listen,
			       MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)cfg.threads,
			       MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
			       MHD_OPTION_NOTIFY_CONNECTION, http_limits_notify, NULL,
			       MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)60,
			       MHD_OPTION_CONNECTION_LIMIT, (unsigned int)512,
			       MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)cfg.per_ip_conns,
			       MHD_OPTION_UNESCAPE_CALLBACK, http_unescape, NULL,
			       MHD_OPTION_END);
	if (!mhd)
		http_limits_stop();
	return mhd ? 0 : -1;
}

void http_stop(void)
{
	/* No connection may be suspended when the daemon stops: the power
	 * calls are abandoned (their children killed) and resume theirs
	 * first, answered 503 (api_power_call.c). */
	power_calls_drain();
	if (mhd)
		MHD_stop_daemon(mhd);
	mhd = NULL;
	http_limits_stop();
}
