/*
 * util.h — small hosted helpers shared by xcbenchd, xcbench and the test
 * tools: address parsing, number parsing, UTF-8 checks, ISO times, a growable
 * buffer, the admin token file.
 */
#ifndef XCB_UTIL_H
#define XCB_UTIL_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>

/* "HOST:PORT", ":PORT", "PORT" or "HOST" → sockaddr (IPv4 literal or name;
 * "" is refused). Returns 0, or -1 with a message in err. */
int parse_hostport(const char *s, const char *defhost, int defport,
		   struct sockaddr_in *sa, char *err, size_t errlen);
/* Whole-string unsigned decimal (or 0x hex when hex is set) → 0 / -1. */
int parse_u64(const char *s, uint64_t *v);
int parse_hex64(const char *s, uint64_t *v); /* exactly 1..16 hex digits */
/* 1 when s is 1..max letters, digits and characters of extra (a word safe
 * on a command line or in a URL), else 0. */
int text_is_word(const char *s, const char *extra, size_t max);
/* A lab's name (xcbenchd --lab, xcb-copy --lab): 1 when s is one, else 0.
 * LAB_NAME_RULE says what one is, for the error that refuses another. One
 * rule for both, or a copy could store runs under a lab no daemon can be. */
#define LAB_NAME_RULE "1..32 of [A-Za-z0-9._-]"
int lab_name_ok(const char *s);
/* The length of the UTF-8 sequence at s (n bytes there): 1..4, or 0 when
 * it is not one (a stray or truncated byte, an overlong form, a surrogate,
 * past U+10FFFF). jansson refuses such text without saying which. */
size_t utf8_seq_len(const unsigned char *s, size_t n);
/* 1 when the whole string s is valid UTF-8, else 0. */
int utf8_valid(const char *s);
/* unix seconds → "2026-11-29T23:55:00Z" (buf ≥ 21 bytes). */
const char *iso_time(int64_t t, char *buf, size_t len);
/* ISO time ("2026-11-29", "2026-11-29T23:55:00Z") or unix seconds → -1 if bad. */
int64_t parse_time(const char *s);
int64_t now_s(void);
double now_mono(void); /* seconds, monotonic */

/* Growable byte buffer (always NUL-terminated). */
struct buf {
	char *p;
	size_t len, cap;
};
int buf_add(struct buf *b, const void *d, size_t n);
/* Writing in place: buf_room makes room for n more bytes (and the NUL) and
 * returns where they go (b->p + b->len; NULL out of memory); buf_wrote then
 * says where the writing ended (at most n further) and terminates it. A
 * record of many cells costs one check instead of one buf_add each. */
char *buf_room(struct buf *b, size_t n);
void buf_wrote(struct buf *b, char *end);
int buf_addf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_free(struct buf *b);
/* Appends words[0..n) separated by sep ("quick default seed": a
 * vocabulary's names in an error message). */
void buf_add_words(struct buf *b, const char *const *words, unsigned n, const char *sep);

/* An admin token file's first line (CR/LF cut) into buf (len bytes; a
 * longer line is cut): 0; -1 with errno set when it cannot be read (a
 * directory opens, and fails at the read); 1 when it is empty. One reader
 * for xcbenchd and xcbench, so both say the same of the same file. */
#define TOKEN_FILE_EMPTY "empty (its first line must be the admin token)"
int read_token_file(const char *path, char *buf, size_t len);

/* Normalises a MAC ("52-54-00-AB-cd-ef", "5254.00ab.cdef" not accepted) to
 * "52:54:00:ab:cd:ef"; returns 0 or -1. out ≥ 18 bytes. */
int norm_mac(const char *in, char *out);

#endif
