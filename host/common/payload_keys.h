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

/* algos=, which the table cannot check (only the payload knows which
 * algorithms it carries): against the names the firmware build wrote
 * beside the images (firmware/build/algos.txt, from the linked payload's
 * XCALL_ALGO symbols). images: the payload files that may be served
 * (NULL-terminated; the list is the one beside images[0]). The list is
 * used only when every image of those that exists is one it names (by
 * CRC-32): otherwise, as without a list, nothing is refused (0) and the
 * payload says at boot. -1 with why: "payload key 'algos': 'bcnt' is not
 * an algorithm of the payload image; did you mean 'bcount'? (it has:
 * concurrent, ..., all)". */
int payload_algos_check(const char *const *images, const char *value, char *why, size_t n);
/* The names of the list for images (as payload_algos_check), pointing into
 * text (size bytes, the file read): how many (at most max), or -1 when
 * there is no list for those images. */
int payload_algos_load(const char *const *images, char *text, size_t size, const char **names, unsigned max);

#endif
