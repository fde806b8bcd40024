/*
 * xcb_schema.h — THE one definition of what a case and a result are: every
 * CASE key (axis), every RESULT field and every vocabulary (the words a CASE
 * value may take). Everything else is derived from these X-macro tables: the
 * RESULT encoder/decoder (xcb_proto.c), the firmware's CASE emission and
 * enums and names (XCB_NAME, XCB_PARSE), the daemon's SQL column lists, the matching key, the
 * compare CSV and GET /api/v1/schema, which the web reads instead of keeping
 * lists of its own. Adding a case field is one line here plus the code that
 * measures it (and, only if it needs a stored SQL column, a migration).
 *
 * Freestanding like xcb_proto.h: macros, enums and declarations only. The
 * vocabulary name tables are in xcb_schema.c (firmware and host), the
 * descriptors the host walks in xcb_schema_desc.c (never in the image).
 *
 * Macro names and argument lists are stable (other files expand them):
 * entries may be added, never reordered within RESULT (the wire order).
 */
#ifndef XCB_SCHEMA_H
#define XCB_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

/* ---- case axes: X(key, type, role, store, preferred, vocabulary) ----
 *  type   TEXT | INT      the value's kind (CASE values are text on the wire)
 *  role   ID              names the case within its run (stored as case_id)
 *         IDENTITY           what the experiment is (kind, algo): matched, a chart each
 *         CHART           a chart's series / x axis (inits, mask): matched
 *         AXIS            every other matched axis: the web's axis chooser
 *         PARAM           how long it ran (iters, reps...): not matched
 *         NOTE            x_* annotation: recorded, never matched
 *  store  COL             its own column in SQL `cases` (same name); JSON: only
 *                         in cases.config (every key is there)
 *  preferred              the value the web's axis chooser starts on, or 0
 *  vocabulary             name of its XCB_VOCABS entry, or 0 (free value)
 * Keys not listed here still travel (proto/README.md: unknown keys are
 * stored); they match unless they start with "x_". The order is the order
 * of the SQL column lists and of GET /api/v1/schema. */
/* The prefix of an annotation key: never matched, listed or not. */
#define XCB_NOTE_PREFIX "x_"

#define XCB_CASE_AXES(X) \
	X(id,              INT,  ID,    JSON, 0,          0)           \
	X(kind,            TEXT, IDENTITY, COL,  0,          "kind")      \
	X(algo,            TEXT, IDENTITY, COL,  0,          0)           \
	X(delivery,        TEXT, AXIS,  COL,  "auto",     "delivery")  \
	X(x_delivery_used, TEXT, NOTE,  JSON, 0,          "delivery")  \
	X(wait,            TEXT, AXIS,  COL,  "done",     "wait")      \
	X(inits,           INT,  CHART, COL,  0,          0)           \
	X(mask,            INT,  CHART, COL,  0,          0)           \
	X(placement,       TEXT, AXIS,  COL,  "first",    "placement") \
	X(overlap,         TEXT, AXIS,  COL,  "disjoint", "overlap")   \
	X(work_us,         INT,  AXIS,  COL,  "0",        0)           \
	X(iters,           INT,  PARAM, COL,  0,          0)           \
	X(warmup,          INT,  PARAM, JSON, 0,          0)           \
	X(reps,            INT,  PARAM, COL,  0,          0)           \
	X(seed,            INT,  PARAM, JSON, 0,          0)           \
	X(harness,         TEXT, AXIS,  JSON, 0,          "harness")   \
	X(idle,            TEXT, AXIS,  JSON, 0,          "idle")      \
	X(group,           INT,  AXIS,  JSON, 0,          0)           \
	X(x_time_ms,       INT,  NOTE,  JSON, 0,          0)           \
	X(xcall_algo,      TEXT, AXIS,  JSON, 0,          0)           \
	X(rwlock,          TEXT, AXIS,  JSON, 0,          "rwlock")    \
	X(batch_reads,     INT,  AXIS,  JSON, 0,          0)           \
	X(entry_us,        INT,  AXIS,  JSON, 0,          0)           \
	X(flush,           TEXT, AXIS,  JSON, 0,          "flush")     \
	X(method,          TEXT, AXIS,  JSON, "invlpg",   "method")    \
	X(batch,           INT,  AXIS,  JSON, "1",        0)           \
	X(pages,           INT,  AXIS,  JSON, 0,          0)           \
	X(x_control_runs,  INT,  NOTE,  JSON, 0,          0)           \
	X(x_cpus,          TEXT, NOTE,  JSON, 0,          0)           \
	X(x_mix,           TEXT, NOTE,  JSON, 0,          0)           \
	X(x_boot,          TEXT, NOTE,  JSON, 0,          "boot")      \
	/* kind=sync (issue 22), appended: the CSV's columns keep their places */ \
	X(writer,          INT,  AXIS,  JSON, 0,          0)           \
	X(readers,         INT,  AXIS,  JSON, 0,          0)           \
	X(x_readers,       TEXT, NOTE,  JSON, 0,          0)           \
	X(x_leaders,       TEXT, NOTE,  JSON, 0,          0)

