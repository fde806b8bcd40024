/* boot/isr.S — the 256 interrupt entry stubs and the common path.
 * Stub i sits at isr_stubs + 16*i: it pushes a zero error code (when the CPU
 * pushes none) and the vector, then jumps to isr_common, which saves every
 * general register into a struct irq_frame (arch/idt.h) and calls
 * idt_dispatch(frame). No EOI here: handlers call apic_eoi() themselves. */
	.section .text
	.code64
	.globl isr_stubs
	.align 16
isr_stubs:
	.set vec, 0
	.rept 256
	.align 16
	/* Exceptions 8,10-14,17,21,29,30 push an error code; the rest do not. */
	.if (vec == 8) || (vec >= 10 && vec <= 14) || (vec == 17) || (vec == 21) || (vec == 29) || (vec == 30)
	.else
	pushq	$0
	.endif
	.if vec < 128
	.byte 0x6a, vec                 /* pushq $imm8 */
	.else
	.byte 0x68                      /* pushq $imm32 */
	.long vec
	.endif
	jmp	isr_common
	.set vec, vec + 1
	.endr

isr_common:
	cld
	pushq	%rax
	pushq	%rbx
	pushq	%rcx
	pushq	%rdx
	pushq	%rsi
	pushq	%rdi
	pushq	%rbp
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	mov	%rsp, %rdi
	/* The CPU aligned RSP to 16 before pushing 5 qwords; with the 2 we push
	 * and 15 registers the frame is 22 qwords: RSP is 16-byte aligned here. */
	call	idt_dispatch
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rbp
	popq	%rdi
	popq	%rsi
	popq	%rdx
	popq	%rcx
	popq	%rbx
	popq	%rax
	add	$16, %rsp               /* vector and error code */
	iretq

	.section .note.GNU-stack, "", @progbits
