/* boot/efi/main.c — the payload's EFI half: called by boot/efi/stub.c once the
 * payload sits at its link address, still under boot services. It gathers
 * what the BIOS path gets from multiboot (command line from LoadOptions,
 * memory map) plus what only UEFI has (the ACPI RSDP from the configuration
 * table, the firmware vendor), reserves the AP trampoline page, leaves the
 * firmware (ExitBootServices, retried while the map key goes stale) and
 * enters the same long-mode kernel as the BIOS path (boot/efi/entry64.S:
 * own page tables and GDT, then kmain; the IDT is kmain's). Nothing calls the
 * firmware after that. Any error before ExitBootServices is printed on COM1
 * and the EFI console and returned to the caller (iPXE, shell, boot manager)
 * as an EFI status: a UEFI machine never hangs on bad input. */
#include "arch/serial.h"
#include "arch/smp.h"	/* SMP_TRAMP_BASE */
#include "boot/bootinfo.h"
#include "boot/efi/efi.h"
#include "lib/cmdline.h"
#include "lib/printf.h"
#include "lib/string.h"


efi_status efi_payload_main(efi_handle image, struct efi_system_table *systab);
void efi_enter_kernel(uint32_t magic, uint32_t info) __attribute__((noreturn));

static const struct efi_guid loaded_image_guid = { 0x5b1b31a1, 0x9562, 0x11d2,
	{ 0x8e, 0x3f, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b } };
static const struct efi_guid acpi20_guid = { 0x8868e871, 0xe4f1, 0x11d3,
	{ 0xbc, 0x22, 0x00, 0x80, 0xc7, 0x3c, 0x88, 0x81 } };
static const struct efi_guid acpi10_guid = { 0xeb9d2d30, 0x2d88, 0x11d3,
	{ 0x9a, 0x16, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d } };
/* iPXE installs its download protocol on the device handle of every image
 * it starts: that is how we know iPXE was the loader. */
static const struct efi_guid ipxe_download_guid = { 0x3eaeaebd, 0xdecf, 0x493b,
	{ 0x9b, 0xd1, 0xcd, 0xb2, 0xde, 0xca, 0xe7, 0x19 } };

/* What kmain reads (boot_info_parse copies it). In .data, not .bss, because
 * entry64.S zeroes .bss before kmain runs. */
static struct boot_info handover __attribute__((section(".data.efi_handover")));
static struct efi_system_table *st;
/* Read by convert_map() before entry64.S zeroes .bss: .bss is fine here.
 * 64 KiB: a big server's map (hundreds of 48-byte descriptors) fits. */
static unsigned char map_buf[65536] __attribute__((aligned(8)));

static void efi_console(const char *s, size_t len)
{
	serial_write(s, len);
	if (!st || !st->con_out)
		return;
	char16 buf[128];
	unsigned n = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\n')
			buf[n++] = '\r';
		buf[n++] = (char16)(uint8_t)s[i];
		if (n >= 120 || i + 1 == len) {
			buf[n] = 0;
			st->con_out->output_string(st->con_out, buf);
			n = 0;
		}
	}
}

