/*
 * rwlock.c — the ops tables of the `sync` case's reader-writer locks (the
 * locks themselves are inline in rwlock.h).
 */
#include "flush/rwlock.h"

const struct rwlock_ops rwlock_fair_ops = {
	.name = "fair",
	.read_lock = rw_fair_read_lock,
	.read_unlock = rw_fair_read_unlock,
	.write_lock = rw_fair_write_lock,
	.write_unlock = rw_fair_write_unlock,
};

const struct rwlock_ops rwlock_unfair_ops = {
	.name = "unfair",
	.read_lock = rw_unfair_read_lock,
	.read_unlock = rw_unfair_read_unlock,
	.write_lock = rw_unfair_write_lock,
	.write_unlock = rw_unfair_write_unlock,
};

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
