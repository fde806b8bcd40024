/*
 * skip_forward.c — an injected fault for tests/t-xcall-faults.sh: the real
 * xcall/tree.c, except that a leader never forwards the IPI to CPU 3 (a
 * send from inside a handler to CPU 3 is dropped). Other traffic on the
 * vector can cover for it (a target scans every descriptor), so only a
 * check with nothing else in flight sees it: test_xcall's quiet phase must
 * name CPU 3, and only CPU 3, as not having run the call.
 */
#include "xcall/platform.h"
#include "xcall/platform_host.h"

#define SKIP_CPU 3

static void send_but_not_forward_to_3(unsigned cpu, enum plat_ipi kind)
{
	if (cpu == SKIP_CPU && plat_host_in_handler())
		return;		/* the fault: the leader's forward, lost */
	plat_send_ipi(cpu, kind);
}

#define plat_send_ipi send_but_not_forward_to_3
#include "xcall/tree.c"
