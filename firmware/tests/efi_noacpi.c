/* tests/efi_noacpi.c — a test harness, not part of the product: a tiny EFI
 * application (built as build/efi-noacpi.efi with xcbench.efi's own PE header)
 * that removes both ACPI RSDP entries from the EFI configuration table and
 * returns. Run from the UEFI shell before xcbench.efi, it gives the payload a
 * machine with no RSDP (tests/t-uefi-badinput.sh), which OVMF never is. */
#include "boot/efi/efi.h"

static const struct efi_guid acpi20 = { 0x8868e871, 0xe4f1, 0x11d3, { 0xbc, 0x22, 0x00, 0x80, 0xc7, 0x3c, 0x88, 0x81 } };
static const struct efi_guid acpi10 = { 0xeb9d2d30, 0x2d88, 0x11d3, { 0x9a, 0x16, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d } };

EFIAPI efi_status efi_stub_entry(efi_handle image, struct efi_system_table *st)
{
	(void)image;
	/* InstallConfigurationTable(guid, NULL) deletes that entry. */
	st->boot_services->install_configuration_table(&acpi20, 0);
	st->boot_services->install_configuration_table(&acpi10, 0);
	st->con_out->output_string(st->con_out, u"efi-noacpi: ACPI RSDP entries removed\r\n");
	return EFI_SUCCESS;
}
