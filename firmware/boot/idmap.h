/* boot/idmap.h — one assembler macro, the boot page tables: PML4[0] -> PDPT,
 * PDPT[0..3] -> four page directories, 2048 x 2 MiB identity-mapping 0-4 GiB.
 * Shared by the BIOS entry (boot/entry.S, 32-bit protected mode) and the UEFI
 * entry (boot/efi/entry64.S, long mode): only 32-bit stores, so the same
 * instructions assemble in both modes; the tables sit in .bss, zeroed just
 * before, so the high halves are already 0. PTR is the pointer register
 * (%edi or %rdi); clobbers EAX, ECX and PTR. */
#ifndef XCB_BOOT_IDMAP_H
#define XCB_BOOT_IDMAP_H
.macro BUILD_IDMAP ptr
	mov	$boot_pdpt + 3, %eax            /* present, writable */
	mov	%eax, boot_pml4
	mov	$boot_pd + 3, %eax
	mov	$boot_pdpt, %edi
	mov	$4, %ecx
1:	mov	%eax, (\ptr)
	add	$4096, %eax
	add	$8, \ptr
	loop	1b
	mov	$boot_pd, %edi
	mov	$0x83, %eax                     /* present, writable, 2 MiB */
	mov	$2048, %ecx
2:	mov	%eax, (\ptr)
	add	$0x200000, %eax
	add	$8, \ptr
	loop	2b
.endm
#endif
