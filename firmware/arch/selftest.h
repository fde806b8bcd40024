/* arch/selftest.h — boot-time checks of the arch services the upper layers
 * rely on but the boot report does not exercise: the 4 KiB test window
 * (map, read, remap, invlpg, read the new page) and the one-shot APIC timer. */
#ifndef XCB_ARCH_SELFTEST_H
#define XCB_ARCH_SELFTEST_H

/* Prints one "xcbench: selftest ..." line; 0 ok, -1 on a failure (printed). */
int arch_selftest(void);

#endif