/* ---- RESULT fields, in wire order: X(name, bits, part) ----
 *  part   KEY   identifies the row (case, repetition, initiator)
 *         V1    the 152-byte v1 body: every receiver gets these
 *         PAD   reserved, sent as 0, no column
 *         APPENDED   appended after v1 (issue 13): a 152-byte RESULT decodes
 *               them as 0 and the daemon stores them as NULL (not measured)
 * The wire offset of a field is the sum of the widths before it; struct
 * xcb_result (xcb_proto.h) has one member per field, in this order, with no
 * padding (asserted), so its offsets are the wire offsets. Every field but
 * PAD is a column of SQL `results` of the same name. Latencies are TSC
 * cycles; mean/stddev in 1/1000 cycle. Append only (version policy). */
#define XCB_RESULT_FIELDS(X) \
	X(case_id,          32, KEY) /* the CASE's id */                        \
	X(rep,              16, KEY) /* 0-based repetition */                   \
	X(initiator,        16, KEY) /* CPU index, XCB_INIT_ALL or pseudo */    \
	X(count,            64, V1)                                             \
	X(min,              64, V1)                                             \
	X(p50,              64, V1)                                             \
	X(p90,              64, V1)                                             \
	X(p99,              64, V1)                                             \
	X(p999,             64, V1)                                             \
	X(max,              64, V1)                                             \
	X(mean_x1000,       64, V1)                                             \
	X(stddev_x1000,     64, V1)                                             \
	X(ipis,             64, V1)                                             \
	X(lock_acq,         64, V1)                                             \
	X(lock_contended,   64, V1)                                             \
	X(lock_hold_cycles, 64, V1)                                             \
	X(lock_wait_cycles, 64, V1)                                             \
	X(stale,            64, V1)  /* stale-translation violations (TLB) */   \
	X(calls_executed,   64, V1)                                             \
	X(calls_expected,   64, V1)                                             \
	X(flags,            32, V1)  /* XCB_RF_* */                             \
	X(pad0,             32, PAD)                                            \
	X(ipi_floor,        64, APPENDED) /* `ipi` floor before this rep (0: none) */ \
	X(lost,             64, APPENDED) /* exactly-once by per-(init, target) seq */ \
	X(dup,              64, APPENDED)                                            \
	X(ooo,              64, APPENDED)                                            \
	X(elapsed_cycles,   64, APPENDED) /* wall time of the timed calls */         \
	X(control_runs,     64, APPENDED) /* TLB: no-flush control shootdowns */     \
	X(control_stale,    64, APPENDED) /* ... of which saw a stale translation */ \
	X(floor_paired,     64, APPENDED) /* median `ipi` probe between the calls (0: none) */ \
	X(ratio_paired_x1000, 64, APPENDED) /* median of call/probe pairs, x1000 */ \
	X(window_calls,     64, APPENDED) /* timed calls made in the shared window */ \
	X(window_cycles,    64, APPENDED) /* ... and its cycles (fairness: README) */

