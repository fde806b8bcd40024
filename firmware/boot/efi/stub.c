/* boot/efi/stub.c — the code inside xcbench.efi, the UEFI image (PE32+ header
 * in boot/efi/header.S). The firmware (or iPXE's EFI build) loads the image
 * anywhere and calls efi_stub_entry(); this code is position independent
 * (RIP-relative only, no pointer in any initialised datum: the Makefile links
 * it at two bases and refuses a difference), which is why the image needs no
 * base relocations.
 *
 * Its one job: put the payload (the BIOS image's kernel plus its EFI half,
 * DEFLATE-compressed: compress/inflate.c) at its link address, 1 MiB, and
 * hand over to the payload's own EFI
 * half (boot/efi/main.c), which runs at its link address and so may use the
 * whole kernel library (command line, printf). Before that it reserves the
 * payload's range as loader data, refuses a truncated or corrupt image
 * (bounds-checked inflate + the CRC32 the build recorded), and on any error
 * prints on the EFI console and COM1 and returns an EFI error status. */
#include "boot/efi/efi.h"
#include "compress/bcj.h"
#include "compress/inflate.h"

/* Filled in by the Makefile from the payload as linked. */
#ifndef PAYLOAD_BASE
#error "build through firmware/Makefile"
#endif

extern const uint8_t efi_payload[], efi_payload_end[];

static struct efi_system_table *st;

static inline void outb(uint16_t port, uint8_t v)
{
	__asm__ __volatile__("outb %0, %1" : : "a"(v), "Nd"(port));
}
static inline uint8_t inb(uint16_t port)
{
	uint8_t v;
	__asm__ __volatile__("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

/* COM1 as the firmware left it (OVMF and servers: 115200 8N1): a bounded
 * wait for the transmitter, so a machine without COM1 does not stall. */
static void com1_putc(char c)
{
	for (int i = 0; i < 100000 && !(inb(0x3fd) & 0x20); i++)
		;
	outb(0x3f8, (uint8_t)c);
}

/* "xcbench: efi: error: MSG" as one line on COM1 and one on the EFI console
 * (which wants UCS-2 and CR LF); MSG is short ASCII. */
static efi_status fail(const char *msg, efi_status status)
{
	static const char prefix[] = "xcbench: efi: error: ";
	char16 buf[160];
	unsigned n = 0;
	for (const char *p = prefix; *p; p++)
		buf[n++] = (char16)*p;
	for (; *msg && n < 156; msg++)
		buf[n++] = (char16)(uint8_t)*msg;
	buf[n++] = '\r';
	buf[n++] = '\n';
	buf[n] = 0;
	for (unsigned i = 0; i < n; i++)
		com1_putc((char)buf[i]);
	if (st->con_out)
		st->con_out->output_string(st->con_out, buf);
	return status;
}

EFIAPI efi_status efi_stub_entry(efi_handle image, struct efi_system_table *systab)
{
	st = systab;
	struct efi_boot_services *bs = st->boot_services;
	uint64_t base = PAYLOAD_BASE;
	uint64_t pages = (PAYLOAD_MEM_END - PAYLOAD_BASE + 4095) / 4096;
	efi_status s;

	/* The payload is linked at 1 MiB (identity-mapped, same as BIOS): its
	 * whole range, .bss included, must be ours - as loader CODE, since we
	 * execute it (its EFI half, before ExitBootServices): firmware that maps
	 * loader data no-execute would fault on the jump below. */
	s = bs->allocate_pages(EFI_ALLOCATE_ADDRESS, EFI_LOADER_CODE, pages, &base);
	if (s != EFI_SUCCESS)
		return fail("the payload's memory at 1 MiB is not free (AllocatePages failed)", s);
	for (uint64_t i = 0; i < pages * 4096; i++)
		((volatile uint8_t *)base)[i] = 0; /* .bss starts zeroed */

	uint64_t in_len = (uint64_t)(efi_payload_end - efi_payload);
	int64_t n = inflate_raw(efi_payload, in_len, (uint8_t *)base, PAYLOAD_SIZE);
	uint32_t crc = 0;
	/* Undo the packer's call/jump filter before the CRC, which is over the
	 * payload as linked (a short stream is unfiltered too, then refused). */
	bcj_decode((uint8_t *)base, PAYLOAD_SIZE);
	if (n != PAYLOAD_SIZE ||
	    bs->calculate_crc32((const void *)base, PAYLOAD_SIZE, &crc) != EFI_SUCCESS ||
	    crc != PAYLOAD_CRC32) {
		bs->free_pages(base, pages);
		return fail("image truncated or corrupt (payload does not inflate to what was built)",
			    EFI_CRC_ERROR);
	}

	/* The payload's EFI half returns only on an error (memory map, RSDP,
	 * command line), having said why; on success it never comes back. */
	s = ((efi_payload_main_fn)(uintptr_t)PAYLOAD_EFI_MAIN)(image, st);
	/* After a failed ExitBootServices only GetMemoryMap and ExitBootServices
	 * may be called: free nothing then (XCB_EFI_BS_GONE, efi.h). */
	if (s != XCB_EFI_BS_GONE)
		bs->free_pages(base, pages);
	return s;
}
