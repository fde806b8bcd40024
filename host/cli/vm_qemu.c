/*
 * vm_qemu.c — the QEMU side of `xcbench vm`: a virtual lab machine's
 * identity (MAC, SMBIOS serial and UUID), the TFTP script its iPXE ROM runs,
 * and the qemu-system-x86_64 command line, started with fork/exec.
 *
 * PXE boot goes through QEMU's own iPXE NIC ROM under SeaBIOS (qboot has no
 * option ROM support): user networking's DHCP names boot.ipxe, served from
 * our TFTP directory, which chains to the daemon's per-machine script — the
 * same /boot.ipxe a lab machine gets from dnsmasq. Direct boot uses qboot
 * (faster) and -kernel with the command line the daemon rendered.
 *
 * --firmware uefi: OVMF (Debian's ovmf package; code read-only, a copy of the
 * variable store per machine, as OVMF writes boot entries into it). PXE then
 * runs QEMU's EFI iPXE ROM for the NIC (romfile=, /usr/lib/ipxe/qemu/efi-*),
 * the same TFTP script and /boot.ipxe, whose ${platform} test picks
 * xcbench.efi; direct boot hands xcbench.efi to OVMF through -kernel (OVMF
 * runs a PE32+ -kernel with LoadImage, -append as its LoadOptions).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vm.h"

void vm_identity(struct vm *v, int idx, const char *dir)
{
	memset(v, 0, sizeof(*v));
	v->idx = idx;
	/* 52:54:00 is QEMU's prefix; 78:63 is "xc". */
	snprintf(v->mac, sizeof(v->mac), "52:54:00:78:63:%02x", idx & 0xff);
	snprintf(v->serial, sizeof(v->serial), "xcbench-vm-%d", idx);
	snprintf(v->uuid, sizeof(v->uuid), "78636265-6e63-4800-8000-525400786%03x", idx & 0xfff);
	snprintf(v->console, sizeof(v->console), "%s/vm-%d.console.log", dir, idx);
	snprintf(v->qemu_log, sizeof(v->qemu_log), "%s/vm-%d.qemu.log", dir, idx);
}

int vm_write_tftp_script(const struct vm_opts *o)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/tftp", o->dir);
	if (mkdir(path, 0755) && errno != EEXIST) {
		fprintf(stderr, "xcbench vm: cannot create %s: %s\n", path, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/tftp/boot.ipxe", o->dir);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "xcbench vm: cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	/* iPXE expands the ${...} settings; the daemon keys the machine by MAC.
	 * If the chain fails, reboot: with -no-reboot that ends QEMU, so the
	 * failure shows at once instead of as a silent timeout. */
	fprintf(f, "#!ipxe\n"
		   "chain http://%s:%d/boot.ipxe?mac=${mac:hexhyp}&uuid=${uuid}&serial=${serial:uristring}"
		   " || goto failed\n"
		   ":failed\n"
		   "echo xcbench: cannot chain to the daemon at %s:%d\n"
		   "sleep 3\n"
		   "reboot\n",
		o->guest_host, o->http_port, o->guest_host, o->http_port);
	return fclose(f) ? -1 : 0;
}

/* The repository root, from /proc/self/exe = ROOT/host/build/xcbench. */
static int repo_file(const char *rel, char *out, size_t len)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return -1;
	exe[n] = 0;
	snprintf(out, len, "%s/%s", dirname(dirname(dirname(exe))), rel);
	return access(out, F_OK);
}

const char *vm_auto_accel(void)
{
	static char acc[16];
	char path[4200], cmd[4300];
	FILE *p;

	if (repo_file("tools/qemu-accel", path, sizeof(path)))
		return "tcg";   /* installed away from the tree: the safe choice */
	snprintf(cmd, sizeof(cmd), "'%s'", path);
	p = popen(cmd, "r");
	if (!p)
		return "tcg";
	if (!fgets(acc, sizeof(acc), p))
		acc[0] = 0;
	pclose(p);
	acc[strcspn(acc, "\r\n")] = 0;
	return strcmp(acc, "kvm") == 0 ? "kvm" : "tcg";
}

#define OVMF_CODE "/usr/share/OVMF/OVMF_CODE_4M.fd"
#define OVMF_VARS "/usr/share/OVMF/OVMF_VARS_4M.fd"

static const char *env_or(const char *name, const char *dflt)
{
	const char *v = getenv(name);

	return v && *v ? v : dflt;
}

