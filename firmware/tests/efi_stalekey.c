/* tests/efi_stalekey.c — a test harness, not part of the product: a tiny EFI
 * application (build/efi-stalekey.efi) that makes the next two
 * ExitBootServices calls fail with a stale memory map key, as real firmware
 * does when an event allocates memory between a loader's GetMemoryMap and
 * its ExitBootServices. It wraps the boot services' ExitBootServices: the
 * wrapper allocates a page (a real map change) the first two times, then
 * calls the firmware's own ExitBootServices, which refuses the now-stale key
 * by itself. Run from the UEFI shell before xcbench.efi (tests/
 * t-uefi-boot.sh), it proves the payload's map-again-and-retry loop. The
 * wrapper is copied into runtime-services memory because this image is
 * unloaded when it returns. */
#include "boot/efi/efi.h"

/* ms_abi: ExitBootServices(image = RCX, key = RDX). Its data, 2 KiB after
 * its start: [0] calls so far, [8] boot services, [16] the page it
 * allocates, [24] the firmware's ExitBootServices. */
extern const unsigned char stale_ebs[], stale_ebs_end[];
__asm__(".section .rodata.stale_ebs, \"a\"\n"
	"stale_ebs:\n"
	"	push %rbx\n"
	"	push %rsi\n"
	"	push %rdi\n"
	"	sub $32, %rsp\n"             /* shadow space; stack 16-byte aligned */
	"	mov %rcx, %rsi\n"
	"	mov %rdx, %rdi\n"
	"	lea stale_ebs+2048(%rip), %rbx\n"
	"	cmpq $2, (%rbx)\n"
	"	jae 1f\n"
	"	incq (%rbx)\n"
	"	mov 8(%rbx), %rax\n"
	"	xor %ecx, %ecx\n"            /* AllocateAnyPages */
	"	mov $4, %edx\n"              /* EfiBootServicesData */
	"	mov $1, %r8d\n"              /* one page */
	"	lea 16(%rbx), %r9\n"
	"	call *0x28(%rax)\n"          /* BootServices->AllocatePages */
	"1:	mov %rsi, %rcx\n"
	"	mov %rdi, %rdx\n"
	"	call *24(%rbx)\n"            /* the firmware's ExitBootServices */
	"	add $32, %rsp\n"
	"	pop %rdi\n"
	"	pop %rsi\n"
	"	pop %rbx\n"
	"	ret\n"
	"stale_ebs_end:\n"
	".previous\n");

EFIAPI efi_status efi_stub_entry(efi_handle image, struct efi_system_table *st)
{
	struct efi_boot_services *bs = st->boot_services;
	uint64_t page;
	(void)image;
	if (bs->allocate_pages(EFI_ALLOCATE_ANY, EFI_RT_CODE, 1, &page))
		return EFI_OUT_OF_RESOURCES;
	unsigned char *code = (unsigned char *)page;
	uint64_t *ctx = (uint64_t *)(page + 2048);
	for (const unsigned char *p = stale_ebs; p < stale_ebs_end; p++)
		*code++ = *p;
	ctx[0] = 0;
	ctx[1] = (uintptr_t)bs;
	ctx[3] = (uintptr_t)bs->exit_boot_services;
	bs->exit_boot_services = (void *)page;
	st->con_out->output_string(st->con_out, u"efi-stalekey: the next 2 ExitBootServices calls will see a stale key\r\n");
	return EFI_SUCCESS;
}
