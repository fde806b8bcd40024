/*
 * ratelimit.h — per-source token buckets (boot requests, REFUSED replies):
 * a fixed table of buckets indexed by a hash of the IPv4 address, so a
 * flood from many addresses costs no memory; two addresses that share a
 * slot share a budget, which only makes the limit stricter.
 */
#ifndef XCB_RATELIMIT_H
#define XCB_RATELIMIT_H

#include <pthread.h>
#include <stdint.h>

#define RATELIMIT_SLOTS 1024

struct ratelimit {
	pthread_mutex_t lock;  /* pairs: slot[] (HTTP threads share a limiter) */
	double burst, rate;    /* bucket size, refill per second */
	struct { uint32_t addr; double tokens, at; } slot[RATELIMIT_SLOTS];
};

#define RATELIMIT_INIT(burst_, rate_) { .lock = PTHREAD_MUTEX_INITIALIZER, .burst = (burst_), .rate = (rate_) }

/* 1 if addr (network order) may go on now (one token taken), else 0. */
int ratelimit_take(struct ratelimit *rl, uint32_t addr);

#endif
