/* arch/serial.h — the COM1 console (115200 8N1, polled). */
#ifndef XCB_ARCH_SERIAL_H
#define XCB_ARCH_SERIAL_H
#include <stddef.h>
#include <stdint.h>

#define SERIAL_COM1 0x3f8
void serial_init(uint16_t port);
void serial_putc(char c);
/* Console sink: writes len bytes (no "\r" translation). */
void serial_write(const char *s, size_t len);

#endif
