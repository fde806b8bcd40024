/* boot/bootinfo.h — what the boot loader told us, copied out of the multiboot
 * info structure first thing (before anything may overwrite low memory). */
#ifndef XCB_BOOT_BOOTINFO_H
#define XCB_BOOT_BOOTINFO_H
#include <stdint.h>
#include "arch/mem.h"	/* struct boot_mem_range: the map main.c hands mem_init */
#include "xcb_schema.h"	/* enum xcb_boot */

#define MULTIBOOT_BOOTLOADER_MAGIC 0x2badb002u
/* boot/efi/main.c's handover: EBX points at a ready struct boot_info. */
#define XCB_EFI_MAGIC 0x58434245u /* "XCBE" */
#define BOOT_MEM_MAX 64

struct boot_info {
	uint32_t magic;
	char cmdline[1024];
	char loader[64];
	unsigned nmem;
	struct boot_mem_range mem[BOOT_MEM_MAX];
	uint64_t usable_bytes;
	/* Boot firmware: enum xcb_boot (proto/xcb_schema.h), the one answer to
	 * "booted by UEFI?", set by the entry path that ran (multiboot: BIOS; the
	 * EFI handover: UEFI, with the system table's vendor and revisions), -1
	 * when neither did; rsdp from the EFI configuration table (0: scan). */
	int firmware;
	char fw_vendor[48];
	uint32_t fw_revision, uefi_revision;
	uint64_t rsdp;
};

extern struct boot_info boot_info;
/* Copies from the multiboot info at physical address mbi, or the EFI
 * handover (magic XCB_EFI_MAGIC). */
void boot_info_parse(uint32_t magic, uint32_t mbi);


#endif
