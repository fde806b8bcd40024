/*
 * hello_algos.h - the algorithms' lines of HELLO (algos=, algo.NAME=DESC),
 * and the most bytes they can take, derived from the registry's limits so
 * HELLO's buffer is sized to hold them (bench.c): with 24 algorithms of long
 * descriptions a fixed 4096 cut HELLO off without a word.
 */
#ifndef XCB_BENCH_HELLO_ALGOS_H
#define XCB_BENCH_HELLO_ALGOS_H

#include "bench/strbuf.h"
#include "xcall/xcall.h"

/* "algos=" NAME,NAME...\n (each name with its comma or the newline), then
 * "algo." NAME "=" DESC "\n" per algorithm: every one at XCALL_NAME_MAX and
 * XCALL_DESC_MAX, XCALL_MAX_ALGOS of them (xcall_init_all refuses more,
 * xcall_decl_error longer). */
#define HELLO_ALGOS_MAX (sizeof("algos=") - 1 + XCALL_MAX_ALGOS * (XCALL_NAME_MAX + 1) + \
			 XCALL_MAX_ALGOS * (sizeof("algo.=\n") - 1 + XCALL_NAME_MAX + XCALL_DESC_MAX))

/* Appends the lines of algos[] (NULL-terminated: xcall_algos) to sb. */
void hello_algos(struct strbuf *sb, const struct xcall_ops *const *algos);

#endif
