/*
 * hello_algos.c - the algorithms this payload carries, as HELLO says them
 * (hello_algos.h): the host learns them here and has no list of its own.
 */
#include "bench/hello_algos.h"

void hello_algos(struct strbuf *sb, const struct xcall_ops *const *algos)
{
	sb_puts(sb, "algos=");
	for (unsigned a = 0; algos[a]; a++) {
		if (a)
			sb_putc(sb, ',');
		sb_puts(sb, algos[a]->name);
	}
	sb_putc(sb, '\n');
	for (unsigned a = 0; algos[a]; a++) {
		sb_puts(sb, "algo.");
		sb_kv(sb, algos[a]->name, algos[a]->desc);
	}
}
