/*
 * algo_decl.c — a build tool (host): the linked payload's algorithm table
 * (build/xcbench64.elf: section xcall_algos, the XCALL_ALGO() entries) read
 * back, each entry judged by the functions the payload's init judges it by
 * (xcall/registry.c's xcall_decl_error and xcall_name_reserved), so that a
 * name outside [a-z0-9_], one past XCALL_NAME_MAX, a .desc missing, empty,
 * of two lines or past XCALL_DESC_MAX, a hand-written table without .init
 * or .call stop `make` (xcall/check_algos.sh --linked) instead of the boot
 * or test_xcall. Read from the linked image, not the sources: .name and
 * .desc are data, and a hand-written table's .name need not be the
 * identifier its symbols carry.
 *
 *   algo_decl ELF   one line per bad entry, "IDENT<TAB>NAME<TAB>reason"
 *                   (NAME: IDENT where the entry has none)
 *                   (IDENT: the entry's symbol xcall_entry_IDENT, which
 *                   check_algos.sh finds the object of); exit 1 if any,
 *                   2 if ELF is not a payload it can read.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xcall/xcall_internal.h"

/* registry.c walks the section xcall_algos: one stand-in so it exists. */
static const struct xcall_ops xcall_algo_decl_tool = { .name = "algo_decl_tool" };
XCALL_TABLE_ENTRY(algo_decl_tool);

/* The payload is x86-64 built by the same compiler from the same header:
 * its struct xcall_ops is this one, byte for byte. */
_Static_assert(sizeof(void *) == 8, "the payload's pointers are 8 bytes");

static unsigned char *img;
static size_t img_len;
static const Elf64_Shdr *sh;
static unsigned nsh;

/* The file bytes that hold n bytes at payload address va (an allocated
 * section with contents), or NULL. */
static const void *at(uint64_t va, size_t n)
{
	for (unsigned i = 0; i < nsh; i++)
		if ((sh[i].sh_flags & SHF_ALLOC) && sh[i].sh_type != SHT_NOBITS && va >= sh[i].sh_addr &&
		    va - sh[i].sh_addr + n <= sh[i].sh_size && sh[i].sh_offset + sh[i].sh_size <= img_len)
			return img + sh[i].sh_offset + (va - sh[i].sh_addr);
	return NULL;
}

/* The string at payload address va, copied into buf (at most n-1 bytes:
 * longer ones are cut, still longer than any limit); NULL for a NULL
 * pointer or one outside the image's data. */
static const char *str_at(uint64_t va, char *buf, size_t n)
{
	size_t i;

	if (!va)
		return NULL;
	for (i = 0; i + 1 < n; i++) {
		const char *c = at(va + i, 1);
		if (!c)
			return i ? buf : NULL;
		if (!(buf[i] = *c))
			return buf;
	}
	buf[i] = 0;
	return buf;
}

/* Reads ELF whole into img; 0, or -1 with why on stderr. */
static int load(const char *path)
{
	FILE *f = fopen(path, "rb");
	long len;

	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		perror(path);
		return -1;
	}
	img_len = (size_t)len;
	img = malloc(img_len ? img_len : 1);
	if (!img || fread(img, 1, img_len, f) != img_len) {
		fprintf(stderr, "%s: cannot read it\n", path);
		return -1;
	}
	fclose(f);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
	if (img_len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_machine != EM_X86_64 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > img_len) {
		fprintf(stderr, "%s: not an x86-64 ELF with section headers (the linked payload, build/xcbench64.elf)\n",
			path);
		return -1;
	}
	sh = (const Elf64_Shdr *)(img + eh->e_shoff);
	nsh = eh->e_shnum;
	return 0;
}

/* One entry, the pointer at va: its line if the payload's init would
 * refuse it; 1 if it did. */
static int judge(const char *ident, uint64_t va)
{
	const uint64_t *p = at(va, sizeof(*p));
	const void *raw = p ? at(*p, sizeof(struct xcall_ops)) : NULL;
	char name[256], desc[1024];
	struct xcall_ops o;
	const char *why;

	if (!raw) {
		printf("%s\t%s\tits table is not in the image's data: XCALL_TABLE_ENTRY(%s) needs a const struct xcall_ops xcall_%s\n",
		       ident, ident, ident, ident);
		return 1;
	}
	memcpy(&o, raw, sizeof(o));
	/* The payload's pointers mean nothing here: the strings are copied
	 * out, the functions only tested for NULL, never called. */
	uint64_t name_va = (uint64_t)(uintptr_t)o.name, desc_va = (uint64_t)(uintptr_t)o.desc;
	o.name = str_at(name_va, name, sizeof(name));
	o.desc = str_at(desc_va, desc, sizeof(desc));
	why = xcall_decl_error(&o);
	if (!why && o.name)
		why = xcall_name_reserved(o.name);
	if (!why)
		return 0;
	/* No name: the identifier stands in (an empty field between two tabs
	 * would vanish in the shell's read). */
	printf("%s\t%s\t%s\n", ident, o.name && *o.name ? o.name : ident, why);
	return 1;
}

int main(int argc, char **argv)
{
	int bad = 0, found = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s ELF (the linked payload, build/xcbench64.elf)\n", argv[0]);
		return 2;
	}
	if (load(argv[1]))
		return 2;
	for (unsigned i = 0; i < nsh; i++) {
		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= nsh || sh[i].sh_entsize != sizeof(Elf64_Sym) ||
		    sh[i].sh_offset + sh[i].sh_size > img_len)
			continue;
		const Elf64_Sym *sym = (const Elf64_Sym *)(img + sh[i].sh_offset);
		const Elf64_Shdr *strs = &sh[sh[i].sh_link];
		for (size_t k = 0; k < sh[i].sh_size / sizeof(*sym); k++) {
			if (sym[k].st_name >= strs->sh_size)
				continue;
			const char *s = (const char *)img + strs->sh_offset + sym[k].st_name;
			if (strncmp(s, "xcall_entry_", 12) || !memchr(s, 0, strs->sh_size - sym[k].st_name))
				continue;
			found++;
			bad |= judge(s + 12, sym[k].st_value);
		}
	}
	if (!found) {
		fprintf(stderr, "%s: no xcall_entry_ symbols (a payload linked without its algorithms, or stripped)\n",
			argv[1]);
		return 2;
	}
	return bad;
}
