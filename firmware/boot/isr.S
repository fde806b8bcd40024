/* boot/isr.S — the 256 interrupt entry stubs and the common path.
 * Exception stub v sits at isr_stubs + 16*v, interrupt stub v (>= 32) at
 * irq_stubs + 8*(v-32). Each leaves an error code (0, the CPU's, or for
 * interrupts the vector again) and the vector on the stack and jumps to
 * isr_common, which saves every general register into a struct irq_frame
 * (arch/idt.h) and calls idt_dispatch(frame). No EOI here: handlers call
 * apic_eoi() themselves. */
	.section .text
	.code64
	.globl isr_stubs, irq_stubs
	/* Exceptions: 32 stubs of 16 bytes, each pushes a zero error code where
	 * the CPU pushes none, then the vector. */
	.align 16
isr_stubs:
	.set vec, 0
	.rept 32
	.align 16
	/* Exceptions 8,10-14,17,21,29,30 push an error code; the rest do not. */
	.if (vec == 8) || (vec >= 10 && vec <= 14) || (vec == 17) || (vec == 21) || (vec == 29) || (vec == 30)
	.else
	pushq	$0
	.endif
	pushq	$vec
	jmp	isr_common
	.set vec, vec + 1
	.endr

	/* Interrupts 32-255: 224 stubs of 8 bytes (half the size of the above,
	 * the image is size-limited): push the vector as a sign-extended imm8
	 * into the error-code slot; irq_common copies it into the vector slot
	 * and masks it to 0-255. */
	.align 8
irq_stubs:
	.set vec, 32
	.rept 224
	.align 8
	.byte 0x6a, (vec & 0xff)        /* pushq $imm8 */
	jmp	irq_common
	.set vec, vec + 1
	.endr

irq_common:
	pushq	(%rsp)
	andq	$0xff, (%rsp)
	andq	$0xff, 8(%rsp)
	jmp	isr_common

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
