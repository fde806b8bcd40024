/*
 * strbuf.c - fixed-buffer text building for frames and console output.
 */
#include "bench/strbuf.h"
#include "lib/cpumask.h"
#include "xcb_cpulist.h"

void sb_init(struct strbuf *sb, char *buf, unsigned cap)
{
	sb->buf = buf;
	sb->cap = cap;
	sb->len = 0;
	sb->overflow = 0;
	if (sb->cap)
		sb->buf[0] = 0;
}

void sb_putc(struct strbuf *sb, char c)
{
	if (sb->len + 1 >= sb->cap) {
		sb->overflow = 1;
		return;
	}
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = 0;
}

void sb_puts(struct strbuf *sb, const char *s)
{
	while (s && *s)
		sb_putc(sb, *s++);
}

void sb_u64(struct strbuf *sb, uint64_t v)
{
	char t[24];
	unsigned i = 0;
	do {
		t[i++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (i)
		sb_putc(sb, t[--i]);
}

void sb_kv(struct strbuf *sb, const char *key, const char *val)
{
	sb_puts(sb, key);
	sb_putc(sb, '=');
	sb_puts(sb, val);
	sb_putc(sb, '\n');
}

void sb_kv_u64(struct strbuf *sb, const char *key, uint64_t v)
{
	sb_puts(sb, key);
	sb_putc(sb, '=');
	sb_u64(sb, v);
	sb_putc(sb, '\n');
}

void sb_cpus(struct strbuf *sb, const struct cpumask *m)
{
	sb_cpubits(sb, m->bits, XCB_MAX_CPUS);
}

void sb_cpubits(struct strbuf *sb, const uint64_t *bits, unsigned nbits)
{
	unsigned room = sb->cap - sb->len;	/* with the NUL */
	size_t need;

	if (!sb->cap || sb->overflow)
		return;
	need = xcb_cpulist_put(sb->buf + sb->len, room, bits, nbits, 1);
	if (need >= room) {
		/* none of it: a list cut short would name other CPUs */
		sb->buf[sb->len] = 0;
		sb->overflow = 1;
		return;
	}
	sb->len += (unsigned)need;
}

unsigned bs_strlen(const char *s)
{
	unsigned n = 0;
	while (s && s[n])
		n++;
	return n;
}

int bs_streq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

