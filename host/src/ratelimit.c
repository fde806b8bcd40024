/* ratelimit.c — per-source token buckets (see ratelimit.h). */
#include "ratelimit.h"
#include "util.h"

int ratelimit_take(struct ratelimit *rl, uint32_t addr)
{
	unsigned h = (addr * 2654435761u) % RATELIMIT_SLOTS;
	double now = now_mono();
	int ok;

	pthread_mutex_lock(&rl->lock);
	if (rl->slot[h].addr != addr || rl->slot[h].at == 0) {
		rl->slot[h].addr = addr;
		rl->slot[h].tokens = rl->burst;
	} else {
		rl->slot[h].tokens += (now - rl->slot[h].at) * rl->rate;
		if (rl->slot[h].tokens > rl->burst)
			rl->slot[h].tokens = rl->burst;
	}
	rl->slot[h].at = now;
	ok = rl->slot[h].tokens >= 1;
	if (ok)
		rl->slot[h].tokens -= 1;
	pthread_mutex_unlock(&rl->lock);
	return ok;
}
