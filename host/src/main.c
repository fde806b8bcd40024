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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bootnet.h"
#include "collector.h"
#include "db.h"
#include "http.h"
#include "job_runner.h"
#include "registry.h"
#include "run_limits.h"
#include "util.h"
#include "writer.h"
#include "xcbd.h"

struct xcbd_config cfg;
struct xcbd_counters ctr;
int64_t start_time;

static void usage(FILE *f)
{
	fprintf(f,
"usage: xcbenchd [options]\n"
"Collects xcbench results (UDP), stores them in SQLite, serves the API,\n"
"dashboard, CSV and iPXE boot scripts (HTTP).\n"
"\n"
"  --listen [HOST:]PORT   HTTP address (default 0.0.0.0:8080)\n"
"  --udp [HOST:]PORT      UDP collector address (default 0.0.0.0:8080)\n"
"  --db FILE|URL          the store: a SQLite file (default ./xcbench.db), or a\n"
"                         PostgreSQL server, postgresql://user@host/dbname (its\n"
"                         password from PGPASSFILE, ~/.pgpass or PGPASSWORD, never\n"
"                         in the URL)\n"
"  --web DIR              dashboard files (default: the repository's web/)\n"
"  --firmware FILE        payload served at /firmware/xcbench.elf\n"
"                         (default: the repository's firmware/build/xcbench.elf)\n"
"  --token-file FILE      admin token for write routes (Authorization: Bearer)\n"
"  --open                 accept new runs from unknown tokens (at their HELLO),\n"
"                         and writes without a token: loopback addresses only\n"
"  --lost-after SECONDS   a run silent this long becomes 'lost' (default 120)\n"
"  --suite NAME           suite for boots without a queued job (default 'default')\n"
"  --lab NAME             this daemon's lab, when several share one --db: its\n"
"                         runs and machines carry NAME; it collects, boots and\n"
"                         serves jobs for its own lab only, and lists all labs\n"
"  --threads N            HTTP worker threads (default 4)\n"
"  --request-timeout S    seconds a client has to send a whole request\n"
"                         (headers and body; default 10; trickling cannot extend it)\n"
"  --per-ip-connections N HTTP connections per client address (default 64)\n"
"  --host-name NAME       a name the Host header may use for this daemon\n"
"                         (repeatable; IP literals are always accepted, and\n"
"                         'localhost' on loopback or with --open)\n"
"  --boot-from CIDR      a network whose boot requests may be handed a queued\n"
"                         job (repeatable; default: this host's non-loopback\n"
"                         IPv4 subnets and 127.0.0.1, QEMU user networking's\n"
"                         source). A machine with a known boot address gets\n"
"                         its jobs only from that address\n"
"  --run-limit KIND=N    what one run may store (repeatable): cases (4096),\n"
"                         frames (524288), histo (1048576 rows), samples\n"
"                         (1048576 rows), events (16384 log/error lines), facts\n"
"                         (256 HELLO keys), console (4194304 bytes); past it a\n"
"                         frame is refused, counted, and the run's events say so\n"
"  --ready-fd N           write \"ready http=PORT udp=PORT\\n\" to file descriptor N\n"
"                         (then close it) once HTTP and UDP listen: scripts\n"
"                         wait on it instead of polling /api/v1/health\n"
"  --test-drop P          TEST ONLY: drop this fraction of received datagrams\n"
"  --help                 this text\n"
"\n"
"API: see host/API.md. Wire protocol: proto/README.md.\n");
}

/* The repository root, from /proc/self/exe = ROOT/host/build/xcbenchd. */
static char *repo_path(const char *rel)
{
	char exe[4096], *root, *out;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return strdup(rel);
	exe[n] = 0;
	root = dirname(dirname(dirname(exe)));
	if (asprintf(&out, "%s/%s", root, rel) < 0)
		return NULL;
	return out;
}

/* A numeric option: arg as lo..hi into *out, or -1 after printing why (fmt,
 * with one %s for arg, says what was expected). */