/* ---- vocabularies: X(ENUMERATOR, "wire name", "command-line word") ----
 * The wire name is what CASE frames carry and the daemon stores (the API
 * shows it); the command-line word is what the firmware's command line
 * accepts (an alias where it differs: delivery's `shorthand` is sent as
 * `allbutself`). Each list's order is its enum (below), which the firmware
 * uses as its own type: there is no second copy to keep in step. */
#define XCB_VOCAB_KIND(X) \
	X(XCB_KIND_XCALL, "xcall", "xcall") \
	X(XCB_KIND_TLB,   "tlb",   "tlb")   \
	X(XCB_KIND_RAW,   "raw",   "raw")   \
	X(XCB_KIND_SYNC,  "sync",  "sync")
/* The case key `algo` names one thing per kind, from that kind's vocabulary:
 * kind=xcall and kind=tlb with flush=xcall: the cross-call algorithm, which
 * is NO vocabulary here: each firmware/xcall/ file declares itself
 * (XCALL_ALGO), the payload lists them in HELLO (algos=, algo.NAME= its
 * description) and the host learns them from there; kind=tlb with
 * any other flush: the path's name, `vector`, `concurrent`... (the flush
 * vocabulary: no cross-call algorithm; `concurrent` is also an algorithm's
 * name, so compare tells them apart by flush: host/src/casekey.c
 * case_algo_is_path);
 * kind=raw: floor; kind=sync: sync_mode. A sync case's own cross-call
 * algorithm (its shootdown's) is the key xcall_algo. */
/* kind=raw: the floors (the case's algo). */
#define XCB_VOCAB_FLOOR(X) \
	X(XCB_FLOOR_IPI,       "ipi",       "ipi")      \
	X(XCB_FLOOR_ROUNDTRIP, "roundtrip", "roundtrip")
/* kind=sync: where the writer invalidates (the case's algo; cmdline modes=). */
#define XCB_VOCAB_SYNC_MODE(X) \
	X(XCB_SYNC_INSIDE, "inside", "inside") \
	X(XCB_SYNC_AFTER,  "after",  "after")  \
	X(XCB_SYNC_LAZY,   "lazy",   "lazy")
#define XCB_VOCAB_WAIT(X) \
	X(XCB_WAIT_NONE, "none", "none") \
	X(XCB_WAIT_ACK,  "ack",  "ack")  \
	X(XCB_WAIT_DONE, "done", "done")
#define XCB_VOCAB_DELIVERY(X) \
	X(XCB_DELIVERY_AUTO,      "auto",           "auto")    \
	X(XCB_DELIVERY_UNICAST,   "unicast",        "unicast") \
	X(XCB_DELIVERY_CLUSTER,   "x2apic_cluster", "cluster") \
	X(XCB_DELIVERY_SHORTHAND, "allbutself",     "shorthand")
/* TLB: how a target invalidates (cmdline methods=). */
#define XCB_VOCAB_METHOD(X) \
	X(XCB_METHOD_INVLPG,  "invlpg",  "invlpg")  \
	X(XCB_METHOD_CR3,     "cr3",     "cr3")     \
	X(XCB_METHOD_INVPCID, "invpcid", "invpcid") \
	X(XCB_METHOD_NONE,    "none",    "none")
/* TLB: the shootdown's path (CASE key flush, cmdline flush=). */
#define XCB_VOCAB_FLUSH(X) \
	X(XCB_FLUSH_VECTOR,           "vector",           "vector")           \
	X(XCB_FLUSH_XCALL,            "xcall",            "xcall")            \
	X(XCB_FLUSH_CONCURRENT,       "concurrent",       "concurrent")       \
	X(XCB_FLUSH_EARLY_ACK,        "early_ack",        "early_ack")        \
	X(XCB_FLUSH_EARLY_ACK_READER, "early_ack_reader", "early_ack_reader") \
	X(XCB_FLUSH_CONSOLIDATED,     "consolidated",     "consolidated")
#define XCB_VOCAB_PLACEMENT(X) \
	X(XCB_PL_FIRST,   "first",   "first")   \
	X(XCB_PL_SPREAD,  "spread",  "spread")  \
	X(XCB_PL_PACKAGE, "package", "package") \
	X(XCB_PL_CROSS,   "cross",   "cross")
