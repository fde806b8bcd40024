/* boot/efi/header.S — the PE32+ header of xcbench.efi, written out field by
 * field (PE/COFF spec, "Optional Header (Image Only)"), and the compressed
 * payload it carries. Layout, as boot/efi/stub.ld links it:
 *
 *   file 0x000 / RVA 0x0000   MZ stub, PE signature, COFF + optional header,
 *                             two section headers (this file, 512 bytes)
 *   file 0x200 / RVA 0x1000   .text: stub code, data, the payload (RWX: one
 *                             section keeps the image small; Secure Boot
 *                             is off for an unsigned image anyway)
 *   after it  / next page     .reloc: one empty block. The code needs no
 *                             fix-ups (position independent), but loaders
 *                             treat an image with no relocation directory
 *                             as fixed at ImageBase.
 *
 * The numbers the linker knows (RVAs, sizes) are absolute symbols from
 * stub.ld, resolved at link time: nothing here is relocated at run time. */
	.set IMAGE_BASE, 0x10000000          /* preferred only; we load anywhere */

	.section .efi.header, "a"
dos_header:
	.ascii	"MZ"
	.fill	0x3a, 1, 0                   /* the rest of the DOS header: unused */
	.long	pe_header - dos_header       /* e_lfanew */

pe_header:
	.ascii	"PE\0\0"
	/* COFF file header */
	.word	0x8664                       /* Machine: x86-64 */
	.word	2                            /* NumberOfSections */
	.long	0                            /* TimeDateStamp (reproducible) */
	.long	0, 0                         /* no COFF symbol table */
	.word	optional_end - optional_header
	.word	0x022e                       /* executable, line/local syms and
	                                      * debug stripped, large address aware;
	                                      * NOT relocs-stripped: load anywhere */
optional_header:
	.word	0x020b                       /* PE32+ */
	.byte	2, 40                        /* linker version: informational */
	.long	__efi_text_fsize             /* SizeOfCode */
	.long	0, 0                         /* SizeOf(Un)InitializedData */
	.long	__efi_entry_rva              /* AddressOfEntryPoint */
	.long	__efi_text_rva               /* BaseOfCode */
	.quad	IMAGE_BASE
	.long	0x1000                       /* SectionAlignment */
	.long	0x200                        /* FileAlignment */
	.word	0, 0, 0, 0, 0, 0             /* OS, image, subsystem versions */
	.long	0                            /* Win32VersionValue */
	.long	__efi_image_size             /* SizeOfImage */
	.long	0x200                        /* SizeOfHeaders */
	.long	0                            /* CheckSum (not checked for EFI) */
	.word	10                           /* Subsystem: EFI application */
	.word	0                            /* DllCharacteristics */
	.quad	0, 0, 0, 0                   /* stack/heap reserve/commit: unused */
	.long	0                            /* LoaderFlags */
	.long	6                            /* NumberOfRvaAndSizes */
	.quad	0, 0, 0, 0, 0                /* export, import, resource, exception, certificate */
	.long	__efi_reloc_rva, 10          /* base relocation table */
optional_end:

	/* Section table */
	.ascii	".text\0\0\0"
	.long	__efi_text_fsize             /* VirtualSize (no .bss: stub.ld) */
	.long	__efi_text_rva               /* VirtualAddress */
	.long	__efi_text_fsize             /* SizeOfRawData */
	.long	0x200                        /* PointerToRawData */
	.long	0, 0
	.word	0, 0
	.long	0xe0000060                   /* code, initialised data, RWX */

	.ascii	".reloc\0\0"
	.long	10
	.long	__efi_reloc_rva
	.long	0x200
	.long	__efi_reloc_foff
	.long	0, 0
	.word	0, 0
	.long	0x42000040                   /* initialised data, discardable, read */

	/* The one relocation block: page 0, 10 bytes, one ABSOLUTE (no-op) entry. */
	.section .efi.reloc, "a"
	.long	0, 10
	.word	0

	/* The payload, raw DEFLATE (build/payload-efi.deflate); test harnesses
	 * (firmware/tests/efi_*.c) reuse this header without one. */
#ifdef PAYLOAD_DATA
	.section .rodata.efi_payload, "a"
	.globl	efi_payload, efi_payload_end
	.hidden	efi_payload, efi_payload_end
efi_payload:
	.incbin	PAYLOAD_DATA
efi_payload_end:
#endif

	.section .note.GNU-stack, "", @progbits
