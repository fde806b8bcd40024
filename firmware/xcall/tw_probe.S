/* xcall/tw_probe.S — read one 64-bit word through the TLB test window when
 * the page may be NOT present (a PTE the flush layer cleared). A #PF on the
 * one instruction at tw_probe_insn is caught by platform_hw.c's #PF handler,
 * which resumes at tw_probe_done with RAX = 0 and records the fault; any other
 * #PF still crashes as usual. In assembly so the faulting instruction has one
 * known address (a C inline asm could be duplicated by the compiler).
 *
 *   uint64_t tw_probe(const volatile uint64_t *va);   (SysV: RDI -> RAX) */
	.section .text
	.code64
	.globl tw_probe, tw_probe_insn, tw_probe_done
tw_probe:
	xorl	%eax, %eax
tw_probe_insn:
	movq	(%rdi), %rax
tw_probe_done:
	ret
	.section .note.GNU-stack, "", @progbits
