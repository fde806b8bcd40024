/* lib/hex.h — the one table of hexadecimal digits, for kprintf's %x/%X and
 * the drivers' "BB:DD.F" device names (which format without kprintf: net/
 * also builds for host unit tests, where the payload's printf is absent). */
#ifndef XCB_LIB_HEX_H
#define XCB_LIB_HEX_H

/* The digit for d & 15: lower case, or upper case when upper is set. */
static inline char hex_digit(unsigned d, int upper)
{
	char c = "0123456789abcdef"[d & 15];
	/* 'a'-'f' and 'A'-'F' differ in one bit (0x20) in ASCII. */
	return upper && c > '9' ? (char)(c & ~0x20) : c;
}

/* Writes v & 0xff as two lower-case digits at dst; returns dst + 2. */
static inline char *hex_byte(char *dst, unsigned v)
{
	dst[0] = hex_digit(v >> 4, 0);
	dst[1] = hex_digit(v, 0);
	return dst + 2;
}

#endif
