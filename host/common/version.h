/*
 * version.h — what names this build: the release (the one definition of
 * the version /api/v1/health, --version and the daemon's start line show)
 * and the tree it was built from (xcb_build_rev, written at build time by
 * host/gen-build-rev.sh into build/gen/build_rev.c, linked into xcbenchd
 * and xcbench). Two builds of one release differ by their rev, which is
 * what a bug report needs.
 */
#ifndef XCB_VERSION_H
#define XCB_VERSION_H

#define XCBENCH_RELEASE "0.1.0"

/* `git describe --always --dirty` of the tree built, or "unknown". */
extern const char xcb_build_rev[];

#endif
