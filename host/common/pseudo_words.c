/*
 * pseudo_words.c — the words for a sync case's pseudo-initiator rows (see
 * pseudo_words.h), in the order show prints them (proto's order), for
 * compare's lock_hold row and for any other case's all row.
 */
#include <string.h>

#include "pseudo_words.h"

const struct pseudo_words pseudo_words[] = {
	{ "writer_hold", "writer's lock hold", "the writer's median write-lock hold", "p50" },
	{ "writer_e2e", "writer end-to-end",
	  "the writer's median time from lock request to effective invalidation", "p50" },
	{ "writer_effective", "time to effective invalidation",
	  "the writer's median time from PTE change to effective invalidation", "p50" },
	{ "reader_batch", "readers' wait per batch", "the readers' median read-lock wait per batch", "p50" },
};
const struct pseudo_words pseudo_words_all = {
	"all", "readers' wait per read", "the readers' median read-lock wait per acquisition", "p50"
};
/* each repetition gives its mean hold (total / holds), not a p50 */
const struct pseudo_words pseudo_words_lock_hold = {
	"lock_hold", "lock hold per acquisition", "the median lock hold per acquisition", "hold"
};
const struct pseudo_words pseudo_words_call = {
	"all", "call time", "the median call time", "p50"
};
const size_t pseudo_words_n = sizeof(pseudo_words) / sizeof(pseudo_words[0]);

const struct pseudo_words *pseudo_words_of(const char *name)
{
	for (size_t k = 0; name && k < pseudo_words_n; k++)
		if (!strcmp(pseudo_words[k].name, name))
			return &pseudo_words[k];
	return name && !strcmp(name, pseudo_words_lock_hold.name) ? &pseudo_words_lock_hold : NULL;
}
