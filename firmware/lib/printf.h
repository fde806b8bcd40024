/* lib/printf.h — formatted output for the payload (and the host, for tests).
 *
 * Formats: %d %i %u %x %X %o %c %s %p %% with flags '-' '0' '+' ' ', a width
 * (number or '*'), a precision for %s/%d ('.N' or '.*'), and length modifiers
 * hh h l ll z j t (so %lx %llu %zu %08x all work). No floating point: the
 * payload is built without SSE (-mgeneral-regs-only).
 *
 * kprintf() writes to the console sink that arch registers (console_set_sink);
 * one kprintf() call is never interleaved with another CPU's output, so print a
 * whole line per call. Lines end in "\n" only (no "\r"). */
#ifndef XCB_LIB_PRINTF_H
#define XCB_LIB_PRINTF_H
#include <stdarg.h>
#include <stddef.h>

int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int ksnprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int kvprintf(const char *fmt, va_list ap);
int kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The console: one sink (serial on the payload; stderr by default on the host). */
typedef void (*console_sink_fn)(const char *s, size_t len);
void console_set_sink(console_sink_fn fn);
/* A second sink that sees every console byte too (e.g. a network log), or NULL. */
void console_set_tee(console_sink_fn fn);
/* Writes raw bytes under the console lock. */
void console_write(const char *s, size_t len);
/* Crash path: stop waiting for the console lock after a bounded spin so a CPU
 * that faulted while printing cannot silence every later report. */
void console_emergency(void);

#endif
