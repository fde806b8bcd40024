/* compress/inflate.h — raw DEFLATE (RFC 1951) decoder for the images' loaders
 * (the UEFI stub and the BIOS loader). */
#ifndef XCB_COMPRESS_INFLATE_H
#define XCB_COMPRESS_INFLATE_H
#include <stddef.h>
#include <stdint.h>

/* Inflates in[0..in_len) into out[0..cap). Returns the bytes produced, or -1
 * when the stream is corrupt, truncated or would not fit: every read and
 * write is bounds-checked. */
ptrdiff_t inflate_raw(const uint8_t *in, size_t in_len, uint8_t *out, size_t cap);

#endif
