/*
 * runcounts.c — the per-thread cache of runs' case counts (runcounts.h).
 * Thread-local, so no lock: each HTTP thread has its own read connection
 * (db.c) and its own cache. Direct-mapped by run id: a bounded size
 * whatever the number of runs, a page of 1000 runs fits without
 * evicting itself.
 */
#include <string.h>

#include "runcounts.h"

#define SLOTS 4096

struct slot {
	int64_t id, frames, cases, done;
	uint64_t token; /* FNV-1a of the token: a deleted run's id reused is another run */
};
static __thread struct slot cache[SLOTS];

/* FNV-1a, 0 never (an empty slot). */
static uint64_t hash(const char *s)
{
	uint64_t h = 14695981039346656037ULL;

	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h ? h : 1;
}

int runcounts_get(int64_t id, const char *token, int64_t frames, int64_t *cases, int64_t *done)
{
	const struct slot *s = &cache[(uint64_t)id % SLOTS];

	if (s->token == 0 || s->id != id || s->frames != frames || s->token != hash(token))
		return 0;
	*cases = s->cases;
	*done = s->done;
	return 1;
}

void runcounts_put(int64_t id, const char *token, int64_t frames, int64_t cases, int64_t done)
{
	struct slot *s = &cache[(uint64_t)id % SLOTS];

	s->id = id;
	s->frames = frames;
	s->cases = cases;
	s->done = done;
	s->token = hash(token);
}
