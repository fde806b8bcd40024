/*
 * transport_serial.c - frames as "XCB1 <base64>" text lines on COM1 (proto/README.md,
 * "Serial text framing"). No ACKs on a serial line: send writes the line and returns,
 * flush returns at once. The line is written with one benv_serial() call so console
 * text from other CPUs cannot land inside it.
 */
#include "lib/transport.h"
#include "bench/benchenv.h"
#include "xcb_proto.h"

/* Callers (report.c) hold the report lock, so one static line buffer suffices. */
static char line[XCB_TEXT_MAX + 1];

static int serial_send(struct transport *t, const void *frame, unsigned len)
{
	(void)t;
	/* Start on a fresh line: console text before us may not have ended with '\n'
	 * (decoders tolerate leading noise, but a clean line is easier to read). */
	line[0] = '\n';
	size_t n = xcb_text_encode(line + 1, sizeof(line) - 1, frame, len);
	if (n == 0)
		return 0;	/* cannot happen for len <= XCB_FRAME_MAX; never fatal */
	benv_serial(line, (unsigned)n + 1);
	return 0;
}

static int serial_flush(struct transport *t, unsigned timeout_ms)
{
	(void)t;
	(void)timeout_ms;
	return 0;
}

static struct transport serial = {
	.name = "serial",
	.send = serial_send,
	.poll = 0,
	.flush = serial_flush,
	.priv = 0,
};

struct transport *transport_serial(void)
{
	return &serial;
}
