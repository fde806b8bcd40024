# bench.mk - host unit tests of firmware/bench (statistics and histograms), included
# by firmware/Makefile, which turns HOST_TESTS entries into cmocka test binaries.
HOST_TESTS += test_stats
test_stats_SRCS := tests/test_stats.c bench/stats.c bench/histo.c
test_stats_SAN := address,undefined

# Suite expansion and CPU placement, over lib/cmdline (the real parser) and
# stand-in algorithm names.
HOST_TESTS += test_stats_suite
test_stats_suite_SRCS := tests/test_stats_suite.c bench/suite.c bench/placement.c xcall/registry.c bench/hello_algos.c \
	bench/strbuf.c lib/cmdline.c lib/cmdline_key.c lib/printf.c lib/string.c cmdline_keys.c ../proto/xcb_schema.c ../proto/xcb_secret.c \
	../proto/xcb_cpulist.c
test_stats_suite_SAN := address,undefined

# Frame numbering, fan-out and the serial transport, over recording transports;
# a CASE's x_cpus written short and sent whole or in pieces (casetext.c).
HOST_TESTS += test_stats_report
test_stats_report_SRCS := tests/test_stats_report.c bench/report.c bench/transport_serial.c \
	bench/histo.c bench/strbuf.c bench/casetext.c ../proto/xcb_proto.c ../proto/xcb_text.c \
	../proto/xcb_cpulist.c
test_stats_report_SAN := address,undefined

# The exactly-once ledger (layout and verdicts) and fairness over throughput.
HOST_TESTS += test_ledger
test_ledger_SRCS := tests/test_ledger.c bench/ledger.c bench/stats.c
test_ledger_SAN := address,undefined

# The console's end-of-run tables (bench/table.c) over hand-made summaries
# and stand-in algorithm names: rounding, a table only for what ran, and
# the count of skipped cases (the runner's and the plan's).
HOST_TESTS += test_table
test_table_SRCS := tests/test_table.c bench/table.c bench/suite.c bench/placement.c bench/stats.c xcall/registry.c \
	bench/hello_algos.c bench/strbuf.c lib/cmdline.c lib/cmdline_key.c lib/printf.c lib/string.c cmdline_keys.c \
	../proto/xcb_schema.c ../proto/xcb_secret.c ../proto/xcb_cpulist.c
test_table_SAN := address,undefined
