/*
 * vm.h — `xcbench vm`: virtual lab machines in QEMU. One struct per machine
 * (its identity, its QEMU process, the run it reports into), the QEMU side
 * in vm_qemu.c, the orchestration and the daemon side in cmd_vm.c.
 */
#ifndef XCB_VM_H
#define XCB_VM_H

#include <stdint.h>
#include <sys/types.h>

enum vm_boot { VM_BOOT_PXE, VM_BOOT_DIRECT };

struct vm_opts {
	int cpus, vms, mem_mb, timeout_s, wait;
	enum vm_boot boot;
	int uefi;              /* --firmware uefi: OVMF, EFI iPXE ROM, xcbench.efi */
	const char *accel;     /* kvm|tcg (auto already resolved) */
	const char *nic;       /* virtio|e1000|e1000e */
	const char *dir;       /* consoles, TFTP script, payload copy */
	const char *guest_host;/* the daemon's host as the guest reaches it */
	int http_port;
};

struct vm {
	int idx;                   /* 1-based */
	char mac[18], serial[32], uuid[40];
	char console[4096], qemu_log[4096];
	char *cmdline;             /* direct boot: the payload's command line */
	pid_t pid;                 /* 0 once reaped */
	int exit_status;           /* waitpid status, valid once pid == 0 */
	double exited_at;          /* monotonic seconds, 0 while running */
	double done_at;            /* when the run was seen complete, 0 before */
	double stop_at;            /* when we first asked QEMU to stop, 0 before */
	int64_t job_id, run_id;    /* 0 = unknown yet */
	char status[16];           /* the run's status as the API last said */
	int64_t frames;
	int finished;              /* 1 ok, -1 failed, 0 still going */
	char why[256];             /* the reason when failed */
};

/* Fills mac/serial/uuid/console paths for machine idx (stable per index, so a
 * machine's history accumulates in the dashboard across invocations). */
void vm_identity(struct vm *v, int idx, const char *dir);
/* Writes DIR/tftp/boot.ipxe, the script QEMU's iPXE ROM fetches by TFTP. */
int vm_write_tftp_script(const struct vm_opts *o);
/* Starts QEMU for v (fork/exec); elf is the payload for direct boot
 * (xcbench.elf, or xcbench.efi with o->uefi). */
int vm_start(struct vm *v, const struct vm_opts *o, const char *elf);
/* Resolves --accel auto through tools/qemu-accel. */
const char *vm_auto_accel(void);
/* QEMU's exit status → text ("payload exit 0", "killed by signal 9", …); 1
 * when the payload itself ended with status 0. */
int vm_exit_text(int status, char *buf, size_t len);

#endif
