/*
 * cmd_vm.c — `xcbench vm`: boots K virtual lab machines in QEMU against a
 * running xcbenchd, through the real iPXE path (default) or -kernel, and
 * follows their runs through the API until each is complete.
 *
 * Every machine gets a queued job (suite, params, label) for its MAC, so its
 * boot — rendered by the daemon, as for a lab machine — carries what was
 * asked for: the iPXE script for PXE, the same boot as JSON (/boot.json)
 * for direct boot. The run is then found as the newest run of that MAC
 * created since we started (whichever job the boot consumed), or named by
 * /boot.json. Each machine moves through enum vm_state (vm.h) by one
 * transition function, vm_next(); consoles go to files, are attached to the
 * run's log (events of kind "console") when the machine is done, and their
 * paths are written into the run's notes.
 */
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "client.h"
#include "verdict.h"
#include "vm.h"

#define VM_MAX 16
#define VM_MAX_S "16" /* VM_MAX in the usage text */
#define EXIT_GRACE_S 5    /* a run may still complete (or show its crash) this long after QEMU ended */
#define DONE_GRACE_S 30   /* QEMU may take this long to end after the run completed */
#define POLL_US (500 * 1000)

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

/* What every machine of one invocation shares. */
struct fleet {
	struct vm_opts o;
	const char *suite, *label;
	json_t *params;          /* key=value arguments, for each job */
	int64_t t0;              /* wall clock at the start: runs created since */
	double t0m;              /* monotonic clock at the start (--timeout) */
	double last_print;       /* when the last progress line went out */
	int start_failed;        /* a machine could not be started: stop them all */
	int refused;             /* the daemon refused its job (400: its params, e.g. an algos= name
				    the served image lacks): exit 2, as for the checks made here */
	char elf[4200];          /* direct boot: the payload fetched, "" before */
	FILE *say;               /* progress and summary: stdout, stderr with --json */
};

static const char *const state_names[] = {
	[VM_NEW] = "new", [VM_BOOTING] = "booting", [VM_RUNNING] = "running", [VM_ENDED] = "ended",
	[VM_COMPLETE] = "complete", [VM_STOPPING] = "stopping", [VM_DONE] = "done",
	[VM_FAILED] = "failed", [VM_SKIPPED] = "skipped",
};

/* The options that take one of a few words, and those words (the first is
 * the default; --firmware's are proto's boot vocabulary, xcb_boot_words). */
static const char *const boots[] = { "pxe", "direct" }, *const accels[] = { "auto", "kvm", "tcg" },
		     *const nics[] = { "virtio", "e1000", "e1000e", "igb" };
static const char usage[] =
"usage: xcbench vm [options] [key=value...]\n"
"Boots virtual lab machines in QEMU against xcbenchd (--server) and follows\n"
"their runs. Each machine has its own MAC (52:54:00:78:63:NN), SMBIOS serial\n"
"(xcbench-vm-N) and UUID, stable across invocations. key=value pairs go on\n"
"the payload's command line (suite overrides such as reps=3 iters=100).\n"
"\n"
"  --cpus N          CPUs per machine (default 2)\n"
"  --vms K           number of machines (default 1, at most " VM_MAX_S ")\n"
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
"  --nic virtio|e1000|e1000e|igb  the machines' NIC (default virtio; igb:\n"
"                    --boot direct only, QEMU ships no iPXE ROM for it)\n"
"  --mem MB          memory per machine (default 256)\n"
"  --wait            wait until every run is complete; exit 1 naming the\n"
"                    machine and the reason if one crashed, was lost,\n"
"                    timed out, or completed with its checks failed or its\n"
"                    suite stopped early (the payload's verdict: calls lost,\n"
"                    duplicated, ...; aborted)\n"
"  --timeout S       give up after S seconds (default 900)\n"
"  --dir DIR         where consoles and QEMU logs go (default: a new\n"
"                    /tmp/xcbench-vm.* directory)\n"
"  --json            print the outcome as JSON on stdout (each machine: its\n"
"                    state, run id, run URL, status, frames, cases, error,\n"
"                    files); progress and the summary go to stderr\n"
"\n"
"Needs write access to the daemon's API (--open, or --token-file). The\n"
"machines reach a loopback daemon at 10.0.2.2 (QEMU user networking).\n";

