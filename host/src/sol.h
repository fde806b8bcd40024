/*
 * sol.h — serial-over-LAN capture (sol.c): from a job's power-on, what the
 * machine prints (firmware, iPXE, the payload) is attached to the job's run
 * as console lines while it arrives.
 */
#ifndef XCB_SOL_H
#define XCB_SOL_H

#include <stdint.h>

#include "power.h"

/* Captures job's console through c's BMC unless that runs already. */
void sol_ensure(int64_t job, const struct power_cfg *c);
/* Whether job's session is up, so that a power-on loses none of the
 * firmware's first lines (ipmi_sim, like a BMC, drops serial output while
 * no session listens): 1 up, 0 not yet, -1 no capture for job. Never
 * waits: the job runner asks again on its next pass. */
int sol_active(int64_t job);
/* Stops job's capture (what was read is stored first). */
void sol_stop(int64_t job);
void sol_stop_all(void);

#endif
