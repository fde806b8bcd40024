/*
 * ledger.c - the exactly-once ledger (ledger.h). Host-compilable: no machine here.
 */
#include "bench/ledger.h"
#include "lib/cpumask.h"

static struct ledger_ent *ents;
static unsigned ncpus_l, slots_l;
/* Callee runs whose arg was no call's, and the first such arg.
 * Any target CPU may add one (relaxed atomics: a count and a diagnostic, no
 * data rides on them; CPU 0 reads them after the calls, as it judges). */
static uint64_t wild_runs;
static uintptr_t wild_first;

unsigned long ledger_bytes(unsigned ncpus, unsigned slots)
{
	return (unsigned long)ncpus * slots * sizeof(struct ledger_ent);
}

void ledger_setup(void *mem, unsigned ncpus, unsigned slots)
{
	ents = mem;
	ncpus_l = ncpus;
	slots_l = slots;
}

void ledger_reset(void)
{
	for (unsigned long i = 0; i < (unsigned long)ncpus_l * slots_l; i++)
		ents[i] = (struct ledger_ent){ 0 };
	__atomic_store_n(&wild_runs, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&wild_first, 0, __ATOMIC_RELAXED);
}

struct ledger_ent *ledger_at(unsigned target, unsigned slot)
{
	return &ents[(unsigned long)target * slots_l + slot];
}

struct ledger_ent *ledger_entry_of(unsigned target, const void *arg)
{
	unsigned slot = ledger_arg_slot(arg);

	if (target < ncpus_l && slot < slots_l && ledger_arg_seq(arg))
		return ledger_at(target, slot);
	/* The run that counts first keeps its arg. */
	if (__atomic_fetch_add(&wild_runs, 1, __ATOMIC_RELAXED) == 0)
		__atomic_store_n(&wild_first, (uintptr_t)arg, __ATOMIC_RELAXED);
	return 0;
}

uint64_t ledger_wild(const void **first)
{
	if (first)
		*first = (const void *)__atomic_load_n(&wild_first, __ATOMIC_RELAXED);
	return __atomic_load_n(&wild_runs, __ATOMIC_RELAXED);
}

/* Only the target CPU writes its entries: plain read-modify-write through relaxed
 * atomics (so a concurrent watchdog read is not a data race). */
static void bump(uint64_t *p, uint64_t by)
{
	__atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + by, __ATOMIC_RELAXED);
}

static void classify(struct ledger_ent *e, uint64_t seq)
{
	uint64_t hi = __atomic_load_n(&e->hi, __ATOMIC_RELAXED);

	if (seq > hi) {
		uint64_t shift = seq - hi;
		uint64_t w = shift >= 64 ? 0 : e->win << shift;
		__atomic_store_n(&e->win, w | 1, __ATOMIC_RELAXED);
		__atomic_store_n(&e->hi, seq, __ATOMIC_RELAXED);
		return;
	}
	uint64_t d = hi - seq;
	if (d >= 64) {
		bump(&e->old, 1);
		return;
	}
	if (e->win >> d & 1) {
		bump(&e->dup, 1);
		return;
	}
	__atomic_store_n(&e->win, e->win | 1ull << d, __ATOMIC_RELAXED);
	bump(&e->ooo, 1);
}

void ledger_note(struct ledger_ent *e, uint64_t seq)
{
	classify(e, seq);
	/* release: pairs with the acquire load of runs in ledger_judge(), so a
	 * judge that sees this run counted also sees how it was classified (a
	 * wait=ack/none call may still be landing while CPU 0 judges). */
	__atomic_store_n(&e->runs, __atomic_load_n(&e->runs, __ATOMIC_RELAXED) + 1, __ATOMIC_RELEASE);
}

