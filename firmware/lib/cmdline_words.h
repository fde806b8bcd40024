/* lib/cmdline_words.h — the words of the payload's own one-word keys (those
 * whose words are no schema vocabulary of proto/xcb_schema.h) and the bounds
 * its parsers put on numbers: ONE definition that the key's parser matches
 * (cmdline_word_index over CMDLINE_ALTS, "a|b|c": no table in the image) and
 * that the host's check reads from the key table (cmdline_keys.c,
 * CMDLINE_ONE_OF: xcbench and xcbenchd refuse apic=x2apci before a machine
 * boots, where the payload stopped, or quietly took a default, minutes later).
 *
 * Each list has the schema's shape, X(enumerator, "word", "word") (a wire
 * name equal to the word: these never reach the wire), so the schema's
 * helpers apply (XCB_COUNT, XCB_CLI_WORD, XCB_CLI_ALTS); its order is its
 * enum, which the parser switches on. */
#ifndef XCB_LIB_CMDLINE_WORDS_H
#define XCB_LIB_CMDLINE_WORDS_H
#include <stdint.h>
#include "xcb_schema.h"

/* apic= (arch/apic.c apic_init_bsp); a bad word ends the boot. */
#define CMDLINE_VOCAB_APIC(X) \
	X(CMDLINE_APIC_AUTO,   "auto",   "auto")  \
	X(CMDLINE_APIC_XAPIC,  "xapic",  "xapic") \
	X(CMDLINE_APIC_X2APIC, "x2apic", "x2apic")
/* tsc= (arch/tsc.c tsc_init); a bad word ends the boot (main.c). */
#define CMDLINE_VOCAB_TSC(X) \
	X(CMDLINE_TSC_AUTO,    "auto",    "auto")    \
	X(CMDLINE_TSC_CPUID,   "cpuid",   "cpuid")   \
	X(CMDLINE_TSC_PMTIMER, "pmtimer", "pmtimer") \
	X(CMDLINE_TSC_PIT,     "pit",     "pit")
/* end= (arch/exit.c); a bad word ends the boot (isa-debug-exit). */
#define CMDLINE_VOCAB_END(X) \
	X(CMDLINE_END_EXIT,   "exit",   "exit") \
	X(CMDLINE_END_HALT,   "halt",   "halt") \
	X(CMDLINE_END_REBOOT, "reboot", "reboot")
/* crash= (main.c crash_test): the fault taken. */
#define CMDLINE_VOCAB_CRASH(X) \
	X(CMDLINE_CRASH_PF, "pf", "pf") \
	X(CMDLINE_CRASH_UD, "ud", "ud") \
	X(CMDLINE_CRASH_GP, "gp", "gp") \
	X(CMDLINE_CRASH_DE, "de", "de")
/* console= (main.c). */
#define CMDLINE_VOCAB_CONSOLE(X) \
	X(CMDLINE_CONSOLE_SERIAL, "serial", "serial") \
	X(CMDLINE_CONSOLE_NONE,   "none",   "none")
/* spin= (bench/benchenv.c benv_spin_set); a bad word ends the boot (main.c). */
#define CMDLINE_VOCAB_SPIN(X) \
	X(CMDLINE_SPIN_AUTO,  "auto",  "auto")  \
	X(CMDLINE_SPIN_PAUSE, "pause", "pause") \
	X(CMDLINE_SPIN_PLAIN, "plain", "plain")
/* transport= (bench/report.c report_init); a bad word ends the boot (main.c). */
#define CMDLINE_VOCAB_TRANSPORT(X) \
	X(CMDLINE_TRANSPORT_SERIAL, "serial", "serial") \
	X(CMDLINE_TRANSPORT_UDP,    "udp",    "udp")    \
	X(CMDLINE_TRANSPORT_BOTH,   "both",   "both")
/* ipidrop= (bench/faults.c): the wait whose answer is lost, in the order
 * of enum plat_lost, which xcall/platform.h makes of this list (each
 * site is described there). */
