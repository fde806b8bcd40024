/*
 * payload_keys.h — the payload's command-line keys as the host checks them
 * before anything boots or is queued (xcbench vm/queue's key=value
 * arguments, POST /api/v1/jobs's params). The keys are the payload's own
 * table, firmware/cmdline_keys.c, compiled into the host: there is no
 * second list. The payload only warns about an unknown key and ignores it,
 * so a typo (sutie=seed) cost a boot of minutes that ran the default suite.
 */
#ifndef XCB_PAYLOAD_KEYS_H
#define XCB_PAYLOAD_KEYS_H

#include <stddef.h>

/* key=value as the payload would take it: 0, or -1 with one line in why
 * that names the key: "unknown payload key 'sutie'; did you mean
 * 'suite'?", "unknown payload key 'bogus'", or, for a key whose words are
 * a schema vocabulary, "payload key 'kinds': 'xcal' is not one of xcall,
 * tlb, raw, sync, all". */
int payload_key_check(const char *key, const char *value, char *why, size_t n);

#endif
