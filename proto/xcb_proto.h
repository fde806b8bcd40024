/*
 * xcb_proto.h — the xcbench wire format, shared by the firmware (freestanding)
 * and the host (xcbenchd, xcbench, tests). The spec is proto/README.md; this
 * header is its only implementation. It needs nothing beyond <stdint.h> and
 * <stddef.h>, never allocates, and never touches global state, so it builds
 * identically with -ffreestanding and hosted.
 *
 * Everything on the wire is little-endian and written byte by byte through
 * the put/get helpers — never by casting a struct onto a buffer — so the
 * layout does not depend on compiler padding or the host's byte order.
 *
 * Encoders: xcb_enc_*(buf, cap, &hdr, &payload) return the frame length in
 * bytes (header + payload), or 0 when the frame would not fit in cap or would
 * exceed XCB_FRAME_MAX. They fill magic, version, length and CRC themselves;
 * the caller sets hdr.type (text encoders only), hdr.token and hdr.seq.
 * Decoders: xcb_decode() validates a whole frame; xcb_dec_*() parse the
 * payload of one type. They return XCB_OK (0) or a negative XCB_E_* reason.
 *
 * This API is stable: fields are only ever appended (see "version policy").
 */
#ifndef XCB_PROTO_H
#define XCB_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "xcb_schema.h"

#define XCB_MAGIC        0x31424358u /* bytes 'X' 'C' 'B' '1' on the wire */
#define XCB_VERSION      1
#define XCB_HDR_LEN      24          /* bytes */
#define XCB_FRAME_MAX    1472        /* one Ethernet-MTU UDP datagram */
#define XCB_PAYLOAD_MAX  (XCB_FRAME_MAX - XCB_HDR_LEN) /* 1448 */
/* Longest key of a text payload's key=value line (HELLO, CASE): the daemon
 * drops a line with a longer key (host/src/casekey.c). */
#define XCB_KEY_MAX      64

enum xcb_type {
	XCB_T_HELLO   = 1, /* text key=value lines: machine facts */
	XCB_T_CASE    = 2, /* text key=value lines: one case's configuration */
	XCB_T_RESULT  = 3, /* binary struct xcb_result */
	XCB_T_HISTO   = 4, /* binary struct xcb_histo + u32 counts */
	XCB_T_SAMPLES = 5, /* binary struct xcb_samples + u32/u64 values */
	XCB_T_LOG     = 6, /* text: one log line (no trailing newline needed) */
	XCB_T_ERROR   = 7, /* text: exception/hang report; marks the run crashed */
	XCB_T_DONE    = 8, /* binary struct xcb_done */
	XCB_T_ACK     = 9, /* daemon -> payload, binary struct xcb_ack */
	XCB_T_MAX     = 9,
};

/* Why a frame was refused. The daemon counts each (GET /api/v1/health). */
enum xcb_err {
	XCB_OK         = 0,
	XCB_E_SHORT    = -1, /* fewer bytes than a header */
	XCB_E_MAGIC    = -2, /* not "XCB1" */
	XCB_E_VERSION  = -3, /* version we do not speak */
	XCB_E_TYPE     = -4, /* unknown frame type */
	XCB_E_LENGTH   = -5, /* header length != bytes present (truncated/trailing) */
	XCB_E_OVERSIZE = -6, /* frame larger than XCB_FRAME_MAX */
	XCB_E_CRC      = -7, /* CRC32 mismatch */
	XCB_E_PAYLOAD  = -8, /* payload malformed for its type */
	XCB_E_NREASONS = 9,  /* number of reasons incl. XCB_OK, for counters */
};

/* The frame header, decoded. Wire layout (24 bytes, little-endian):
 *   0 u32 magic   4 u8 version   5 u8 type   6 u16 length (payload bytes)
 *   8 u64 token  16 u32 seq     20 u32 crc32 (IEEE) over bytes 0..19 + payload */
struct xcb_hdr {
	uint8_t  version;
	uint8_t  type;
	uint16_t length;
	uint64_t token;   /* the run token: identifies the run, never the address */
	uint32_t seq;     /* per run, from 0, +1 per frame; ACK: cumulative next */
	uint32_t crc;
};

