/*
 * webcheck.h — whether a --web directory holds the dashboard's rendered
 * pages. The repository's web/ holds their sources (web/pages/) and the
 * JS, but the served index.html, run.html, ... exist only once `make -C web`
 * (or the top-level `make all`) rendered them: a daemon built with `make -C
 * host` alone served no page, `/` answered the API's JSON "not found: /",
 * and nothing said why. The start-up warning and the 404 of a page both
 * say it in these words.
 */
#ifndef XCBD_WEBCHECK_H
#define XCBD_WEBCHECK_H

/* The build step that renders the pages, as a person types it. */
#define WEBCHECK_BUILD "make -C web (or make all at the repository's top)"

/* 1 when `dir` is there but has no readable index.html (the runs list,
 * the first page rendered): the pages were never rendered into it. 0 when
 * it has one, or when `dir` itself cannot be read (said on its own). */
int webcheck_unrendered(const char *dir);

#endif
