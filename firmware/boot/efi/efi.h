/* boot/efi/efi.h — the few UEFI types the EFI entry uses (UEFI 2.x spec,
 * written from the spec's tables; only what we call). Every service is
 * ms_abi: the EFI calling convention is the Microsoft x64 one. The static
 * asserts pin the offsets the spec gives, so a missing slot fails the build. */
#ifndef XCB_BOOT_EFI_H
#define XCB_BOOT_EFI_H
#include <stddef.h>
#include <stdint.h>

#define EFIAPI __attribute__((ms_abi))
typedef uint64_t efi_status;
typedef void *efi_handle;
typedef uint16_t char16;

#define EFI_ERR(n) ((1ull << 63) | (n))
#define EFI_SUCCESS 0
#define EFI_LOAD_ERROR EFI_ERR(1)
#define EFI_INVALID_PARAMETER EFI_ERR(2)
#define EFI_UNSUPPORTED EFI_ERR(3)
#define EFI_BUFFER_TOO_SMALL EFI_ERR(5)
#define EFI_OUT_OF_RESOURCES EFI_ERR(9)
#define EFI_NOT_FOUND EFI_ERR(14)
#define EFI_ABORTED EFI_ERR(21)
#define EFI_CRC_ERROR EFI_ERR(27)

struct efi_guid {
	uint32_t a;
	uint16_t b, c;
	uint8_t d[8];
};

struct efi_table_header {
	uint64_t signature;
	uint32_t revision, header_size, crc32, reserved;
};

struct efi_text_out {
	void *reset;
	efi_status(EFIAPI *output_string)(struct efi_text_out *self, const char16 *s);
};

/* Memory types (EFI_MEMORY_TYPE) and allocation kinds. */
enum {
	EFI_RESERVED, EFI_LOADER_CODE, EFI_LOADER_DATA, EFI_BS_CODE, EFI_BS_DATA,
	EFI_RT_CODE, EFI_RT_DATA, EFI_CONVENTIONAL, EFI_UNUSABLE, EFI_ACPI_RECLAIM,
	EFI_ACPI_NVS, EFI_MMIO, EFI_MMIO_PORT, EFI_PAL_CODE, EFI_PERSISTENT,
};
enum { EFI_ALLOCATE_ANY, EFI_ALLOCATE_MAX_ADDRESS, EFI_ALLOCATE_ADDRESS };

struct efi_memory_descriptor {
	uint32_t type, pad;
	uint64_t phys_start, virt_start, npages, attribute;
};

struct efi_boot_services {
	struct efi_table_header hdr;
	void *raise_tpl, *restore_tpl;
	efi_status(EFIAPI *allocate_pages)(int kind, int type, uint64_t npages, uint64_t *addr);
	efi_status(EFIAPI *free_pages)(uint64_t addr, uint64_t npages);
	efi_status(EFIAPI *get_memory_map)(uint64_t *size, struct efi_memory_descriptor *map,
					   uint64_t *key, uint64_t *desc_size, uint32_t *desc_version);
	efi_status(EFIAPI *allocate_pool)(int type, uint64_t size, void **buf);
	efi_status(EFIAPI *free_pool)(void *buf);
	void *create_event, *set_timer, *wait_for_event, *signal_event, *close_event, *check_event;
	void *install_protocol, *reinstall_protocol, *uninstall_protocol;
	efi_status(EFIAPI *handle_protocol)(efi_handle h, const struct efi_guid *g, void **iface);
	void *reserved, *register_protocol_notify, *locate_handle, *locate_device_path;
	efi_status(EFIAPI *install_configuration_table)(const struct efi_guid *g, void *table);
	void *load_image, *start_image, *exit, *unload_image;
	efi_status(EFIAPI *exit_boot_services)(efi_handle image, uint64_t map_key);
	void *get_next_monotonic_count, *stall, *set_watchdog_timer;
	void *connect_controller, *disconnect_controller;
	void *open_protocol, *close_protocol, *open_protocol_information;
	void *protocols_per_handle, *locate_handle_buffer, *locate_protocol;
	void *install_multiple, *uninstall_multiple;
	efi_status(EFIAPI *calculate_crc32)(const void *data, uint64_t size, uint32_t *crc);
	void *copy_mem, *set_mem;
	efi_status(EFIAPI *create_event_ex)(uint32_t type, uint64_t tpl, void *notify, void *ctx,
					    const struct efi_guid *group, void **event);
};
_Static_assert(offsetof(struct efi_boot_services, allocate_pages) == 0x28, "AllocatePages");
_Static_assert(offsetof(struct efi_boot_services, handle_protocol) == 0x98, "HandleProtocol");
_Static_assert(offsetof(struct efi_boot_services, install_configuration_table) == 0xc0, "InstallConfigurationTable");
_Static_assert(offsetof(struct efi_boot_services, exit_boot_services) == 0xe8, "ExitBootServices");
_Static_assert(offsetof(struct efi_boot_services, calculate_crc32) == 0x158, "CalculateCrc32");
_Static_assert(offsetof(struct efi_boot_services, create_event_ex) == 0x170, "CreateEventEx");

struct efi_config_table {
	struct efi_guid guid;
	void *table;
};

struct efi_system_table {
	struct efi_table_header hdr;
	const char16 *firmware_vendor;
	uint32_t firmware_revision;
	efi_handle con_in_handle;
	void *con_in;
	efi_handle con_out_handle;
	struct efi_text_out *con_out;
	efi_handle std_err_handle;
	struct efi_text_out *std_err;
	void *runtime_services;
	struct efi_boot_services *boot_services;
	uint64_t nconfig;
	struct efi_config_table *config;
};
_Static_assert(offsetof(struct efi_system_table, con_out) == 64, "ConOut");
_Static_assert(offsetof(struct efi_system_table, boot_services) == 96, "BootServices");
_Static_assert(offsetof(struct efi_system_table, config) == 112, "ConfigurationTable");

struct efi_loaded_image {
	uint32_t revision;
	efi_handle parent, *system_table, device;
	void *file_path, *reserved;
	uint32_t load_options_size;
	const void *load_options;
	void *image_base;
	uint64_t image_size;
	uint32_t code_type, data_type;
	void *unload;
};
_Static_assert(offsetof(struct efi_loaded_image, load_options) == 56, "LoadOptions");

/* The stub's handover: the payload's EFI half, called at its link address. */
typedef efi_status (*efi_payload_main_fn)(efi_handle image, struct efi_system_table *st);
/* What efi_payload_main returns when ExitBootServices was tried and refused for
 * good: boot services may be half gone, so its caller (stub.c) must not call
 * them any more (no FreePages, no console) - only return. */
#define XCB_EFI_BS_GONE EFI_ABORTED

#endif
