#!/bin/bash
# timeout: 900
# The whole daemon under AddressSanitizer, UndefinedBehaviorSanitizer and
# LeakSanitizer, on SQLite and on PostgreSQL (tests/lib/san-daemon.sh:
# ingest from several senders, reads, CSV read-ahead, the job runner, the
# checkpointer and the stop, at once). The fuzzers (t-fuzz-*) run the
# decoders and the HTTP handlers under ASan one input at a time; this is the
# real paths under load, with every thread, and a stop that must free what
# it took: a memory error or undefined behaviour aborts the daemon, a leak
# at its exit makes the exit status 1, and the reports are counted in the log.
. "$(dirname "$0")/lib/tap.sh"
. "$ROOT/tests/lib/san-daemon.sh"
export ASAN_OPTIONS="detect_leaks=1 abort_on_error=0" UBSAN_OPTIONS="print_stacktrace=1"
SAN_NAME="ASan/UBSan/LSan" SAN_REPORT='ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:'
san_daemon_test asan