/* 1 when --server names this machine's loopback (the guest cannot reach it
 * there: QEMU user networking puts the host at VM_GUEST_GW). */
static int is_loopback(const char *h)
{
	return strncmp(h, "127.", 4) == 0 || strcmp(h, "localhost") == 0;
}

/* 1 for the states a machine never leaves. */
static int is_final(enum vm_state s)
{
	return s == VM_DONE || s == VM_FAILED || s == VM_SKIPPED;
}

/* Records why v failed; the state a failure goes to (QEMU is stopped there). */
static enum vm_state __attribute__((format(printf, 2, 3))) fail(struct vm *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->why, sizeof(v->why), fmt, ap);
	va_end(ap);
	return VM_STOPPING;
}

/* VM_NEW: its job, its boot (direct: /boot.json and the payload, fetched
 * once for all machines), its QEMU. */
static int launch(struct vm *v, struct fleet *f)
{
	char image[256];

	if (vm_queue_job(v, f->suite, f->label, f->params)) {
		f->refused = api_last_status() == 400;
		return -1;
	}
	if (f->o.boot == VM_BOOT_DIRECT) {
		if (vm_boot_spec(v, &f->o, image, sizeof(image)))
			return -1;
		if (!f->elf[0]) {
			snprintf(f->elf, sizeof(f->elf), "%s/%s", f->o.dir, strrchr(image, '/') ? strrchr(image, '/') + 1 : image);
			if (vm_fetch(f->elf, image)) {
				f->elf[0] = 0;
				return -1;
			}
		}
	}
	if (vm_start(v, &f->o, f->elf))
		return -1;
	fprintf(f->say, "vm%d %s serial %s: QEMU started (pid %d), console %s\n", v->idx, v->mac, v->serial,
		(int)v->pid, v->console);
	return 0;
}

/* What the run says: VM_BOOTING while there is none, VM_RUNNING while it
 * goes on, VM_COMPLETE, or a failure. Prints a progress line when its
 * status changed, or its frame count did and the last line is 10 s old. */
static enum vm_state follow_run(struct vm *v, struct fleet *f, double now)
{
	char old[sizeof(v->status)];
	int64_t frames = v->frames;

	if (!v->run_id)
		v->run_id = vm_find_run(v, f->t0);
	if (!v->run_id)
		return VM_BOOTING;
	snprintf(old, sizeof(old), "%s", v->status);
	if (vm_poll_run(v))
		return VM_RUNNING;
	if (v->cases_done > 0 && !v->running_since)
		v->running_since = now;
	if (strcmp(old, v->status) != 0 || (frames != v->frames && now - f->last_print >= 10)) {
		char of[64] = "", left[64] = "";

		if (v->cases_planned > 0)
			snprintf(of, sizeof(of), " of %lld", (long long)v->cases_planned);
		/* the time left at the pace since the first finished case; said
		 * as such, since a suite's later cases are often its slower ones
		 * (the seed table's masks grow), so the figure can grow as the
		 * run goes on: a first-time user read 42 s, then 210 s, as a
		 * broken clock */
		if (strcmp(v->status, "running") == 0 && v->cases_planned > v->cases_done && v->cases_done > 1 &&
		    now > v->running_since)
			snprintf(left, sizeof(left), ", about %.0f s left at the pace so far",
				 (now - v->running_since) / (double)(v->cases_done - 1) *
					 (double)(v->cases_planned - v->cases_done));
		/* at the end, the cases the payload skipped: "6 of 6 cases
		 * done" read as the whole suite (said once, as the tally) */
		fprintf(f->say, "vm%d %s: run %lld %s, %lld frames, %lld%s cases done%s%s%s\n", v->idx, v->mac,
			(long long)v->run_id, v->status, (long long)v->frames, (long long)v->cases_done, of, left,
			v->skipped[0] && strcmp(v->status, "running") ? "; " : "",
			strcmp(v->status, "running") ? v->skipped : "");
		f->last_print = now;
	}
	if (strcmp(v->status, "crashed") == 0)
		return fail(v, "run %lld crashed: %s", (long long)v->run_id,
			    v->run_error[0] ? v->run_error : "(no error text)");
	if (strcmp(v->status, "lost") == 0)
		return fail(v, "run %lld lost: the daemon heard nothing for too long", (long long)v->run_id);
	if (strcmp(v->status, "complete") == 0)
		return VM_COMPLETE;
	return VM_RUNNING;
}

