/* Host unit tests of net/rtx.c, the retransmit window of the UDP transport:
 * storage until a cumulative ACK, the full window, per-frame timers,
 * exponential backoff with its cap and reset, fast retransmit on duplicate
 * ACKs, selective ACKs, and sequence-number wrap-around. Time is a number
 * the test chooses. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "net/rtx.h"

#define CAP 8
#define FMAX 64
#define MS 1000ull

static struct rtx_slot slots[CAP];
static uint8_t store[CAP * FMAX];
static struct rtx r;

/* Records what rtx_service sent. */
static uint32_t sent_seq[64];
static unsigned nsent;
static void rec(void *ctx, const uint8_t *frame, unsigned len)
{
	(void)ctx;
	assert_true(len >= 4);
	memcpy(&sent_seq[nsent++], frame, 4);   /* tests put the seq in the first 4 bytes */
}

static int setup(void **state)
{
	(void)state;
	rtx_init(&r, slots, store, CAP, FMAX, 50 * MS, 1000 * MS);
	nsent = 0;
	return 0;
}

static void push(uint32_t seq, uint64_t now)
{
	uint8_t f[16];
	memcpy(f, &seq, 4);
	memset(f + 4, (int)seq, sizeof(f) - 4);
	assert_non_null(rtx_push(&r, seq, f, sizeof(f), now));
}

static void test_fill_and_ack(void **state)
{
	(void)state;
	for (uint32_t s = 0; s < CAP; s++)
		push(s, 0);
	assert_true(rtx_full(&r));
	uint8_t f[16] = { 0 };
	assert_null(rtx_push(&r, CAP, f, sizeof(f), 0));   /* full: refused, never overwritten */
	assert_int_equal(rtx_ack(&r, 3, 1), 3);            /* seq 0,1,2 */
	assert_int_equal(rtx_inflight(&r), CAP - 3);
	assert_false(rtx_full(&r));
	assert_int_equal(rtx_ack(&r, 3, 2), 0);            /* duplicate: nothing more */
	assert_int_equal(rtx_ack(&r, 1, 2), 0);            /* stale ACK below the edge */
	assert_int_equal(rtx_ack(&r, CAP, 3), CAP - 3);
	assert_int_equal(rtx_inflight(&r), 0);
}

static void test_too_big_refused(void **state)
{
	(void)state;
	uint8_t f[FMAX + 1] = { 0 };
	assert_null(rtx_push(&r, 0, f, sizeof(f), 0));
	assert_non_null(rtx_push(&r, 0, f, FMAX, 0));
}

static void test_stored_copy_is_kept(void **state)
{
	(void)state;
	uint8_t f[FMAX];
	memset(f, 0x5a, sizeof(f));
	const uint8_t *kept = rtx_push(&r, 0, f, sizeof(f), 0);
	memset(f, 0, sizeof(f));             /* the caller reuses its buffer */
	for (unsigned i = 0; i < FMAX; i++)
		assert_int_equal(kept[i], 0x5a);
}

