/* compress/bcj.c — the x86 call/jump filter's decoder (the encoder is bcj() in
 * compress/pack.py, which says why the filter pays). After every E8 (CALL) or
 * E9 (JMP) byte at offset i the packer stored the target as an absolute image
 * offset; here it goes back to rel32 = abs - (i + 5). Both directions skip the
 * 4 bytes after each opcode, so they meet the same opcodes: the filter is a
 * bijection on any bytes, data that merely contains E8 included. */
#include "compress/bcj.h"

/* See compress/bcj.h. Byte loads and stores: the field is unaligned. */
void bcj_decode(uint8_t *buf, size_t n)
{
	for (size_t i = 0; i + 5 <= n;) {
		if ((buf[i] & 0xfe) != 0xe8) { /* E8 and E9 alike */
			i++;
			continue;
		}
		uint8_t *p = buf + i + 1;
		uint32_t v = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
		v -= (uint32_t)(i + 5);
		for (int k = 0; k < 4; k++)
			p[k] = (uint8_t)(v >> (8 * k));
		i += 5;
	}
}
