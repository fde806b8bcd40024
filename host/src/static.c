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
#include "webcheck.h"
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

/* A page's path: `/`, a directory's, or an .html file. */
static int is_page(const char *url)
{
	size_t n = strlen(url);

	return url[n - 1] == '/' || (n > 5 && strcmp(url + n - 5, ".html") == 0);
}

/* The HTML-escaped text of the requester's path (at most 300 bytes). */
static void add_escaped(struct buf *b, const char *url)
{
	for (const char *c = url; *c && c - url < 300; c++) {
		switch (*c) {
		case '<': buf_addf(b, "&lt;"); break;
		case '>': buf_addf(b, "&gt;"); break;
		case '&': buf_addf(b, "&amp;"); break;
		case '"': buf_addf(b, "&quot;"); break;
		case '\'': buf_addf(b, "&#39;"); break;
		default: buf_addf(b, "%c", *c);
		}
	}
}

/* A page asked of a --web that has none rendered (webcheck.h): the API's
 * JSON "not found: /" named no cause, and the generic page below sent a
 * browser to the runs list, itself not there. Said to a person whatever
 * the Accept: HTML to a browser, plain text to curl and the like. */
static enum MHD_Result unrendered(struct req *rq, const char *url, const char *accept)
{
	struct buf b = { 0 };

	if (!accept || !strstr(accept, "text/html")) {
		buf_addf(&b, "404 not found: %.300s\nThis xcbenchd's dashboard pages are not rendered: its --web directory "
			 "(%s) has no index.html.\nBuild them with %s; the daemon serves them as soon as they are there.\n"
			 "The API is under /api/v1/ (host/API.md).\n", url, cfg.web_dir, WEBCHECK_BUILD);
		return reply_buf(rq, 404, "text/plain; charset=utf-8", &b);
	}
	buf_addf(&b, "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Dashboard not built - xcbench"
		 "</title></head><body style=\"font-family: sans-serif; margin: 2em\"><h1>The dashboard is not built</h1>"
		 "<p>This xcbenchd has no page at <code>");
	add_escaped(&b, url);
	buf_addf(&b, "</code>: its <code>--web</code> directory (<code>");
	add_escaped(&b, cfg.web_dir);
	buf_addf(&b, "</code>) has no <code>index.html</code>, the pages were never rendered.</p>"
		 "<p>Build them with <code>%s</code>, then reload: the daemon serves them as soon as they are there.</p>"
		 "<p>The API is under <code>/api/v1/</code> (host/API.md).</p></body></html>\n", WEBCHECK_BUILD);
	return reply_buf(rq, 404, "text/html; charset=utf-8", &b);
}

/* A 404 for a path under the dashboard: to a browser (Accept names
 * text/html: a link followed, a URL typed) a page that says what is
 * missing and where the dashboard is; it showed the API's JSON error raw.
 * To anything else the JSON error, as every route's. The path is written
 * HTML-escaped: it is the requester's text. */
static enum MHD_Result not_found(struct req *rq, const char *url)
{
	const char *accept = MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
	struct buf b = { 0 };

	if (is_page(url) && webcheck_unrendered(cfg.web_dir))
		return unrendered(rq, url, accept);
	if (!accept || !strstr(accept, "text/html"))
		return reply_error(rq, 404, "not found: %s", url);
	buf_addf(&b, "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Not found - xcbench</title>"
		 "</head><body style=\"font-family: sans-serif; margin: 2em\"><h1>Not found</h1><p>This xcbenchd has no page at <code>");
	add_escaped(&b, url);
	buf_addf(&b, "</code>.</p><p>The dashboard starts at <a href=\"/\">the runs list</a>; "
		 "its API is under <code>/api/v1/</code> (host/API.md).</p></body></html>\n");
	return reply_buf(rq, 404, "text/html; charset=utf-8", &b);
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
		return not_found(rq, url);
	rl = strlen(root);
	if (strncmp(real, root, rl) != 0 || (real[rl] != '/' && real[rl] != 0))
		return not_found(rq, url);
	if (stat(real, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		strncat(real, "/index.html", sizeof(real) - strlen(real) - 1);
		if (stat(real, &sb))
			return not_found(rq, url);
	}
	if (reply_file(rq, real, mime(real), &res))
		return res;
	return not_found(rq, url);
}