/* Interrupted, another machine failed to start, or out of time: a failure;
 * else the state s stays. */
static enum vm_state unless_stopped(struct vm *v, struct fleet *f, double now, enum vm_state s)
{
	if (interrupted || f->start_failed)
		return fail(v, "%s", interrupted ? "interrupted" : "stopped: another machine could not be started");
	if (now - f->t0m > f->o.timeout_s)
		return fail(v, "timed out after %d s (run %s, %lld frames)", f->o.timeout_s,
			    v->run_id ? v->status : "not started", (long long)v->frames);
	return s;
}

/* The transition function: where v goes from v->state, now. Called until
 * the state stays; the final states stay. */
static enum vm_state vm_next(struct vm *v, struct fleet *f, double now)
{
	enum vm_state s;
	char msg[160];
	int ok;

	switch (v->state) {
	case VM_NEW:
		if (f->start_failed)
			return VM_SKIPPED;
		if (launch(v, f)) {
			f->start_failed = 1;
			return fail(v, "could not be started");
		}
		return VM_BOOTING;
	case VM_BOOTING:
	case VM_RUNNING:
		s = follow_run(v, f, now);
		if (s != VM_BOOTING && s != VM_RUNNING)
			return s;
		if (v->pid == 0) {	/* QEMU ended before the run did */
			if (f->o.wait)
				return VM_ENDED;
			ok = vm_exit_text(v->exit_status, msg, sizeof(msg));
			return ok ? VM_DONE : fail(v, "%s", msg);
		}
		return unless_stopped(v, f, now, s);
	case VM_ENDED:
		s = follow_run(v, f, now);
		if (s == VM_COMPLETE || s == VM_STOPPING)
			return s;
		if (now - v->exited_at > EXIT_GRACE_S) {
			vm_exit_text(v->exit_status, msg, sizeof(msg));
			return fail(v, "the machine ended (%s) before its run %s", msg,
				    v->run_id ? "completed" : "even started");
		}
		return unless_stopped(v, f, now, VM_ENDED);
	case VM_COMPLETE:
		/* The payload normally ends QEMU itself right after. */
		if (!v->done_at)
			v->done_at = now;
		if (v->pid == 0 && v->verdict) {
			/* Complete, every frame stored, but its checks failed
			 * or its suite stopped early: its timings are of a
			 * broken run (an algorithm that lost or repeated calls)
			 * or a partial one: a failure, not a pass. */
			snprintf(v->why, sizeof(v->why), "run %lld complete, but %s: xcbench show %lld",
				 (long long)v->run_id, v->verdict, (long long)v->run_id);
			return VM_FAILED;
		}
		if (v->pid == 0)
			return VM_DONE;
		if (now - v->done_at > DONE_GRACE_S)
			vm_stop(v, now);
		return VM_COMPLETE;
	case VM_STOPPING:
		if (v->pid == 0)
			return VM_FAILED;
		vm_stop(v, now);
		return VM_STOPPING;
	case VM_DONE:
	case VM_FAILED:
	case VM_SKIPPED:
		break;
	}
	return v->state;
}

/* One machine's outcome as a line (after its console went to its run). */
static void report(const struct vm *v, struct fleet *f)
{
	char url[512];

	if (v->state == VM_DONE && v->run_id) {
		vm_run_url(url, sizeof(url), v->run_id);
		fprintf(f->say, "vm%d %s: run %lld %s, %lld frames: %s\n", v->idx, v->mac, (long long)v->run_id,
			v->status, (long long)v->frames, url);
	} else if (v->state == VM_DONE) {
		fprintf(f->say, "vm%d %s: the machine ended normally (no run seen)\n", v->idx, v->mac);
	} else if (v->state == VM_FAILED) {
		fprintf(f->say, "vm%d %s: FAILED: %s\n", v->idx, v->mac, v->why);
		/* A crash's ERROR whole: the line above has its first line
		 * only, and a watchdog's names the CPU it waits on and what
		 * that spins on on the lines after (as xcbench show says). */
		if (v->run_id && strcmp(v->status, "crashed") == 0)
			print_run_errors((long long)v->run_id, v->run_error, 40, "  ", f->say);
		/* which case, initiator and CPU: the lines that say so, not
		 * the console's last (the summary); none (a watchdog's run):
		 * no heading over nothing */
		if (v->verdict && v->run_id)
			print_run_failures((long long)v->run_id, 3, "  the failed cases' LOG lines:", "  | ", f->say);
		else if (v->started) {
			vm_console_tail(v, f->say);
		}
	}
}

