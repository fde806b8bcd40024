# xcall.mk — host tests of the cross-call algorithms and TLB-shootdown logic
# (firmware/xcall, firmware/flush) over the pthread shim, under ThreadSanitizer.
# Every algorithm file in xcall/ is linked in by the glob (its XCALL_ALGO()
# entry puts it in the registry), so test_xcall checks a new one with no edit
# here: only the payload's platform (platform_hw.c) is left out.
XCALL_HOST_SRCS := $(filter-out xcall/platform_hw.c,$(sort $(wildcard xcall/*.c)))
HOST_TESTS += test_xcall
test_xcall_SRCS := tests/test_xcall.c $(XCALL_HOST_SRCS) flush/flush.c bench/ledger.c ../proto/xcb_schema.c
test_xcall_SAN := thread
test_xcall_LIBS := -lpthread
