# net.mk - host unit tests of firmware/net (packet codecs, the retransmit window,
# the IPv4 host and the UDP transport over a simulated NIC, virtio-net over a
# simulated virtio device), included by
# firmware/Makefile, which turns HOST_TESTS entries into cmocka test binaries.
HOST_TESTS += test_net_proto test_net_rtx test_net_stack
test_net_proto_SRCS := tests/test_net_proto.c net/eth.c net/arp.c net/ipv4.c net/udp.c net/dhcp.c
test_net_proto_SAN := address,undefined
test_net_rtx_SRCS := tests/test_net_rtx.c net/rtx.c
test_net_rtx_SAN := address,undefined
test_net_stack_SRCS := tests/test_net_stack.c tests/netenv_host.c net/stack.c net/udp_transport.c net/net_init.c \
	net/netdev.c net/rtx.c net/eth.c net/arp.c net/ipv4.c net/udp.c net/dhcp.c ../proto/xcb_proto.c
test_net_stack_SAN := address,undefined
# virtio-net and the virtio rings over a device simulated at the transport ops.
HOST_TESTS += test_net_virtio
test_net_virtio_SRCS := tests/test_net_virtio.c tests/netenv_host.c net/virtio_net.c net/virtio.c net/netdev.c
test_net_virtio_SAN := address,undefined
# e1000/e1000e/igb over a register file in memory.
HOST_TESTS += test_net_intel
test_net_intel_SRCS := tests/test_net_intel.c tests/netenv_host.c net/e1000.c net/igb.c net/intel_nic.c net/netdev.c
test_net_intel_SAN := address,undefined
# lib/hex.h: the digit table the drivers' device names and kprintf share.
HOST_TESTS += test_hex
test_hex_SRCS := tests/test_hex.c lib/printf.c lib/string.c
test_hex_SAN := address,undefined