#define XCB_VOCAB_OVERLAP(X) \
	X(XCB_OVERLAP_DISJOINT, "disjoint", "disjoint") \
	X(XCB_OVERLAP_OVERLAP,  "overlap",  "overlap")
/* What targets do between calls (cmdline idles=; CASE key idle, sent only
 * when not hlt so earlier runs' cases keep matching). */
#define XCB_VOCAB_IDLE(X) \
	X(XCB_IDLE_HLT,   "hlt",   "hlt")   \
	X(XCB_IDLE_MWAIT, "mwait", "mwait") \
	X(XCB_IDLE_POLL,  "poll",  "poll")
#define XCB_VOCAB_HARNESS(X) \
	X(XCB_HARNESS_FULL, "full", "full") \
	X(XCB_HARNESS_BARE, "bare", "bare")
#define XCB_VOCAB_RWLOCK(X) \
	X(XCB_RWLOCK_FAIR,   "fair",   "fair") \
	X(XCB_RWLOCK_UNFAIR, "unfair", "unfair")

/* Which firmware booted the payload (the EFI entry path or multiboot). */
#define XCB_VOCAB_BOOT(X) \
	X(XCB_BOOT_BIOS, "bios", "bios") \
	X(XCB_BOOT_UEFI, "uefi", "uefi")

/* The suites: the payload's suite= presets (firmware/bench/suite.c holds
 * one for each, indexed by this enum). A vocabulary of jobs, not of cases,
 * so not in XCB_VOCABS: the CLI and the daemon check a job's suite by it
 * before a machine boots into "unknown suite". */
#define XCB_VOCAB_SUITE(X) \
	X(XCB_SUITE_QUICK,   "quick",   "quick")   \
	X(XCB_SUITE_DEFAULT, "default", "default") \
	X(XCB_SUITE_SEED,    "seed",    "seed")    \
	X(XCB_SUITE_TLB,     "tlb",     "tlb")     \
	X(XCB_SUITE_EPT,     "ept",     "ept")     \
	X(XCB_SUITE_STRESS,  "stress",  "stress")

/* HELLO `hypervisor` (CPUID leaf 0x40000000's 12-byte signature, as sent)
 * -> the name people use: X(signature prefix, name). A signature starts
 * with its prefix after any leading spaces (VirtualBox's has one); "" (the
 * CPUID hypervisor bit clear) is bare metal. Host-only: every view names a
 * hypervisor by this (xcb_hypervisor_name; GET /api/v1/schema
 * "hypervisors", the dashboard; the runs list's search). */
#define XCB_HYPERVISORS(X) \
	X("KVMKVMKVM",    "KVM")        \
	X("TCGTCGTCGTCG", "QEMU TCG")   \
	X("XenVMMXenVMM", "Xen")        \
	X("Microsoft Hv", "Hyper-V")    \
	X("VMwareVMware", "VMware")     \
	X("bhyve bhyve",  "bhyve")      \
	X("ACRNACRNACRN", "ACRN")       \
	X("VBoxVBoxVBox", "VirtualBox")
#define XCB_HV_BARE_METAL "none (bare metal)"

/* HELLO's machine facts, in the order every view lists them, with the name
 * people read: X(key, name, shown). shown: TEXT (the value as sent),
 * YES_NO (kv_bool's "1"/"0"), CYCLES (a count of TSC cycles, also shown
 * in the run's unit), CODE (verbatim: a list or a command line), PART
 * (shown inside another fact: boot_fw's UEFI revision and vendor).
 * Host-only: GET /api/v1/schema "hello_facts", the run page's facts;
 * tests/t-engine-quick.sh checks that a booted payload's HELLO sends no
 * key this table lacks (but XCB_HELLO_ALGO_PREFIX's). A key the table does
 * not know (a newer payload's) is still shown, under its own name. */
