#!/bin/bash
# timeout: 900
# The whole daemon under ThreadSanitizer, on SQLite and on PostgreSQL
# (tests/lib/san-daemon.sh: ingest from several senders, reads, CSV
# read-ahead, the job runner, the checkpointer and the stop, at once). The
# unit tests cover parts (test_sqlite_ckpt_tsan); this is all the threads
# together. A data race or lock-order report fails it: TSan then exits the
# daemon with 66 (TSAN_OPTIONS), and its reports are counted in the log.
. "$(dirname "$0")/lib/tap.sh"
. "$ROOT/tests/lib/san-daemon.sh"
# exitcode: a report makes the exit status 66 instead of 0 (the daemon
# still runs on, so one test run shows every report); history_size: more of
# each thread's past kept, so a report names both accesses' stacks.
export TSAN_OPTIONS="halt_on_error=0 exitcode=66 history_size=4 second_deadlock_stack=1"
SAN_NAME=ThreadSanitizer SAN_REPORT='WARNING: ThreadSanitizer'
san_daemon_test tsan
