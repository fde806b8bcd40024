# efi.mk — host unit test of the UEFI stub's DEFLATE decoder (boot/efi/inflate.c)
# against zlib's encoder, under AddressSanitizer.
HOST_TESTS += test_inflate
test_inflate_SRCS := tests/test_inflate.c boot/efi/inflate.c
test_inflate_SAN := address,undefined
test_inflate_LIBS := -lz