#define CMDLINE_VOCAB_IPIDROP(X) \
	X(PLAT_LOST_NONE,   "none",   "none")  \
	X(PLAT_LOST_RAW,    "raw",    "raw")   \
	X(PLAT_LOST_PATHS,  "paths",  "paths") \
	X(PLAT_LOST_QLIST,  "qlist",  "qlist") \
	X(PLAT_LOST_LAZY,   "lazy",   "lazy")  \
	X(PLAT_LOST_MASK,   "mask",   "mask")  \
	X(PLAT_LOST_VECTOR, "vector", "vector")

/* The words a number list takes for an item (bench/suite.c
 * parse_numbers): inits=1,pow2 masks=1,all. */
#define CMDLINE_VOCAB_INITS(X) \
	X(CMDLINE_INITS_POW2, "pow2", "pow2")
#define CMDLINE_VOCAB_MASKS(X) \
	X(CMDLINE_MASKS_ALL,  "all",  "all") \
	X(CMDLINE_MASKS_POW2, "pow2", "pow2")

/* One enum per list above but ipidrop's (enum plat_lost): the index
 * cmdline_word_index answers. */
enum cmdline_apic { CMDLINE_VOCAB_APIC(XCB_ENUMERATOR) };
enum cmdline_tsc { CMDLINE_VOCAB_TSC(XCB_ENUMERATOR) };
enum cmdline_end { CMDLINE_VOCAB_END(XCB_ENUMERATOR) };
enum cmdline_crash { CMDLINE_VOCAB_CRASH(XCB_ENUMERATOR) };
enum cmdline_console { CMDLINE_VOCAB_CONSOLE(XCB_ENUMERATOR) };
enum cmdline_spin { CMDLINE_VOCAB_SPIN(XCB_ENUMERATOR) };
enum cmdline_transport { CMDLINE_VOCAB_TRANSPORT(XCB_ENUMERATOR) };
enum cmdline_inits { CMDLINE_VOCAB_INITS(XCB_ENUMERATOR) };
enum cmdline_masks { CMDLINE_VOCAB_MASKS(XCB_ENUMERATOR) };

/* "word|word|...": a list's words as one string constant, what
 * cmdline_choice and cmdline_word_index take and error messages name. */
#define CMDLINE_ALTS(LIST) XCB_CLI_ALTS(LIST)

/* The index of v among alts' words ("auto|xapic|x2apic": "xapic" is 1),
 * exact and whole; -1 when none. Inline: the bench layer's files use it
 * without linking lib/ (bench/report.c builds into host unit tests alone). */
static inline int cmdline_word_index(const char *alts, const char *v)
{
	int idx = 0;

	for (const char *c = alts; *c; idx++) {
		const char *p = v;

		while (*c && *c != '|' && *c == *p)
			c++, p++;
		if ((!*c || *c == '|') && !*p)
			return idx;
		while (*c && *c != '|')
			c++;
		if (*c)
			c++;
	}
	return -1;
}

/* The bounds the payload's parsers put on numbers, which the host checks
 * by the same constants (cmdline_keys.c). */
/* Each item of a number list (bench/suite.c parse_numbers). */
#define CMDLINE_ITEM_MAX 100000000u
/* reps= (bench/suite.c). */
#define CMDLINE_REPS_MAX 1000u
/* batches= items: the most page changes in one shootdown (flush/flush.h
 * FLUSH_MAX_BATCH is this). */
#define CMDLINE_BATCH_MAX 64u
/* watchdog_ms=: 0 (no bound of the user's) or at least this; a lower one
 * was raised to it without a word (bench/runner.c, bench/smoke.c). */
#define CMDLINE_WATCHDOG_MIN_MS 1000u
/* rawwait_ms= (test): at least this; below it a real answer under TCG on a
 * loaded host could be taken for a lost one (bench/faults.c). */
#define CMDLINE_RAWWAIT_MIN_MS 100u

#endif
