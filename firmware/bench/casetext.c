/*
 * casetext.c - x_cpus written short (xcb_cpulist.h: strides, "=" for the
 * previous initiator's targets) and the CASE sent in one frame or in pieces
 * (casetext.h). Pieces, not a longer frame: a frame is 1448 bytes, and at
 * 1024 CPUs x_cpus of 32 initiators with irregular masks (placement=spread
 * with a mask that is no even fraction of the CPUs) is tens of KB, which
 * no short form removes. The daemon merges a case from its pieces in any
 * order (host/src/casepieces.c).
 */
#include "bench/casetext.h"
#include "bench/report.h"
#include "bench/strbuf.h"
#include "lib/cpumask.h"
#include "xcb_proto.h"
#include "xcb_schema.h"

void case_cpus_value(struct strbuf *sb, unsigned n, const unsigned *init_cpus,
		     const struct cpumask *targets)
{
	for (unsigned k = 0; k < n; k++) {
		int same = k > 0;

		for (unsigned w = 0; same && w < CPUMASK_WORDS; w++)
			same = targets[k].bits[w] == targets[k - 1].bits[w];
		if (k)
			sb_putc(sb, ';');
		sb_u64(sb, init_cpus[k]);
		sb_putc(sb, ':');
		if (same)
			sb_putc(sb, '=');
		else
			sb_cpus(sb, &targets[k]);
	}
}

/* x_cpus's key and its length (XCB_KEY: the schema's spelling). */
#define XKEY XCB_KEY(x_cpus)
#define XKLEN 6

unsigned case_text_send(uint32_t id, const char *head, unsigned hlen, const char *xc, unsigned xlen)
{
	static char frame[XCB_PAYLOAD_MAX + 1];
	struct strbuf sb;
	unsigned n, room;

	if (hlen + XKLEN + 2 + xlen <= XCB_PAYLOAD_MAX) {
		sb_init(&sb, frame, sizeof(frame));
		for (unsigned i = 0; i < hlen; i++)
			sb_putc(&sb, head[i]);
		sb_puts(&sb, XCB_KEY_EQ(x_cpus));
		for (unsigned i = 0; i < xlen; i++)
			sb_putc(&sb, xc[i]);
		sb_putc(&sb, '\n');
		report_text(XCB_T_CASE, frame, sb.len);
		return 1;
	}
	/* Every piece gets the room the head leaves (an "id=ID\n" line is
	 * no wider than the head, which holds it): one size for all. */
	room = hlen < XCB_PAYLOAD_MAX ? XCB_PAYLOAD_MAX - hlen : 0;
	n = xcb_pieces(XKLEN, xlen, room);
	if (!n)
		return 0;
	for (unsigned i = 1; i <= n; i++) {
		unsigned len;

		sb_init(&sb, frame, sizeof(frame));
		if (i == 1) {
			for (unsigned k = 0; k < hlen; k++)
				sb_putc(&sb, head[k]);
		} else {
			sb_kv_u64(&sb, XCB_KEY(id), id);
		}
		len = sb.len;
		len += (unsigned)xcb_piece_line(frame + len, sizeof(frame) - len, XKEY, XKLEN, xc, xlen, i, n,
						room);
		report_text(XCB_T_CASE, frame, len);
	}
	return n;
}
