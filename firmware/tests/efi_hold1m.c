/* tests/efi_hold1m.c — a test harness, not part of the product: a tiny EFI
 * application (build/efi-hold1m.efi) that allocates the page at 1 MiB (as
 * loader data, never freed) and returns, so that xcbench.efi, started next
 * from the UEFI shell, finds its payload's memory taken — what a firmware
 * that keeps something there looks like (tests/t-uefi-badinput.sh). */
#include "boot/efi/efi.h"

EFIAPI efi_status efi_stub_entry(efi_handle image, struct efi_system_table *st)
{
	uint64_t at = 0x100000;
	(void)image;
	efi_status s = st->boot_services->allocate_pages(EFI_ALLOCATE_ADDRESS, EFI_LOADER_DATA, 1, &at);
	st->con_out->output_string(st->con_out, s ? u"efi-hold1m: AllocatePages at 1 MiB failed\r\n"
						  : u"efi-hold1m: the page at 1 MiB is taken\r\n");
	return s;
}