static void test_timeout_and_backoff(void **state)
{
	(void)state;
	push(0, 0);
	push(1, 10 * MS);
	assert_int_equal(rtx_service(&r, 49 * MS, 32, rec, NULL), 0);   /* not yet */
	assert_int_equal(rtx_next_due(&r, 49 * MS), 1 * MS);
	assert_int_equal(rtx_service(&r, 50 * MS, 32, rec, NULL), 1);   /* seq 0 only */
	assert_int_equal(sent_seq[0], 0);
	assert_int_equal(r.rto, 100 * MS);                               /* doubled */
	/* seq 1 (sent at 10 ms) would be due at 110 ms, but while backed off
	 * only the oldest frame is probed. */
	assert_int_equal(rtx_service(&r, 110 * MS, 32, rec, NULL), 0);

	/* Nobody answers: 100, 200, 400, 800, then capped at 1000 ms; one probe
	 * datagram per timeout. */
	uint64_t now = 50 * MS, expect[] = { 200, 400, 800, 1000, 1000, 1000 };
	for (unsigned i = 0; i < 6; i++) {
		now += r.rto;
		unsigned before = nsent;
		assert_int_equal(rtx_service(&r, now - 1, 32, rec, NULL), 0);
		assert_int_equal(rtx_service(&r, now, 32, rec, NULL), 1);
		assert_int_equal(sent_seq[before], 0);
		assert_int_equal(r.rto, expect[i] * MS);
	}
	assert_int_equal(r.timeouts, 7);
	/* The daemon is back: progress ends the probing. seq 0 was resent, so
	 * its ACK is no sample (Karn) and the backed-off rto stays; seq 1's
	 * timer restarts from the progress (RFC 6298 5.3), not from its send. */
	assert_int_equal(rtx_ack(&r, 1, now), 1);
	assert_int_equal(r.rto, 1000 * MS);
	assert_int_equal(rtx_service(&r, now + 999 * MS, 32, rec, NULL), 0);
	unsigned before = nsent;
	assert_int_equal(rtx_service(&r, now + 1000 * MS, 32, rec, NULL), 1);
	assert_int_equal(sent_seq[before], 1);
	/* A frame sent once and ACKed is a sample again: rto follows it. */
	push(2, now + 1000 * MS);
	assert_int_equal(rtx_ack(&r, 3, now + 1010 * MS), 2);
	assert_int_equal(r.rto, 50 * MS);
}

static void test_burst_limit(void **state)
{
	(void)state;
	for (uint32_t s = 0; s < CAP; s++)
		push(s, 0);
	/* A timeout sends the oldest frame alone (the probe), not the window. */
	assert_int_equal(rtx_service(&r, 60 * MS, 32, rec, NULL), 1);
	assert_int_equal(sent_seq[0], 0);
	assert_int_equal(rtx_service(&r, 100 * MS, 32, rec, NULL), 0);
	/* The receiver answers: it has the newest frame only, so 1..CAP-2 are
	 * lost (early retransmit) and go out at most `max` per call. */
	uint8_t bits[2] = { 0 };
	unsigned off = (CAP - 1) - 1 - 1; /* seq CAP-1, past cum 1 */
	bits[off / 8] |= (uint8_t)(1u << (off % 8));
	assert_int_equal(rtx_ack(&r, 1, 101 * MS), 1);
	rtx_sack(&r, 1, bits, 16, 101 * MS);
	unsigned before = nsent;
	assert_int_equal(rtx_service(&r, 101 * MS, 3, rec, NULL), 3);
	assert_int_equal(sent_seq[before], 1);
	assert_int_equal(sent_seq[before + 2], 3);
	assert_int_equal(rtx_service(&r, 101 * MS, 32, rec, NULL), CAP - 2 - 3);
	assert_int_equal(sent_seq[nsent - 1], CAP - 2);
}

static void test_fast_retransmit(void **state)
{
	(void)state;
	for (uint32_t s = 0; s < 6; s++)
		push(s, 0);
	rtx_ack(&r, 2, 1 * MS);          /* progress */
	rtx_ack(&r, 2, 2 * MS);          /* dup 1 */
	rtx_ack(&r, 2, 3 * MS);          /* dup 2 */
	assert_int_equal(rtx_service(&r, 4 * MS, 32, rec, NULL), 0);
	rtx_ack(&r, 2, 4 * MS);          /* dup 3: seq 2 is lost */
	assert_int_equal(rtx_next_due(&r, 5 * MS), 0);
	assert_int_equal(rtx_service(&r, 5 * MS, 32, rec, NULL), 1);
	assert_int_equal(sent_seq[0], 2);
	assert_int_equal(r.rto, 50 * MS);   /* no backoff for a fast retransmit */
}

