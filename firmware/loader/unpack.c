/* loader/unpack.c — the BIOS loader's C half (32-bit protected mode, paging
 * off: loader/loader.S says why): inflates the payload to its link address
 * with the decoder the UEFI stub uses (compress/inflate.c) and undoes the
 * packer's call/jump filter (compress/bcj.c). */
#include "compress/bcj.h"
#include "compress/inflate.h"
#include "xcb_proto.h"

/* Filled in by the Makefile from the payload as linked. */
#if !defined(PAYLOAD_BASE) || !defined(PAYLOAD_SIZE) || !defined(PAYLOAD_CRC32)
#error "build through firmware/Makefile"
#endif

/* loader/loader.S: the compressed payload (build/payload.deflate). */
extern const uint8_t payload_deflate[], payload_deflate_end[];

int loader_unpack(void);

/* Puts the payload at PAYLOAD_BASE; 0, or -1 when the image is corrupt: the
 * stream is bad, or does not inflate to exactly the bytes that were built.
 * The length alone would not tell: bytes flipped inside a stored (not
 * compressed) DEFLATE block inflate to the right length, so the payload's
 * CRC-32 as built is checked too (the UEFI stub checks the same).
 * The payload's .bss is not ours to clear: boot/entry.S zeroes it. */
int loader_unpack(void)
{
	uint8_t *dst = (uint8_t *)PAYLOAD_BASE;
	ptrdiff_t n = inflate_raw(payload_deflate, (size_t)(payload_deflate_end - payload_deflate),
				  dst, PAYLOAD_SIZE);
	if (n != PAYLOAD_SIZE)
		return -1;
	bcj_decode(dst, PAYLOAD_SIZE);
	return xcb_crc32(0, dst, PAYLOAD_SIZE) == PAYLOAD_CRC32 ? 0 : -1;
}
