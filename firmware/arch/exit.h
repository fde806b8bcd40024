/* arch/exit.h — leaving the payload. machine_exit(code) follows end=:
 *   end=exit (default): QEMU isa-debug-exit at port 0xf4 (QEMU exits with
 *                       status (code<<1)|1); where that port does nothing
 *                       (real hardware), falls through to halting.
 *   end=halt:           print and halt every CPU we can reach.
 *   end=reboot:         reset through the ACPI reset register / 0xcf9 / 8042. */
#ifndef XCB_ARCH_EXIT_H
#define XCB_ARCH_EXIT_H

#define XCB_EXIT_OK 0
#define XCB_EXIT_FAIL 1      /* a benchmark or check failed */
#define XCB_EXIT_CONFIG 2    /* bad command line / unsupported request */
#define XCB_EXIT_CRASH 3     /* a CPU took an exception */

void __attribute__((noreturn)) machine_exit(int code);
/* Reads end= once (after cmdline_init); before that, exit means isa-debug-exit.
 * 0, or -1 for a value that is none of exit|halt|reboot (said; exit stays). */
int machine_exit_init(void);

#endif