#define XCB_INIT_ALL 0xffffu /* initiator field: all initiators aggregated */
/* Pseudo-initiators (kind=sync, seed 002): rows of the writer's distributions,
 * not of a CPU. Every initiator >= XCB_INIT_PSEUDO is one of these (or ALL);
 * per-initiator views (fairness) leave them out. Names: xcb_initiator_name(). */
#define XCB_INIT_PSEUDO     0xfff0u
#define XCB_INIT_W_HOLD     0xfff0u /* writer: write-lock hold time */
#define XCB_INIT_W_E2E      0xfff1u /* writer: lock request to invalidation effective */
#define XCB_INIT_W_EFFECT   0xfff2u /* writer: PTE change to invalidation effective */
#define XCB_INIT_R_BATCH    0xfff3u /* readers: read-lock wait per batch */

/* The one table of their names: "all", "writer_hold", ..., or NULL for a CPU
 * index (or an unassigned pseudo value). Inline, so that a receiver needs no
 * more of proto/ than this header to render an initiator. */
static inline const char *xcb_initiator_name(unsigned initiator)
{
	static const char *const names[] = {
		"writer_hold", "writer_e2e", "writer_effective", "reader_batch",
	};

	if (initiator == XCB_INIT_ALL)
		return "all";
	if (initiator >= XCB_INIT_PSEUDO && initiator - XCB_INIT_PSEUDO < sizeof(names) / sizeof(names[0]))
		return names[initiator - XCB_INIT_PSEUDO];
	return (const char *)0;
}

/* RESULT: statistics of one (case, repetition, initiator). The fields, their
 * widths and order are xcb_schema.h's XCB_RESULT_FIELDS: one member each, in
 * wire order, without padding (so the members' offsets are the wire's). */
#define XCB__RESULT_MEMBER(name, bits, part) uint##bits##_t name;
struct xcb_result {
	XCB_RESULT_FIELDS(XCB__RESULT_MEMBER)
};
#undef XCB__RESULT_MEMBER
/* XCB_RESULT_LEN (152, v1: the least a receiver accepts) and
 * XCB_RESULT_LEN_FULL (240, with the appended fields; extra bytes ignored)
 * derive from the widths in xcb_schema.h. */
_Static_assert(sizeof(struct xcb_result) == XCB_RESULT_LEN_FULL, "struct xcb_result has padding");
#define XCB_RF_WATCHDOG  0x1u /* a call exceeded the watchdog bound */
#define XCB_RF_INVARIANT 0x2u /* an invariant check failed */
/* The host moved under the repetition: its paired `ipi` probes (floor_paired)
 * spread by more than XCB_UNSTABLE_FACTOR (upper over lower quartile). */
#define XCB_RF_UNSTABLE  0x4u
#define XCB_UNSTABLE_FACTOR 2

/* HISTO: a chunk of one histogram (bucket scheme: xcb_histo.h). Counts of
 * buckets first .. first+n-1; zero runs may be skipped by sending chunks. */
struct xcb_histo {
	uint32_t case_id;
	uint16_t rep;            /* 0-based, or XCB_INIT_ALL: all reps merged */
	uint16_t initiator;      /* CPU index, or XCB_INIT_ALL */
	uint32_t first;          /* first bucket index */
	uint16_t n;              /* number of counts, <= XCB_HISTO_CHUNK */
	const uint32_t *counts;  /* encode: n native counts */
	const uint8_t *raw;      /* decode: n LE u32 in the frame; xcb_histo_count */
};
#define XCB_HISTO_HDR_LEN 16
#define XCB_HISTO_CHUNK ((XCB_PAYLOAD_MAX - XCB_HISTO_HDR_LEN) / 4) /* 358 */

/* SAMPLES: raw per-call latencies (cycles), values index .. index+n-1. */
struct xcb_samples {
	uint32_t case_id;
	uint16_t rep;
	uint16_t initiator;
	uint32_t index;          /* index of the first value within this stream */
	uint8_t  width;          /* 4 or 8 bytes per value */
	uint16_t n;
	const void *values;      /* encode: n native uint32_t or uint64_t */
	const uint8_t *raw;      /* decode: n LE values in the frame */
};
#define XCB_SAMPLES_HDR_LEN 16

