/*
 * static.c — serves the dashboard from --web. The request path is resolved
 * with realpath() and must stay inside the web root: "..", symlinks out of
 * the tree, and NULs are refused with 404 (never 403: no information leak).
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "routes.h"
#include "xcbd.h"

static const char *mime(const char *path)
{
	static const char *const map[][2] = {
		{ ".html", "text/html; charset=utf-8" }, { ".js", "text/javascript; charset=utf-8" },
		{ ".mjs", "text/javascript; charset=utf-8" }, { ".css", "text/css; charset=utf-8" },
		{ ".json", "application/json" }, { ".svg", "image/svg+xml" }, { ".png", "image/png" },
		{ ".ico", "image/x-icon" }, { ".txt", "text/plain; charset=utf-8" },
		{ ".map", "application/json" }, { ".woff2", "font/woff2" },
	};
	const char *dot = strrchr(path, '.');

	for (size_t i = 0; dot && i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(dot, map[i][0]) == 0)
			return map[i][1];
	return "application/octet-stream";
}

enum MHD_Result static_file(struct req *rq)
{
	char root[PATH_MAX], want[PATH_MAX * 2], real[PATH_MAX];
	const char *url = rq->url;
	enum MHD_Result res;
	struct stat sb;
	size_t rl;

	if (!realpath(cfg.web_dir, root))
		return reply_error(rq, 404, "no dashboard installed (%s)", cfg.web_dir);
	if (url[0] != '/' || strstr(url, "..") || strlen(url) > 1024)
		return reply_error(rq, 404, "not found");
	snprintf(want, sizeof(want), "%s%s%s", root, url, url[strlen(url) - 1] == '/' ? "index.html" : "");
	if (!realpath(want, real))
		return reply_error(rq, 404, "not found: %s", url);
	rl = strlen(root);
	if (strncmp(real, root, rl) != 0 || (real[rl] != '/' && real[rl] != 0))
		return reply_error(rq, 404, "not found: %s", url);
	if (stat(real, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		strncat(real, "/index.html", sizeof(real) - strlen(real) - 1);
		if (stat(real, &sb))
			return reply_error(rq, 404, "not found: %s", url);
	}
	if (reply_file(rq, real, mime(real), &res))
		return res;
	return reply_error(rq, 404, "not found: %s", url);
}