void ledger_judge(const struct ledger_ent *e, uint64_t issued, uint64_t last,
		  struct ledger_verdict *v)
{
	/* acquire: pairs with the release in ledger_note(); runs first, so the
	 * fields read after it are at least as new as the count. */
	uint64_t runs = __atomic_load_n(&e->runs, __ATOMIC_ACQUIRE);
	uint64_t dup = __atomic_load_n(&e->dup, __ATOMIC_RELAXED);
	uint64_t hi = __atomic_load_n(&e->hi, __ATOMIC_RELAXED);
	uint64_t distinct = runs - dup;

	/* A number beyond what was issued cannot be a real call: count it as a
	 * duplicate (some call ran under a wrong number). The window says which
	 * numbers above `last` ran; beyond it, assume all of them did. */
	if (hi > last) {
		uint64_t over = hi - last;
		uint64_t extra = over >= 64 ? over
			: (uint64_t)__builtin_popcountll(__atomic_load_n(&e->win, __ATOMIC_RELAXED) &
							 ((1ull << over) - 1));
		extra = extra > distinct ? distinct : extra;
		dup += extra;
		distinct -= extra;
	}
	v->expected += issued;
	v->ran += distinct;
	v->lost += issued > distinct ? issued - distinct : 0;
	v->dup += dup;
	v->ooo += __atomic_load_n(&e->ooo, __ATOMIC_RELAXED) + __atomic_load_n(&e->old, __ATOMIC_RELAXED);
}

void ledger_judge_sent(const struct ledger_ent *e, uint64_t issued, uint64_t last,
		       uint64_t sent_win, struct ledger_verdict *v)
{
	struct ledger_verdict t = { 0 };
	ledger_judge(e, issued, last, &t);
	/* relaxed: ledger_judge's acquire of runs ordered these loads. */
	uint64_t hi = __atomic_load_n(&e->hi, __ATOMIC_RELAXED);
	uint64_t win = __atomic_load_n(&e->win, __ATOMIC_RELAXED), ran_win;
	/* The target's window re-anchored at `last` (bit d: number last - d). */
	if (hi <= last)
		ran_win = last - hi >= 64 ? 0 : win << (last - hi);
	else
		ran_win = hi - last >= 64 ? 0 : win >> (hi - last);
	uint64_t valid = last >= 64 ? ~0ull : (1ull << last) - 1;	/* numbers >= 1 */
	uint64_t wrong = (uint64_t)__builtin_popcountll(ran_win & ~sent_win & valid);
	uint64_t ran = t.ran > wrong ? t.ran - wrong : 0;
	v->expected += t.expected;
	v->ran += ran;
	v->lost += issued > ran ? issued - ran : 0;
	v->dup += t.dup + wrong;
	v->ooo += t.ooo;
}

int ledger_shows(const struct ledger_ent *e, uint64_t seq)
{
	/* relaxed: see ledger.h (the wait=done check's ordering is the
	 * algorithm's, from the callee's note to call()'s return). */
	uint64_t hi = __atomic_load_n(&e->hi, __ATOMIC_RELAXED);
	uint64_t win = __atomic_load_n(&e->win, __ATOMIC_RELAXED);

	if (!seq || seq > hi)
		return 0;
	return hi - seq >= 64 || (win >> (hi - seq) & 1);
}

uint64_t ledger_hi(unsigned target, unsigned slot)
{
	if (!ents || target >= ncpus_l || slot >= slots_l)
		return 0;
	return __atomic_load_n(&ledger_at(target, slot)->hi, __ATOMIC_RELAXED);
}

void ledger_judge_mask(const struct cpumask *targets, unsigned slot, uint64_t issued,
		       struct ledger_verdict *v)
{
	unsigned t;
	for_each_cpu(t, targets) {
		struct ledger_verdict one = { 0 };
		ledger_judge(ledger_at(t, slot), issued, issued, &one);
		v->expected += one.expected;
		v->ran += one.ran;
		v->lost += one.lost;
		v->dup += one.dup;
		v->ooo += one.ooo;
		v->targets++;
		if ((one.lost || one.dup || one.ooo) && !v->bad_targets++)
			v->bad_target = t;
	}
}