static void test_sack_skips_stored(void **state)
{
	(void)state;
	for (uint32_t s = 0; s < 6; s++)
		push(s, 0);
	/* Edge 1 (seq 1 missing); the receiver holds 2, 3 and 5. */
	uint8_t bits[32] = { 0 };
	bits[0] = 1 << 0 | 1 << 1 | 1 << 3;   /* bit i = seq 1+1+i */
	rtx_ack(&r, 1, 1 * MS);
	rtx_sack(&r, 1, bits, 256, 1 * MS);
	assert_int_equal(rtx_service(&r, 100 * MS, 32, rec, NULL), 2);
	assert_int_equal(sent_seq[0], 1);
	assert_int_equal(sent_seq[1], 4);
	/* Sacked frames stay stored until the cumulative edge passes them. */
	assert_int_equal(rtx_inflight(&r), 5);
	assert_int_equal(rtx_ack(&r, 6, 101 * MS), 5);
}

static void test_sack_early_retransmit(void **state)
{
	(void)state;
	/* Round trip ~10 ms. */
	for (uint32_t s = 0; s < 4; s++) {
		push(s, s * 20 * MS);
		rtx_ack(&r, s + 1, s * 20 * MS + 10 * MS);
	}
	assert_int_equal(r.srtt, 10 * MS);
	uint64_t t0 = 100 * MS;
	for (uint32_t s = 4; s < 10; s++)
		push(s, t0);
	uint8_t bits[32] = { 0 };
	/* 2 ms later the receiver holds 6 (edge 4): too soon to call 4, 5 lost. */
	bits[0] = 1 << 1;                              /* seq 4 + 1 + 1 = 6 */
	rtx_ack(&r, 4, t0 + 2 * MS);
	rtx_sack(&r, 4, bits, 256, t0 + 2 * MS);
	assert_int_equal(rtx_service(&r, t0 + 2 * MS, 32, rec, NULL), 0);
	/* 12 ms later it holds 6 and 8: 4, 5 and 7 are lost, sent long enough
	 * ago; 9 (above the highest stored) is not judged. No timeout needed. */
	bits[0] = 1 << 1 | 1 << 3;                     /* 6 and 8 */
	rtx_ack(&r, 4, t0 + 12 * MS);
	rtx_sack(&r, 4, bits, 256, t0 + 12 * MS);
	assert_int_equal(rtx_service(&r, t0 + 12 * MS, 32, rec, NULL), 3);
	assert_int_equal(sent_seq[0], 4);
	assert_int_equal(sent_seq[1], 5);
	assert_int_equal(sent_seq[2], 7);
	assert_int_equal(r.timeouts, 0);
	/* The same SACK again right away does not resend them. */
	rtx_sack(&r, 4, bits, 256, t0 + 13 * MS);
	assert_int_equal(rtx_service(&r, t0 + 13 * MS, 32, rec, NULL), 0);
}

static void test_seq_wraparound(void **state)
{
	(void)state;
	uint32_t base = 0xfffffffeu;
	for (uint32_t i = 0; i < 4; i++)
		push(base + i, 0);          /* fffffffe, ffffffff, 0, 1 */
	assert_int_equal(rtx_ack(&r, 0, 1), 2);
	assert_int_equal(rtx_inflight(&r), 2);
	assert_int_equal(rtx_ack(&r, 2, 2), 2);
	assert_int_equal(rtx_inflight(&r), 0);
}

