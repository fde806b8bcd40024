#!/bin/bash
# timeout: 400
# libFuzzer on the wire-frame decoders, the serial text decoder and the
# collector's datagram handler with the store behind it (tests/fuzz/fuzz_frame.c):
# saved crash inputs replay cleanly, then a short fuzzing run (XCB_FUZZ_SECONDS,
# default 15) finds nothing.
exec "$(dirname "$0")/fuzz/run-one.sh" frame "${XCB_FUZZ_SECONDS:-15}"