#define XCB_HELLO_FACTS(X) \
	X("brand",                  "CPU",                         TEXT)   \
	X("vendor",                 "Vendor",                      TEXT)   \
	X("family",                 "Family",                      TEXT)   \
	X("model",                  "Model",                       TEXT)   \
	X("stepping",               "Stepping",                    TEXT)   \
	X("cpus",                   "Logical CPUs",                TEXT)   \
	X("cpus_listed",            "CPUs the MADT listed",        TEXT)   \
	X("all_accounted",          "Every listed CPU online",     YES_NO) \
	X("topology",               "Topology",                    TEXT)   \
	X("topo_source",            "Topology found by",           TEXT)   \
	X("cpu_topo",               "Package/core/thread per CPU", CODE)   \
	X("apic_mode",              "APIC mode",                   TEXT)   \
	X("x2apic",                 "x2APIC supported",            YES_NO) \
	X("apic_ids",               "APIC IDs",                    CODE)   \
	X("boot_fw",                "Boot firmware",               TEXT)   \
	X("uefi_rev",               "UEFI revision",               PART)   \
	X("uefi",                   "UEFI revision (older payloads)", PART) \
	X("boot_fw_vendor",         "Firmware vendor",             PART)   \
	X("boot_fw_rev",            "Firmware revision",           PART)   \
	X("loader",                 "Loader",                      TEXT)   \
	X("hypervisor",             "Hypervisor",                  TEXT)   \
	X("tsc_khz",                "TSC",                         TEXT)   \
	X("tsc_source",             "TSC found by",                TEXT)   \
	X("invariant_tsc",          "Invariant TSC",               YES_NO) \
	X("pcid",                   "PCID",                        YES_NO) \
	X("invpcid",                "INVPCID",                     YES_NO) \
	X("pcid_enabled",           "PCID enabled",                YES_NO) \
	X("pge",                    "Global pages",                YES_NO) \
	X("spin",                   "Spin-wait",                   TEXT)   \
	X("spin_policy",            "Spin policy asked",           TEXT)   \
	X("harness",                "Harness",                     TEXT)   \
	X("overhead_min_cycles",    "Timing overhead (min)",       CYCLES) \
	X("overhead_median_cycles", "Timing overhead (median)",    CYCLES) \
	X("floor_ipi_cycles",       "IPI floor (boot)",            CYCLES) \
	X("floor_roundtrip_cycles", "IPI round trip (boot)",       CYCLES) \
	X("algos",                  "Algorithms",                  TEXT)   \
	X("nic",                    "NIC",                         TEXT)   \
	X("mac",                    "MAC",                         TEXT)   \
	X("cases_planned",          "Cases planned",               TEXT)   \
	X("transport",              "Transport",                   TEXT)   \
	X("fw",                     "Payload version",             TEXT)   \
	X("suite",                  "Suite",                       TEXT)   \
	X("cmdline",                "Command line",                CODE)
/* HELLO's algo.NAME= keys: one description per algorithm the payload
 * carries, each shown as "Algorithm NAME". */
#define XCB_HELLO_ALGO_PREFIX "algo."

/* Every vocabulary: X(name, LIST, enum tag). name is what XCB_CASE_AXES's
 * vocabulary column and GET /api/v1/schema call it. */
#define XCB_VOCABS(X) \
	X(kind,      XCB_VOCAB_KIND,      xcb_kind)      \
	X(floor,     XCB_VOCAB_FLOOR,     xcb_floor)     \
	X(sync_mode, XCB_VOCAB_SYNC_MODE, xcb_sync_mode) \
	X(wait,      XCB_VOCAB_WAIT,      xcb_wait)      \
	X(delivery,  XCB_VOCAB_DELIVERY,  xcb_delivery)  \
	X(method,    XCB_VOCAB_METHOD,    xcb_method)    \
	X(flush,     XCB_VOCAB_FLUSH,     xcb_flush)     \
	X(placement, XCB_VOCAB_PLACEMENT, xcb_placement) \
	X(overlap,   XCB_VOCAB_OVERLAP,   xcb_overlap)   \
	X(harness,   XCB_VOCAB_HARNESS,   xcb_harness)   \
	X(idle,      XCB_VOCAB_IDLE,      xcb_idle)      \
	X(rwlock,    XCB_VOCAB_RWLOCK,    xcb_rwlock)    \
	X(boot,      XCB_VOCAB_BOOT,      xcb_boot)

