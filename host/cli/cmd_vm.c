/*
 * cmd_vm.c — `xcbench vm`: boots K virtual lab machines in QEMU against a
 * running xcbenchd, through the real iPXE path (default) or -kernel, and
 * follows their runs through the API until each is complete.
 *
 * Every machine gets a queued job (suite, params, label) for its MAC, so its
 * boot script — rendered by the daemon, as for a lab machine — carries what
 * was asked for. The run is then found as the newest run of that MAC created
 * since we started (whichever job the boot consumed). Consoles go to files,
 * are attached to the run's log (events of kind "console") when the machine
 * is done, and their paths are written into the run's notes.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "vm.h"

#define VM_MAX 16
#define EXIT_GRACE_S 5    /* a run may still complete (or show its crash) this long after QEMU ended */
#define DONE_GRACE_S 30   /* QEMU may take this long to end after the run completed */

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: xcbench vm [options] [key=value...]\n"
"Boots virtual lab machines in QEMU against xcbenchd (--server) and follows\n"
"their runs. Each machine has its own MAC (52:54:00:78:63:NN), SMBIOS serial\n"
"(xcbench-vm-N) and UUID, stable across invocations. key=value pairs go on\n"
"the payload's command line (suite overrides such as reps=3 iters=100).\n"
"\n"
"  --cpus N          CPUs per machine (default 2)\n"
"  --vms K           number of machines (default 1, at most %d)\n"
"  --first N         number of the first machine (default 1): two\n"
"                    invocations at once against one daemon need\n"
"                    machines of their own (--first 1, --first 5, ...)\n"
"  --suite NAME      suite to run (default 'default')\n"
"  --label TEXT      label for the runs\n"
"  --boot pxe|direct pxe: QEMU's iPXE ROM, TFTP script, the daemon's\n"
"                    /boot.ipxe (default); direct: -kernel with the command\n"
"                    line the daemon renders\n"
"  --firmware bios|uefi  bios (default): SeaBIOS/qboot and xcbench.elf;\n"
"                    uefi: OVMF (ovmf package, a variable store per\n"
"                    machine), QEMU's EFI iPXE ROM and xcbench.efi\n"
"  --accel auto|kvm|tcg  auto: KVM only on real VMX/SVM (tools/qemu-accel)\n"
"  --nic virtio|e1000|e1000e  the machines' NIC (default virtio)\n"
"  --mem MB          memory per machine (default 256)\n"
"  --wait            wait until every run is complete; exit 1 naming the\n"
"                    machine and the reason if one crashed, was lost, or\n"
"                    timed out\n"
"  --timeout S       give up after S seconds (default 900)\n"
"  --dir DIR         where consoles and QEMU logs go (default: a new\n"
"                    /tmp/xcbench-vm.* directory)\n"
"\n"
"Needs write access to the daemon's API (--open, or --token-file). The\n"
"machines reach a loopback daemon at 10.0.2.2 (QEMU user networking).\n",
		VM_MAX);
}

static int parse_int(const char *opt, const char *s, int lo, int hi, int *out)
{
	uint64_t v;

	if (parse_u64(s, &v) || v < (uint64_t)lo || v > (uint64_t)hi) {
		fprintf(stderr, "xcbench vm: %s: '%s' is not a number in %d..%d\n", opt, s, lo, hi);
		return -1;
	}
	*out = (int)v;
	return 0;
}

static int is_loopback(const char *h)
{
	return strncmp(h, "127.", 4) == 0 || strcmp(h, "localhost") == 0;
}

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Replaces every occurrence of pat in *s by rep. */
static void replace_all(char **s, const char *pat, const char *rep)
{
	char *p;

	while ((p = strstr(*s, pat))) {
		struct buf b = { 0 };

		buf_add(&b, *s, (size_t)(p - *s));
		buf_addf(&b, "%s%s", rep, p + strlen(pat));
		free(*s);
		*s = b.p;
	}
}