/* One machine's outcome for --json. */
static json_t *report_json(const struct vm *v)
{
	char url[512];
	json_t *o = json_pack("{s:i, s:s, s:s, s:s, s:s, s:s}", "vm", v->idx, "mac", v->mac, "serial", v->serial,
			      "state", state_names[v->state], "console", v->console, "qemu_log", v->qemu_log);

	if (v->run_id) {
		vm_run_url(url, sizeof(url), v->run_id);
		json_object_set_new(o, "run", json_pack("{s:I, s:s, s:s, s:I, s:I}", "id", (json_int_t)v->run_id,
							"url", url, "status", v->status, "frames",
							(json_int_t)v->frames, "cases", (json_int_t)v->cases));
	} else {
		json_object_set_new(o, "run", json_null());
	}
	json_object_set_new(o, "error", v->state == VM_FAILED ? json_string(v->why) : json_null());
	return o;
}

/* Options into f (and key=value pairs into f->params): 0, or the exit
 * status (2 for bad input; 0 with --help) plus 1 in *stop. */
static int parse_args(int argc, char **argv, struct fleet *f, int *first, int *json, int *stop)
{
	struct vm_opts *o = &f->o;
	int boot = 0, accel = 0, fw = 0, nic = 0, rc;	/* the word given, by index */
	const struct cmdopt opts[] = {
		OPT_INT("cpus", &o->cpus, 1, 255), OPT_INT("vms", &o->vms, 1, VM_MAX), OPT_STR("suite", &f->suite),
		OPT_STR_ANY("label", &f->label), OPT_WORD("boot", &boot, boots), OPT_WORD("accel", &accel, accels),
		OPT_WORD("nic", &nic, nics), OPT_INT("mem", &o->mem_mb, 64, 65536), OPT_FLAG("wait", &o->wait),
		OPT_INT("timeout", &o->timeout_s, 1, 86400 * 7), OPT_STR("dir", &o->dir), OPT_INT("first", first, 1, 240),
		OPT_WORD("firmware", &fw, xcb_boot_words), OPT_FLAG("json", json), OPT_END,
	};
	const struct cmd cmd = { "xcbench vm", usage, opts };

	*stop = 1;
	if (cmd_parse(&cmd, argc, argv, &rc))
		return rc;
	o->boot = boot ? VM_BOOT_DIRECT : VM_BOOT_PXE;
	o->accel = accels[accel];
	o->firmware = (enum xcb_boot)fw;
	o->nic = nics[nic];
	if (strcmp(o->nic, "igb") == 0 && (o->boot == VM_BOOT_PXE || o->firmware == XCB_BOOT_UEFI)) {
		/* QEMU has no iPXE ROM for the 82576: nothing would boot it over PXE */
		fprintf(stderr, "xcbench vm: --nic igb needs --boot direct --firmware bios (QEMU ships no iPXE ROM for igb)\n");
		return 2;
	}
	if (!suite_ok("xcbench vm", f->suite) || kv_args("vm", argc, argv, f->params))
		return 2;
	*stop = 0;
	return 0;
}

/* The daemon answers, the directory exists, PXE's TFTP script is written:
 * 0, or the exit status. */
