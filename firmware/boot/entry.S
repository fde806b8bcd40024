/* boot/entry.S — multiboot v1 header and 32-bit entry: zero .bss, build an
 * identity map of the first 4 GiB with 2 MiB pages, enter long mode and call
 * kmain(magic, mbi). The image is linked as ELF64 and shipped as elf32-i386
 * (QEMU and iPXE only accept 32-bit multiboot ELFs). */
#include "boot/idmap.h"
#include "boot/longmode.h"
	.set MB_MAGIC, 0x1badb002
	.set MB_FLAGS, 0x00000003      /* page-align modules, want memory info */

	.section .multiboot, "a"
	.align 4
	.long MB_MAGIC
	.long MB_FLAGS
	.long -(MB_MAGIC + MB_FLAGS)

	.section .text.boot32, "ax"
	.code32
	.globl _start
_start:
	cli
	cld
	mov	%eax, %ebp              /* multiboot magic, kept in ebp */
	mov	%ebx, %esi              /* multiboot info, kept in esi */

	/* Zero .bss ourselves: the page tables below live there. */
	mov	$__bss_start, %edi
	mov	$__bss_end, %ecx
	sub	%edi, %ecx
	xor	%eax, %eax
	rep stosb
	mov	$boot_stack_top, %esp

	/* Long mode present? (CPUID 8000_0001h EDX bit 29) */
	mov	$0x80000000, %eax
	cpuid
	cmp	$0x80000001, %eax
	jb	no_long_mode
	mov	$0x80000001, %eax
	cpuid
	bt	$29, %edx
	jnc	no_long_mode

	BUILD_IDMAP %edi               /* boot/idmap.h */

	ENTER_LONG_MODE $boot_pml4, $0x80000001   /* boot/longmode.h; PG | PE */
	lgdt	boot_gdtr
	ljmp	$0x08, $start64

no_long_mode:
	mov	$msg_no_lm, %ebx
3:	movb	(%ebx), %al
	test	%al, %al
	jz	4f
	mov	$0x3f8, %dx
	outb	%al, %dx
	inc	%ebx
	jmp	3b
4:	mov	$0xf4, %dx
	mov	$2, %al
	outb	%al, %dx
5:	hlt
	jmp	5b

	.code64
	/* Also the UEFI path's way in (boot/efi/entry64.S jumps here). */
	.globl start64
start64:
	mov	$0x10, %eax
	mov	%eax, %ds
	mov	%eax, %es
	mov	%eax, %ss
	xor	%eax, %eax
	mov	%eax, %fs
	mov	%eax, %gs
	mov	$boot_stack_top, %rsp
	mov	%ebp, %edi              /* kmain(magic, mbi) */
	/* esi already holds the multiboot info address */
	call	kmain
6:	cli
	hlt
	jmp	6b

	.section .rodata
msg_no_lm:
	.asciz "xcbench: this CPU has no long mode (x86-64); halting\n"
	.align 8
	.globl boot_gdt                 /* also loaded by boot/efi/entry64.S */
boot_gdt:
	.quad 0
	.quad 0x00af9a000000ffff        /* 0x08: 64-bit code */
	.quad 0x00cf92000000ffff        /* 0x10: data */
boot_gdt_end:
boot_gdtr:
	.word boot_gdt_end - boot_gdt - 1
	.long boot_gdt

	.section .bss.pagetables, "aw", @nobits
	.align 4096
	.globl boot_pml4, boot_pdpt, boot_pd
boot_pml4:	.skip 4096
boot_pdpt:	.skip 4096
boot_pd:	.skip 4 * 4096

	.section .bss
	.align 16
	.globl boot_stack, boot_stack_top
boot_stack:	.skip 16384
boot_stack_top:

	.section .note.GNU-stack, "", @progbits
