/* loader/loader.S — the multiboot v1 entry of the shipped image: inflates the
 * LZ4-compressed payload (build/payload.lz4, made by loader/lz4pack.py from
 * build/xcbench64.elf, its calls and jumps filtered first) to its link address and jumps to the payload's own
 * 32-bit _start with the loader's EAX/EBX (multiboot magic and info).
 * Exists only because the image must stay under 64 KiB. The ELF reserves the
 * payload's whole range [1 MiB, end of .bss) as a NOBITS segment, so boot
 * loaders place nothing (modules, multiboot info) there. */
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
	cld
	mov	%eax, saved_magic
	mov	%ebx, saved_mbi
	mov	$loader_stack_top, %esp
	mov	$payload_lz4, %esi
	mov	$payload_lz4_end, %ebx
	mov	$PAYLOAD_BASE, %edi

	/* LZ4 block: [token][literal-length bytes][literals][offset16][match-length bytes]... */
1:	cmp	%ebx, %esi
	jae	9f
	movzbl	(%esi), %edx            /* token, kept in edx */
	inc	%esi
	mov	%edx, %ecx
	shr	$4, %ecx                /* literal length */
	cmp	$15, %ecx
	jne	3f
2:	movzbl	(%esi), %eax
	inc	%esi
	add	%eax, %ecx
	cmp	$255, %eax
	je	2b
3:	rep movsb                       /* literals (never overlapping) */
	cmp	%ebx, %esi
	jae	9f                      /* the last sequence has no match */
	movzwl	(%esi), %eax            /* match offset */
	add	$2, %esi
	mov	%edx, %ecx
	and	$15, %ecx
	cmp	$15, %ecx
	jne	5f
4:	movzbl	(%esi), %edx
	inc	%esi
	add	%edx, %ecx
	cmp	$255, %edx
	je	4b
5:	add	$4, %ecx                /* minimum match */
	push	%esi
	mov	%edi, %esi
	sub	%eax, %esi
	/* Byte by byte: the match may overlap what it is producing. */
6:	movb	(%esi), %al
	movb	%al, (%edi)
	inc	%esi
	inc	%edi
	dec	%ecx
	jnz	6b
	pop	%esi
	jmp	1b

9:	/* Inflated size must be what the payload linked: else say so and stop. */
	cmp	$PAYLOAD_END, %edi
	jne	bad
	/* Undo the packer's call/jump filter (lz4pack.py bcj()): after every
	 * E8/E9 byte at image offset i, absolute -> rel32 = abs - (i + 5).
	 * ESI runs one past the opcode, so i + 5 = ESI - PAYLOAD_BASE + 4. */
	mov	$PAYLOAD_BASE, %esi
	mov	$(PAYLOAD_END - 4), %ebx	/* an opcode needs 4 bytes after it */
10:	cmp	%ebx, %esi
	jae	12f
	movb	(%esi), %al
	inc	%esi
	and	$0xfe, %al		/* E8 and E9 alike */
	cmp	$0xe8, %al
	jne	10b
	mov	(%esi), %eax
	sub	%esi, %eax
	add	$(PAYLOAD_BASE - 4), %eax
	mov	%eax, (%esi)
	add	$4, %esi
	jmp	10b
12:
	mov	saved_magic, %eax
	mov	saved_mbi, %ebx
	mov	$PAYLOAD_ENTRY, %ecx
	jmp	*%ecx

bad:	mov	$msg_bad, %esi
7:	lodsb
	test	%al, %al
	jz	8f
	mov	$0x3f8, %dx
	outb	%al, %dx
	jmp	7b
8:	mov	$0xf4, %dx
	mov	$1, %al
	outb	%al, %dx
	hlt
	jmp	8b

	.section .rodata
msg_bad:
	.asciz "xcbench: loader: payload inflated to the wrong size; image corrupt\n"
	.align 4
payload_lz4:
	.incbin PAYLOAD_LZ4
payload_lz4_end:

	.section .bss
	.align 4
saved_magic:	.long 0
saved_mbi:	.long 0
	.align 16
	.skip 1024
loader_stack_top:

	.section .note.GNU-stack, "", @progbits