static bool guid_eq(const struct efi_guid *a, const struct efi_guid *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* UCS-2 → ASCII. Returns -1 on a character outside printable ASCII: LoadOptions
 * that are not a text command line (binary boot-option data) are refused
 * rather than guessed at. */
static int ucs2_to_ascii(const char16 *s, size_t n, char *out, size_t cap)
{
	size_t o = 0;
	for (size_t i = 0; i < n && s[i]; i++) {
		char16 c = s[i];
		if (c == '\t' || c == '\r' || c == '\n')
			c = ' ';
		if (c < 0x20 || c > 0x7e || o + 1 >= cap)
			return -1;
		out[o++] = (char)c;
	}
	out[o] = 0;
	return (int)o;
}

/* The last component of the last file-path node of a device path (media type 4,
 * subtype 4: UCS-2 "\\dir\\name.efi"), as ASCII; "" when there is none. */
static const char *image_file_name(const void *dp)
{
	static char name[128];
	const uint8_t *p = dp;

	name[0] = 0;
	for (unsigned guard = 0; p && guard < 64; guard++) {
		uint16_t len = (uint16_t)(p[2] | p[3] << 8);
		if (p[0] == 0x7f || len < 4)
			break;
		if (p[0] == 4 && p[1] == 4) {
			const char16 *u = (const char16 *)(p + 4);
			size_t n = (len - 4) / 2, o = 0;
			for (size_t i = 0; i < n && u[i]; i++) {
				if (u[i] == '\\' || u[i] == '/')
					o = 0;
				else if (u[i] >= 0x20 && u[i] <= 0x7e && o + 1 < sizeof(name))
					name[o++] = (char)u[i];
			}
			name[o] = 0;
		}
		p += len;
	}
	return name;
}

static efi_status fail(efi_status s, const char *msg)
{
	kprintf("xcbench: efi: error: %s (EFI status 0x%lx)\n", msg, (unsigned long)s);
	return s;
}

static uint32_t e820_type(uint32_t efi_type)
{
	switch (efi_type) {
	case EFI_LOADER_CODE: case EFI_LOADER_DATA: /* ours once boot services end */
	case EFI_BS_CODE: case EFI_BS_DATA: case EFI_CONVENTIONAL:
		return BOOT_MEM_USABLE;
	case EFI_ACPI_RECLAIM: return 3;
	case EFI_ACPI_NVS: return 4;
	case EFI_UNUSABLE: return 5;
	default: return 2; /* reserved: runtime services, MMIO, ... */
	}
}

/* The EFI map (many small entries) as boot_info ranges, neighbours of one
 * kind merged: boot_info holds BOOT_MEM_MAX. */
static void convert_map(uint64_t size, uint64_t dsize)
{
	for (uint64_t off = 0; off + dsize <= size; off += dsize) {
		const struct efi_memory_descriptor *d = (const void *)(map_buf + off);
		uint64_t base = d->phys_start, len = d->npages << 12;
		uint32_t type = e820_type(d->type);
		struct boot_mem_range *last = handover.nmem ? &handover.mem[handover.nmem - 1] : NULL;
		if (last && last->type == type && last->base + last->len == base)
			last->len += len;
		else if (handover.nmem < BOOT_MEM_MAX)
			handover.mem[handover.nmem++] = (struct boot_mem_range){ base, len, type };
		else
			continue;
		if (type == BOOT_MEM_USABLE)
			handover.usable_bytes += len;
	}
}

/* The trampoline page must be ours after ExitBootServices: allocated now, or
 * boot-services memory that the firmware gives up when we leave. */
static bool tramp_page_ok(uint64_t size, uint64_t dsize)
{
	for (uint64_t off = 0; off + dsize <= size; off += dsize) {
		const struct efi_memory_descriptor *d = (const void *)(map_buf + off);
		if (SMP_TRAMP_BASE >= d->phys_start && SMP_TRAMP_BASE < d->phys_start + (d->npages << 12))
			return e820_type(d->type) == BOOT_MEM_USABLE;
	}
	return false;
}

/* The kernel maps with 4-level paging: a firmware running with 5 (CR4.LA57)
 * is refused, before anything is changed. */
static efi_status check_paging(void)
{
	uint64_t cr4;
	__asm__ __volatile__("mov %%cr4, %0" : "=r"(cr4));
	if (cr4 & (1u << 12))
		return fail(EFI_UNSUPPORTED, "the firmware runs with 5-level paging (CR4.LA57); not supported");
	return EFI_SUCCESS;
}

/* The command line: iPXE and the shell pass "name key=value ...", OVMF's
 * -kernel just "key=value ...": detect the name rather than assume one
 * (assuming it dropped a first key unseen), and hand the payload the line
 * without it. Unknown keys: the BIOS path warns and boots; here returning to
 * the loader costs nothing, so a typo is an error the operator sees. */
static efi_status read_cmdline(const struct efi_loaded_image *li)
{
	if (ucs2_to_ascii(li->load_options, li->load_options ? li->load_options_size / 2 : 0,
			  handover.cmdline, sizeof(handover.cmdline)) < 0)
		return fail(EFI_INVALID_PARAMETER, "LoadOptions are not a text command line (UCS-2, printable ASCII, < 1 KiB)");
	size_t skip = cmdline_image_name_len(handover.cmdline, image_file_name(li->file_path));
	memmove(handover.cmdline, handover.cmdline + skip, strlen(handover.cmdline + skip) + 1);
	cmdline_init_noname(handover.cmdline);
	if (cmdline_check_keys())
		return fail(EFI_INVALID_PARAMETER, "unknown command-line key(s) above; firmware/cmdline_keys.c lists them");
	return EFI_SUCCESS;
}

/* What the machine report says about the firmware and the loader. */
static void firmware_facts(struct efi_boot_services *bs, const struct efi_loaded_image *li)
{
	handover.firmware = XCB_BOOT_UEFI;
	ucs2_to_ascii(st->firmware_vendor, sizeof(handover.fw_vendor) - 1, handover.fw_vendor,
		      sizeof(handover.fw_vendor));
	handover.fw_revision = st->firmware_revision;
	handover.uefi_revision = st->hdr.revision;
	void *dl;
	xcb_strlcpy(handover.loader,
		    bs->handle_protocol(li->device, &ipxe_download_guid, &dl) == EFI_SUCCESS ? "iPXE (EFI)"
											     : "UEFI direct",
		    sizeof(handover.loader));
}

/* The ACPI RSDP from the configuration table: 2.0 (XSDT) preferred, 1.0 as
 * a fallback; below 4 GiB, which the kernel maps. */
static efi_status find_rsdp(void)
{
	uint64_t rsdp10 = 0;
	for (uint64_t i = 0; i < st->nconfig; i++) {
		if (guid_eq(&st->config[i].guid, &acpi20_guid))
			handover.rsdp = (uintptr_t)st->config[i].table;
		else if (guid_eq(&st->config[i].guid, &acpi10_guid))
			rsdp10 = (uintptr_t)st->config[i].table;
	}
	if (!handover.rsdp)
		handover.rsdp = rsdp10;
	if (!handover.rsdp)
		return fail(EFI_NOT_FOUND, "no ACPI RSDP in the EFI configuration table (ACPI 2.0 or 1.0 GUID)");
	if (handover.rsdp >= (4ull << 30))
		return fail(EFI_UNSUPPORTED, "the ACPI RSDP lies above 4 GiB (the kernel maps 0-4 GiB)");
	return EFI_SUCCESS;
}

/* Reserve the AP trampoline page, then leave the firmware: map, then
 * ExitBootServices with its key. A key gone stale (an event allocated memory
 * in between) means: map again, exit again. After the first try only
 * GetMemoryMap and ExitBootServices may be called, so nothing here prints or
 * allocates; the map buffer is ours already. On success the map is in
 * map_buf (*size bytes of *dsize-byte descriptors), interrupts are off and
 * the firmware is gone. */
static efi_status leave_firmware(efi_handle image, struct efi_boot_services *bs, uint64_t *size,
				 uint64_t *dsize)
{
	uint64_t tramp = SMP_TRAMP_BASE, key = 0;
	bool tramp_allocated = bs->allocate_pages(EFI_ALLOCATE_ADDRESS, EFI_LOADER_DATA, 1, &tramp) == EFI_SUCCESS;
	uint32_t dver;
	efi_status s;
	int attempt;
	for (attempt = 0;; attempt++) {
		*size = sizeof(map_buf);
		s = bs->get_memory_map(size, (struct efi_memory_descriptor *)map_buf, &key, dsize, &dver);
		if (s && attempt == 0) {
			if (tramp_allocated)
				bs->free_pages(SMP_TRAMP_BASE, 1);
			return fail(s, "GetMemoryMap failed (a map larger than 64 KiB?)");
		}
		if (!s && attempt == 0 && !tramp_allocated && !tramp_page_ok(*size, *dsize))
			return fail(EFI_OUT_OF_RESOURCES, "the AP trampoline page 0x8000 is used by the firmware");
		if (!s && bs->exit_boot_services(image, key) == EFI_SUCCESS)
			break;
		if (attempt == 8) {
			/* Boot services may be half gone: COM1 only. */
			st = NULL;
			return fail(XCB_EFI_BS_GONE, "ExitBootServices kept refusing the memory map key");
		}
	}
	__asm__ __volatile__("cli");
	st = NULL; /* the firmware is gone: COM1 only from here */
	kprintf("xcbench: efi: ExitBootServices ok at attempt %d (map key stale %d times)\n", attempt + 1, attempt);
	return EFI_SUCCESS;
}

/* The EFI half in named steps: console, paging check, command line,
 * firmware facts, ACPI, leaving the firmware, then the kernel (memtest86+'s
 * efisetup does the same work in the same order). */
efi_status efi_payload_main(efi_handle image, struct efi_system_table *systab)
{
	struct efi_boot_services *bs = systab->boot_services;
	struct efi_loaded_image *li;
	uint64_t size = 0, dsize = 0;
	efi_status s;

	st = systab;
	serial_init(SERIAL_COM1);
	console_set_sink(efi_console);
	if ((s = check_paging()))
		return s;
	s = bs->handle_protocol(image, &loaded_image_guid, (void **)&li);
	if (s)
		return fail(s, "no LoadedImage protocol on our image handle");
	if ((s = read_cmdline(li)))
		return s;
	firmware_facts(bs, li);
	if ((s = find_rsdp()) || (s = leave_firmware(image, bs, &size, &dsize)))
		return s;
	convert_map(size, dsize);
	handover.magic = XCB_EFI_MAGIC;
	efi_enter_kernel(XCB_EFI_MAGIC, (uint32_t)(uintptr_t)&handover);
}
