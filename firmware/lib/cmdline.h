/* lib/cmdline.h — the payload's command line: space-separated key=value words
 * (a bare word is a key with an empty value). The first word is dropped when it
 * has no '=' because QEMU and iPXE put the image name there.
 *
 * Known keys live in ONE table, firmware/cmdline_keys.c (add a line there for
 * each new key); cmdline_check_keys() warns about the rest and carries on.
 * Host-compilable and unit-tested (firmware/tests/test_cmdline.c). */
#ifndef XCB_LIB_CMDLINE_H
#define XCB_LIB_CMDLINE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CMDLINE_MAX 1024
#define CMDLINE_MAX_WORDS 64
#define CMDLINE_LIST_MAX 64

/* What a key's value is, by the payload's own parser of it: what the host
 * checks it for before a machine boots (host/common/payload_keys.c). */
enum cmdline_value {
	CMDLINE_V_TEXT,   /* not checked: algos= (the algorithms the payload registers), the addresses the daemon sets */
	CMDLINE_V_WORD,   /* one of words[] (cmdline_choice, suite_load) */
	CMDLINE_V_WORDS,  /* word,word,... of words[] or names[], or all; empty items skipped (suite.c parse_words) */
	CMDLINE_V_NUM,    /* one number (cmdline_parse_u64) from min to max; 0 too where zero */
	CMDLINE_V_NUMS,   /* number,number,... each from min to max, or one of alts' words; empty items skipped
			   * (suite.c parse_numbers) */
	CMDLINE_V_TOKEN,  /* 16 hex digits (bench/report.c: anything else is replaced by a made-up token) */
};

struct cmdline_key {
	const char *key;
	const char *help;
#ifdef XCB_CMDLINE_VOCAB
	/* The host's builds only (host/Makefile defines XCB_CMDLINE_VOCAB):
	 * what the key's value may be, so that xcbench and xcbenchd refuse
	 * kinds=xcal or reps=-1 before a machine boots
	 * (host/common/payload_keys.c). The payload checks its values itself
	 * and has no bytes to spare for them (firmware/Makefile MAX_SIZE):
	 * in its build the CMDLINE_* value macros below add nothing. */
	enum cmdline_value value;
	const char *const *words, *const *names; /* WORD(S): the words (names: the wire's too, or NULL) */
	unsigned nwords;
	uint64_t min, max;                       /* NUM(S): the bounds */
	int zero;                                /* NUM: 0 is taken too (it means "off") */
	const char *alts;                        /* NUMS: "word|word" an item may be instead, or NULL */
#endif
};
/* After a key's help in cmdline_keys.c, one each: what its value is, for
 * the host's check; nothing in the payload. Designated, so that each says
 * only what it uses (the rest zero: none). */
#ifdef XCB_CMDLINE_VOCAB
/* A list of words (CMDLINE_WORDS) or one word (CMDLINE_WORD) of the schema
 * vocabulary v (proto/xcb_schema.h). */
#define CMDLINE_WORDS(v) , .value = CMDLINE_V_WORDS, .words = xcb_##v##_words, .names = xcb_##v##_names, \
			 .nwords = XCB_N_##v
#define CMDLINE_WORD(v)  , .value = CMDLINE_V_WORD, .words = xcb_##v##_words, .names = xcb_##v##_names, \
			 .nwords = XCB_N_##v
/* One word of a payload's own list (lib/cmdline_words.h). */
#define CMDLINE_ONE_OF(LIST) , .value = CMDLINE_V_WORD, .words = (const char *const[]){ LIST(XCB_CLI_WORD) }, \
			     .nwords = XCB_COUNT(LIST)
/* A number from lo to hi; any number; 0 or at least lo. */
#define CMDLINE_NUM(lo, hi) , .value = CMDLINE_V_NUM, .min = (lo), .max = (hi)
#define CMDLINE_U64 CMDLINE_NUM(0, UINT64_MAX)
#define CMDLINE_NUM_OR_0(lo) , .value = CMDLINE_V_NUM, .min = (lo), .max = UINT64_MAX, .zero = 1
/* A list of numbers from lo to hi; or, item by item, a word of LIST. */
#define CMDLINE_NUMS(lo, hi) , .value = CMDLINE_V_NUMS, .min = (lo), .max = (hi)
#define CMDLINE_NUMS_OR(lo, hi, LIST) , .value = CMDLINE_V_NUMS, .min = (lo), .max = (hi), .alts = CMDLINE_ALTS(LIST)
#define CMDLINE_TOKEN , .value = CMDLINE_V_TOKEN
#define CMDLINE_TEXT , .value = CMDLINE_V_TEXT
#else
#define CMDLINE_WORDS(v)
#define CMDLINE_WORD(v)
#define CMDLINE_ONE_OF(LIST)
#define CMDLINE_NUM(lo, hi)
#define CMDLINE_U64
#define CMDLINE_NUM_OR_0(lo)
#define CMDLINE_NUMS(lo, hi)
#define CMDLINE_NUMS_OR(lo, hi, LIST)
#define CMDLINE_TOKEN
#define CMDLINE_TEXT
#endif
/* Terminated by { .key = NULL }; defined in firmware/cmdline_keys.c. */
extern const struct cmdline_key cmdline_keys[];
/* The entry of cmdline_keys[] named k (exactly), or NULL (lib/cmdline_key.c,
 * which the host's builds share: host/common/payload_keys.c). */
