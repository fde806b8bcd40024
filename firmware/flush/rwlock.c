/*
 * rwlock.c — the ops tables of the `sync` case's reader-writer locks (the
 * locks themselves are inline in rwlock.h).
 */
#include "flush/rwlock.h"

/* A lock's ops table from its inline functions rw_<kind>_read_lock, ... */
#define RWLOCK_OPS_DEFINE(kind)						\
	const struct rwlock_ops rwlock_##kind##_ops = {			\
		.name = #kind,						\
		.read_lock = rw_##kind##_read_lock,			\
		.read_unlock = rw_##kind##_read_unlock,			\
		.write_lock = rw_##kind##_write_lock,			\
		.write_unlock = rw_##kind##_write_unlock,		\
	}

RWLOCK_OPS_DEFINE(fair);
RWLOCK_OPS_DEFINE(unfair);

static const struct rwlock_ops *const all_ops[] = { &rwlock_fair_ops, &rwlock_unfair_ops };

const struct rwlock_ops *rwlock_ops_by_name(const char *name)
{
	for (unsigned i = 0; i < sizeof(all_ops) / sizeof(all_ops[0]); i++) {
		const char *a = all_ops[i]->name, *b = name;
		while (*a && *a == *b)
			a++, b++;
		if (*a == *b)
			return all_ops[i];
	}
	return 0;
}
