/* boot/bootinfo.c — copy the multiboot v1 info (cmdline, memory map, loader
 * name) into boot_info; the UEFI path (boot/efi/main.c) hands a ready one. */
#include "boot/bootinfo.h"
#include "lib/string.h"

struct boot_info boot_info = { .firmware = -1 };

struct mb_info {
	uint32_t flags, mem_lower, mem_upper, boot_device, cmdline, mods_count, mods_addr;
	uint32_t syms[4];
	uint32_t mmap_length, mmap_addr;
	uint32_t drives_length, drives_addr, config_table, boot_loader_name;
} __attribute__((packed));

struct mb_mmap {
	uint32_t size;
	uint64_t base, len;
	uint32_t type;
} __attribute__((packed));

static void add_range(uint64_t base, uint64_t len, uint32_t type)
{
	if (boot_info.nmem >= BOOT_MEM_MAX || !len)
		return;
	boot_info.mem[boot_info.nmem++] = (struct boot_mem_range){ base, len, type };
	if (type == BOOT_MEM_USABLE)
		boot_info.usable_bytes += len;
}

void boot_info_parse(uint32_t magic, uint32_t mbi)
{
	if (magic == XCB_EFI_MAGIC && mbi) {
		boot_info = *(const struct boot_info *)(uintptr_t)mbi;
		return;
	}
	boot_info.magic = magic;
	if (magic != MULTIBOOT_BOOTLOADER_MAGIC || !mbi)
		return;
	boot_info.firmware = XCB_BOOT_BIOS;
	const struct mb_info *mb = (const struct mb_info *)(uintptr_t)mbi;
	if ((mb->flags & (1u << 2)) && mb->cmdline)
		xcb_strlcpy(boot_info.cmdline, (const char *)(uintptr_t)mb->cmdline, sizeof(boot_info.cmdline));
	if ((mb->flags & (1u << 9)) && mb->boot_loader_name)
		xcb_strlcpy(boot_info.loader, (const char *)(uintptr_t)mb->boot_loader_name,
			    sizeof(boot_info.loader));
	if (mb->flags & (1u << 6)) {
		uint32_t off = 0;
		while (off + sizeof(struct mb_mmap) <= mb->mmap_length + 0u) {
			const struct mb_mmap *e = (const struct mb_mmap *)(uintptr_t)(mb->mmap_addr + off);
			add_range(e->base, e->len, e->type);
			off += e->size + 4;
			if (e->size == 0)
				break; /* malformed: avoid looping forever */
		}
	} else if (mb->flags & 1u) {
		add_range(0, (uint64_t)mb->mem_lower << 10, BOOT_MEM_USABLE);
		add_range(1u << 20, (uint64_t)mb->mem_upper << 10, BOOT_MEM_USABLE);
	}
}