/* cp src dst, for the per-machine OVMF variable store. */
static int copy_file(const char *src, const char *dst)
{
	char buf[65536];
	ssize_t n = 0;
	int in = open(src, O_RDONLY | O_CLOEXEC), out = -1, rc = -1;

	if (in >= 0)
		out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	while (out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			break;
	if (out >= 0 && n == 0)
		rc = close(out);
	else if (out >= 0)
		close(out);
	if (in >= 0)
		close(in);
	if (rc)
		fprintf(stderr, "xcbench vm: cannot copy %s to %s: %s (OVMF: make deps installs ovmf)\n",
			src, dst, strerror(errno));
	return rc;
}

/* --nic → QEMU device, and QEMU's EFI iPXE ROM for it (the default ROMs
 * are BIOS-only builds). Unknown names are virtio (cmd_vm.c checks). */
static const struct nic_kind {
	const char *name, *device, *efi_rom;
} nic_kinds[] = {
	{ "virtio", "virtio-net-pci", "/usr/lib/ipxe/qemu/efi-virtio.rom" },
	{ "e1000", "e1000", "/usr/lib/ipxe/qemu/efi-e1000.rom" },
	{ "e1000e", "e1000e", "/usr/lib/ipxe/qemu/efi-e1000e.rom" },
	{ "igb", "igb", NULL },	/* direct boot only (cmd_vm.c refuses PXE/UEFI) */
};

static const struct nic_kind *nic_kind(const char *nic)
{
	for (size_t i = 0; i < sizeof(nic_kinds) / sizeof(nic_kinds[0]); i++)
		if (strcmp(nic, nic_kinds[i].name) == 0)
			return &nic_kinds[i];
	return &nic_kinds[0];
}

#define ARGV_MAX 48

/* Appends the NULL-ended arguments to argv[*n], keeping room for the
 * final NULL (the longest command line vm_start builds has 34 words). */
static void push(const char **argv, int *n, ...)
{
	va_list ap;
	const char *a;

	va_start(ap, n);
	while ((a = va_arg(ap, const char *)) && *n < ARGV_MAX - 1)
		argv[(*n)++] = a;
	va_end(ap);
}

/* One machine's QEMU command line: argv and the strings it points into. */
struct qemu_cmd {
	char smp[16], mem[16], serial[4200], smbios[160], netdev[4200], dev[200];
	char code[4300], vars[4300], varsfile[4200];
	const char *argv[ARGV_MAX];
	int n;
};

/* The -netdev/-device pair of v's NIC, and for UEFI its EFI ROM and OVMF's
 * two flash drives (a fresh copy of the variable store): 0, or -1. */
static int qemu_devices(struct qemu_cmd *q, const struct vm *v, const struct vm_opts *o)
{
	if (o->boot == VM_BOOT_PXE)
		snprintf(q->netdev, sizeof(q->netdev), "user,id=n0,tftp=%s/tftp,bootfile=boot.ipxe", o->dir);
	else
		snprintf(q->netdev, sizeof(q->netdev), "user,id=n0");
	snprintf(q->dev, sizeof(q->dev), "%s,netdev=n0,mac=%s", nic_kind(o->nic)->device, v->mac);
	if (o->firmware != XCB_BOOT_UEFI)
		return 0;
	/* bootindex: OVMF's boot order comes from it, not from -boot. */
	snprintf(q->dev + strlen(q->dev), sizeof(q->dev) - strlen(q->dev), ",romfile=%s%s", nic_kind(o->nic)->efi_rom,
		 o->boot == VM_BOOT_PXE ? ",bootindex=1" : "");
	snprintf(q->varsfile, sizeof(q->varsfile), "%s/vm-%d.ovmf-vars.fd", o->dir, v->idx);
	if (copy_file(env_or("XCBENCH_OVMF_VARS", OVMF_VARS), q->varsfile))
		return -1;
	snprintf(q->code, sizeof(q->code), "if=pflash,format=raw,unit=0,readonly=on,file=%s",
		 env_or("XCBENCH_OVMF_CODE", OVMF_CODE));
	snprintf(q->vars, sizeof(q->vars), "if=pflash,format=raw,unit=1,file=%s", q->varsfile);
	return 0;
}

/* v's whole QEMU command line into q (qemu: the binary): 0, or -1. */
static int qemu_command(struct qemu_cmd *q, const char *qemu, const struct vm *v, const struct vm_opts *o,
			const char *elf)
{
	snprintf(q->smp, sizeof(q->smp), "%d", o->cpus);
	snprintf(q->mem, sizeof(q->mem), "%d", o->mem_mb);
	snprintf(q->serial, sizeof(q->serial), "file:%s", v->console);
	snprintf(q->smbios, sizeof(q->smbios), "type=1,serial=%s,uuid=%s", v->serial, v->uuid);
	if (qemu_devices(q, v, o))
		return -1;
	q->n = 0;
	push(q->argv, &q->n, qemu, "-accel", o->accel, "-M", "q35", "-m", q->mem, "-smp", q->smp, "-display", "none",
	     "-monitor", "none", "-no-reboot", NULL);
	/* The payload ends QEMU through this port: status = (code << 1) | 1. */
	push(q->argv, &q->n, "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04", "-serial", q->serial,
	     "-smbios", q->smbios, "-netdev", q->netdev, "-device", q->dev, NULL);
	if (o->firmware == XCB_BOOT_UEFI)
		push(q->argv, &q->n, "-drive", q->code, "-drive", q->vars, NULL);
	if (o->boot == VM_BOOT_PXE) {
		push(q->argv, &q->n, "-boot", "n", NULL);
	} else {
		if (o->firmware != XCB_BOOT_UEFI && access("/usr/share/qemu/qboot.rom", R_OK) == 0)
			push(q->argv, &q->n, "-bios", "/usr/share/qemu/qboot.rom", NULL);
		push(q->argv, &q->n, "-kernel", elf, "-append", v->cmdline, NULL);
	}
	q->argv[q->n] = NULL;
	return 0;
}

/* Starts q in its own process group, its output (after the command line
 * itself: what to rerun by hand) in v's QEMU log: the pid, or -1. */
static pid_t spawn_logged(const struct vm *v, const struct qemu_cmd *q)
{
	int fd = open(v->qemu_log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	FILE *f;
	pid_t pid;

	if (fd < 0) {
		fprintf(stderr, "xcbench vm: cannot write %s: %s\n", v->qemu_log, strerror(errno));
		return -1;
	}
	f = fdopen(dup(fd), "w");
	if (f) {
		for (int i = 0; i < q->n; i++)
			fprintf(f, "%s'%s'", i ? " " : "", q->argv[i]);
		fprintf(f, "\n");
		fclose(f);
	}
	pid = fork();
	if (pid < 0)
		fprintf(stderr, "xcbench vm: fork: %s\n", strerror(errno));
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		/* Own process group: a Ctrl-C reaches us, and we stop QEMU in order. */
		setpgid(0, 0);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		if (null >= 0)
			dup2(null, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		execvp(q->argv[0], (char *const *)q->argv);
		fprintf(stderr, "xcbench vm: cannot run %s: %s\n", q->argv[0], strerror(errno));
		_exit(127);
	}
	close(fd);
	return pid;
}

int vm_start(struct vm *v, const struct vm_opts *o, const char *elf)
{
	const char *qemu = getenv("XCBENCH_QEMU") ? getenv("XCBENCH_QEMU") : "qemu-system-x86_64";
	struct qemu_cmd *q = calloc(1, sizeof(*q));	/* ~30 KB: not on the stack */
	pid_t pid = -1;

	if (q && qemu_command(q, qemu, v, o, elf) == 0)
		pid = spawn_logged(v, q);
	free(q);
	if (pid < 0)
		return -1;
	v->pid = pid;
	v->started = 1;
	return 0;
}

void vm_reap(struct vm *v, double now)
{
	int st;

	if (v->pid > 0 && waitpid(v->pid, &st, WNOHANG) == v->pid) {
		v->pid = 0;
		v->exit_status = st;
		v->exited_at = now;
	}
}

void vm_stop(struct vm *v, double now)
{
	if (v->pid <= 0)
		return;
	if (!v->stop_at)
		v->stop_at = now;
	kill(v->pid, now - v->stop_at > 10 ? SIGKILL : SIGTERM);
}

void vm_console_tail(const struct vm *v, FILE *out)
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
	fprintf(out, "  last console lines (%s):\n", v->console);
	for (int i = n > 8 ? n - 8 : 0; i < n; i++) {
		fprintf(out, "  | %s", lines[i % 8]);
		if (!strchr(lines[i % 8], '\n'))
			fprintf(out, "\n");
	}
	for (int i = 0; i < 8; i++)
		free(lines[i]);
}

int vm_exit_text(int status, char *buf, size_t len)
{
	if (WIFSIGNALED(status)) {
		snprintf(buf, len, "QEMU killed by signal %d", WTERMSIG(status));
		return 0;
	}
	if (!WIFEXITED(status)) {
		snprintf(buf, len, "QEMU status 0x%x", status);
		return 0;
	}
	int c = WEXITSTATUS(status);

	if (c & 1) {
		snprintf(buf, len, "payload exit %d", c >> 1);
		return c == 1;
	}
	if (c == 127)
		snprintf(buf, len, "QEMU could not be started (see its log)");
	else if (c == 0)
		snprintf(buf, len, "QEMU exited without a payload status (reset or power-off)");
	else
		snprintf(buf, len, "QEMU failed with status %d (see its log)", c);
	return 0;
}
