/*
 * algo_name.c — a build tool (host): for each algorithm name on its command
 * line, why it cannot be one (xcall/registry.c's xcall_name_reserved: `all`,
 * or a flush path's, floor's or sync mode's word, the other values of the
 * CASE key `algo`), one "NAME: reason" line each; exit 1 if any. The same
 * function the payload's init refuses them with, so xcall/check_algos.sh
 * can stop the build on such a name before anything boots (it was said at
 * boot, or by test_xcall in step 3 of the guide).
 */
#include <stdio.h>
#include "xcall/xcall_internal.h"

/* registry.c walks the section xcall_algos: one stand-in so it exists. */
static const struct xcall_ops xcall_algo_name_tool = { .name = "algo_name_tool" };
XCALL_TABLE_ENTRY(algo_name_tool);

int main(int argc, char **argv)
{
	int bad = 0;

	for (int i = 1; i < argc; i++) {
		const char *why = xcall_name_reserved(argv[i]);
		if (why) {
			printf("%s: %s\n", argv[i], why);
			bad = 1;
		}
	}
	return bad;
}
