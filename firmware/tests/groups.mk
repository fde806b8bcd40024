# groups.mk — host test of how hierarchical algorithms cut targets into
# groups by topology (xcall/groups.c): pure, under ASan/UBSan.
HOST_TESTS += test_groups
test_groups_SRCS := tests/test_groups.c xcall/groups.c
test_groups_SAN := address,undefined
