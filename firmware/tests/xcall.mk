# xcall.mk — host tests of the cross-call algorithms and TLB-shootdown logic
# (firmware/xcall, firmware/flush) over the pthread shim, under ThreadSanitizer.
# Every algorithm file in xcall/ is linked in by the glob (its XCALL_ALGO()
# entry puts it in the registry), so test_xcall checks a new one with no edit
# here: only the payload's platform (platform_hw.c) is left out.
XCALL_HOST_SRCS := $(filter-out xcall/platform_hw.c,$(sort $(wildcard xcall/*.c)))
HOST_TESTS += test_xcall
test_xcall_SRCS := tests/test_xcall.c $(XCALL_HOST_SRCS) $(sort $(wildcard flush/*.c)) bench/ledger.c ../proto/xcb_schema.c
test_xcall_SAN := thread
test_xcall_LIBS := -lpthread

# Injected faults (tests/faults/*.c, tests/t-xcall-faults.sh): test_xcall
# built with one algorithm replaced by a faulty copy (or extra ones added),
# under build/faults/ — not build/tests/, whose binaries must pass.
FAULT_BASE := tests/test_xcall.c $(sort $(wildcard flush/*.c)) bench/ledger.c ../proto/xcb_schema.c
FAULT_skip_forward := $(filter-out xcall/tree.c,$(XCALL_HOST_SRCS)) tests/faults/skip_forward.c
FAULT_run_twice := $(filter-out xcall/lockless.c,$(XCALL_HOST_SRCS)) tests/faults/run_twice.c
FAULT_pool_hog := $(XCALL_HOST_SRCS) tests/faults/pool_hog.c
FAULT_reserved_name := $(XCALL_HOST_SRCS) tests/faults/reserved_name.c
FAULT_ack_early := $(filter-out xcall/lockless.c,$(XCALL_HOST_SRCS)) tests/faults/ack_early.c
FAULT_no_desc := $(XCALL_HOST_SRCS) tests/faults/no_desc.c
FAULT_dup_name := $(XCALL_HOST_SRCS) tests/faults/dup_name.c
FAULT_no_checkin := $(filter-out xcall/locked.c,$(XCALL_HOST_SRCS)) tests/faults/no_checkin.c
FAULT_no_name := $(XCALL_HOST_SRCS) tests/faults/no_name.c
FAULT_relaxed_checkin := $(filter-out xcall/lockless.c,$(XCALL_HOST_SRCS)) tests/faults/relaxed_checkin.c
FAULTS := skip_forward run_twice pool_hog reserved_name ack_early no_desc dup_name no_checkin no_name relaxed_checkin
# Each source is compiled once under TSan into build/obj-tsan/ and every
# fault build is linked from those objects: compiling the same ~15 files
# nine times over was most of the test's time (~40 s of its 72 in CI).
tsan_objs = $(patsubst %.c,$(B)/obj-tsan/%.o,$(subst ../,,$(1)))
$(B)/obj-tsan/%.o: %.c
	@mkdir -p $(@D)
	@echo "  HOSTCC  $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -fsanitize=thread -MMD -MP -c -o $@ $<
$(B)/obj-tsan/proto/%.o: ../proto/%.c
	@mkdir -p $(@D)
	@echo "  HOSTCC  $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -fsanitize=thread -MMD -MP -c -o $@ $<
-include $(wildcard $(B)/obj-tsan/*/*.d $(B)/obj-tsan/*/*/*.d)
define FAULT_RULE
$(B)/faults/test_xcall_$(1): $$(call tsan_objs,$$(FAULT_BASE) $$(FAULT_$(1)))
	@mkdir -p $(B)/faults
	@echo "  LD      $$@"
	$(Q)$(HOST_CC) -fsanitize=thread -o $$@ $$^ -lcmocka -lpthread
endef
$(foreach f,$(FAULTS),$(eval $(call FAULT_RULE,$(f))))
faults: $(addprefix $(B)/faults/test_xcall_,$(FAULTS))
.PHONY: faults
