/*
 * report.h - the results stream: every frame the payload emits goes through here.
 * report.c numbers frames (one seq space per run), encodes them with the proto/
 * encoders under the run token, and hands the same bytes to every active transport
 * (cmdline `transport=serial|udp|both`; serial stands in when udp has no NIC).
 *
 * Safe from any CPU (a spinlock serialises seq assignment and sending, so seq order is
 * send order); the crash hook uses report_error_emergency(), which gives up on the lock
 * after a bounded wait rather than deadlock on a CPU that died holding it.
 */
#ifndef XCB_BENCH_REPORT_H
#define XCB_BENCH_REPORT_H

#include <stdint.h>
#include "xcb_proto.h"

struct histo;
struct transport;

/*
 * Choose transports from `spec` ("serial", "udp", "both"; NULL = "serial") and
 * set the run token (`run` = 16 hex digits, else made up from the TSC). Returns the
 * number of active transports (>= 1: serial is the fallback when udp is unavailable).
 */
int report_init(const char *spec, const char *run, uint64_t entropy);
uint64_t report_token(void);
const char *report_transport_names(void);	/* e.g. "serial" or "udp+serial" */

/* Text frames; text longer than one frame is split at line ends (HELLO, CASE) or cut
 * (LOG, ERROR: the console keeps the full text). */
void report_text(enum xcb_type type, const char *text, unsigned len);
void report_log(const char *line);		/* LOG frame + console line */
void report_error(const char *text);		/* ERROR frame + console text */
void report_error_emergency(const char *text);	/* from exception context */
/* Emergency reports completely sent (so CPU 0 can wait for a crashing CPU's report
 * before it ends the run). */
uint32_t report_emergencies(void);

void report_result(const struct xcb_result *r);
void report_histo(uint32_t case_id, uint16_t rep, uint16_t initiator, const struct histo *h);
void report_samples(uint32_t case_id, uint16_t rep, uint16_t initiator,
		    const uint64_t *v, uint32_t n);
/* DONE; then flushes every transport (waits for ACKs on udp, forever if need be). */
void report_done(uint32_t status);

void report_poll(void);
uint32_t report_errors(void);	/* ERROR frames sent so far */

#endif