/* DONE: the last frame of a run; its seq equals frames (= frames before it). */
struct xcb_done {
	uint32_t frames;         /* number of frames sent before DONE */
	uint32_t status;         /* XCB_DONE_* */
};
#define XCB_DONE_LEN 8
#define XCB_DONE_OK      0   /* finished the suite */
#define XCB_DONE_ABORTED 1   /* stopped early (operator, time limit) */
#define XCB_DONE_FAILED  2   /* finished, but invariants failed */

/* ACK (daemon -> payload): hdr.seq = next, meaning "every seq < next is
 * stored". sack: bit i set = seq next+1+i also stored (may be ignored). */
struct xcb_ack {
	uint32_t status;         /* XCB_ACK_* */
	uint8_t  sack[32];       /* 256 bits */
};
#define XCB_ACK_LEN 36
#define XCB_ACK_OK      0
#define XCB_ACK_REFUSED 1    /* unknown token and daemon not --open: stop */
#define XCB_ACK_CLOSED  2    /* run already complete: nothing more wanted */

/* ---- little-endian helpers (also used by the host) ---- */
static inline void xcb_put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void xcb_put32(uint8_t *p, uint32_t v) { xcb_put16(p, (uint16_t)v); xcb_put16(p + 2, (uint16_t)(v >> 16)); }
static inline void xcb_put64(uint8_t *p, uint64_t v) { xcb_put32(p, (uint32_t)v); xcb_put32(p + 4, (uint32_t)(v >> 32)); }
static inline uint16_t xcb_get16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint32_t xcb_get32(const uint8_t *p) { return (uint32_t)xcb_get16(p) | ((uint32_t)xcb_get16(p + 2) << 16); }
static inline uint64_t xcb_get64(const uint8_t *p) { return (uint64_t)xcb_get32(p) | ((uint64_t)xcb_get32(p + 4) << 32); }

/* ---- frames ---- */
uint32_t xcb_crc32(uint32_t crc, const void *buf, size_t len); /* start with 0 */
/* The same CRC four bits a step: what the payload runs (xcb_crc32 is this
 * in freestanding builds; hosted ones slice eight bytes a step). */
uint32_t xcb_crc32_nibble(uint32_t crc, const void *buf, size_t len);

/* Any type with a ready-made payload (the other encoders call this). */
size_t xcb_enc_frame(void *buf, size_t cap, const struct xcb_hdr *h,
		     const void *payload, size_t len);
/* HELLO, CASE, LOG, ERROR: text payload; h->type chooses which. */
size_t xcb_enc_text(void *buf, size_t cap, const struct xcb_hdr *h,
		    const char *text, size_t len);
size_t xcb_enc_result(void *buf, size_t cap, const struct xcb_hdr *h, const struct xcb_result *r);
size_t xcb_enc_histo(void *buf, size_t cap, const struct xcb_hdr *h, const struct xcb_histo *x);
size_t xcb_enc_samples(void *buf, size_t cap, const struct xcb_hdr *h, const struct xcb_samples *s);
size_t xcb_enc_done(void *buf, size_t cap, const struct xcb_hdr *h, const struct xcb_done *d);
size_t xcb_enc_ack(void *buf, size_t cap, const struct xcb_hdr *h, const struct xcb_ack *a);

/* Validates a whole frame of len bytes; on XCB_OK fills *h and *payload
 * (pointing into buf, h->length bytes). Checks in order: short, magic,
 * version, oversize, length, CRC, type. */
int xcb_decode(const void *buf, size_t len, struct xcb_hdr *h, const uint8_t **payload);
int xcb_dec_result(const uint8_t *p, size_t len, struct xcb_result *r);
int xcb_dec_histo(const uint8_t *p, size_t len, struct xcb_histo *x);
int xcb_dec_samples(const uint8_t *p, size_t len, struct xcb_samples *s);
int xcb_dec_done(const uint8_t *p, size_t len, struct xcb_done *d);
int xcb_dec_ack(const uint8_t *p, size_t len, struct xcb_ack *a);
static inline uint32_t xcb_histo_count(const struct xcb_histo *x, unsigned i) { return xcb_get32(x->raw + 4 * i); }
static inline uint64_t xcb_sample(const struct xcb_samples *s, unsigned i)
{
	return s->width == 8 ? xcb_get64(s->raw + 8 * i) : xcb_get32(s->raw + 4 * i);
}

