/* loader/loader.S — the multiboot v1 entry of the shipped image (BIOS: QEMU
 * -kernel, iPXE's multiboot): sets up a stack, has loader/unpack.c put the
 * payload (build/payload.deflate: build/xcbench64.elf BCJ-filtered and
 * DEFLATE-compressed by compress/pack.py) at its link address, then jumps to
 * the payload's own 32-bit _start with the loader's EAX/EBX (multiboot magic
 * and info). Exists only because the image must stay under 64 KiB.
 *
 * Multiboot enters in 32-bit protected mode with paging off, and the
 * payload's _start wants exactly that state, so the whole loader stays in
 * it: the C half is built -m32 (firmware/Makefile LOADER_CFLAGS) rather than
 * entering long mode here and leaving it again. The ELF reserves the
 * payload's whole range [1 MiB, end of .bss) as a NOBITS segment
 * (loader/loader.ld), so boot loaders place nothing (modules, multiboot
 * info) there. */
	.set MB_MAGIC, 0x1badb002
	.set MB_FLAGS, 0x00000003

	.section .multiboot, "a"
	.align 4
	.long MB_MAGIC
	.long MB_FLAGS
	.long -(MB_MAGIC + MB_FLAGS)

	.section .text
	.code32
	.globl loader_start
loader_start:
	cli
	cld				/* the C ABI wants DF clear */
	/* Magic and info pointer in ESI/EDI: callee-saved in the i386 C ABI,
	 * so loader_unpack() hands them back untouched. */
	mov	%eax, %esi
	mov	%ebx, %edi
	mov	$loader_stack_top, %esp
	call	loader_unpack		/* 0: the payload is in place */
	test	%eax, %eax
	jnz	bad
	mov	%esi, %eax
	mov	%edi, %ebx
	mov	$PAYLOAD_ENTRY, %ecx
	jmp	*%ecx

	/* COM1 as the boot firmware left it, then QEMU's isa-debug-exit (status
	 * 3), else halt for good. */
bad:	mov	$msg_bad, %esi
1:	lodsb
	test	%al, %al
	jz	2f
	mov	$0x3f8, %dx
	outb	%al, %dx
	jmp	1b
2:	mov	$0xf4, %dx
	mov	$1, %al
	outb	%al, %dx
	hlt
	jmp	2b

	.section .rodata
msg_bad:
	.asciz "xcbench: loader: payload does not inflate to what was built; image corrupt\n"
	.globl payload_deflate, payload_deflate_end
payload_deflate:
	.incbin PAYLOAD_DATA
payload_deflate_end:

	.section .bss
	/* inflate_raw() keeps two Huffman tables and the code lengths on the
	 * stack: about 2.2 KiB deep (gcc -fstack-usage); 6 KiB for margin
	 * (.bss: costs the image no bytes). */
	.align 16
	.skip 6144
loader_stack_top:

	.section .note.GNU-stack, "", @progbits
