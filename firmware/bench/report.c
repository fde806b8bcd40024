/*
 * report.c - numbering, encoding and fan-out of every frame the payload sends.
 * See report.h. One static frame buffer, used under report_lock.
 */
#include "bench/report.h"
#include "lib/transport.h"
#include "bench/histo.h"
#include "bench/strbuf.h"
#include "bench/benchenv.h"
#include "lib/string.h"
#include "lib/cmdline_words.h"

#define MAX_TRANSPORTS 2

static struct transport *transports[MAX_TRANSPORTS];
static unsigned ntransports;
static uint64_t token;
static uint32_t next_seq;
static uint32_t nerrors;
static uint32_t nemergencies;	/* emergency reports fully sent */
static char names[32];

/*
 * Serialises seq assignment + encode + send: frames from the runner (CPU 0), the
 * watchdog and a crashing CPU may race, and seq must be contiguous and in send order.
 * A plain test-and-set lock (acquire on take, release on drop) is enough: the
 * critical section is short and rarely contended.
 */
static int report_lock_word;
static uint8_t frame[XCB_FRAME_MAX];

static void report_lock(void)
{
	while (__atomic_exchange_n(&report_lock_word, 1, __ATOMIC_ACQUIRE))
		plat_cpu_relax();
}

static int report_trylock_bounded(void)
{
	for (unsigned long i = 0; i < 50000000ul; i++) {
		if (!__atomic_exchange_n(&report_lock_word, 1, __ATOMIC_ACQUIRE))
			return 1;
		plat_cpu_relax();
	}
	return 0;
}

static void report_unlock(void)
{
	__atomic_store_n(&report_lock_word, 0, __ATOMIC_RELEASE);
}

/* Weak fallback so the payload links before (or without) net/: no UDP transport. */
__attribute__((weak)) struct transport *transport_udp(void)
{
	return 0;
}

static void set_names(void)
{
	struct strbuf sb;
	sb_init(&sb, names, sizeof(names));
	for (unsigned i = 0; i < ntransports; i++) {
		if (i)
			sb_putc(&sb, '+');
		sb_puts(&sb, transports[i]->name);
	}
}

static void set_transports(struct transport **t, unsigned n)
{
	ntransports = 0;
	for (unsigned i = 0; i < n && i < MAX_TRANSPORTS; i++)
		if (t[i])
			transports[ntransports++] = t[i];
	set_names();
}

int report_init(const char *spec, const char *run, uint64_t entropy)
{
	struct transport *t[MAX_TRANSPORTS] = { 0 };
	unsigned n = 0;
	/* No word of transport='s (or none given): serial. */
	int how = spec ? cmdline_word_index(CMDLINE_ALTS(CMDLINE_VOCAB_TRANSPORT), spec) : -1;
	int want_udp = how == CMDLINE_TRANSPORT_UDP || how == CMDLINE_TRANSPORT_BOTH;
	int want_serial = how != CMDLINE_TRANSPORT_UDP;

	if (want_udp) {
		t[n] = transport_udp();
		if (t[n])
			n++;
		else
			want_serial = 1;	/* no NIC: serial is the fallback */
	}
	if (want_serial)
		t[n++] = transport_serial();
	set_transports(t, n);

	/* run=<16 hex digits> from the daemon; anything else: make one up. splitmix64
	 * of the TSC, so two boots by hand do not collide. */
	token = 0;
	int ok = run && bs_strlen(run) == 16;
	for (unsigned i = 0; ok && i < 16; i++) {
		int v = xcb_digit(run[i], 16);
		if (v < 0)
			ok = 0;
		else
			token = token << 4 | (uint64_t)v;
	}
	if (!ok) {
		uint64_t z = entropy + 0x9e3779b97f4a7c15ull;
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		token = z ^ (z >> 31);
	}
	next_seq = 0;
	return (int)ntransports;
}

