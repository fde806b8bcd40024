/* lib/printf.c — kvsnprintf and the console lock. Host-compilable: the host
 * unit tests use ksnprintf, and kprintf goes to stderr there unless a test
 * registers its own sink. */
#include <stdint.h>
#include <stdbool.h>
#include "lib/printf.h"
#include "lib/hex.h"
#include "lib/string.h"
#include "lib/spinlock.h"

struct out {
	char *buf;
	size_t size, len;
	size_t total; /* characters produced, for the return value */
	/* Streaming mode (kvprintf): flush full chunks to the console sink. */
	bool stream;
};

static void console_raw(const char *s, size_t len);

static void out_c(struct out *o, char c)
{
	o->total++;
	if (o->stream && o->len == o->size) {
		console_raw(o->buf, o->len);
		o->len = 0;
	}
	if (o->len + 1 < o->size || (o->stream && o->len < o->size))
		o->buf[o->len] = c;
	o->len++;
}

static void out_pad(struct out *o, char c, int n)
{
	while (n-- > 0)
		out_c(o, c);
}

static int fmt_num(struct out *o, uint64_t v, bool neg, unsigned base, bool upper,
		   int width, int prec, bool left, char pad, char sign)
{
	char tmp[24];
	int n = 0;
	do {
		tmp[n++] = hex_digit((unsigned)(v % base), upper);
		v /= base;
	} while (v);
	while (n < prec && n < (int)sizeof(tmp))
		tmp[n++] = '0';
	char s = neg ? '-' : sign;
	int total = n + (s ? 1 : 0);
	if (!left && pad == ' ')
		out_pad(o, ' ', width - total);
	if (s)
		out_c(o, s);
	if (!left && pad == '0')
		out_pad(o, '0', width - total);
	while (n)
		out_c(o, tmp[--n]);
	if (left)
		out_pad(o, ' ', width - total);
	return 0;
}

static void format(struct out *o, const char *fmt, va_list ap)
{
	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			out_c(o, *fmt);
			continue;
		}
		fmt++;
		bool left = false;
		char pad = ' ', sign = 0;
		for (;; fmt++) {
			if (*fmt == '-')
				left = true;
			else if (*fmt == '0')
				pad = '0';
			else if (*fmt == '+')
				sign = '+';
			else if (*fmt == ' ')
				sign = sign ? sign : ' ';
			else
				break;
		}
		int width = 0, prec = -1;
		if (*fmt == '*') {
			width = va_arg(ap, int);
			if (width < 0) {
				left = true;
				width = -width;
			}
			fmt++;
		} else {
			while (*fmt >= '0' && *fmt <= '9')
				width = width * 10 + (*fmt++ - '0');
		}
		if (*fmt == '.') {
			fmt++;
			prec = 0;
			if (*fmt == '*') {
				prec = va_arg(ap, int);
				fmt++;
			} else {
				while (*fmt >= '0' && *fmt <= '9')
					prec = prec * 10 + (*fmt++ - '0');
			}
		}
		int lng = 0; /* 0 int, 1 long, 2 long long, -1 short, -2 char */
		for (;; fmt++) {
			if (*fmt == 'l')
				lng++;
			else if (*fmt == 'h')
				lng--;
			else if (*fmt == 'z' || *fmt == 'j' || *fmt == 't')
				lng = 2;
			else
				break;
		}
		if (left)
			pad = ' ';
		char c = *fmt;
		if (!c)
			break;
		switch (c) {
		case 'd':
		case 'i': {
			int64_t v;
			if (lng >= 1)
				v = lng == 1 ? va_arg(ap, long) : va_arg(ap, long long);
			else
				v = va_arg(ap, int);
			if (lng == -1)
				v = (short)v;
			else if (lng <= -2)
				v = (signed char)v;
			uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
			fmt_num(o, u, v < 0, 10, false, width, prec, left, prec >= 0 ? ' ' : pad, sign);
			break;
		}
		case 'u':
		case 'x':
		case 'X':
		case 'o': {
			uint64_t v;
			if (lng >= 1)
				v = lng == 1 ? va_arg(ap, unsigned long) : va_arg(ap, unsigned long long);
			else
				v = va_arg(ap, unsigned int);
			if (lng == -1)
				v = (unsigned short)v;
			else if (lng <= -2)
				v = (unsigned char)v;
			unsigned base = c == 'u' ? 10 : c == 'o' ? 8 : 16;
			fmt_num(o, v, false, base, c == 'X', width, prec, left, prec >= 0 ? ' ' : pad, 0);
			break;
		}
		case 'p':
			out_c(o, '0');
			out_c(o, 'x');
			fmt_num(o, (uintptr_t)va_arg(ap, void *), false, 16, false, width > 2 ? width - 2 : 0,
				-1, left, pad, 0);
			break;
		case 'c': {
			char ch = (char)va_arg(ap, int);
			if (!left)
				out_pad(o, ' ', width - 1);
			out_c(o, ch);
			if (left)
				out_pad(o, ' ', width - 1);
			break;
		}
		case 's': {
			const char *s = va_arg(ap, const char *);
			if (!s)
				s = "(null)";
			int n = (int)(prec >= 0 ? strnlen(s, (size_t)prec) : strlen(s));
			if (!left)
				out_pad(o, ' ', width - n);
			for (int i = 0; i < n; i++)
				out_c(o, s[i]);
			if (left)
				out_pad(o, ' ', width - n);
			break;
		}
		case '%':
			out_c(o, '%');
			break;
		default:
			/* Unknown conversion: print it verbatim so the mistake is visible. */
			out_c(o, '%');
			out_c(o, c);
			break;
		}
	}
}