/* ---- expansion helpers (for the derived lists) ---- */
#define XCB_ENUMERATOR(e, wire, cli) e,
#define XCB_WIRE_NAME(e, wire, cli) wire,
#define XCB_CLI_WORD(e, wire, cli) cli,
#define XCB__ONE(...) +1
#define XCB__CLI_ITEM(e, wire, cli) "," cli
/* "word,word,...": the command-line words of a list, as one string constant
 * (the firmware's cmdline_keys.c help texts), its leading comma skipped by
 * indexing (clang's -Wstring-plus-int refuses "literal" + 1; the fuzzers
 * build cmdline_keys.c with clang). */
#define XCB_CLI_LIST(LIST) (&(LIST(XCB__CLI_ITEM))[1])
#define XCB__CLI_ALT(e, wire, cli) "|" cli
/* "word|word|...": the same for a key that takes one word (suite=: its
 * help, and the payload's own one-word keys, firmware/lib/cmdline_words.h);
 * _THEN: followed by more text, in the same literal. */
#define XCB_CLI_ALTS_THEN(LIST, text) (&(LIST(XCB__CLI_ALT) text)[1])
#define XCB_CLI_ALTS(LIST) XCB_CLI_ALTS_THEN(LIST, "")
#define XCB__WIRE_ALSO(e, wire, cli) " " wire
/* XCB_CLI_LIST, then the names runs print (the wire's), which the command
 * line takes too: the help of a list whose words differ from them. One
 * literal, its leading comma skipped as XCB_CLI_LIST's. */
#define XCB_CLI_LIST_AND_WIRE(LIST) \
	(&(LIST(XCB__CLI_ITEM) " (or as runs name them:" LIST(XCB__WIRE_ALSO) ")")[1])
/* Number of entries of any of the lists above: XCB_COUNT(XCB_VOCAB_WAIT). */
#define XCB_COUNT(LIST) (0 LIST(XCB__ONE))

/* One enum per vocabulary, which the firmware and the host use as their own
 * type: enum xcb_wait { XCB_WAIT_NONE, ..., XCB_N_wait }, its last enumerator
 * the count (of the same enum type, so `w < XCB_N_wait` compares one type). */
#define XCB__VOCAB_ENUM(name, LIST, tag) enum tag { LIST(XCB_ENUMERATOR) XCB_N_##name };
XCB_VOCABS(XCB__VOCAB_ENUM)
XCB__VOCAB_ENUM(suite, XCB_VOCAB_SUITE, xcb_suite)
#undef XCB__VOCAB_ENUM

/* Name tables, indexed by the enum: xcb_wait_names[XCB_WAIT_DONE] = "done";
 * xcb_<name>_words: the command-line words (xcb_schema.c). */
#define XCB__VOCAB_DECL(name, LIST, tag) \
	extern const char *const xcb_##name##_names[XCB_N_##name]; \
	extern const char *const xcb_##name##_words[XCB_N_##name];
XCB_VOCABS(XCB__VOCAB_DECL)
XCB__VOCAB_DECL(suite, XCB_VOCAB_SUITE, xcb_suite)
#undef XCB__VOCAB_DECL

/* One name and one parse for every vocabulary (xcb_schema.c), used by the
 * firmware and the host alike instead of a pair per enum:
 *   XCB_NAME(wait, XCB_WAIT_DONE)  "done" (a value out of range: "?")
 *   XCB_PARSE(wait, "done")        XCB_WAIT_DONE (not a wire name: -1)
 *   XCB_PARSE_WORD(delivery, "shorthand")  by command-line word instead */
const char *xcb_vocab_name(const char *const *names, unsigned n, unsigned i);
int xcb_vocab_index(const char *const *names, unsigned n, const char *s);
#define XCB_NAME(vocab, v) xcb_vocab_name(xcb_##vocab##_names, XCB_N_##vocab, (unsigned)(v))
#define XCB_PARSE(vocab, s) xcb_vocab_index(xcb_##vocab##_names, XCB_N_##vocab, (s))
#define XCB_PARSE_WORD(vocab, s) xcb_vocab_index(xcb_##vocab##_words, XCB_N_##vocab, (s))

