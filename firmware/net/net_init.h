/* net/net_init.h — the network's start-up (net_init.c): transport_udp()
 * (declared with the transport interface, lib/transport.h) brings the NIC and
 * the UDP transport up; net_report_stats logs their counters. */
#ifndef NET_NET_INIT_H
#define NET_NET_INIT_H

#include "lib/transport.h"

/* Logs the NIC and transport counters (one line). */
void net_report_stats(void);

#endif
