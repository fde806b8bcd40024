/*
 * webcheck.c — whether --web holds the rendered dashboard (webcheck.h):
 * index.html opened as the static server would open it, so a directory of
 * that name or an unreadable file counts as none.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "webcheck.h"

int webcheck_unrendered(const char *dir)
{
	char path[4096];
	struct stat st;
	int fd, ok;

	if (access(dir, R_OK | X_OK))
		return 0;
	snprintf(path, sizeof(path), "%s/index.html", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 1;
	ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	close(fd);
	return !ok;
}