/* Case-axis and result-field indexes: XCB_AX_kind, XCB_RI_p50. */
#define XCB__AX_ENUM(key, type, role, store, pref, vocab) XCB_AX_##key,
enum xcb_axis_index { XCB_CASE_AXES(XCB__AX_ENUM) XCB_N_AXES };
#undef XCB__AX_ENUM
#define XCB__RI_ENUM(name, bits, part) XCB_RI_##name,
enum xcb_result_index { XCB_RESULT_FIELDS(XCB__RI_ENUM) XCB_N_RESULT_FIELDS };
#undef XCB__RI_ENUM

/* A CASE key's text, checked at compile time: XCB_KEY(kind) is "kind" and
 * fails to build for a key the schema does not list. Costs nothing. */
#define XCB_KEY(key) ((void)XCB_AX_##key, #key)
/* "key=" likewise, for a value written piece by piece. */
#define XCB_KEY_EQ(key) ((void)XCB_AX_##key, #key "=")

/* Per-part and per-store switches: XCB_IF_COL(store)(text) keeps text for a
 * COL axis; XCB_IF_STORED(part)(text) for a RESULT field with a column. */
#define XCB__COL_COL(...) __VA_ARGS__
#define XCB__COL_JSON(...)
#define XCB_IF_COL(store) XCB__COL_##store
#define XCB__STORED_KEY(...) __VA_ARGS__
#define XCB__STORED_V1(...) __VA_ARGS__
#define XCB__STORED_APPENDED(...) __VA_ARGS__
#define XCB__STORED_PAD(...)
#define XCB_IF_STORED(part) XCB__STORED_##part

/* The SQL column that holds the ID role's key (cases, results, histograms...). */
#define XCB_SQL_CASE_ID "case_id"

/* SQL text, derived (string-literal pieces, each with a leading ", "):
 *   XCB_SQL_CASE_COLS      ", kind, algo, delivery, ..."   the COL axes
 *   XCB_SQL_CASE_PARAMS    ", ?, ?, ..."                    one per COL axis
 *   XCB_SQL_RESULT_COLS    ", case_id, rep, ..., control_stale" (no PAD)
 *   XCB_SQL_RESULT_PARAMS  ", ?, ..."                       one per column
 * e.g. "INSERT INTO cases(run_id, case_id" XCB_SQL_CASE_COLS ") ..." */
#define XCB__SQL_CASE_COL(key, type, role, store, pref, vocab) XCB_IF_COL(store)(", " #key)
#define XCB__SQL_CASE_PARAM(key, type, role, store, pref, vocab) XCB_IF_COL(store)(", ?")
#define XCB__SQL_RESULT_COL(name, bits, part) XCB_IF_STORED(part)(", " #name)
#define XCB__SQL_RESULT_PARAM(name, bits, part) XCB_IF_STORED(part)(", ?")
#define XCB_SQL_CASE_COLS XCB_CASE_AXES(XCB__SQL_CASE_COL)
#define XCB_SQL_CASE_PARAMS XCB_CASE_AXES(XCB__SQL_CASE_PARAM)
#define XCB_SQL_RESULT_COLS XCB_RESULT_FIELDS(XCB__SQL_RESULT_COL)
#define XCB_SQL_RESULT_PARAMS XCB_RESULT_FIELDS(XCB__SQL_RESULT_PARAM)
/* The same with the table aliases the daemon's joins use (cases c, results r):
 * ", c.kind, c.algo, ..." and ", r.case_id, r.rep, ...". */
#define XCB__SQL_CASE_COL_C(key, type, role, store, pref, vocab) XCB_IF_COL(store)(", c." #key)
#define XCB__SQL_RESULT_COL_R(name, bits, part) XCB_IF_STORED(part)(", r." #name)
#define XCB_SQL_CASE_COLS_C XCB_CASE_AXES(XCB__SQL_CASE_COL_C)
#define XCB_SQL_RESULT_COLS_R XCB_RESULT_FIELDS(XCB__SQL_RESULT_COL_R)

/* RESULT sizes, derived from the widths: 152 (v1, the least a receiver
 * accepts) and 240 (every field). */
