/*
 * bootnet.h — the networks a queued job may be rendered to (--boot-from
 * CIDR, bootnet.c): a boot request from elsewhere gets the default suite,
 * never a job (issue 26: a MAC is no credential).
 */
#ifndef XCB_BOOTNET_H
#define XCB_BOOTNET_H

#include <stddef.h>
#include <stdint.h>

/* Adds "A.B.C.D/LEN" (or a bare address, /32): 0, or -1 with why in err. */
int bootnet_add(const char *spec, char *err, size_t errlen);
/* With no --boot-from: the subnets of this host's non-loopback IPv4
 * interfaces (the lab subnet dnsmasq hands out), and 127.0.0.1/32 unless
 * lab is set (QEMU user networking's boots come from there). Call once at
 * start-up, after the options. */
void bootnet_default(int lab);
/* 1 if addr (network byte order) is in an allowed network. */
int bootnet_allows(uint32_t addr);
/* The allowed networks as "a/b, c/d" into out (for the start-up line). */
void bootnet_describe(char *out, size_t n);

#endif
