/*
 * lib/transport.h - how encoded protocol frames leave the payload: the interface
 * below both bench/ (which sends through it) and net/ (which implements one).
 *
 * The runner never knows where its results go: bench/report.c encodes each frame once
 * (proto/ encoders, sequence number, run token) and hands the same bytes to every
 * active transport (cmdline `transport=serial|udp|both`). A transport is a small ops
 * struct in the iPXE driver-ops style; its state hangs off ->priv.
 *
 *   serial (bench/transport_serial.c): "XCB1 <base64>" text lines on COM1, no ACKs,
 *                                      flush returns at once.
 *   udp    (net/, the network engineer): one frame per datagram, cumulative ACKs,
 *                                      retransmit with backoff until acknowledged.
 */
#ifndef XCB_LIB_TRANSPORT_H
#define XCB_LIB_TRANSPORT_H

/* The largest frame a transport must accept: one UDP datagram on a 1500-byte MTU. */
#define TRANSPORT_MAX_FRAME 1472u

struct transport {
	const char *name;
	/* Take one complete encoded frame (<= TRANSPORT_MAX_FRAME bytes). The bytes are
	 * the caller's and only valid during the call: copy what must be kept for a
	 * retransmit. May block, polling, while the unacked window is full - the runner
	 * pauses rather than drop. Returns 0, or <0 on a fatal error (the transport is
	 * then dropped by report.c, the others carry on). */
	int  (*send)(struct transport *t, const void *frame, unsigned len);
	/* RX, ACKs, retransmits; called often (between cases and repetitions, and while
	 * waiting). Must be cheap when there is nothing to do. May be NULL. */
	void (*poll)(struct transport *t);
	/* Block until every frame sent so far is acknowledged; timeout_ms 0 = forever.
	 * Returns 0 when all are acked, <0 on timeout or fatal error. */
	int  (*flush)(struct transport *t, unsigned timeout_ms);
	void *priv;
};

/* The serial transport (always available; COM1 is set up by arch/). */
struct transport *transport_serial(void);

/*
 * The UDP transport, implemented in net/ by the network engineer. Returns NULL when
 * no NIC came up (report.c then logs it and falls back to serial only). `cmdline`
 * lookups (server address, port, ...) are the implementation's own business.
 * report.c carries a weak fallback that returns NULL, so the payload links (serial
 * only) while net/ does not define it yet; net/'s strong definition replaces it.
 */
struct transport *transport_udp(void);

#endif /* XCB_LIB_TRANSPORT_H */
