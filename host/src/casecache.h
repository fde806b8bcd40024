/*
 * casecache.h — the rendered JSON of runs' cases (GET /api/v1/runs/{id}'s
 * "cases", the default page), kept between requests: building it is most
 * of that route's time (a SQL read of every RESULT and histogram row of the
 * run, and 58-73 KB of JSON), and it changes only when the run stores a
 * frame (a finished run never does). Shared by the HTTP threads, bounded
 * in bytes.
 */
#ifndef XCB_CASECACHE_H
#define XCB_CASECACHE_H

#include <stddef.h>
#include <stdint.h>

/* What a cached rendering is valid for: the run (id and token: a deleted
 * run's id reused is another run) as it was after its frames_received-th
 * frame, last stored at last_frame. Every stored frame changes
 * frames_received and last_frame in the same transaction as its rows
 * (store_sql.c's S_TOUCH), so a live run's next frame misses the cache. */
struct casecache_key {
	int64_t id, frames, last_frame;
	const char *token;
};

/* A malloc'd copy of k's cached JSON (its length in *len), or NULL. */
char *casecache_get(const struct casecache_key *k, size_t *len);
/* Keeps json[0..len) for k (a copy), evicting older renderings to stay in
 * the budget; one too large for it is not kept. */
void casecache_put(const struct casecache_key *k, const char *json, size_t len);

#endif