static void test_rto_follows_rtt(void **state)
{
	(void)state;
	/* A 300 ms path: after a few samples rto sits near srtt + 4 rttvar
	 * instead of firing at rto_min on every frame. */
	uint64_t now = 0;
	for (uint32_t s = 0; s < 20; s++) {
		push(s, now);
		now += 300 * MS;
		rtx_ack(&r, s + 1, now);
	}
	assert_true(r.have_rtt);
	assert_int_equal(r.srtt, 300 * MS);
	assert_true(r.rto >= 300 * MS && r.rto < 400 * MS);
	push(20, now);
	assert_int_equal(rtx_service(&r, now + 299 * MS, 32, rec, NULL), 0);
	/* A retransmitted frame gives no sample (Karn): its ACK cannot say
	 * which copy it answers. */
	uint64_t srtt = r.srtt;
	assert_int_equal(rtx_service(&r, now + r.rto, 32, rec, NULL), 1);
	rtx_ack(&r, 21, now + r.rto + 1 * MS);
	assert_int_equal(r.srtt, srtt);
	/* A fast path never brings rto below rto_min. */
	for (uint32_t s = 21; s < 60; s++) {
		push(s, now);
		rtx_ack(&r, s + 1, now + 1);
	}
	assert_int_equal(r.rto, 50 * MS);
}

static void test_empty_window(void **state)
{
	(void)state;
	assert_int_equal(rtx_next_due(&r, 0), UINT64_MAX);
	assert_int_equal(rtx_service(&r, 1000 * MS, 32, rec, NULL), 0);
	assert_int_equal(rtx_ack(&r, 5, 0), 0);
}

/* A long randomized run against a lossy in-order receiver (go-back-N: it
 * drops everything past a hole, like the worst collector would) with a
 * lossy ACK path: everything arrives exactly once, in order. */
static void test_lossy_receiver_gets_everything(void **state)
{
	(void)state;
	uint32_t rnd = 12345, next_send = 0, expected = 0;
	const uint32_t total = 500;
	uint64_t now = 0;
	struct { uint32_t cum; uint64_t at; } acks[4096];
	unsigned nacks = 0;
#define RAND() (rnd = rnd * 1103515245u + 12345u, (rnd >> 16) & 0x7fff)
	while (expected < total) {
		assert_true(now < 3600ull * 1000 * MS);   /* bounded: no livelock */
		while (next_send < total && !rtx_full(&r)) {
			push(next_send++, now);
			nsent = 0;
			sent_seq[nsent++] = next_send - 1;
			goto deliver;
		}
		nsent = 0;
		rtx_service(&r, now, 32, rec, NULL);
deliver:
		for (unsigned i = 0; i < nsent; i++) {
			if (RAND() % 100 < 20)
				continue;                  /* 20% data loss */
			if (sent_seq[i] == expected)
				expected++;
			if (RAND() % 100 < 20)
				continue;                  /* 20% ACK loss */
			assert_true(nacks < 4096);
			acks[nacks].cum = expected;
			acks[nacks++].at = now + 2 * MS;   /* 2 ms RTT */
		}
		now += 1 * MS;
		unsigned k = 0;
		for (unsigned i = 0; i < nacks; i++) {
			if (acks[i].at <= now)
				rtx_ack(&r, acks[i].cum, now);
			else
				acks[k++] = acks[i];
		}
		nacks = k;
	}
	assert_int_equal(expected, total);
	assert_true(r.retransmitted > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_fill_and_ack, setup),
		cmocka_unit_test_setup(test_too_big_refused, setup),
		cmocka_unit_test_setup(test_stored_copy_is_kept, setup),
		cmocka_unit_test_setup(test_timeout_and_backoff, setup),
		cmocka_unit_test_setup(test_burst_limit, setup),
		cmocka_unit_test_setup(test_fast_retransmit, setup),
		cmocka_unit_test_setup(test_sack_skips_stored, setup),
		cmocka_unit_test_setup(test_sack_early_retransmit, setup),
		cmocka_unit_test_setup(test_seq_wraparound, setup),
		cmocka_unit_test_setup(test_rto_follows_rtt, setup),
		cmocka_unit_test_setup(test_empty_window, setup),
		cmocka_unit_test_setup(test_lossy_receiver_gets_everything, setup),
	};
	return cmocka_run_group_tests_name("net_rtx", tests, NULL, NULL);
}
