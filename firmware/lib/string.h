/* lib/string.h — the handful of libc string/memory functions the payload
 * needs. On the host (XCB_HOST) this is simply the C library's <string.h>. */
#ifndef XCB_LIB_STRING_H
#define XCB_LIB_STRING_H
#include <stddef.h>

#ifdef XCB_HOST
#include <string.h>
#else
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
#endif

/* Copies at most size-1 bytes and always NUL-terminates (when size > 0);
 * returns strlen(src) like BSD strlcpy. Available on both sides. */
size_t xcb_strlcpy(char *dst, const char *src, size_t size);

/* The value of `c` as a digit of `base` (10 or 16, either case), or -1. */
static inline int xcb_digit(char c, unsigned base)
{
	int d = c >= '0' && c <= '9' ? c - '0'
		: c >= 'a' && c <= 'f' ? c - 'a' + 10
		: c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
	return d < (int)base ? d : -1;
}

#endif
