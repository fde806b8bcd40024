/* arch/serial.c — polled 16550 UART driver for the console (COM1). */
#include "arch/serial.h"
#include "arch/io.h"

static uint16_t port;

void serial_init(uint16_t p)
{
	port = p;
	outb(port + 1, 0x00); /* no UART interrupts: we poll */
	outb(port + 3, 0x80); /* DLAB on */
	outb(port + 0, 0x01); /* divisor 1 = 115200 baud */
	outb(port + 1, 0x00);
	outb(port + 3, 0x03); /* 8N1, DLAB off */
	outb(port + 2, 0xc7); /* FIFOs on, cleared, 14-byte threshold */
	outb(port + 4, 0x03); /* DTR, RTS */
}

void serial_putc(char c)
{
	if (!port)
		return;
	/* Wait for the transmit holding register; bounded so a missing UART
	 * (LSR reads 0x00 forever on some boards) cannot hang the payload. */
	for (unsigned i = 0; i < 100000 && !(inb(port + 5) & 0x20); i++)
		__asm__ __volatile__("pause");
	outb(port, (uint8_t)c);
}

void serial_write(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		serial_putc(s[i]);
}