/* Text payloads (HELLO, CASE): "key=value\n" lines. Iterates: returns 1 and
 * sets key/val (not NUL-terminated) for each well-formed line, 0 at the end.
 * Lines without '=' are skipped. *pos starts at 0. */
int xcb_kv_next(const char *text, size_t len, size_t *pos,
		const char **key, size_t *klen, const char **val, size_t *vlen);

/*
 * Wide lines. A HELLO line `key=value` wider than one frame's payload (the
 * apic_ids and cpu_topo facts at 1024 CPUs: 5-9 KB) travels as pieces, each
 * a line of its own that fits one frame: `key+I/N=PIECE` (I = 1..N, no
 * leading zeros), the value cut in order into N pieces at byte boundaries.
 * A receiver keeps the pieces as they come (any order, any frames, each
 * insert-once like a fact) and, once all N are in, stores key = the pieces
 * joined in order. `+` and `/` are not key characters, so a receiver from
 * before this keeps no piece, never a truncated value (it used to keep the
 * first frame's part of the line as the whole fact).
 */
#define XCB_PIECES_MAX 99
/* How many pieces a line of key length klen and value length vlen takes when
 * each piece line (with its '\n') must fit in room bytes: 0 if over
 * XCB_PIECES_MAX or room leaves no byte for the value. */
unsigned xcb_pieces(size_t klen, size_t vlen, size_t room);
/* Writes piece i (1..n, n = xcb_pieces(klen, vlen, room)) of key=val as a
 * line ending in '\n' into out (cap bytes); returns its length, 0 on a bad
 * i or n or when cap is too small. */
size_t xcb_piece_line(char *out, size_t cap, const char *key, size_t klen, const char *val,
		      size_t vlen, unsigned i, unsigned n, size_t room);
/* Whether key[0..klen) is a piece's key `base+I/N`: 1 and *blen (the base's
 * length, >= 1), *i, *n; else 0. */
int xcb_piece_key(const char *key, size_t klen, size_t *blen, unsigned *i, unsigned *n);

/* Short stable name of a reason ("short", "magic", ... ; "ok" for 0). */
const char *xcb_err_name(int err);
/* Name of a frame type ("hello", "case", ...; "?" if unknown). */
const char *xcb_type_name(unsigned type);

/* ---- skipped cases: their LOG lines (README "Skipped cases") ----
 * A skipped case sends no CASE: these lines are its only record. The
 * payload writes them (firmware/bench/runner.c, bench.c) and the daemon
 * counts them per reason (host/src/skips.c), from these formats alone: a
 * reworded line would otherwise go uncounted without a word. Each is
 * followed by the reason WHY, optionally ending in a parenthesis. */
#define XCB_SKIP_CASE   "case %u/%u skipped: "	/* case id I of the suite's N */
#define XCB_REFUSE_CASE "case %u/%u refused: "	/* a TLB batch past what a CPU may change */
#define XCB_SKIP_PLAN   "plan: %u cases skipped: "	/* K cases the expansion left out */

/* ---- serial text framing (xcb_text.c): "XCB1 <base64 of frame>\n" ---- */
#define XCB_TEXT_PREFIX "XCB1 "
#define XCB_TEXT_MAX (5 + ((XCB_FRAME_MAX + 2) / 3) * 4 + 1) /* 1969 */
/* Writes one line (prefix, base64, '\n'); returns its length, 0 if cap is too
 * small. No NUL is written. */
size_t xcb_text_encode(char *out, size_t cap, const void *frame, size_t len);
/* Finds a frame in one console line (CR, leading noise and trailing noise
 * after whitespace are tolerated). Returns the frame length (> 0) written to
 * frame, or a negative XCB_E_* when the line holds no decodable frame (the
 * frame itself is not validated: run xcb_decode on it). */
int xcb_text_decode(const char *line, size_t len, uint8_t *frame, size_t cap);

#endif /* XCB_PROTO_H */