/* Direct boot: the daemon renders the machine's script (creating its run,
 * consuming its job); we take the kernel line's arguments and fill in what
 * iPXE would have, as QEMU user networking gives it. */
static int direct_cmdline(struct vm *v, const struct vm_opts *o)
{
	struct buf path = { 0 };
	struct http_resp r;
	char *line, *sp, *eol;
	int rc = -1;

	buf_addf(&path, "/boot.ipxe?mac=%s&uuid=%s&serial=%s", v->mac, v->uuid, v->serial);
	if (http_call("GET", path.p, NULL, &r, NULL))
		goto out;
	if (r.status != 200) {
		fprintf(stderr, "xcbench vm: GET %s: HTTP %d: %s\n", path.p, r.status, r.body.p);
		goto out;
	}
	line = strstr(r.body.p, "\nkernel ");
	if (!line || !(sp = strchr(line + 8, ' '))) {
		fprintf(stderr, "xcbench vm: the daemon's boot script has no kernel line:\n%s\n", r.body.p);
		goto out;
	}
	eol = strchr(sp, '\n');
	if (eol)
		*eol = 0;
	v->cmdline = strdup(sp + 1);
	replace_all(&v->cmdline, "${netX/ip}", "10.0.2.15");
	replace_all(&v->cmdline, "${netX/gateway}", "10.0.2.2");
	replace_all(&v->cmdline, "${netX/netmask}", "255.255.255.0");
	replace_all(&v->cmdline, "${netX/mac}", v->mac);
	if (strcmp(o->guest_host, "10.0.2.2") == 0) {
		/* server= names the daemon as we asked it (loopback); the guest
		 * reaches loopback at 10.0.2.2. */
		char *s = strstr(v->cmdline, "server=");

		if (s && is_loopback(s + 7)) {
			struct buf b = { 0 };
			const char *port = strchr(s + 7, ':');

			buf_add(&b, v->cmdline, (size_t)(s - v->cmdline));
			buf_addf(&b, "server=10.0.2.2%s", port ? port : "");
			free(v->cmdline);
			v->cmdline = b.p;
		}
	}
	rc = 0;
out:
	buf_free(&path);
	buf_free(&r.body);
	return rc;
}

static int fetch_firmware(const char *dest, const char *route)
{
	struct http_resp r;
	FILE *f = fopen(dest, "w");
	int rc;

	if (!f) {
		fprintf(stderr, "xcbench vm: cannot write %s: %s\n", dest, strerror(errno));
		return -1;
	}
	rc = http_call("GET", route, NULL, &r, f);
	fclose(f);
	if (rc == 0 && r.status != 200) {
		fprintf(stderr, "xcbench vm: GET %s: HTTP %d: %s\n", route, r.status, r.body.p);
		rc = -1;
	}
	buf_free(&r.body);
	return rc;
}

static int queue_job(struct vm *v, const char *suite, const char *label, json_t *params)
{
	json_t *body = json_pack("{s:s, s:s, s:O}", "mac", v->mac, "suite", suite, "params", params), *o;

	if (label)
		json_object_set_new(body, "label", json_string(label));
	o = api_json("POST", "/api/v1/jobs", body);
	json_decref(body);
	if (!o) {
		fprintf(stderr, "xcbench vm: cannot queue the job for %s (the daemon needs --open, or "
				"pass --token-file with its admin token)\n", v->mac);
		return -1;
	}
	v->job_id = json_integer_value(json_object_get(json_object_get(o, "job"), "id"));
	json_decref(o);
	return 0;
}

/* A job nobody booted must not surprise the next boot of that MAC. */
static void drop_job_if_pending(struct vm *v)
{
	char path[96];
	json_t *o, *j;
	size_t i;
	struct buf q = { 0 };

	if (!v->job_id)
		return;
	buf_addf(&q, "/api/v1/jobs?pending=1&mac=");
	url_encode(&q, v->mac);
	o = api_json("GET", q.p, NULL);
	buf_free(&q);
	json_array_foreach(json_object_get(o, "jobs"), i, j)
		if (json_integer_value(json_object_get(j, "id")) == v->job_id) {
			snprintf(path, sizeof(path), "/api/v1/jobs/%lld", (long long)v->job_id);
			json_decref(api_json("DELETE", path, NULL));
		}
	json_decref(o);
}

