#!/bin/bash
# timeout: 400
# libFuzzer on xcbenchd's HTTP request handling: routing, path segments, query
# arguments, JSON bodies, static paths, CSV streaming (tests/fuzz/fuzz_http.c):
# saved crash inputs replay cleanly, then a short fuzzing run (XCB_FUZZ_SECONDS,
# default 15) finds nothing — no crash, no 5xx, no invalid JSON, no file from
# outside web/, no database change from an unauthenticated write.
exec "$(dirname "$0")/fuzz/run-one.sh" http "${XCB_FUZZ_SECONDS:-15}"
