# xcall.mk — host tests of the cross-call algorithms and TLB-shootdown logic
# (firmware/xcall, firmware/flush) over the pthread shim, under ThreadSanitizer.
HOST_TESTS += test_xcall
test_xcall_SRCS := tests/test_xcall.c xcall/xcall.c xcall/locked.c xcall/lockless.c xcall/queued.c xcall/raw.c xcall/platform_host.c flush/flush.c bench/ledger.c ../proto/xcb_schema.c
test_xcall_SAN := thread
test_xcall_LIBS := -lpthread
