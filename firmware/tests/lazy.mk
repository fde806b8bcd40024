# lazy.mk — host tests of the `sync` case's building blocks (flush/lazy.c,
# flush/rwlock.h) over the pthread shim, under ThreadSanitizer.
HOST_TESTS += test_lazy
test_lazy_SRCS := tests/test_lazy.c flush/lazy.c flush/rwlock.c xcall/platform_host.c
test_lazy_SAN := thread
test_lazy_LIBS := -lpthread
