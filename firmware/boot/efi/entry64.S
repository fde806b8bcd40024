/* boot/efi/entry64.S — the UEFI path into the kernel, after ExitBootServices.
 * The BIOS path reaches start64 (boot/entry.S) from 32-bit protected mode;
 * UEFI hands us long mode already, on the firmware's page tables and GDT.
 * So, from 64-bit code running at its link address (identity-mapped by the
 * firmware as by us): zero .bss, build the same 0-4 GiB identity map with
 * 2 MiB pages that entry.S builds, switch CR3 to it (this code is mapped the
 * same in both, so the switch is seamless), load our GDT, reload CS, and
 * continue at start64 with EBP = magic, ESI = boot info, as entry.S does.
 *
 * C prototype (boot/efi/main.c): efi_enter_kernel(magic, info), noreturn;
 * interrupts are already off. */
#include "boot/idmap.h"
	.section .text.efi_entry64, "ax"
	.code64
	.globl efi_enter_kernel
efi_enter_kernel:
	cli
	cld
	mov	%edi, %ebp              /* magic: start64 hands EBP to kmain */
	/* ESI (the boot info, below 4 GiB) is left alone: rep stosb uses
	 * EDI/ECX/EAX only. The stack is still the firmware's, outside .bss. */
	mov	$__bss_start, %edi
	mov	$__bss_end, %ecx
	sub	%edi, %ecx
	xor	%eax, %eax
	rep stosb

	BUILD_IDMAP %rdi               /* boot/idmap.h: the same tables as entry.S */

	mov	$boot_pml4, %eax
	mov	%rax, %cr3
	/* CET: firmware may leave supervisor shadow stacks on (CR4.CET, bit 23,
	 * with IA32_S_CET.SH_STK_EN). The lretq below would then pop a return
	 * the shadow stack never saw (#CP), and the kernel keeps no shadow
	 * stack: turn CET off first. CR4.CET can be set only where CET exists,
	 * so the MSR write is safe exactly when the bit is on. */
	mov	%cr4, %rax
	bt	$23, %rax
	jnc	1f
	mov	%esi, %r8d              /* wrmsr takes ECX/EDX:EAX; keep the info */
	mov	$0x6a2, %ecx            /* IA32_S_CET */
	xor	%eax, %eax
	xor	%edx, %edx
	wrmsr
	mov	%cr4, %rax
	btr	$23, %rax
	mov	%rax, %cr4
	mov	%r8d, %esi
1:
	lgdt	efi_gdtr
	/* Far return to reload CS with our 64-bit code selector. */
	pushq	$0x08
	pushq	$start64
	lretq

	.section .rodata.efi_entry64, "a"
	.align 8
efi_gdtr:             /* entry.S's GDT (null, 0x08 code64, 0x10 data), 64-bit form */
	.word 3 * 8 - 1
	.quad boot_gdt

	.section .note.GNU-stack, "", @progbits