int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0, 0, false };
	format(&o, fmt, ap);
	if (size)
		buf[o.len < size ? o.len : size - 1] = 0;
	return (int)o.total;
}

int ksnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = kvsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

/* ---- console ---- */

#ifdef XCB_HOST
#include <stdio.h>
static void host_stderr(const char *s, size_t len)
{
	fwrite(s, 1, len, stderr);
}
static console_sink_fn sink = host_stderr;
#else
static console_sink_fn sink;
#endif
static console_sink_fn tee;
/* Serialises whole kprintf() calls so lines from different CPUs never mix. */
static spinlock_t console_lock = SPINLOCK_INIT;
static volatile int emergency;

void console_set_sink(console_sink_fn fn) { sink = fn; }
void console_set_tee(console_sink_fn fn) { tee = fn; }
void console_emergency(void) { emergency = 1; }

static void console_raw(const char *s, size_t len)
{
	if (sink)
		sink(s, len);
	if (tee)
		tee(s, len);
}

static unsigned long console_lock_take(bool *held)
{
	unsigned long f = irq_save();
	*held = true;
	if (!emergency) {
		spin_lock(&console_lock);
		return f;
	}
	/* Bounded wait: the holder may be the CPU that just crashed. */
	for (unsigned long i = 0; i < 50000000UL; i++) {
		if (spin_trylock(&console_lock))
			return f;
		cpu_relax();
	}
	*held = false;
	return f;
}

static void console_lock_give(bool held, unsigned long f)
{
	if (held)
		spin_unlock(&console_lock);
	irq_restore(f);
}

void console_write(const char *s, size_t len)
{
	bool held;
	unsigned long f = console_lock_take(&held);
	console_raw(s, len);
	console_lock_give(held, f);
}

int kvprintf(const char *fmt, va_list ap)
{
	char chunk[128];
	struct out o = { chunk, sizeof(chunk), 0, 0, true };
	bool held;
	unsigned long f = console_lock_take(&held);
	format(&o, fmt, ap);
	if (o.len)
		console_raw(chunk, o.len);
	console_lock_give(held, f);
	return (int)o.total;
}

int kprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = kvprintf(fmt, ap);
	va_end(ap);
	return n;
}
