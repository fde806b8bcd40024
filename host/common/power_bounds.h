/*
 * power_bounds.h — how long a power driver call may take: the daemon kills
 * a call past POWER_TIMEOUT_S (host/src/power.c), and the CLI tells a user
 * waiting on a slow BMC the bound of the whole action (host/cli
 * cmd_machine.c). Here, below both, so the two read one number.
 */
#ifndef XCB_POWER_BOUNDS_H
#define XCB_POWER_BOUNDS_H

/* Seconds one driver call may take before it is killed. */
#define POWER_TIMEOUT_S 30
/* Seconds one action may take in all (what `xcbench machine power` tells
 * the user it waits at most): its call, and for ipmi a second, verbose one
 * that names why no session opened (power_ipmi.c session_failure). */
#define POWER_ACTION_MAX_S(ipmi) ((ipmi) ? 2 * POWER_TIMEOUT_S : POWER_TIMEOUT_S)

#endif