static int prepare(struct fleet *f, char *dirbuf, size_t len)
{
	char host[256];
	json_t *health;

	if (strcmp(f->o.accel, "auto") == 0)
		f->o.accel = vm_auto_accel();
	if (server_host(host, sizeof(host), &f->o.http_port))
		return 2;
	f->o.guest_host = is_loopback(host) ? VM_GUEST_GW : host;
	health = api_json("GET", "/api/v1/health", NULL);
	if (!health) {
		fprintf(stderr, "xcbench vm: no xcbenchd answers at %s (start it, or pass --server URL)\n",
			opt_server);
		return 1;
	}
	json_decref(health);
	if (f->o.dir) {
		if (mkdir(f->o.dir, 0755) && errno != EEXIST) {
			fprintf(stderr, "xcbench vm: --dir '%s': %s\n", f->o.dir, strerror(errno));
			return 2;
		}
	} else {
		snprintf(dirbuf, len, "/tmp/xcbench-vm.XXXXXX");
		if (!mkdtemp(dirbuf)) {
			fprintf(stderr, "xcbench vm: cannot create a directory in /tmp: %s\n", strerror(errno));
			return 1;
		}
		f->o.dir = dirbuf;
	}
	if (f->o.boot == VM_BOOT_PXE && vm_write_tftp_script(&f->o))
		return 1;
	return 0;
}

/* nftw's callback for remove_tree: each entry, children first. */
static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)type, (void)ftw;
	return remove(path) ? -1 : 0;
}

/* Removes dir and what is in it (files this command wrote, no links
 * followed); silent: what it cannot remove stays. */
static void remove_tree(const char *dir)
{
	nftw(dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
}

int cmd_vm(int argc, char **argv)
{
	struct fleet f = { .o = { .cpus = 2, .vms = 1, .mem_mb = 256, .timeout_s = 900 },
			   .suite = "default", .params = json_object(), .say = stdout };
	struct sigaction sa = { .sa_handler = on_signal };
	struct vm vms[VM_MAX];
	char dirbuf[64];
	int first = 1, json = 0, stop, rc, going = 1, failed = 0;
	json_t *out;

	rc = parse_args(argc, argv, &f, &first, &json, &stop);
	if (!stop)
		rc = prepare(&f, dirbuf, sizeof(dirbuf));
	if (stop || rc) {
		json_decref(f.params);
		return rc;
	}
	if (json)
		f.say = stderr;
	setvbuf(stdout, NULL, _IOLBF, 0);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	f.t0 = now_s();
	f.t0m = now_mono();
	fprintf(f.say, "xcbench vm: %d machine%s, %d CPUs each, %s boot, %s, %s NIC, suite %s; daemon %s; files in %s\n",
		f.o.vms, f.o.vms > 1 ? "s" : "",
		f.o.cpus, f.o.boot == VM_BOOT_PXE ? (f.o.firmware == XCB_BOOT_UEFI ? "UEFI PXE (OVMF, iPXE)" : "PXE (iPXE)")
		: (f.o.firmware == XCB_BOOT_UEFI ? "UEFI direct (OVMF)" : "direct"),
		f.o.accel, f.o.nic, f.suite, opt_server, f.o.dir);
	for (int i = 0; i < f.o.vms; i++)
		vm_identity(&vms[i], first + i, f.o.dir);

	while (going) {
		double now = now_mono();

		going = 0;
		for (int i = 0; i < f.o.vms; i++) {
			struct vm *v = &vms[i];
			enum vm_state next;

			vm_reap(v, now);
			while ((next = vm_next(v, &f, now)) != v->state)
				v->state = next;
			going |= !is_final(v->state);
		}
		if (going)
			usleep(POLL_US);
	}

	out = json_array();
	for (int i = 0; i < f.o.vms; i++) {
		struct vm *v = &vms[i];

		vm_drop_job(v);	/* no-op without a job */
		if (v->started)
			vm_attach_console(v);
		report(v, &f);
		failed |= v->state == VM_FAILED;
		json_array_append_new(out, report_json(v));
		free(v->cmdline);
	}
	if (json)
		print_json(json_pack("{s:o, s:b}", "machines", out, "ok", !failed && !interrupted));
	else
		json_decref(out);
	json_decref(f.params);
	/* A directory of our own (not --dir) that no machine used: the
	 * daemon refused the job (a misspelt key), and each try left an
	 * empty /tmp/xcbench-vm.* behind. One a machine booted in keeps its
	 * console logs. */
	if (f.o.dir == dirbuf) {
		int used = 0;

		for (int i = 0; i < f.o.vms; i++)
			used |= vms[i].started;
		if (!used)
			remove_tree(dirbuf);
	}
	if (interrupted)
		return 130;
	if (f.refused)
		return 2;
	return failed ? 1 : 0;
}
