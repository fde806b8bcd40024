# foundation.mk — host unit tests of the foundation's hardware-free code:
# command line + printf, MADT/FADT/RSDP parsing, APIC-ID topology decoding,
# CPU masks (atomic ones under ThreadSanitizer).
HOST_TESTS += test_cmdline test_madt test_topology
# bench/faults.c: the test keys, every one parsed there (test_fault_keys)
test_cmdline_SRCS := tests/test_cmdline.c lib/cmdline.c lib/cmdline_key.c lib/printf.c lib/string.c cmdline_keys.c ../proto/xcb_secret.c \
	bench/faults.c
test_cmdline_SAN := address,undefined
test_madt_SRCS := tests/test_madt.c arch/acpi_parse.c lib/printf.c lib/string.c
test_madt_SAN := address,undefined
test_topology_SRCS := tests/test_topology.c arch/topology.c
test_topology_SAN := address,undefined
HOST_TESTS += test_cpumask
test_cpumask_SRCS := tests/test_cpumask.c
test_cpumask_SAN := thread
test_cpumask_LIBS := -lpthread
