/*
 * main.c — xcbenchd: flags, start-up (database, registry, writer, UDP
 * collector, HTTP), and a clean shutdown on SIGTERM/SIGINT: stop taking
 * datagrams and requests first, then let the writer commit what is queued.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bootnet.h"
#include "cmdopt.h"
#include "collector.h"
#include "csvahead.h"
#include "db.h"
#include "fwcheck.h"
#include "http.h"
#include "job_runner.h"
#include "registry.h"
#include "run_limits.h"
#include "util.h"
#include "webcheck.h"
#include "xcb_schema.h"
#include "writer.h"
#include "xcbd.h"

struct xcbd_config cfg;
struct xcbd_counters ctr;
int64_t start_time;

static const char usage_text[] =
"usage: xcbenchd [options]\n"
"Collects xcbench results (UDP), stores them in SQLite or PostgreSQL, serves\n"
"the API, dashboard, CSV and iPXE boot scripts (HTTP), and drives its lab's\n"
"machines through their jobs.\n"
"\n"
"  --listen [HOST:]PORT   HTTP address (default 0.0.0.0:8080)\n"
"  --udp [HOST:]PORT      UDP collector address (default 0.0.0.0:8080)\n"
"  --db FILE|URL          the store: a SQLite file (default ./xcbench.db), or a\n"
"                         PostgreSQL server, postgresql://user@host/dbname (its\n"
"                         password from PGPASSFILE, ~/.pgpass or PGPASSWORD,\n"
"                         never in the URL)\n"
"  --web DIR              dashboard files (default: the repository's web/)\n"
"  --firmware FILE        payload served at /firmware/xcbench.elf\n"
"                         (default: the repository's firmware/build/xcbench.elf)\n"
"  --token-file FILE      admin token for write routes (Authorization: Bearer)\n"
"  --open                 accept new runs from unknown tokens (at their HELLO),\n"
"                         and writes without a token: loopback addresses only\n"
"  --lost-after SECONDS   a run silent this long becomes 'lost' (default 120)\n"
"  --suite NAME           suite for boots without a queued job, one the payload\n"
"                         has (default 'default')\n"
"  --lab NAME             this daemon's lab, when several share one --db: its\n"
"                         runs and machines carry NAME; it collects, boots,\n"
"                         powers and serves jobs for its own lab only (another\n"
"                         lab's machine: 409), and lists all labs\n"
"  --threads N            HTTP worker threads (default 4)\n"
"  --request-timeout S    seconds a client has to send a whole request\n"
"                         (headers and body; default 10; trickling cannot\n"
"                         extend it)\n"
"  --per-ip-connections N HTTP connections per client address (default 64)\n"
"  --host-name NAME       a name the Host header may use for this daemon\n"
"                         (repeatable; IP literals are always accepted, and\n"
"                         'localhost' on loopback or with --open)\n"
"  --boot-from CIDR       a network whose boot requests may be handed a queued\n"
"                         job (repeatable; default: this host's non-loopback\n"
"                         IPv4 subnets, and 127.0.0.1, QEMU user networking's\n"
"                         source, without --lab). A machine with a known boot\n"
"                         address gets its jobs only from that address\n"
"  --run-limit KIND=N     what one run may store (repeatable): cases (4096),\n"
"                         frames (524288), histo (1048576 rows), samples\n"
"                         (1048576 rows), events (16384 log/error lines), facts\n"
"                         (256 HELLO keys), console (4194304 bytes); past it a\n"
"                         frame is refused, counted, and the run's events say so\n"
"  --ready-fd N           write \"ready http=PORT udp=PORT\\n\" to file descriptor N\n"
"                         (then close it) once HTTP and UDP listen: scripts\n"
"                         wait on it instead of polling /api/v1/health\n"
"  --test-drop P          TEST ONLY: drop this fraction (0..1) of received\n"
"                         datagrams\n"
"  --version              the release and the build (git describe), then exit\n"
"  --help                 this text\n"
"\n"
"API: see host/API.md. Wire protocol: proto/README.md.\n";

/* The repository root's REL, for a daemon run from its build tree: the
 * nearest directory above /proc/self/exe that holds host/Makefile
 * (ROOT/host/build/xcbenchd, and ROOT/host/build/san/xcbenchd-asan one
 * level deeper, which a fixed three levels up took to ROOT/host and so to
 * a --firmware and --web that were not there); else three levels up, as
 * before, for a daemon installed elsewhere (whose --firmware and --web
 * are given: host/Dockerfile). */
