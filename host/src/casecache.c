/*
 * casecache.c — the run page's rendered cases, kept between requests
 * (casecache.h). One table for all HTTP threads (a run's page is often
 * polled from several connections), direct-mapped by run id, bounded by
 * CACHE_BYTES in all: renderings are evicted round-robin to make room.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "casecache.h"

#define SLOTS 1024                      /* a 1000-run history maps without collisions */
#define CACHE_BYTES (32u << 20)         /* ~450 renderings of a 48-case run */

struct slot {
	int64_t id, frames, last_frame;
	char token[24];
	char *json;                     /* NULL: empty */
	size_t len;
};

/* Guards slots, used and hand: taken by every get and put (HTTP threads). */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct slot slots[SLOTS];
static size_t used;                     /* bytes held by slots[].json */
static unsigned hand;                   /* the next slot eviction empties */

/* Whether slot s holds k's rendering. */
static int matches(const struct slot *s, const struct casecache_key *k)
{
	return s->json && s->id == k->id && s->frames == k->frames && s->last_frame == k->last_frame &&
	       k->token && strcmp(s->token, k->token) == 0;
}

/* Empties slot s (lock held). */
static void drop(struct slot *s)
{
	used -= s->len;
	free(s->json);
	s->json = NULL;
	s->len = 0;
}

char *casecache_get(const struct casecache_key *k, size_t *len)
{
	struct slot *s = &slots[(uint64_t)k->id % SLOTS];
	char *copy = NULL;

	pthread_mutex_lock(&lock);
	if (matches(s, k) && (copy = malloc(s->len + 1))) {
		memcpy(copy, s->json, s->len + 1);
		*len = s->len;
	}
	pthread_mutex_unlock(&lock);
	return copy;
}

void casecache_put(const struct casecache_key *k, const char *json, size_t len)
{
	struct slot *s = &slots[(uint64_t)k->id % SLOTS];
	char *copy;

	/* A token that does not fit is no run of ours (tokens are 16 hex digits). */
	if (!k->token || strlen(k->token) >= sizeof(s->token) || len > CACHE_BYTES / 8 || !(copy = malloc(len + 1)))
		return;
	memcpy(copy, json, len);
	copy[len] = 0;
	pthread_mutex_lock(&lock);
	drop(s);
	while (used + len > CACHE_BYTES)
		drop(&slots[hand++ % SLOTS]);
	s->id = k->id;
	s->frames = k->frames;
	s->last_frame = k->last_frame;
	strcpy(s->token, k->token);
	s->json = copy;
	s->len = len;
	used += len;
	pthread_mutex_unlock(&lock);
}
