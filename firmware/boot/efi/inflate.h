/* boot/efi/inflate.h — raw DEFLATE (RFC 1951) decoder for the UEFI stub. */
#ifndef XCB_BOOT_EFI_INFLATE_H
#define XCB_BOOT_EFI_INFLATE_H
#include <stdint.h>

/* Inflates in[0..in_len) into out[0..cap). Returns the bytes produced, or -1
 * when the stream is corrupt, truncated or would not fit: every read and
 * write is bounds-checked. */
int64_t inflate_raw(const uint8_t *in, uint64_t in_len, uint8_t *out, uint64_t cap);

#endif
