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
 * 'suite'?", "unknown payload key 'bogus'", or, for a value the key's
 * parser would refuse or replace by a default, what it should be: "payload
 * key 'kinds': 'xcal' is not one of xcall, tlb, raw, sync, all", "payload
 * key 'reps': '0' is not a number from 1 to 1000", "payload key 'run':
 * 'xyz' is not 16 hex digits". */
int payload_key_check(const char *key, const char *value, char *why, size_t n);

#endif