/* The newest run of v's MAC created since t0 (0 if none yet). */
static int64_t find_run(struct vm *v, int64_t t0)
{
	struct buf q = { 0 };
	json_t *o, *r;
	int64_t id = 0;

	buf_addf(&q, "/api/v1/runs?limit=1&since=%lld&machine=", (long long)t0);
	url_encode(&q, v->mac);
	o = api_json("GET", q.p, NULL);
	buf_free(&q);
	r = json_array_get(json_object_get(o, "runs"), 0);
	if (r)
		id = json_integer_value(json_object_get(r, "id"));
	json_decref(o);
	return id;
}

static void run_url(char *buf, size_t len, int64_t id)
{
	size_t n = strlen(opt_server);

	while (n > 0 && opt_server[n - 1] == '/')
		n--;
	snprintf(buf, len, "%.*s/run.html?id=%lld", (int)n, opt_server, (long long)id);
}

/* Refreshes v->status/frames; prints a progress line when something moved. */
static void poll_run(struct vm *v, double now, double *last_print)
{
	char path[64], old[16];
	json_t *o, *run;
	int64_t frames;
	const char *st, *err;

	snprintf(path, sizeof(path), "/api/v1/runs/%lld", (long long)v->run_id);
	o = api_json("GET", path, NULL);
	run = json_object_get(o, "run");
	st = json_string_value(json_object_get(run, "status"));
	if (!st) {
		json_decref(o);
		return;
	}
	frames = json_integer_value(json_object_get(run, "frames_received"));
	snprintf(old, sizeof(old), "%s", v->status);
	snprintf(v->status, sizeof(v->status), "%s", st);
	if (strcmp(old, st) != 0 || (frames != v->frames && now - *last_print >= 10)) {
		printf("vm%d %s: run %lld %s, %lld frames, %lld cases\n", v->idx, v->mac,
		       (long long)v->run_id, st, (long long)frames,
		       (long long)json_integer_value(json_object_get(run, "cases")));
		*last_print = now;
	}
	v->frames = frames;
	if (strcmp(st, "crashed") == 0) {
		err = json_string_value(json_object_get(run, "error"));
		v->finished = -1;
		snprintf(v->why, sizeof(v->why), "run %lld crashed: %s", (long long)v->run_id,
			 err ? err : "(no error text)");
	} else if (strcmp(st, "lost") == 0) {
		v->finished = -1;
		snprintf(v->why, sizeof(v->why), "run %lld lost: the daemon heard nothing for too long",
			 (long long)v->run_id);
	} else if (strcmp(st, "complete") == 0) {
		v->finished = 1;
	}
	json_decref(o);
}

/* SIGTERM (QEMU exits cleanly on it), repeated; SIGKILL if that was ignored
 * for 10 s. Called on every pass until the process is reaped. */
static void stop_qemu(struct vm *v, double now)
{
	if (v->pid <= 0)
		return;
	if (!v->stop_at)
		v->stop_at = now;
	kill(v->pid, now - v->stop_at > 10 ? SIGKILL : SIGTERM);
}

static void reap(struct vm *v, double now)
{
	int st;

	if (v->pid > 0 && waitpid(v->pid, &st, WNOHANG) == v->pid) {
		v->pid = 0;
		v->exit_status = st;
		v->exited_at = now;
	}
}

static void console_tail(const struct vm *v)
{
	char line[512], *lines[8] = { 0 };
	FILE *f = fopen(v->console, "r");
	int n = 0;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		free(lines[n % 8]);
		lines[n % 8] = strdup(line);
		n++;
	}
	fclose(f);
	printf("  last console lines (%s):\n", v->console);
	for (int i = n > 8 ? n - 8 : 0; i < n; i++) {
		printf("  | %s", lines[i % 8]);
		if (!strchr(lines[i % 8], '\n'))
			printf("\n");
	}
	for (int i = 0; i < 8; i++)
		free(lines[i]);
}

