/*
 * verdict_words.c — the payload's verdict on a run in words (see
 * verdict_words.h), in DONE status order.
 */
#include <strings.h>

#include "verdict_words.h"
#include "xcb_proto.h"

const struct verdict_words verdict_words[] = {
	[XCB_DONE_OK] = { VERDICT_OK, "the payload's checks passed (done status 0)" },
	[XCB_DONE_ABORTED] = { VERDICT_ABORTED, "the payload stopped the suite early (done status 1: aborted)" },
	[XCB_DONE_FAILED] = { VERDICT_FAILED, "the payload's checks FAILED (done status 2: calls lost, duplicated or out of "
					"order, stale reads, or wait=done returning early)" },
};
const size_t verdict_words_n = sizeof(verdict_words) / sizeof(verdict_words[0]);

static const struct verdict_words unknown = { "unknown", "the payload reported an unknown done status" };

const struct verdict_words *verdict_of(long long status)
{
	return status >= 0 && (size_t)status < verdict_words_n ? &verdict_words[status] : &unknown;
}

int verdict_parse(const char *name)
{
	for (size_t i = 0; i < verdict_words_n; i++)
		if (strcasecmp(name, verdict_words[i].name) == 0)
			return (int)i;
	return -1;
}