static char *repo_path(const char *rel)
{
	char exe[4096], walk[4096], probe[4200], *root, *out;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return strdup(rel);
	exe[n] = 0;
	/* dirname(3) writes into its argument: the walk has its own copy. */
	memcpy(walk, exe, (size_t)n + 1);
	root = dirname(walk);
	for (int up = 0; up < 4 && strcmp(root, "/"); up++) {
		root = dirname(root);
		snprintf(probe, sizeof(probe), "%s/host/Makefile", root);
		if (!access(probe, R_OK))
			goto found;
	}
	root = dirname(dirname(dirname(exe)));
found:
	if (asprintf(&out, "%s/%s", root, rel) < 0)
		return NULL;
	return out;
}

/* What parse_args leaves for the later steps besides cfg. */
struct start_opts {
	const char *listen_s, *udp_s;
	int ready_fd;                   /* --ready-fd, or -1 */
};

/* --ready-fd: checked now, so that a typo fails at once instead of leaving
 * the waiting script hanging. */
static int parse_ready_fd(const struct cmdopt *o, const char *arg, char *err, size_t errlen)
{
	uint64_t fd;

	if (parse_u64(arg, &fd) || fd > 1024 || fcntl((int)fd, F_GETFD) < 0) {
		snprintf(err, errlen, "--ready-fd: '%s' is not an open file descriptor", arg);
		return -1;
	}
	*(int *)o->dst = (int)fd;
	return 0;
}

/* --host-name (repeatable). */
static int add_host_name(const struct cmdopt *o, const char *arg, char *err, size_t errlen)
{
	(void)o;
	if (cfg.nhost_names == (int)(sizeof(cfg.host_names) / sizeof(cfg.host_names[0])) ||
	    !arg[0] || strlen(arg) > 100) {
		snprintf(err, errlen, "--host-name: at most 16 names of 1..100 characters");
		return -1;
	}
	cfg.host_names[cfg.nhost_names++] = arg;
	return 0;
}

/* --boot-from (repeatable) and --run-limit KIND=N (what one run may store):
 * their modules check and keep them. */
static int add_boot_net(const struct cmdopt *o, const char *arg, char *err, size_t errlen)
{
	(void)o;
	return bootnet_add(arg, err, errlen);
}

static int set_run_limit(const struct cmdopt *o, const char *arg, char *err, size_t errlen)
{
	(void)o;
	return run_limit_set(arg, err, errlen);
}

/* --lab: a name for URLs, logs and the run list's filter. */
static int set_lab(const struct cmdopt *o, const char *arg, char *err, size_t errlen)
{
	(void)o;
	if (!lab_name_ok(arg)) {
		snprintf(err, errlen, "--lab: '%s' is not " LAB_NAME_RULE, arg);
		return -1;
	}
	cfg.lab = arg;
	return 0;
}

/* Step 1: the command line into cfg and *o (defaults first). -1 to go on, or
 * the exit status (0 after --help, 2 after a usage error, already reported). */
