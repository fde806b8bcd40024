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

/* One conversion's specification: %[flags][width][.prec][length]conv. */
struct spec {
	bool left;          /* '-' (or a negative '*' width) */
	char pad, sign;     /* '0' or ' '; '+', ' ' or 0 */
	int width, prec;    /* prec -1: none */
	int lng;            /* 0 int, 1 long, 2 long long (z j t), -1 short, -2 char */
	char conv;          /* 0 when the format ended inside the specification */
};

/* A decimal number or '*' (from the arguments) at *fmt; -1 for '*' that is
 * negative is the caller's business. */
static int parse_count(const char **fmt, va_list *ap)
{
	int n = 0;

	if (**fmt == '*') {
		(*fmt)++;
		return va_arg(*ap, int);
	}
	while (**fmt >= '0' && **fmt <= '9')
		n = n * 10 + (*(*fmt)++ - '0');
	return n;
}

/* Parses the specification after a '%'; *fmt ends on its conversion. */
static struct spec parse_spec(const char **fmt, va_list *ap)
{
	struct spec sp = { false, ' ', 0, 0, -1, 0, 0 };

	for (;; (*fmt)++) {
		if (**fmt == '-')
			sp.left = true;
		else if (**fmt == '0')
			sp.pad = '0';
		else if (**fmt == '+')
			sp.sign = '+';
		else if (**fmt == ' ')
			sp.sign = sp.sign ? sp.sign : ' ';
		else
			break;
	}
	sp.width = parse_count(fmt, ap);
	if (sp.width < 0) {
		sp.left = true;
		sp.width = -sp.width;
	}
	if (**fmt == '.') {
		(*fmt)++;
		sp.prec = parse_count(fmt, ap);
	}
	for (;; (*fmt)++) {
		if (**fmt == 'l')
			sp.lng++;
		else if (**fmt == 'h')
			sp.lng--;
		else if (**fmt == 'z' || **fmt == 'j' || **fmt == 't')
			sp.lng = 2;
		else
			break;
	}
	if (sp.left)
		sp.pad = ' ';
	sp.conv = **fmt;
	return sp;
}

/* %d %i: the argument of sp's length, sign-extended. */
static void fmt_signed(struct out *o, const struct spec *sp, va_list *ap)
{
	int64_t v;

	if (sp->lng >= 1)
		v = sp->lng == 1 ? va_arg(*ap, long) : va_arg(*ap, long long);
	else
		v = va_arg(*ap, int);
	if (sp->lng == -1)
		v = (short)v;
	else if (sp->lng <= -2)
		v = (signed char)v;
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
	fmt_num(o, u, v < 0, 10, false, sp->width, sp->prec, sp->left, sp->prec >= 0 ? ' ' : sp->pad, sp->sign);
}

/* %u %x %X %o: the argument of sp's length, zero-extended. */
static void fmt_unsigned(struct out *o, const struct spec *sp, va_list *ap)
{
	uint64_t v;

	if (sp->lng >= 1)
		v = sp->lng == 1 ? va_arg(*ap, unsigned long) : va_arg(*ap, unsigned long long);
	else
		v = va_arg(*ap, unsigned int);
	if (sp->lng == -1)
		v = (unsigned short)v;
	else if (sp->lng <= -2)
		v = (unsigned char)v;
	unsigned base = sp->conv == 'u' ? 10 : sp->conv == 'o' ? 8 : 16;
	fmt_num(o, v, false, base, sp->conv == 'X', sp->width, sp->prec, sp->left, sp->prec >= 0 ? ' ' : sp->pad, 0);
}

/* %s (at most prec characters) and %c, padded to the width. */
static void fmt_text(struct out *o, const struct spec *sp, const char *s, int n)
{
	if (!sp->left)
		out_pad(o, ' ', sp->width - n);
	for (int i = 0; i < n; i++)
		out_c(o, s[i]);
	if (sp->left)
		out_pad(o, ' ', sp->width - n);
}

/* One conversion, its specification parsed. */
static void fmt_conv(struct out *o, const struct spec *sp, va_list *ap)
{
	switch (sp->conv) {
	case 'd':
	case 'i':
		fmt_signed(o, sp, ap);
		break;
	case 'u':
	case 'x':
	case 'X':
	case 'o':
		fmt_unsigned(o, sp, ap);
		break;
	case 'p':
		out_c(o, '0');
		out_c(o, 'x');
		fmt_num(o, (uintptr_t)va_arg(*ap, void *), false, 16, false, sp->width > 2 ? sp->width - 2 : 0,
			-1, sp->left, sp->pad, 0);
		break;
	case 'c': {
		char ch = (char)va_arg(*ap, int);
		fmt_text(o, sp, &ch, 1);
		break;
	}
	case 's': {
		const char *s = va_arg(*ap, const char *);
		if (!s)
			s = "(null)";
		fmt_text(o, sp, s, (int)(sp->prec >= 0 ? strnlen(s, (size_t)sp->prec) : strlen(s)));
		break;
	}
	case '%':
		out_c(o, '%');
		break;
	default:
		/* Unknown conversion: print it verbatim so the mistake is visible. */
		out_c(o, '%');
		out_c(o, sp->conv);
		break;
	}
}

static void format(struct out *o, const char *fmt, va_list ap_in)
{
	va_list ap;

	/* A copy the helpers can take the address of (a va_list parameter is
	 * an array that decayed to a pointer on x86-64). */
	va_copy(ap, ap_in);
	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			out_c(o, *fmt);
			continue;
		}
		fmt++;
		struct spec sp = parse_spec(&fmt, &ap);
		if (!sp.conv)
			break;
		fmt_conv(o, &sp, &ap);
	}
	va_end(ap);
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