#define XCB__W_ALL(name, bits, part) + (bits) / 8
#define XCB__V1_KEY 1
#define XCB__V1_V1 1
#define XCB__V1_PAD 1
#define XCB__V1_APPENDED 0
#define XCB__W_V1_(part, bits) + XCB__V1_##part * (bits) / 8
#define XCB__W_V1(name, bits, part) XCB__W_V1_(part, bits)
#define XCB_RESULT_LEN      (0 XCB_RESULT_FIELDS(XCB__W_V1))
#define XCB_RESULT_LEN_FULL (0 XCB_RESULT_FIELDS(XCB__W_ALL))

/* ---- the descriptors (xcb_schema_desc.c), for code that walks the schema at run
 * time: the daemon's store and GET /api/v1/schema, the unit tests. ---- */
enum xcb_type_id { XCB_TY_TEXT, XCB_TY_INT };
enum xcb_role { XCB_ROLE_ID, XCB_ROLE_IDENTITY, XCB_ROLE_CHART, XCB_ROLE_AXIS,
		XCB_ROLE_PARAM, XCB_ROLE_NOTE };
enum xcb_part { XCB_PART_KEY, XCB_PART_V1, XCB_PART_PAD, XCB_PART_APPENDED };

struct xcb_axis {
	const char *key;
	enum xcb_type_id type;
	enum xcb_role role;
	int column;              /* 1: its own column in SQL cases (named key) */
	const char *preferred;   /* the web axis chooser's first choice, or 0 */
	const char *vocabulary;  /* XCB_VOCABS name, or 0 */
};
extern const struct xcb_axis xcb_axes[XCB_N_AXES];

struct xcb_field {
	const char *name;        /* member of struct xcb_result, SQL results column */
	unsigned bits;           /* 16, 32 or 64 on the wire and in the struct */
	unsigned offset;         /* bytes into the RESULT payload */
	enum xcb_part part;
};
extern const struct xcb_field xcb_result_fields[XCB_N_RESULT_FIELDS];
struct xcb_result;
/* Field i (enum xcb_result_index) of a decoded RESULT, whatever its width. */
uint64_t xcb_result_get(const struct xcb_result *r, unsigned i);

struct xcb_vocab {
	const char *name;
	const char *const *names; /* wire names, n of them */
	const char *const *words; /* command-line words, n of them */
	unsigned n;
};
extern const struct xcb_vocab xcb_vocabs[];
extern const unsigned xcb_n_vocabs;

/* Text names of the descriptor enums, as GET /api/v1/schema spells them. */
const char *xcb_type_text(enum xcb_type_id t);   /* "text" "integer" */
const char *xcb_role_text(enum xcb_role r);      /* "id" "identity" "chart" "axis" "param" "note" */
const char *xcb_part_text(enum xcb_part p);      /* "key" "v1" "pad" "appended" */
/* The schema entry of a CASE key, or 0 for a key the schema does not list. */
const struct xcb_axis *xcb_axis_find(const char *key, size_t len);
/* Is a CASE key part of the matching key? Listed keys by role (IDENTITY, CHART,
 * AXIS); unlisted ones unless they start with "x_". without_algo also drops
 * algo (comparing algorithms within one run). */
int xcb_axis_matches(const char *key, int without_algo);
/* The vocabulary called name, or 0. */
const struct xcb_vocab *xcb_vocab_find(const char *name);
/* XCB_HYPERVISORS as a table, n entries. */
struct xcb_hypervisor {
	const char *signature, *name;
};
extern const struct xcb_hypervisor xcb_hypervisors[];
extern const unsigned xcb_n_hypervisors;
/* XCB_HELLO_FACTS as a table, n entries; shown is the X's third column
 * as a word ("text", "yes_no", "cycles", "code", "part"). */
struct xcb_hello_fact {
	const char *key, *name, *shown;
};
extern const struct xcb_hello_fact xcb_hello_facts[];
extern const unsigned xcb_n_hello_facts;
/* The name of HELLO `hypervisor` value sig (NUL-free, as JSON carries it):
 * XCB_HV_BARE_METAL for "" (or "none", "0": older payloads), a listed
 * hypervisor's name, else 0 (show the signature itself). */
const char *xcb_hypervisor_name(const char *sig);

#endif /* XCB_SCHEMA_H */