/* Attaches the console to the run's log (POST .../console, kind "console"),
 * in chunks under the daemon's body limit, each naming its first line. */
static void upload_console(const struct vm *v)
{
	char path[96], *text = NULL;
	size_t len = 0, off = 0;
	long line = 0;
	FILE *f = fopen(v->console, "r");

	if (!f)
		return;
	{
		struct buf b = { 0 };
		char tmp[8192];
		size_t n;

		while ((n = fread(tmp, 1, sizeof(tmp), f)) > 0)
			buf_add(&b, tmp, n);
		text = b.p;
		len = b.len;
	}
	fclose(f);
	for (size_t i = 0; i < len; i++)	/* the body travels as a C string */
		if (!text[i])
			text[i] = '?';
	while (off < len) {
		size_t n = len - off;
		struct http_resp r;
		char save;

		if (n > 60000) {	/* cut after a newline, under 64 KiB */
			n = 60000;
			while (n > 1 && text[off + n - 1] != '\n')
				n--;
			if (n == 1)
				n = 60000;
		}
		save = text[off + n];
		text[off + n] = 0;
		snprintf(path, sizeof(path), "/api/v1/runs/%lld/console?line=%ld", (long long)v->run_id, line);
		if (http_call("POST", path, text + off, &r, NULL) || r.status != 200) {
			fprintf(stderr, "xcbench vm: vm%d: could not attach the console to run %lld%s%s\n", v->idx,
				(long long)v->run_id, r.body.p ? ": " : "", r.body.p ? r.body.p : "");
			buf_free(&r.body);
			break;
		}
		buf_free(&r.body);
		for (size_t i = off; i < off + n; i++)
			line += text[i] == '\n';
		text[off + n] = save;
		off += n;
	}
	free(text);
}

static void note_console(const struct vm *v)
{
	char path[64];
	json_t *body, *o;
	struct buf note = { 0 };

	buf_addf(&note, "xcbench vm: console %s (QEMU log %s)", v->console, v->qemu_log);
	body = json_pack("{s:s}", "notes", note.p);
	snprintf(path, sizeof(path), "/api/v1/runs/%lld", (long long)v->run_id);
	o = api_json("PATCH", path, body);
	json_decref(o);
	json_decref(body);
	buf_free(&note);
}