const struct cmdline_key *cmdline_key_find(const char *k);
/* The known key an unknown k most likely meant: the nearest by edit
 * distance (ignoring case), if within a third of k's length (at least 1):
 * 'delivery' finds 'deliveries', 'sutie' 'suite'; 'bogus' finds nothing
 * (NULL). */
const struct cmdline_key *cmdline_key_nearest(const char *k);
/* The index of the word of words[0..n) nearest to k by the same measure
 * and bound, or -1; a NULL word is skipped. The "did you mean" for a
 * value: the host's for algos=, whose words are the image's
 * (host/common/payload_keys.c), and the payload's for every word list
 * (bench/suite.c parse_words: algos=, flush=, ...). */
int cmdline_nearest(const char *k, const char *const *words, unsigned n);

/* Copies and splits s (may be NULL), dropping a first word without '=' (the
 * image name multiboot loaders put first). Returns the number of key words. */
int cmdline_init(const char *s);
/* The same for a line that has no image name in front (UEFI LoadOptions once
 * boot/efi/ has detected and removed one): every word is a key. */
int cmdline_init_noname(const char *s);
/* UEFI LoadOptions come with an image name in front (iPXE, the shell) or without
 * (OVMF's -kernel): detect it rather than assume. The length to skip (the name
 * and the spaces after it), or 0: the first word is a name when it has no '='
 * and is a path (\ / :), ends in ".efi", or equals `image` (the file name the
 * firmware loaded, or NULL); ignoring case. */
size_t cmdline_image_name_len(const char *s, const char *image);
/* The whole line as given (after dropping the image name). */
const char *cmdline_get(void);
/* The same line with the values of secret keys masked (run=* server=*,
 * proto/xcb_secret.h): what the console log and the HELLO cmdline fact show,
 * since both reach anonymous readers. */
const char *cmdline_shown(void);
/* Warns ("xcbench: warning: unknown cmdline key 'x' (ignored)") for each word
 * whose key is not in cmdline_keys[], naming the nearest known key and its
 * help when one is near ("; did you mean 'deliveries' (...)?"); returns how
 * many were unknown. */
int cmdline_check_keys(void);

bool cmdline_has(const char *key);
/* The value of the LAST occurrence of key, or dflt. */
const char *cmdline_str(const char *key, const char *dflt);
/* Parses key as an unsigned integer: decimal, 0x hex, optional k/m/g suffix
 * (powers of 1024). Absent: *out = dflt, returns 0. Bad value: prints
 * "xcbench: error: cmdline key 'KEY': bad number 'VALUE'", leaves *out = dflt,
 * returns -1. */
int cmdline_u64(const char *key, uint64_t dflt, uint64_t *out);
/* A CPU-index key (the test keys hang_cpu=N, ipidrop_cpu=N, ...): absent:
 * *out = ~0u (none), returns 0. A bad number, or one that is not below
 * ncpus (the CPUs online): prints "xcbench: error: cmdline key 'KEY': ..."
 * naming the value, leaves *out = ~0u, returns -1, so that a typo never
 * reads as a fault that was asked for and simply did not happen. */
int cmdline_cpu(const char *key, unsigned ncpus, unsigned *out);
/* Like cmdline_u64 but the value must also be one of words in 'choices'
 * ("auto|xapic|x2apic"): returns its index, dflt_index when absent, -1 with
 * cmdline_refuse_alts's line when not one of them. */
int cmdline_choice(const char *key, const char *choices, int dflt_index);
/* THE payload's line refusing value v of key, whatever the key (one word,
 * bench/suite.c's word lists, suite=): "xcbench: error: cmdline key 'end':
 * unknown value 'rebot'; did you mean 'reboot'? (one of: exit halt reboot)",
 * the suggestion by cmdline_nearest over words[0..n), else over names (the
 * wire's spelling, NULL: none; a NULL word is skipped), when one is near;
 * the list names each word, and its name where that differs, then more (a
 * word every key takes, "all"; NULL: none). */
void cmdline_refuse(const char *key, const char *v, const char *const *words, const char *const *names, unsigned n,
		    const char *more);
/* The same for a key whose words are one "a|b|c" string (CMDLINE_ALTS, what
 * cmdline_choice takes). */
void cmdline_refuse_alts(const char *key, const char *v, const char *alts);

/* A comma-separated value split into items (empty items are skipped). */
struct cmdline_items {
	unsigned n;
	const char *item[CMDLINE_LIST_MAX];
	char buf[CMDLINE_MAX];
};
/* Returns the number of items (0 when the key is absent). */
unsigned cmdline_list(const char *key, struct cmdline_items *out);

/* Parses one number the way cmdline_u64 does; 0 ok, -1 bad. Exposed for
 * parsing list items; in lib/cmdline_key.c, which the host links to check
 * a numeric key's value by the same grammar. */
int cmdline_parse_u64(const char *s, uint64_t *out);

#endif