static int parse_args(int argc, char **argv, struct start_opts *o)
{
	/* A suite the payload lacks booted every machine without a job into
	 * its "unknown suite" error; POST /api/v1/jobs refuses one too. */
	int suite = XCB_SUITE_DEFAULT, version = 0;
	const struct cmdopt opts[] = {
		OPT_STR("listen", &o->listen_s), OPT_STR("udp", &o->udp_s), OPT_STR("db", &cfg.db_path),
		OPT_STR("web", &cfg.web_dir), OPT_STR("firmware", &cfg.firmware), OPT_STR("token-file", &cfg.token_file),
		OPT_FLAG("open", &cfg.open), OPT_INT("lost-after", &cfg.lost_after, 1, 86400 * 30),
		OPT_WORD("suite", &suite, xcb_suite_names), OPT_FN("lab", set_lab, NULL, NULL),
		OPT_INT("threads", &cfg.threads, 1, 64), OPT_NUM("test-drop", &cfg.test_drop, 0, 1),
		OPT_FN_MANY("host-name", add_host_name, NULL, NULL), OPT_INT("request-timeout", &cfg.request_timeout, 1, 3600),
		OPT_INT("per-ip-connections", &cfg.per_ip_conns, 1, 512), OPT_FN("ready-fd", parse_ready_fd, &o->ready_fd, NULL),
		OPT_FN_MANY("boot-from", add_boot_net, NULL, NULL),
		OPT_FN_MANY("run-limit", set_run_limit, NULL, NULL), OPT_FLAG("version", &version), OPT_END_LAST_WINS,
	};
	const struct cmd cmd = { "xcbenchd", usage_text, opts };
	int rc;

	o->listen_s = "0.0.0.0:8080";
	o->udp_s = "0.0.0.0:8080";
	o->ready_fd = -1;
	cfg.db_path = "xcbench.db";
	cfg.lost_after = 120;
	cfg.threads = 4;
	cfg.request_timeout = 10;
	cfg.per_ip_conns = 64;
	if (cmd_parse(&cmd, argc, argv, &rc))
		return rc;
	if (version) {
		printf("xcbenchd %s (build %s)\n", XCBENCH_RELEASE, xcb_build_rev);
		return fflush(stdout) ? 1 : 0;
	}
	cfg.suite = xcb_suite_names[suite];
	if (optind < argc) {
		fprintf(stderr, "xcbenchd: unexpected argument '%s' (see --help)\n", argv[optind]);
		return 2;
	}
	return -1;
}

/* Step 2: the addresses, --open's loopback rule, the default paths and the
 * admin token. 0, or -1 after saying why. */
static int check_config(const struct start_opts *o)
{
	char err[1024];

	if (parse_hostport(o->listen_s, "0.0.0.0", 8080, &cfg.listen, err, sizeof(err))) {
		fprintf(stderr, "xcbenchd: --listen: %s\n", err);
		return -1;
	}
	if (parse_hostport(o->udp_s, "0.0.0.0", 8080, &cfg.udp, err, sizeof(err))) {
		fprintf(stderr, "xcbenchd: --udp: %s\n", err);
		return -1;
	}
	/* --open trusts every client: only loopback ones may reach it. */
	if (cfg.open && ((ntohl(cfg.listen.sin_addr.s_addr) >> 24) != 127 ||
			 (ntohl(cfg.udp.sin_addr.s_addr) >> 24) != 127)) {
		fprintf(stderr, "xcbenchd: --open needs loopback --listen and --udp addresses "
			"(127.x.x.x), not %s; use --token-file on a network\n",
			(ntohl(cfg.listen.sin_addr.s_addr) >> 24) != 127 ? o->listen_s : o->udp_s);
		return -1;
	}
	if (!cfg.web_dir)
		cfg.web_dir = repo_path("web");
	if (!cfg.firmware)
		cfg.firmware = repo_path("firmware/build/xcbench.elf");
	/* Said, not refused: both are read at each request, so a payload
	 * built (or a dashboard unpacked) after the start is served, and the
	 * API and the collector need neither. A typo in either started a
	 * daemon whose every machine's boot got a 404, without a word. */
	/* Opened and read, not access(2): a directory passed it (and root
	 * passes any mode), and was then a 404 at every boot without a word. */
	if (fwcheck_problem(cfg.firmware, err, sizeof(err)))
		fprintf(stderr, "xcbenchd: warning: --firmware '%s': %s\n", cfg.firmware, err);
	if (access(cfg.web_dir, R_OK | X_OK))
		fprintf(stderr, "xcbenchd: warning: --web '%s': %s; the dashboard's pages are 404 "
			"until it is there\n", cfg.web_dir, strerror(errno));
	else if (webcheck_unrendered(cfg.web_dir))
		fprintf(stderr, "xcbenchd: warning: --web '%s' has no index.html: the dashboard's pages are not "
			"rendered, and every page is 404 until they are (" WEBCHECK_BUILD ")\n", cfg.web_dir);
	if (cfg.token_file) {
		char tok[512];
		int rc = read_token_file(cfg.token_file, tok, sizeof(tok));

		/* An empty file is said as such: a stale errno named it
		 * "No such file or directory". */
		if (rc) {
			fprintf(stderr, "xcbenchd: --token-file '%s': cannot read a token: %s\n",
				cfg.token_file, rc < 0 ? strerror(errno) : TOKEN_FILE_EMPTY);
			return -1;
		}
		cfg.admin_token = strdup(tok);
	}
	bootnet_default(cfg.lab != NULL);	/* lab mode: no loopback by default */
	if (!cfg.open && !cfg.admin_token)
		fprintf(stderr, "xcbenchd: note: no --token-file and not --open: write routes are refused\n");
	return 0;
}