uint64_t report_token(void) { return token; }
const char *report_transport_names(void) { return names; }
uint32_t report_errors(void) { return __atomic_load_n(&nerrors, __ATOMIC_RELAXED); }

/* Under report_lock: hand one encoded frame to every transport. A transport that
 * fails fatally is dropped; the others carry on. */
static void fan_out(size_t len)
{
	if (len == 0)
		return;
	next_seq++;
	for (unsigned i = 0; i < ntransports; i++) {
		if (transports[i]->send(transports[i], frame, (unsigned)len) < 0) {
			for (unsigned j = i; j + 1 < ntransports; j++)
				transports[j] = transports[j + 1];
			ntransports--;
			i--;
		}
	}
}

static struct xcb_hdr hdr(enum xcb_type type)
{
	struct xcb_hdr h = { .type = (uint8_t)type, .token = token, .seq = next_seq };
	return h;
}

/* Under report_lock. */
static void send_text_locked(enum xcb_type type, const char *text, unsigned len)
{
	struct xcb_hdr h = hdr(type);
	fan_out(xcb_enc_text(frame, sizeof(frame), &h, text, len));
}

/* Under report_lock: a HELLO line wider than a frame (text[0..len), its '\n'
 * included if it has one) as pieces, one frame each (proto: xcb_piece_line;
 * the daemon joins them). 0 when it is no key=value line or takes more
 * than XCB_PIECES_MAX pieces: the caller cuts it hard, as before. It was
 * always cut hard: at 1024 CPUs the daemon kept apic_ids' first ~1440
 * bytes as the whole fact (its last number cut short) and dropped the
 * rest, lines without '='. */
static int send_pieces_locked(enum xcb_type type, const char *text, unsigned len)
{
	static char piece[XCB_PAYLOAD_MAX];
	unsigned eq = 0, vlen, n;

	while (eq < len && text[eq] != '=' && text[eq] != '\n')
		eq++;
	if (eq == 0 || eq >= len || text[eq] != '=')
		return 0;
	vlen = len - eq - 1 - (text[len - 1] == '\n');
	n = xcb_pieces(eq, vlen, sizeof(piece));
	if (!n)
		return 0;
	for (unsigned i = 1; i <= n; i++)
		send_text_locked(type, piece, (unsigned)xcb_piece_line(piece, sizeof(piece), text, eq,
								       text + eq + 1, vlen, i, n, sizeof(piece)));
	return 1;
}

void report_text(enum xcb_type type, const char *text, unsigned len)
{
	int splittable = type == XCB_T_HELLO || type == XCB_T_CASE;
	report_lock();
	while (len > XCB_PAYLOAD_MAX && splittable) {
		/* Cut after the last '\n' that fits. A first line wider than
		 * a frame: HELLO's in pieces, any other cut hard. */
		unsigned cut = XCB_PAYLOAD_MAX;
		while (cut > 0 && text[cut - 1] != '\n')
			cut--;
		if (cut == 0) {
			unsigned end = XCB_PAYLOAD_MAX;
			while (end < len && text[end - 1] != '\n')
				end++;
			if (type == XCB_T_HELLO && send_pieces_locked(type, text, end)) {
				text += end;
				len -= end;
				continue;
			}
			cut = XCB_PAYLOAD_MAX;
		}
		send_text_locked(type, text, cut);
		text += cut;
		len -= cut;
	}
	if (len > XCB_PAYLOAD_MAX)
		len = XCB_PAYLOAD_MAX;
	if (len || !splittable)	/* not an empty frame after the pieces */
		send_text_locked(type, text, len);
	report_unlock();
}

/* The console copy of a LOG / ERROR line: `prefix` + text + newline. Returns the
 * text's length. */
static unsigned console_line(const char *prefix, unsigned plen, const char *text)
{
	unsigned len = bs_strlen(text);
	benv_console(prefix, plen);
	benv_console(text, len);
	benv_console("\n", 1);
	return len;
}