static int __attribute__((format(printf, 5, 6)))
opt_int(const char *arg, uint64_t lo, uint64_t hi, int *out, const char *fmt, ...)
{
	uint64_t v;
	va_list ap;

	if (parse_u64(arg, &v) == 0 && v >= lo && v <= hi) {
		*out = (int)v;
		return 0;
	}
	fputs("xcbenchd: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

static char *read_token(const char *path)
{
	char buf[512];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	buf[strcspn(buf, "\r\n")] = 0;
	return buf[0] ? strdup(buf) : NULL;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "udp", required_argument, NULL, 'u' },
		{ "db", required_argument, NULL, 'd' },
		{ "web", required_argument, NULL, 'w' },
		{ "firmware", required_argument, NULL, 'f' },
		{ "token-file", required_argument, NULL, 't' },
		{ "open", no_argument, NULL, 'o' },
		{ "lost-after", required_argument, NULL, 'L' },
		{ "suite", required_argument, NULL, 's' },
		{ "lab", required_argument, NULL, 'a' },
		{ "threads", required_argument, NULL, 'T' },
		{ "test-drop", required_argument, NULL, 'D' },
		{ "host-name", required_argument, NULL, 'H' },
		{ "request-timeout", required_argument, NULL, 'R' },
		{ "per-ip-connections", required_argument, NULL, 'P' },
		{ "ready-fd", required_argument, NULL, 'r' },
		{ "boot-from", required_argument, NULL, 'B' },
		{ "run-limit", required_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *listen_s = "0.0.0.0:8080", *udp_s = "0.0.0.0:8080";
	char err[1024];
	sigset_t sigs;
	struct dbi *db;
	char db_shown[512];
	int c, sig, ready_fd = -1;

	cfg.db_path = "xcbench.db";
	cfg.lost_after = 120;
	cfg.threads = 4;
	cfg.request_timeout = 10;
	cfg.per_ip_conns = 64;
	cfg.suite = "default";
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'l': listen_s = optarg; break;
		case 'u': udp_s = optarg; break;
		case 'd': cfg.db_path = optarg; break;
		case 'w': cfg.web_dir = optarg; break;
		case 'f': cfg.firmware = optarg; break;
		case 't': cfg.token_file = optarg; break;
		case 'o': cfg.open = 1; break;
		case 's': cfg.suite = optarg; break;
		case 'a':
			/* A name for URLs, logs and the run list's filter. */
			if (!optarg[0] || strlen(optarg) > 32 ||
			    strspn(optarg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != strlen(optarg)) {
				fprintf(stderr, "xcbenchd: --lab: '%s' is not 1..32 of [A-Za-z0-9._-]\n", optarg);
				return 2;
			}
			cfg.lab = optarg;
			break;
		case 'L':
			if (opt_int(optarg, 1, 86400 * 30, &cfg.lost_after,
				    "--lost-after: '%s' is not a number of seconds (1..2592000)", optarg))
				return 2;
			break;
		case 'T':
			if (opt_int(optarg, 1, 64, &cfg.threads, "--threads: '%s' is not 1..64", optarg))
				return 2;
			break;
		case 'D':
			cfg.test_drop = atof(optarg);
			break;
		case 'R':
			if (opt_int(optarg, 1, 3600, &cfg.request_timeout,
				    "--request-timeout: '%s' is not 1..3600 seconds", optarg))
				return 2;
			break;
		case 'P':
			if (opt_int(optarg, 1, 512, &cfg.per_ip_conns,
				    "--per-ip-connections: '%s' is not 1..512", optarg))
				return 2;
			break;
		case 'r': {
			uint64_t fd;

			/* Checked now: a typo must fail at once, not leave the
			 * waiting script hanging. */
			if (parse_u64(optarg, &fd) || fd > 1024 || fcntl((int)fd, F_GETFD) < 0) {
				fprintf(stderr, "xcbenchd: --ready-fd: '%s' is not an open file descriptor\n", optarg);
				return 2;
			}
			ready_fd = (int)fd;
			break;
		}
		case 'H':
			if (cfg.nhost_names == (int)(sizeof(cfg.host_names) / sizeof(cfg.host_names[0])) ||
			    !optarg[0] || strlen(optarg) > 100) {
				fprintf(stderr, "xcbenchd: --host-name: at most 16 names of 1..100 characters\n");
				return 2;
			}
			cfg.host_names[cfg.nhost_names++] = optarg;
			break;
		case 'M':
			if (run_limit_set(optarg, err, sizeof(err))) {
				fprintf(stderr, "xcbenchd: %s\n", err);
				return 2;
			}
			break;
		case 'B':
			if (bootnet_add(optarg, err, sizeof(err))) {
				fprintf(stderr, "xcbenchd: %s\n", err);
				return 2;
			}
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "xcbenchd: unexpected argument '%s' (see --help)\n", argv[optind]);
		return 2;
	}
	if (parse_hostport(listen_s, "0.0.0.0", 8080, &cfg.listen, err, sizeof(err)) ||
	    parse_hostport(udp_s, "0.0.0.0", 8080, &cfg.udp, err, sizeof(err))) {
		fprintf(stderr, "xcbenchd: %s\n", err);
		return 2;
	}
	/* --open trusts every client: only loopback ones may reach it. */
	if (cfg.open && ((ntohl(cfg.listen.sin_addr.s_addr) >> 24) != 127 ||
			 (ntohl(cfg.udp.sin_addr.s_addr) >> 24) != 127)) {
		fprintf(stderr, "xcbenchd: --open needs loopback --listen and --udp addresses "
			"(127.x.x.x), not %s; use --token-file on a network\n",
			(ntohl(cfg.listen.sin_addr.s_addr) >> 24) != 127 ? listen_s : udp_s);
		return 2;
	}
	if (!cfg.web_dir)
		cfg.web_dir = repo_path("web");
	if (!cfg.firmware)
		cfg.firmware = repo_path("firmware/build/xcbench.elf");
	if (cfg.token_file) {
		cfg.admin_token = read_token(cfg.token_file);
		if (!cfg.admin_token) {
			fprintf(stderr, "xcbenchd: --token-file '%s': cannot read a token: %s\n",
				cfg.token_file, errno ? strerror(errno) : "empty file");
			return 2;
		}
	}
	bootnet_default(0);
	if (!cfg.open && !cfg.admin_token)
		fprintf(stderr, "xcbenchd: note: no --token-file and not --open: write routes are refused\n");

	/* Block the stop signals in every thread; main waits for them. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	signal(SIGPIPE, SIG_IGN);

	start_time = now_s();
	db = db_open_rw(cfg.db_path, err, sizeof(err));
	if (!db) {
		fprintf(stderr, "xcbenchd: %s\n", err);
		return 1;
	}
	if (reg_load(db)) {
		fprintf(stderr, "xcbenchd: cannot load runs: %s\n", dbi_errmsg(db));
		return 1;
	}
	/* The writer ACKs what it commits through the collector's socket. */
	if (writer_start(db, collector_ack) || collector_start()) {
		fprintf(stderr, "xcbenchd: start-up failed\n");
		writer_stop();
		return 1;
	}
	if (http_start()) {
		fprintf(stderr, "xcbenchd: cannot listen on HTTP port %d\n", ntohs(cfg.listen.sin_port));
		collector_stop();
		writer_stop();
		return 1;
	}
	dbi_url_redact(cfg.db_path, db_shown, sizeof(db_shown));
	/* After HTTP: a job's boot request must find the server up. */
	if (job_runner_start())
		fprintf(stderr, "xcbenchd: cannot start the job runner: jobs wait\n");
	fprintf(stderr, "xcbenchd %s: http %s:%d udp %s:%d db %s%s\n", XCBD_VERSION,
		inet_ntoa(cfg.listen.sin_addr), ntohs(cfg.listen.sin_port),
		inet_ntoa(cfg.udp.sin_addr), ntohs(cfg.udp.sin_port), db_shown,
		cfg.open ? " (open)" : "");
	bootnet_describe(err, sizeof(err));
	fprintf(stderr, "xcbenchd: jobs are handed to boot requests from %s\n", err);
	if (ready_fd >= 0) {
		/* Both sockets are bound and listening (http_start and
		 * collector_start returned): a client may connect now. */
		dprintf(ready_fd, "ready http=%d udp=%d\n", ntohs(cfg.listen.sin_port), ntohs(cfg.udp.sin_port));
		close(ready_fd);
	}

	sigwait(&sigs, &sig);
	fprintf(stderr, "xcbenchd: signal %d: shutting down\n", sig);
	job_runner_stop(); /* before the writer: it writes through it */
	http_stop();
	collector_stop();
	writer_stop();     /* commits everything still queued */
	dbi_close(db);
	reg_free_all();
	free(cfg.admin_token);
	fprintf(stderr, "xcbenchd: stopped cleanly\n");
	return 0;
}
