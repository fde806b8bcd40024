/*
 * fwcheck.h — what is wrong with a --firmware path at the daemon's start,
 * in words, so a daemon that will answer every boot with 404 (or serve a
 * file iPXE cannot boot) says so once instead of starting without a word.
 */
#ifndef XCBD_FWCHECK_H
#define XCBD_FWCHECK_H

#include <stddef.h>

/* NULL when `path` is a readable regular file that starts as an ELF image
 * (the multiboot payload /firmware/xcbench.elf serves); else what is wrong
 * and what a booting machine then gets ("No such file or directory; machines
 * that boot get 404 ...", "a directory, not the payload file ...", "not an
 * ELF image ..."), written into buf. */
const char *fwcheck_problem(const char *path, char *buf, size_t n);

#endif
