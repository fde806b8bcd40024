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
/* The CPUs of m in CPU order, comma-separated, a run of three or more as
 * "first-last" (x_cpus' targets, x_readers): at 1024 CPUs a full mask is
 * "0-1023", where the plain list took ~4.9 KB, more than a frame holds.
 * Never longer than the plain list: a range replaces at least three
 * numbers and two commas by two numbers and a '-'. */
struct cpumask;
void sb_cpus(struct strbuf *sb, const struct cpumask *m);
static inline int sb_overflowed(const struct strbuf *sb) { return sb->overflow; }

/* Tiny freestanding string helpers (bench/ avoids depending on lib/ for these). */
unsigned bs_strlen(const char *s);
int bs_streq(const char *a, const char *b);

#endif