int cmd_vm(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpus", 1, NULL, 'c' }, { "vms", 1, NULL, 'k' }, { "suite", 1, NULL, 's' },
		{ "label", 1, NULL, 'l' }, { "boot", 1, NULL, 'b' }, { "accel", 1, NULL, 'a' },
		{ "nic", 1, NULL, 'n' }, { "mem", 1, NULL, 'm' }, { "wait", 0, NULL, 'w' },
		{ "timeout", 1, NULL, 't' }, { "dir", 1, NULL, 'd' }, { "first", 1, NULL, 'f' },
		{ "firmware", 1, NULL, 'F' }, { "help", 0, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct vm_opts o = { .cpus = 2, .vms = 1, .mem_mb = 256, .timeout_s = 900,
			     .boot = VM_BOOT_PXE, .accel = "auto", .nic = "virtio" };
	const char *suite = "default", *label = NULL;
	char host[256], dirbuf[64], elf[4200] = "", msg[160], url[512];
	json_t *params = json_object(), *health;
	struct vm vms[VM_MAX];
	struct sigaction sa = { .sa_handler = on_signal };
	double t0m, last_print = 0;
	int64_t t0;
	int c, failed = 0, started = 0, first = 1;

	memset(vms, 0, sizeof(vms));
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'c': if (parse_int("--cpus", optarg, 1, 255, &o.cpus)) return 2; break;
		case 'k': if (parse_int("--vms", optarg, 1, VM_MAX, &o.vms)) return 2; break;
		case 'f': if (parse_int("--first", optarg, 1, 240, &first)) return 2; break;
		case 'm': if (parse_int("--mem", optarg, 64, 65536, &o.mem_mb)) return 2; break;
		case 't': if (parse_int("--timeout", optarg, 1, 86400 * 7, &o.timeout_s)) return 2; break;
		case 's': suite = optarg; break;
		case 'l': label = optarg; break;
		case 'w': o.wait = 1; break;
		case 'd': o.dir = optarg; break;
		case 'b':
			if (strcmp(optarg, "pxe") && strcmp(optarg, "direct")) {
				fprintf(stderr, "xcbench vm: --boot: '%s' is not pxe or direct\n", optarg);
				return 2;
			}
			o.boot = strcmp(optarg, "pxe") ? VM_BOOT_DIRECT : VM_BOOT_PXE;
			break;
		case 'a':
			if (strcmp(optarg, "auto") && strcmp(optarg, "kvm") && strcmp(optarg, "tcg")) {
				fprintf(stderr, "xcbench vm: --accel: '%s' is not auto, kvm or tcg\n", optarg);
				return 2;
			}
			o.accel = optarg;
			break;
		case 'F':
			if (strcmp(optarg, "bios") && strcmp(optarg, "uefi")) {
				fprintf(stderr, "xcbench vm: --firmware: '%s' is not bios or uefi\n", optarg);
				return 2;
			}
			o.uefi = strcmp(optarg, "uefi") == 0;
			break;
		case 'n':
			if (strcmp(optarg, "virtio") && strcmp(optarg, "e1000") && strcmp(optarg, "e1000e")) {
				fprintf(stderr, "xcbench vm: --nic: '%s' is not virtio, e1000 or e1000e\n", optarg);
				return 2;
			}
			o.nic = optarg;
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	for (int i = optind; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (!eq || eq == argv[i]) {
			fprintf(stderr, "xcbench vm: '%s' is not key=value (see --help)\n", argv[i]);
			return 2;
		}
		*eq = 0;
		json_object_set_new(params, argv[i], json_string(eq + 1));
	}
	if (strcmp(o.accel, "auto") == 0)
		o.accel = vm_auto_accel();
	if (server_host(host, sizeof(host), &o.http_port))
		return 2;
	o.guest_host = is_loopback(host) ? "10.0.2.2" : host;
	setvbuf(stdout, NULL, _IOLBF, 0);

	health = api_json("GET", "/api/v1/health", NULL);
	if (!health) {
		fprintf(stderr, "xcbench vm: no xcbenchd answers at %s (start it, or pass --server URL)\n",
			opt_server);
		return 1;
	}
	json_decref(health);

	if (o.dir) {
		if (mkdir(o.dir, 0755) && errno != EEXIST) {
			fprintf(stderr, "xcbench vm: --dir '%s': %s\n", o.dir, strerror(errno));
			return 2;
		}
	} else {
		snprintf(dirbuf, sizeof(dirbuf), "/tmp/xcbench-vm.XXXXXX");
		if (!mkdtemp(dirbuf)) {
			fprintf(stderr, "xcbench vm: cannot create a directory in /tmp: %s\n", strerror(errno));
			return 1;
		}
		o.dir = dirbuf;
	}
	if (o.boot == VM_BOOT_PXE && vm_write_tftp_script(&o))
		return 1;
	if (o.boot == VM_BOOT_DIRECT) {
		snprintf(elf, sizeof(elf), "%s/xcbench.%s", o.dir, o.uefi ? "efi" : "elf");
		if (fetch_firmware(elf, o.uefi ? "/firmware/xcbench.efi" : "/firmware/xcbench.elf"))
			return 1;
	}

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	t0 = now_s();
	t0m = mono();
	printf("xcbench vm: %d machine%s, %d CPUs each, %s boot, %s, %s NIC, suite %s; daemon %s; files in %s\n",
	       o.vms, o.vms > 1 ? "s" : "", o.cpus, o.boot == VM_BOOT_PXE ? (o.uefi ? "UEFI PXE (OVMF, iPXE)" : "PXE (iPXE)")
	       : (o.uefi ? "UEFI direct (OVMF)" : "direct"),
	       o.accel, o.nic, suite, opt_server, o.dir);
	for (int i = 0; i < o.vms; i++) {
		struct vm *v = &vms[i];

		vm_identity(v, first + i, o.dir);
		if (queue_job(v, suite, label, params) ||
		    (o.boot == VM_BOOT_DIRECT && direct_cmdline(v, &o)) || vm_start(v, &o, elf)) {
			v->finished = -1;
			snprintf(v->why, sizeof(v->why), "could not be started");
			failed = 1;
			break;
		}
		started++;
		printf("vm%d %s serial %s: QEMU started (pid %d), console %s\n", v->idx, v->mac, v->serial,
		       (int)v->pid, v->console);
	}

	while (started) {
		double now = mono();
		int going = 0;

		for (int i = 0; i < started; i++) {
			struct vm *v = &vms[i];

			reap(v, now);
			if (v->finished == 0 && !v->run_id)
				v->run_id = find_run(v, t0);
			if (v->finished == 0 && v->run_id)
				poll_run(v, now, &last_print);
			if (v->finished == 0 && v->pid == 0) {
				int ok = vm_exit_text(v->exit_status, msg, sizeof(msg));

				if (!o.wait) {
					v->finished = ok ? 1 : -1;
					if (!ok)
						snprintf(v->why, sizeof(v->why), "%s", msg);
				} else if (now - v->exited_at > EXIT_GRACE_S) {
					v->finished = -1;
					snprintf(v->why, sizeof(v->why), "the machine ended (%s) before its run %s",
						 msg, v->run_id ? "completed" : "even started");
				}
			}
			if (v->finished == 0 && (interrupted || failed)) {
				v->finished = -1;
				snprintf(v->why, sizeof(v->why), interrupted ? "interrupted"
					 : "stopped: another machine could not be started");
			}
			if (v->finished == 0 && now - t0m > o.timeout_s) {
				v->finished = -1;
				snprintf(v->why, sizeof(v->why), "timed out after %d s (run %s, %lld frames)",
					 o.timeout_s, v->run_id ? v->status : "not started", (long long)v->frames);
			}
			if (v->finished < 0)
				stop_qemu(v, now);
			/* Complete: the payload normally ends QEMU itself right after. */
			if (v->finished > 0 && !v->done_at)
				v->done_at = now;
			if (v->finished > 0 && v->pid > 0 && now - v->done_at > DONE_GRACE_S)
				stop_qemu(v, now);
			if (v->finished == 0 || v->pid > 0)
				going = 1;
		}
		if (!going)
			break;
		usleep(500 * 1000);
	}

	for (int i = 0; i < o.vms; i++) {
		struct vm *v = &vms[i];

		drop_job_if_pending(v);	/* no-op without a job */
		if (i < started) {
			if (v->run_id) {
				upload_console(v);
				note_console(v);
			}
		}
		if (v->finished > 0 && v->run_id) {
			run_url(url, sizeof(url), v->run_id);
			printf("vm%d %s: run %lld %s, %lld frames: %s\n", v->idx, v->mac, (long long)v->run_id,
			       v->status, (long long)v->frames, url);
		} else if (v->finished > 0) {
			printf("vm%d %s: the machine ended normally (no run seen)\n", v->idx, v->mac);
		} else if (i < started || v->why[0]) {
			failed = 1;
			printf("vm%d %s: FAILED: %s\n", v->idx, v->mac, v->why);
			if (i < started)
				console_tail(v);
		}
	}
	for (int i = 0; i < started; i++)
		free(vms[i].cmdline);
	json_decref(params);
	if (interrupted)
		return 130;
	return failed ? 1 : 0;
}
