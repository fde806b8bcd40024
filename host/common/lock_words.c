/*
 * lock_words.c — what a case's lock profile counts (see lock_words.h).
 */
#include <string.h>

#include "lock_words.h"

const struct lock_words lock_words[] = {
	/* the seed's reader/writer figures are the timed ones only */
	{ "sync", NULL, "timed" },
	/* Every other lock profile counts the timed calls' takes only: the
	 * payload leaves the warm-up's and a TLB case's no-flush control's
	 * out (firmware xcall.h xcall_lockprof_count). A run stored from an
	 * older payload counted them too, and nothing in it says which. */
	{ NULL, NULL, "timed calls only" },
};
const size_t lock_words_n = sizeof(lock_words) / sizeof(lock_words[0]);

const char *lock_words_for(const char *kind, const char *method)
{
	for (size_t i = 0; i < lock_words_n; i++) {
		const struct lock_words *w = &lock_words[i];

		if (w->kind && !(kind && !strcmp(kind, w->kind)))
			continue;
		if (w->not_method && method && !strcmp(method, w->not_method))
			continue;
		return w->counts;
	}
	return lock_words[lock_words_n - 1].counts;
}
