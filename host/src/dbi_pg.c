/* dbi_pg.c — the PostgreSQL engine of the storage seam (placeholder). */
#include <stdio.h>

#include "dbi_engine.h"

struct dbi *dbi_pg_open(const char *url, int flags, char *err, size_t errlen)
{
	(void)url;
	(void)flags;
	snprintf(err, errlen, "this xcbenchd has no PostgreSQL engine yet");
	return NULL;
}
