/* arch/io.h — x86 port I/O (inb/outb/inw/outw/inl/outl) and MMIO accessors. */
#ifndef XCB_ARCH_IO_H
#define XCB_ARCH_IO_H
#include <stdint.h>

static inline void outb(uint16_t port, uint8_t v) { __asm__ __volatile__("outb %0, %1" :: "a"(v), "Nd"(port)); }
static inline void outw(uint16_t port, uint16_t v) { __asm__ __volatile__("outw %0, %1" :: "a"(v), "Nd"(port)); }
static inline void outl(uint16_t port, uint32_t v) { __asm__ __volatile__("outl %0, %1" :: "a"(v), "Nd"(port)); }
static inline uint8_t inb(uint16_t port) { uint8_t v; __asm__ __volatile__("inb %1, %0" : "=a"(v) : "Nd"(port)); return v; }
static inline uint16_t inw(uint16_t port) { uint16_t v; __asm__ __volatile__("inw %1, %0" : "=a"(v) : "Nd"(port)); return v; }
static inline uint32_t inl(uint16_t port) { uint32_t v; __asm__ __volatile__("inl %1, %0" : "=a"(v) : "Nd"(port)); return v; }
/* ~1 µs delay on real hardware: a write to the POST port. */
static inline void io_delay(void) { outb(0x80, 0); }

/* MMIO: volatile accesses the compiler may neither merge nor reorder. */
static inline uint32_t mmio_read32(uintptr_t a) { return *(volatile uint32_t *)a; }
static inline void mmio_write32(uintptr_t a, uint32_t v) { *(volatile uint32_t *)a = v; }

#endif
