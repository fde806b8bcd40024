/* boot/trampoline.S — AP start-up code. Copied by smp.c to TRAMP_BASE
 * (0x8000, below 1 MiB as SIPI requires); an AP woken by INIT-SIPI-SIPI starts
 * here in real mode at 0800:0000, goes through protected mode into long mode
 * on the BSP's page tables (tramp_cr3), loads its stack (tramp_stack) and
 * jumps to tramp_entry (smp.c's ap_entry). The BSP fills the three variables
 * in the copy before each SIPI and starts one AP at a time. */
	.set TRAMP_BASE, 0x8000
#define T(x) ((x) - tramp_start + TRAMP_BASE)

	.section .rodata.trampoline, "a"
	.globl tramp_start, tramp_end, tramp_cr3, tramp_stack, tramp_entry
	.code16
tramp_start:
	cli
	cld
	xor	%ax, %ax
	mov	%ax, %ds
	lgdtl	T(tramp_gdtr)
	mov	%cr0, %eax
	or	$1, %eax
	mov	%eax, %cr0
	ljmpl	$0x08, $T(tramp32)

	.code32
tramp32:
	mov	$0x10, %ax
	mov	%ax, %ds
	mov	%ax, %es
	mov	%ax, %ss
	mov	%cr4, %eax
	or	$0x20, %eax             /* PAE */
	mov	%eax, %cr4
	mov	T(tramp_cr3), %eax
	mov	%eax, %cr3
	mov	$0xc0000080, %ecx       /* EFER.LME */
	rdmsr
	or	$0x100, %eax
	wrmsr
	mov	%cr0, %eax
	or	$0x80000000, %eax       /* PG */
	mov	%eax, %cr0
	ljmp	$0x18, $T(tramp64)

	.code64
tramp64:
	mov	$0x10, %eax
	mov	%eax, %ds
	mov	%eax, %es
	mov	%eax, %ss
	movq	T(tramp_stack), %rsp
	movq	T(tramp_entry), %rax
	jmp	*%rax

	.align 8
tramp_gdt:
	.quad 0
	.quad 0x00cf9a000000ffff        /* 0x08: 32-bit code */
	.quad 0x00cf92000000ffff        /* 0x10: data */
	.quad 0x00af9a000000ffff        /* 0x18: 64-bit code */
tramp_gdtr:
	.word 31
	.long T(tramp_gdt)
	.align 8
tramp_cr3:	.quad 0
tramp_stack:	.quad 0
tramp_entry:	.quad 0
tramp_end:

	.section .note.GNU-stack, "", @progbits