/* Step 3: the database, the registry, the writer, the UDP collector and
 * HTTP, in that order (each needs the ones before). The database, or NULL
 * after saying why (what started is stopped again). */
static struct dbi *start_services(void)
{
	char err[1024];
	struct dbi *db;

	start_time = now_s();
	db = db_open_rw(cfg.db_path, err, sizeof(err));
	if (!db) {
		fprintf(stderr, "xcbenchd: %s\n", err);
		return NULL;
	}
	if (reg_load(db)) {
		fprintf(stderr, "xcbenchd: cannot load runs: %s\n", dbi_errmsg(db));
		return NULL;
	}
	/* The writer ACKs what it commits through the collector's socket. */
	if (writer_start(db, collector_ack) || collector_start()) {
		fprintf(stderr, "xcbenchd: start-up failed\n");
		writer_stop();
		return NULL;
	}
	if (http_start()) {
		fprintf(stderr, "xcbenchd: cannot listen on HTTP port %d\n", ntohs(cfg.listen.sin_port));
		collector_stop();
		writer_stop();
		return NULL;
	}
	return db;
}

/* Step 4: say where we listen, on stderr and on --ready-fd. */
static void announce(int ready_fd)
{
	char err[1024], db_shown[512], http_at[INET_ADDRSTRLEN], udp_at[INET_ADDRSTRLEN];

	dbi_url_redact(cfg.db_path, db_shown, sizeof(db_shown));
	/* Two buffers: inet_ntoa's one static buffer, used twice in one
	 * fprintf, showed the same address for both sockets. */
	inet_ntop(AF_INET, &cfg.listen.sin_addr, http_at, sizeof(http_at));
	inet_ntop(AF_INET, &cfg.udp.sin_addr, udp_at, sizeof(udp_at));
	/* After HTTP: a job's boot request must find the server up. */
	if (job_runner_start())
		fprintf(stderr, "xcbenchd: cannot start the job runner: jobs wait\n");
	fprintf(stderr, "xcbenchd %s (build %s): http %s:%d udp %s:%d db %s%s\n", XCBENCH_RELEASE, xcb_build_rev,
		http_at, ntohs(cfg.listen.sin_port), udp_at, ntohs(cfg.udp.sin_port), db_shown,
		cfg.open ? " (open)" : "");
	bootnet_describe(err, sizeof(err));
	fprintf(stderr, "xcbenchd: jobs are handed to boot requests from %s\n", err);
	if (ready_fd >= 0) {
		/* Both sockets are bound and listening (http_start and
		 * collector_start returned): a client may connect now. */
		dprintf(ready_fd, "ready http=%d udp=%d\n", ntohs(cfg.listen.sin_port), ntohs(cfg.udp.sin_port));
		close(ready_fd);
	}
}

/* Step 5: stop taking datagrams and requests first, then let the writer
 * commit what is queued. */
static void stop_services(struct dbi *db)
{
	job_runner_stop(); /* before the writer: it writes through it */
	http_stop();
	ahead_close_spares(); /* no export reads ahead once http_stop returns */
	collector_stop();
	writer_stop();     /* commits everything still queued */
	dbi_close(db);
	reg_free_all();
	free(cfg.admin_token);
}

int main(int argc, char **argv)
{
	struct start_opts o;
	sigset_t sigs;
	struct dbi *db;
	int rc, sig;

	rc = parse_args(argc, argv, &o);
	if (rc >= 0)
		return rc;
	if (check_config(&o))
		return 2;
	/* Block the stop signals in every thread (the services' threads inherit
	 * the mask): main waits for them. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	signal(SIGPIPE, SIG_IGN);
	db = start_services();
	if (!db)
		return 1;
	announce(o.ready_fd);
	sigwait(&sigs, &sig);
	fprintf(stderr, "xcbenchd: signal %d: shutting down\n", sig);
	stop_services(db);
	fprintf(stderr, "xcbenchd: stopped cleanly\n");
	return 0;
}
