# efi.mk — host unit test of the images' decoders (compress/inflate.c, the
# DEFLATE decoder of both images, and compress/bcj.c, the BIOS image's
# call/jump filter) against zlib's encoder and the payloads as built, under
# AddressSanitizer.
HOST_TESTS += test_inflate
test_inflate_SRCS := tests/test_inflate.c compress/inflate.c compress/bcj.c
test_inflate_SAN := address,undefined
test_inflate_LIBS := -lz
