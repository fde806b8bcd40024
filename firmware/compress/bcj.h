/* compress/bcj.h — decoder of the x86 call/jump (E8/E9) filter that
 * compress/pack.py --bcj applies before DEFLATE (the BIOS image uses it). */
#ifndef XCB_COMPRESS_BCJ_H
#define XCB_COMPRESS_BCJ_H
#include <stddef.h>
#include <stdint.h>

/* Undoes pack.py bcj() in place over buf[0..n), which must be the whole
 * filtered image (offsets count from buf[0]). */
void bcj_decode(uint8_t *buf, size_t n);

#endif
