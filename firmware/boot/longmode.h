/* boot/longmode.h — one assembler macro: from 32-bit protected mode into
 * long mode (compatibility mode until the far jump that follows it), the
 * same four steps for the BSP (boot/entry.S) and every AP
 * (boot/trampoline.S): CR4.PAE, CR3 = the PML4 (CR3SRC: an immediate or a
 * memory operand), EFER.LME, then CR0 |= CR0BITS (paging, plus PE where
 * protected mode is not on yet). Clobbers EAX, ECX, EDX. */
#ifndef XCB_BOOT_LONGMODE_H
#define XCB_BOOT_LONGMODE_H
.macro ENTER_LONG_MODE cr3src, cr0bits
	mov	%cr4, %eax
	or	$0x20, %eax             /* PAE */
	mov	%eax, %cr4
	mov	\cr3src, %eax
	mov	%eax, %cr3
	mov	$0xc0000080, %ecx       /* EFER.LME */
	rdmsr
	or	$0x100, %eax
	wrmsr
	mov	%cr0, %eax
	or	\cr0bits, %eax
	mov	%eax, %cr0
.endm
#endif