/* An ERROR line on the console, counted; returns its length. */
static unsigned error_line(const char *text)
{
	unsigned len = console_line("ERROR: ", 7, text);
	__atomic_fetch_add(&nerrors, 1, __ATOMIC_RELAXED);	/* a counter */
	return len;
}

void report_log(const char *line)
{
	report_text(XCB_T_LOG, line, console_line("# ", 2, line));
}

void report_error(const char *text)
{
	report_text(XCB_T_ERROR, text, error_line(text));
}

void report_error_emergency(const char *text)
{
	unsigned len = error_line(text);
	/* A CPU that faulted inside the lock would hold it forever: give up after a
	 * bounded wait and send anyway (a garbled seq beats a silent hang). */
	int locked = report_trylock_bounded();
	send_text_locked(XCB_T_ERROR, text, len > XCB_PAYLOAD_MAX ? XCB_PAYLOAD_MAX : len);
	for (unsigned i = 0; i < ntransports; i++)
		if (transports[i]->flush)
			transports[i]->flush(transports[i], 2000);
	if (locked)
		report_unlock();
	/* release: whoever sees the count (acquire) knows the report is out. */
	__atomic_fetch_add(&nemergencies, 1, __ATOMIC_RELEASE);
}

uint32_t report_emergencies(void) { return __atomic_load_n(&nemergencies, __ATOMIC_ACQUIRE); }

void report_result(const struct xcb_result *r)
{
	report_lock();
	struct xcb_hdr h = hdr(XCB_T_RESULT);
	fan_out(xcb_enc_result(frame, sizeof(frame), &h, r));
	report_unlock();
}

void report_histo(uint32_t case_id, uint16_t rep, uint16_t initiator, const struct histo *hg)
{
	uint32_t pos = 0, first;
	unsigned n;
	/* Chunks split where 16+ empty buckets lie between data: a gap costs 4 bytes a
	 * bucket inline, a new chunk 40 bytes of headers. */
	while (histo_next_chunk(hg, &pos, 16, XCB_HISTO_CHUNK, &first, &n)) {
		struct xcb_histo x = { .case_id = case_id, .rep = rep, .initiator = initiator,
				       .first = first, .n = (uint16_t)n, .counts = &hg->counts[first] };
		report_lock();
		struct xcb_hdr h = hdr(XCB_T_HISTO);
		fan_out(xcb_enc_histo(frame, sizeof(frame), &h, &x));
		report_unlock();
	}
}

void report_samples(uint32_t case_id, uint16_t rep, uint16_t initiator,
		    const uint64_t *v, uint32_t n)
{
	const uint32_t per = (XCB_PAYLOAD_MAX - XCB_SAMPLES_HDR_LEN) / 8;
	for (uint32_t i = 0; i < n; i += per) {
		uint32_t k = n - i < per ? n - i : per;
		struct xcb_samples s = { .case_id = case_id, .rep = rep, .initiator = initiator,
					 .index = i, .width = 8, .n = (uint16_t)k, .values = v + i };
		report_lock();
		struct xcb_hdr h = hdr(XCB_T_SAMPLES);
		fan_out(xcb_enc_samples(frame, sizeof(frame), &h, &s));
		report_unlock();
		report_poll();
	}
}

void report_done(uint32_t status)
{
	report_lock();
	struct xcb_done d = { .frames = next_seq, .status = status };
	struct xcb_hdr h = hdr(XCB_T_DONE);
	fan_out(xcb_enc_done(frame, sizeof(frame), &h, &d));
	report_unlock();
	/* The run is only complete once DONE is acknowledged: wait as long as it takes
	 * (the UDP transport retransmits; serial returns at once). */
	for (unsigned i = 0; i < ntransports; i++)
		if (transports[i]->flush)
			transports[i]->flush(transports[i], 0);
}

void report_poll(void)
{
	for (unsigned i = 0; i < ntransports; i++)
		if (transports[i]->poll)
			transports[i]->poll(transports[i]);
}
