/*
 * fwcheck.c — checks a --firmware path at start-up the way a boot will use
 * it: opened and read (so a directory or an unreadable file is found even
 * where access(2) says yes, as it does for root), and its first bytes an ELF
 * header, since iPXE's `kernel` multiboots only that image.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fwcheck.h"

static const char elf_magic[4] = { 0x7f, 'E', 'L', 'F' };

/* What a boot gets where the file cannot be served (boot.c serve_file). */
#define FWCHECK_404 "machines that boot get 404 until it is there (make -C firmware)"

const char *fwcheck_problem(const char *path, char *buf, size_t n)
{
	unsigned char head[4];
	struct stat st;
	ssize_t got;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		snprintf(buf, n, "%s; %s", strerror(errno), FWCHECK_404);
		return buf;
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		snprintf(buf, n, "a directory, not the payload file (DIR/xcbench.elf); %s", FWCHECK_404);
		return buf;
	}
	got = read(fd, head, sizeof(head));
	int elf = got == (ssize_t)sizeof(head) && !memcmp(head, elf_magic, sizeof(head));

	if (got < 0)
		snprintf(buf, n, "cannot read it: %s; %s", strerror(errno), FWCHECK_404);
	else if (!elf)
		snprintf(buf, n, "not an ELF image (it does not start with 0x7f 'ELF'); machines that boot "
			 "are sent it, and iPXE cannot boot it");
	close(fd);
	return elf ? NULL : buf;
}
