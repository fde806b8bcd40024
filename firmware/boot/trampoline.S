/* boot/trampoline.S — AP start-up code. Copied by smp.c to TRAMP_BASE
 * (0x8000, below 1 MiB as SIPI requires); an AP woken by INIT-SIPI-SIPI starts
 * here in real mode at 0800:0000, goes through protected mode into long mode
 * on the BSP's page tables (tramp_cr3), claims its stack (tramp_stack) and
 * jumps to tramp_entry (smp.c's ap_entry) with %rdi = the hand-off record
 * just above that stack's top. The BSP fills the variables in the copy before
 * each SIPI and starts one AP at a time.
 *
 * Each offer names the APIC ID it is for (tramp_apic): an AP compares its
 * own ID (CPUID, valid in any APIC mode) and parks (cli; hlt, until its own
 * INIT) when the offer is not its own. That matters on machines with more
 * than 255 CPUs: an AP still in xAPIC mode answers a start-up IPI for the
 * ID it aliases in 8 bits (QEMU wakes x2APIC ID 258 with the IPI for 2, and
 * everyone with the one for 255), and must not take that CPU's place.
 * The claim itself is an atomic exchange with 0: one stack goes to one AP.
 * An AP that arrives late, after the BSP revoked its offer, finds 0 and
 * parks, so it can never run on a stack or a CPU number meant for someone
 * else. The BSP offers a stack only after its INIT to that AP (smp.c
 * start_ap): a stray run of the AP itself, woken early by such an alias, is
 * stopped by that INIT before the offer exists, never halfway through its
 * setup. */
#include "boot/longmode.h"
	.set TRAMP_BASE, 0x8000
#define T(x) ((x) - tramp_start + TRAMP_BASE)

	.section .rodata.trampoline, "a"
	.globl tramp_start, tramp_end, tramp_cr3, tramp_stack, tramp_entry, tramp_apic
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
	ENTER_LONG_MODE T(tramp_cr3), $0x80000000   /* boot/longmode.h; PG */
	ljmp	$0x18, $T(tramp64)

	.code64
tramp64:
	mov	$0x10, %eax
	mov	%eax, %ds
	mov	%eax, %es
	mov	%eax, %ss
	/* Our APIC ID: CPUID.0BH:EDX (the x2APIC ID) where leaf 0xb exists,
	 * else CPUID.1:EBX[31:24]. */
	xorl	%eax, %eax
	cpuid
	cmpl	$0xb, %eax
	jb	1f
	movl	$0xb, %eax
	xorl	%ecx, %ecx
	cpuid
	testl	%ebx, %ebx              /* EBX = 0: leaf 0xb not implemented */
	jz	1f
	movl	%edx, %esi
	jmp	2f
1:	movl	$1, %eax
	cpuid
	shrl	$24, %ebx
	movl	%ebx, %esi
2:	cmpl	T(tramp_apic), %esi     /* acquire (x86 loads): pairs with smp.c's publish */
	jne	tramp_park
	xorl	%eax, %eax
	xchgq	%rax, T(tramp_stack)    /* locked: pairs with smp.c's revoke */
	testq	%rax, %rax
	jz	tramp_park
	movq	%rax, %rsp
	leaq	8(%rsp), %rdi           /* the record sits above the entry RSP */
	movq	T(tramp_entry), %rax
	jmp	*%rax
tramp_park:
	cli
	hlt
	jmp	tramp_park

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
tramp_apic:	.long 0xffffffff            /* the APIC ID the offer is for */
	.align 8
tramp_cr3:	.quad 0
tramp_stack:	.quad 0
tramp_entry:	.quad 0
tramp_end:

	.section .note.GNU-stack, "", @progbits
