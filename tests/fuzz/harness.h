/*
 * harness.h — what both fuzz targets share: a throw-away xcbenchd "process"
 * (configuration, a temporary database with two known runs, the writer
 * thread, the HTTP handler over mhd_stub) set up once per fuzzer process.
 */
#ifndef FUZZ_HARNESS_H
#define FUZZ_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#define FUZZ_ADMIN_TOKEN "fuzz-admin-token"
/* Planted next to (not inside) the web root: no reply may ever contain it. */
#define FUZZ_SECRET "XCB-FUZZ-SECRET-4f1d2b"
#define FUZZ_TOKEN_A 0x00c0ffee00000001ull /* run 1: complete, 2 cases */
#define FUZZ_TOKEN_B 0x00c0ffee00000002ull /* run 2: crashed */

/* open: the daemon's --open flag. Exits the process on failure. */
void harness_init(int open);
/* Waits until the writer has committed everything queued so far. */
void harness_sync(void);

#endif
