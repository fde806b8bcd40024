/*
 * strbuf.h - append-only text building into a fixed buffer (CASE/HELLO key=value
 * payloads) without printf's format parsing. Overflow is
 * sticky: once full, further appends are dropped and sb_overflowed() says so, so a
 * caller can split a payload instead of sending a truncated line.
 */
#ifndef XCB_BENCH_STRBUF_H
#define XCB_BENCH_STRBUF_H

#include <stdint.h>

struct strbuf {
	char *buf;
	unsigned len, cap;	/* buf[len] is always NUL while cap > 0 */
	int overflow;
};

void sb_init(struct strbuf *sb, char *buf, unsigned cap);
void sb_putc(struct strbuf *sb, char c);
void sb_puts(struct strbuf *sb, const char *s);
void sb_u64(struct strbuf *sb, uint64_t v);
/* key=value\n lines for text frames. */
void sb_kv(struct strbuf *sb, const char *key, const char *val);
void sb_kv_u64(struct strbuf *sb, const char *key, uint64_t v);
/* The CPUs of m as a list in proto/xcb_cpulist.h's short form (x_cpus'
 * targets, x_readers): a run of three or more as "first-last", five or more
 * an equal step apart as "first-last:1/step" (Linux's cpulist stride), so at
 * 1024 CPUs a full mask is "0-1023" and every other CPU "1-1023:1/2", where
 * plain numbers took ~4.9 KB and ~2 KB. Never longer than the plain list.
 * All or nothing: a list that does not fit sets the overflow and writes
 * none of it (no number cut short). The daemon stores the canonical form. */
struct cpumask;
void sb_cpus(struct strbuf *sb, const struct cpumask *m);
/* The CPUs set in bits[0..nbits) as sb_cpus writes them (short, whole or
 * none: overflow). */
void sb_cpubits(struct strbuf *sb, const uint64_t *bits, unsigned nbits);
static inline int sb_overflowed(const struct strbuf *sb) { return sb->overflow; }

/* Tiny freestanding string helpers (bench/ avoids depending on lib/ for these). */
unsigned bs_strlen(const char *s);
int bs_streq(const char *a, const char *b);

#endif
