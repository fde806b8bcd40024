/*
 * vm.h — `xcbench vm`: virtual lab machines in QEMU. One struct per machine
 * (its identity, its QEMU process, the run it reports into, the state it is
 * in), the QEMU side in vm_qemu.c, the daemon side in vm_api.c, and the
 * state machine that follows each machine in cmd_vm.c.
 */
#ifndef XCB_VM_H
#define XCB_VM_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "xcb_schema.h"

enum vm_boot { VM_BOOT_PXE, VM_BOOT_DIRECT };

/* QEMU user networking, as the guest sees it: the host (a loopback daemon
 * is reached there), and the guest's own address and netmask. */
#define VM_GUEST_GW "10.0.2.2"
#define VM_GUEST_IP "10.0.2.15"
#define VM_GUEST_NETMASK "255.255.255.0"

/* Where one machine is (cmd_vm.c's vm_next() moves it; its name: state_names[] there). */
enum vm_state {
	VM_NEW,        /* nothing done yet: queue its job, start QEMU */
	VM_BOOTING,    /* QEMU runs, no run of its MAC seen yet */
	VM_RUNNING,    /* its run exists and is not finished */
	VM_ENDED,      /* --wait: QEMU ended first; the run may still finish */
	VM_COMPLETE,   /* the run is complete; QEMU is expected to end */
	VM_STOPPING,   /* failed (why says how); QEMU is being stopped */
	VM_DONE,       /* final: succeeded, QEMU gone */
	VM_FAILED,     /* final: failed, QEMU gone */
	VM_SKIPPED,    /* final: never started (an earlier machine failed to) */
};

struct vm_opts {
	int cpus, vms, mem_mb, timeout_s, wait;
	enum vm_boot boot;
	enum xcb_boot firmware;/* --firmware (proto's boot vocabulary); uefi: OVMF, EFI iPXE ROM, xcbench.efi */
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
	int64_t cases;
	int64_t cases_done, cases_planned; /* with a RESULT; announced (0: unknown) */
	double running_since;      /* monotonic when first seen with a case done, 0 before */
	char run_error[200];       /* the run's error text ("" when none) */
	const char *verdict;       /* the payload's failed verdict (verdict.h), NULL when none */
	char skipped[400];         /* the cases the payload skipped, in words (skipped.h); "" none */
	enum vm_state state;
	int started;               /* QEMU was started (it has a console) */
	char why[256];             /* the reason when failed */
};

/* Fills mac/serial/uuid/console paths for machine idx (stable per index, so a
 * machine's history accumulates in the dashboard across invocations). */
void vm_identity(struct vm *v, int idx, const char *dir);
/* Writes DIR/tftp/boot.ipxe, the script QEMU's iPXE ROM fetches by TFTP. */
int vm_write_tftp_script(const struct vm_opts *o);
/* Starts QEMU for v (fork/exec); elf is the payload for direct boot
 * (xcbench.elf, or xcbench.efi with o->firmware XCB_BOOT_UEFI). */
int vm_start(struct vm *v, const struct vm_opts *o, const char *elf);
/* Reaps v's QEMU if it ended (pid 0, exit_status and exited_at set). */
void vm_reap(struct vm *v, double now);
/* SIGTERM (QEMU exits cleanly on it), repeated on every call until reaped;
 * SIGKILL once that was ignored for 10 s. */
void vm_stop(struct vm *v, double now);
/* Resolves --accel auto through tools/qemu-accel. */
const char *vm_auto_accel(void);
/* Prints the console's last lines (what a failed machine said last). */
void vm_console_tail(const struct vm *v, FILE *out);
/* QEMU's exit status → text ("payload exit 0", "killed by signal 9", …); 1
 * when the payload itself ended with status 0. */
int vm_exit_text(int status, char *buf, size_t len);

/* The daemon side (vm_api.c). Errors are printed; -1 or 0 returned. */
/* Queues v's job (suite, params, label) for its MAC; sets v->job_id. */
int vm_queue_job(struct vm *v, const char *suite, const char *label, json_t *params);
/* Deletes v's job if no boot consumed it. */
void vm_drop_job(struct vm *v);
/* GET /boot.json for a direct boot: sets v->cmdline, v->run_id and image
 * (the payload's route on the daemon). */
int vm_boot_spec(struct vm *v, const struct vm_opts *o, char *image, size_t len);
/* GETs route into the file dest. */
int vm_fetch(const char *dest, const char *route);
/* The newest run of v's MAC created since t0 (0 if none yet). */
int64_t vm_find_run(const struct vm *v, int64_t t0);
/* Refreshes v->status, frames, cases, run_error from the API; -1 if it
 * could not say. */
int vm_poll_run(struct vm *v);
/* The dashboard URL of run id. */
void vm_run_url(char *buf, size_t len, int64_t id);
/* Attaches the console to v's run (events of kind "console") and names the
 * console and QEMU log files in the run's notes; no-op without a run. */
void vm_attach_console(const struct vm *v);

#endif
