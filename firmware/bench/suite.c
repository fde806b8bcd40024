/*
 * suite.c - suite defaults, command-line overrides, and expansion into cases.
 */
#include "bench/suite.h"
#include "bench/strbuf.h"
#include "lib/cmdline.h"
#include "lib/cmdline_words.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "xcb_schema.h"

/* The vocabularies are proto/xcb_schema.h's enums and names (XCB_NAME: wire
 * names in CASE frames; command-line words in parse_words). */

const char *case_algo_name(const struct bcase *c)
{
	if (c->kind == XCB_KIND_RAW)
		return xcb_floor_names[c->floor == XCB_FLOOR_IPI ? XCB_FLOOR_IPI : XCB_FLOOR_ROUNDTRIP];
	if (c->kind == XCB_KIND_SYNC)
		return c->mode < XCB_N_sync_mode ? xcb_sync_mode_names[c->mode] : "?";
	/* a shootdown path that uses no cross-call algorithm is the algo */
	if (c->kind == XCB_KIND_TLB && c->flush != XCB_FLUSH_XCALL)
		return (unsigned)c->flush < XCB_N_flush ? xcb_flush_names[c->flush] : "?";
	return c->algo ? c->algo->name : "?";
}

static int shape_eq(const struct bcase *a, const struct bcase *b)
{
	return a->kind == b->kind && a->delivery == b->delivery && a->wait == b->wait &&
	       a->inits == b->inits && a->mask == b->mask && a->placement == b->placement &&
	       a->overlap == b->overlap && a->work_us == b->work_us && a->flush == b->flush &&
	       a->method == b->method && a->batch == b->batch && a->reps == b->reps &&
	       a->floor == b->floor && a->harness == b->harness && a->rwlock == b->rwlock &&
	       a->idle == b->idle && a->group == b->group &&
	       a->batch_reads == b->batch_reads && a->entry_us == b->entry_us &&
	       a->writer == b->writer && a->readers == b->readers &&
	       /* sync: the algo is the mode; the shootdown's algorithm is shape */
	       (a->kind != XCB_KIND_SYNC || a->algo == b->algo);
}

/* A lazy sync case sends no shootdown: its path, method and algorithm are not
 * axes of it (suite.c gives it fixed ones, the CASE frame leaves them out). */
static int sync_lazy(const struct bcase *c)
{
	return c->kind == XCB_KIND_SYNC && c->mode == XCB_SYNC_LAZY;
}

int case_same_shape(const struct bcase *a, const struct bcase *b)
{
	if (sync_lazy(a) != sync_lazy(b) && a->kind == XCB_KIND_SYNC && b->kind == XCB_KIND_SYNC) {
		/* lazy beside inside/after: the same shape but for the shootdown */
		struct bcase x = *a, y = *b;
		x.flush = y.flush;
		x.method = y.method;
		x.algo = y.algo;
		return shape_eq(&x, &y);
	}
	return shape_eq(a, b);
}

int case_same_group(const struct bcase *a, const struct bcase *b)
{
	struct bcase t = *b;
	t.harness = a->harness;
	return case_same_shape(a, &t);
}

static unsigned nalgos(void)
{
	unsigned n = 0;
	while (xcall_algos[n])
		n++;
	return n;
}

#define ALL(n) ((1u << (n)) - 1)

/* for_each_bit(i, mask, n) { ... }: i over 0..n-1 where bit i of mask is set -
 * the values a suite chose on one of its axes (a bit per vocabulary word). */
#define for_each_bit(i, mask, n) \
	for (unsigned i = 0; i < (n); i++) \
		if (!((mask) >> i & 1u)) \
			continue; \
		else

/* The algos= bit of a registered algorithm by name (0 if none): suites name
 * what they need, never a position in the registry (sorted by name). */
static unsigned algo_bit(const char *name)
{
	for (unsigned a = 0; xcall_algos[a]; a++)
		if (bs_streq(xcall_algos[a]->name, name))
			return 1u << a;
	return 0;
}

/* A preset's number list: n values (n = 0: the base suite's list). */
struct preset_list {
	unsigned n;
	unsigned v[3];
};
#define LIST(...) { sizeof((unsigned[]){ __VA_ARGS__ }) / sizeof(unsigned), { __VA_ARGS__ } }

/* A suite= preset: what it changes in the base suite (suite_base). Every field
 * left 0 (or NULL) keeps the base's value; no preset sets an axis to 0. */
struct suite_preset {
	unsigned kinds, waits, deliveries, overlaps, flushes, methods;
	const char *algo;		/* the one algorithm it runs, by name: the
					 * registry is sorted, never a position */
	struct preset_list inits, masks, work_us, batches;
	uint64_t iters, warmup, time_ms, reps, duration_s;
};

#define KIND(k) (1u << XCB_KIND_##k)

/* The presets, one for each suite of proto's XCB_VOCAB_SUITE (its names,
 * in its order, which `suite=`'s error lists). */
static const struct suite_preset presets[] = {
	/* Every algorithm x wait x delivery, a few calls each: seconds under TCG. */
	[XCB_SUITE_QUICK] = { .deliveries = ALL(XCB_N_delivery),
	  .inits = LIST(1, 2), .masks = LIST(1, MASK_ALL), .batches = LIST(1, 8),
	  .iters = 20, .reps = 2 },
	/* The seed's matrix with and without callee work, plus the TLB and raw
	 * floors, each repetition bounded by a time budget so a 64-CPU machine
	 * finishes in well under an hour. */
	[XCB_SUITE_DEFAULT] = { .waits = 1u << XCB_WAIT_DONE, .overlaps = 3u,
	  .methods = (1u << XCB_METHOD_INVLPG) | (1u << XCB_METHOD_NONE),
	  .inits = LIST(INITS_POW2), .work_us = LIST(0, 500), .batches = LIST(1, 8),
	  .time_ms = 300 },
	/* The seed thread's table: 1/2/4 initiators x 1, 2, 4, ... CPUs in mask,
	 * locked vs lockless vs queued, 500 us callee work, wait for completion. */
	[XCB_SUITE_SEED] = { .kinds = KIND(XCALL) | KIND(RAW), .waits = 1u << XCB_WAIT_DONE,
	  .overlaps = 3u, .inits = LIST(1, 2, 4), .work_us = LIST(500),
	  .iters = 100, .time_ms = 3000, .reps = 5 },
	/* Shootdown paths and methods: compared, so >= 5 repetitions for an interval. */
	[XCB_SUITE_TLB] = { .kinds = KIND(TLB) | KIND(RAW),
	  .inits = LIST(1, 2), .batches = LIST(1, 8, 32), .iters = 200, .reps = 5 },
	/* Seed 002: a shootdown held under a write lock (inside), deferred after
	 * it (after), or lazy at the targets' next entry - x CPUs in mask; the
	 * shootdown Xen's: on_selected_cpus() (xcall path, `locked`), invlpg. */
	[XCB_SUITE_EPT] = { .kinds = KIND(SYNC) | KIND(RAW), .algo = "locked",
	  .flushes = 1u << XCB_FLUSH_XCALL, .methods = 1u << XCB_METHOD_INVLPG,
	  .iters = 100, .warmup = 5, .reps = 5 },
	[XCB_SUITE_STRESS] = { .duration_s = 10, .reps = 1, .iters = 50 },
};
#define NPRESETS (sizeof(presets) / sizeof(presets[0]))
_Static_assert(NPRESETS == XCB_N_suite, "a preset for each suite of XCB_VOCAB_SUITE");

/* What every suite starts from; a preset then changes some of it. */
static const struct suite suite_base = {
	.kinds = ALL(XCB_N_kind) & ~KIND(SYNC),	/* sync: suite=ept or kinds= */
	.modes = ALL(XCB_N_sync_mode),
	.rwlocks = 1u,
	.batch_reads = 1024,	/* the seed's toolstack: 1024 GFNs mapped per batch */
	.entry_us = 50,
	.waits = ALL(XCB_N_wait),
	.deliveries = 1u << XCB_DELIVERY_AUTO,
	.flush_deliveries = 1u << XCB_DELIVERY_AUTO,
	.placements = 1u << XCB_PL_FIRST,
	.overlaps = 1u,
	.harnesses = 1u,
	.idles = 1u << XCB_IDLE_HLT,
	.inits = { 1 }, .ninits = 1,
	.masks = { MASK_POW2 }, .nmasks = 1,
	.work_us = { 0 }, .nwork = 1,
	.groups = { 0 }, .ngroups = 1,
	.writers = { 0 }, .nwriters = 1,	/* sync: the boot CPU writes ... */
	.readers = { 0 }, .nreaders = 1,	/* ... and the targets read */
	.flushes = FLUSH_PATHS_DEFAULT,
	.methods = ALL(XCB_N_method),
	.batches = { 1 }, .nbatches = 1,
	.iters = 1000,
	.warmup = 10,
	.reps = 5,
	.watchdog_ms = 10000,
};

/* dst/n take the preset's list if it has one. */
static void take_list(unsigned *dst, unsigned *n, const struct preset_list *l)
{
	if (!l->n)
		return;
	for (unsigned i = 0; i < l->n; i++)
		dst[i] = l->v[i];
	*n = l->n;
}

/* s = the base suite changed by preset p. */
static void defaults(struct suite *s, const struct suite_preset *p)
{
	*s = suite_base;
	s->name = xcb_suite_names[p - presets];
	s->algos = p->algo ? algo_bit(p->algo) : ALL(nalgos());
#define TAKE(f) if (p->f) s->f = p->f
	TAKE(kinds);
	TAKE(waits);
	TAKE(deliveries);
	TAKE(overlaps);
	TAKE(flushes);
	TAKE(methods);
	TAKE(iters);
	TAKE(warmup);
	TAKE(time_ms);
	TAKE(reps);
	TAKE(duration_s);
#undef TAKE
	take_list(s->inits, &s->ninits, &p->inits);
	take_list(s->masks, &s->nmasks, &p->masks);
	take_list(s->work_us, &s->nwork, &p->work_us);
	take_list(s->batches, &s->nbatches, &p->batches);
}

/* key=word,word,...: a bitmask over `words` (or "all"): a vocabulary's
 * command-line words (proto/xcb_schema.h), and its wire names too where
 * `names` differs (delivery: the console, CASE frames and the API say
 * `allbutself` and `x2apic_cluster`, so a reader copies those back). An
 * unknown item is refused by cmdline_refuse (the nearest word when one is
 * near, "did you mean", and the list), as every word key is. */
static int parse_words(const char *key, const char *const *words, const char *const *names, unsigned n,
		       unsigned *out)
{
	struct cmdline_items it;
	if (cmdline_list(key, &it) == 0)
		return 0;
	unsigned m = 0;
	for (unsigned i = 0; i < it.n; i++) {
		if (bs_streq(it.item[i], "all")) {
			m |= ALL(n);
			continue;
		}
		unsigned j;
		for (j = 0; j < n; j++)
			if ((words[j] && bs_streq(it.item[i], words[j])) ||
			    (names && names[j] && bs_streq(it.item[i], names[j])))
				break;
		if (j == n) {
			/* the payload's one refusal line (lib/cmdline.h) */
			cmdline_refuse(key, it.item[i], words, names, n, "all");
			return -1;
		}
		m |= 1u << j;
	}
	*out = m;
	return 0;
}

/* key=1,2,4: a number list; an item may also be one of the words `alts`
 * ("all|pow2", lib/cmdline_words.h: the host checks by the same), which
 * stands for word_v[its index]. */
static int parse_numbers(const char *key, unsigned *dst, unsigned *n, const char *alts, const unsigned *word_v)
{
	struct cmdline_items it;
	if (cmdline_list(key, &it) == 0)
		return 0;
	unsigned k = 0;
	for (unsigned i = 0; i < it.n && k < AX_MAX; i++) {
		uint64_t v;
		int w = alts ? cmdline_word_index(alts, it.item[i]) : -1;
		if (w >= 0)
			v = word_v[w];
		else if (cmdline_parse_u64(it.item[i], &v) < 0 || v > CMDLINE_ITEM_MAX ||
			 (v == 0 && !bs_streq(key, "work_us") && !bs_streq(key, "groups") &&
			  !bs_streq(key, "writer") && !bs_streq(key, "readers"))) {
			kprintf("xcbench: error: cmdline key '%s': bad value '%s'\n", key, it.item[i]);
			return -1;
		}
		dst[k++] = (unsigned)v;
	}
	*n = k;
	return 0;
}

/* What inits= and masks= words stand for, in their lists' order. */
static const unsigned inits_words_v[] = { [CMDLINE_INITS_POW2] = INITS_POW2 };
static const unsigned masks_words_v[] = { [CMDLINE_MASKS_ALL] = MASK_ALL, [CMDLINE_MASKS_POW2] = MASK_POW2 };
_Static_assert(sizeof(inits_words_v) / sizeof(inits_words_v[0]) == XCB_COUNT(CMDLINE_VOCAB_INITS), "inits words");
_Static_assert(sizeof(masks_words_v) / sizeof(masks_words_v[0]) == XCB_COUNT(CMDLINE_VOCAB_MASKS), "masks words");
_Static_assert(FLUSH_MAX_BATCH == CMDLINE_BATCH_MAX, "the host checks batches= by CMDLINE_BATCH_MAX");

int suite_load(struct suite *s, const char *name)
{
	int i = XCB_PARSE(suite, name);
	const struct suite_preset *p = i < 0 ? 0 : &presets[i];
	if (!p) {
		cmdline_refuse("suite", name, xcb_suite_names, NULL, XCB_N_suite, NULL);
		return -1;
	}
	defaults(s, p);

	const char *algo_names[32] = { 0 };
	unsigned na = nalgos();
	for (unsigned i = 0; i < na && i < 32; i++)
		algo_names[i] = xcall_algos[i]->name;

	int rc = 0;
	/* The schema's words equal its names but for delivery (host/tests/test_schema
	 * checks): only delivery needs its own table in the image, and takes both. */
#define WORDS(v) xcb_##v##_names, 0, XCB_N_##v
	rc |= parse_words("kinds", WORDS(kind), &s->kinds);
	rc |= parse_words("algos", algo_names, 0, na, &s->algos);
	rc |= parse_words("waits", WORDS(wait), &s->waits);
	rc |= parse_words("deliveries", xcb_delivery_words, xcb_delivery_names, XCB_N_delivery, &s->deliveries);
	if (cmdline_has("deliveries"))
		s->flush_deliveries = s->deliveries;	/* asked for: the shootdowns too */
	rc |= parse_words("placements", WORDS(placement), &s->placements);
	rc |= parse_words("overlap", WORDS(overlap), &s->overlaps);
	rc |= parse_words("harness", WORDS(harness), &s->harnesses);
	rc |= parse_words("idles", WORDS(idle), &s->idles);
	rc |= parse_words("flush", WORDS(flush), &s->flushes);
	rc |= parse_words("methods", WORDS(method), &s->methods);
	rc |= parse_words("modes", WORDS(sync_mode), &s->modes);
	rc |= parse_words("rwlocks", WORDS(rwlock), &s->rwlocks);
#undef WORDS
	rc |= cmdline_u64("batch_reads", s->batch_reads, &s->batch_reads);
	rc |= cmdline_u64("entry_us", s->entry_us, &s->entry_us);
	rc |= parse_numbers("inits", s->inits, &s->ninits, CMDLINE_ALTS(CMDLINE_VOCAB_INITS), inits_words_v);
	rc |= parse_numbers("masks", s->masks, &s->nmasks, CMDLINE_ALTS(CMDLINE_VOCAB_MASKS), masks_words_v);
	rc |= parse_numbers("work_us", s->work_us, &s->nwork, 0, 0);
	rc |= parse_numbers("groups", s->groups, &s->ngroups, 0, 0);
	rc |= parse_numbers("batches", s->batches, &s->nbatches, 0, 0);
	rc |= parse_numbers("writer", s->writers, &s->nwriters, 0, 0);
	rc |= parse_numbers("readers", s->readers, &s->nreaders, 0, 0);
	rc |= cmdline_u64("iters", s->iters, &s->iters);
	rc |= cmdline_u64("warmup", s->warmup, &s->warmup);
	rc |= cmdline_u64("time_ms", s->time_ms, &s->time_ms);
	rc |= cmdline_u64("reps", s->reps, &s->reps);
	rc |= cmdline_u64("samples", s->samples, &s->samples);
	rc |= cmdline_u64("duration", s->duration_s, &s->duration_s);
	rc |= cmdline_u64("watchdog_ms", s->watchdog_ms, &s->watchdog_ms);
	rc |= cmdline_u64("seed", s->seed, &s->seed);
	if (s->reps == 0 || s->reps > CMDLINE_REPS_MAX) {
		kprintf("xcbench: error: cmdline key 'reps': must be 1..%u\n", CMDLINE_REPS_MAX);
		rc = -1;
	}
	if (s->iters == 0 && s->time_ms == 0) {
		kprintf("xcbench: error: iters=0 needs a time budget (time_ms=)\n");
		rc = -1;
	}
	for (unsigned i = 0; i < s->nbatches; i++)
		if (s->batches[i] == 0 || s->batches[i] > FLUSH_MAX_BATCH) {
			kprintf("xcbench: error: cmdline key 'batches': %u not in 1..%u\n",
				s->batches[i], FLUSH_MAX_BATCH);
			rc = -1;
		}
	return rc ? -1 : 0;
}

int suite_check_cpus(const struct suite *s, unsigned ncpus)
{
	int rc = 0;

	/* writer= only places sync cases: elsewhere it is not used. */
	if (!(s->kinds & (1u << XCB_KIND_SYNC)))
		return 0;
	for (unsigned i = 0; i < s->nwriters; i++)
		if (s->writers[i] >= ncpus) {
			kprintf("xcbench: error: cmdline key 'writer': CPU %u is not on this machine "
				"(%u CPUs: 0..%u)\n", s->writers[i], ncpus, ncpus - 1);
			rc = -1;
		}
	return rc;
}

/* ---- expansion ---- */

struct expand {
	const struct suite *s;
	unsigned ncpus;
	unsigned count;
	void (*fn)(const struct bcase *c, void *ctx);
	void *ctx;
	uint32_t lazy_seen[AX_MAX];	/* per batch index: rw-locks whose lazy case is out */
	unsigned shorthand_left;	/* allbutself cases left out (suite_shorthand_left) */
};

static void emit(struct expand *e, struct bcase *c)
{
	c->id = ++e->count;
	c->iters = e->s->iters;
	c->warmup = e->s->warmup;
	c->time_ms = e->s->time_ms;
	c->reps = e->s->reps;
	c->samples = e->s->samples != 0;
	if (e->fn)
		e->fn(c, e->ctx);
}

/* Mask sizes for `inits` initiators: explicit numbers as given (the runner skips
 * those that do not fit, with a LOG line), "all"/"pow2" resolved to what fits. */
static unsigned resolve_masks(const struct suite *s, unsigned ncpus, unsigned inits,
			      unsigned overlap, unsigned *out)
{
	unsigned avail = ncpus > inits ? ncpus - inits : 0;
	if (!overlap && inits)
		avail /= inits;
	unsigned n = 0;
	for (unsigned i = 0; i < s->nmasks; i++) {
		unsigned cand[AX_MAX + 2], k = 0;
		if (s->masks[i] == MASK_ALL) {
			if (avail)
				cand[k++] = avail;
		} else if (s->masks[i] == MASK_POW2) {
			for (unsigned m = 1; m < avail && k < AX_MAX; m *= 2)
				cand[k++] = m;
			if (avail)
				cand[k++] = avail;
		} else {
			cand[k++] = s->masks[i];
		}
		for (unsigned j = 0; j < k; j++) {
			unsigned d;
			for (d = 0; d < n; d++)
				if (out[d] == cand[j])
					break;
			if (d == n && n < 2 * AX_MAX)
				out[n++] = cand[j];
		}
	}
	return n;
}

static unsigned resolve_inits(const struct suite *s, unsigned ncpus, unsigned *out)
{
	unsigned n = 0;
	for (unsigned i = 0; i < s->ninits; i++) {
		if (s->inits[i] == INITS_POW2) {
			for (unsigned m = 1; m <= ncpus / 2 && n < AX_MAX; m *= 2)
				out[n++] = m;
		} else if (n < AX_MAX) {
			out[n++] = s->inits[i];
		}
	}
	return n;
}

/* The CPUs a sync case's writer and targets come from: readers of their own
 * and, with the writer on another CPU, the boot CPU (which then supervises
 * the run) are not targets. So "all" and "pow2" masks resolve to what fits. */
static unsigned sync_pool(const struct bcase *c, unsigned ncpus)
{
	unsigned held = c->kind == XCB_KIND_SYNC ? c->readers + (c->writer != 0) : 0;
	return ncpus > held ? ncpus - held : 0;
}

static void expand_shape(struct expand *e, struct bcase *c)
{
	const struct suite *s = e->s;
	unsigned inits[AX_MAX], ni = resolve_inits(s, e->ncpus, inits);
	for (unsigned ii = 0; ii < ni; ii++) {
		c->inits = inits[ii];
		if (c->kind == XCB_KIND_SYNC && c->inits != 1)
			continue;	/* one writer */
		for_each_bit(ov, s->overlaps, 2) {
			/* One initiator has nobody to overlap with: emit it once. */
			if (c->inits == 1 && ov == 1 && (s->overlaps & 1u))
				continue;
			c->overlap = c->inits == 1 ? 0 : ov;
			unsigned masks[2 * AX_MAX], nm = resolve_masks(s, sync_pool(c, e->ncpus), c->inits,
								  c->overlap, masks);
			for (unsigned mi = 0; mi < nm; mi++) {
				c->mask = masks[mi];
				/* The all-but-self shorthand only exists for one initiator whose
				 * mask is every other CPU (the safety rule of seed 001). */
				if (c->delivery == XCB_DELIVERY_SHORTHAND &&
				    !(c->inits == 1 && c->mask == e->ncpus - 1)) {
					/* counted as the cases the loops below would
					 * emit, for the run's log (bench.c) */
					unsigned np = 0;
					for_each_bit(p, s->placements, XCB_N_placement)
						np++;
					e->shorthand_left += np * (c->kind == XCB_KIND_XCALL ? s->nwork : 1);
					continue;
				}
				for_each_bit(p, s->placements, XCB_N_placement) {
					c->placement = (enum xcb_placement)p;
					for (unsigned w = 0; w < s->nwork; w++) {
						c->work_us = c->kind == XCB_KIND_XCALL ? s->work_us[w] : 0;
						emit(e, c);
						if (c->kind != XCB_KIND_XCALL)
							break;
					}
				}
			}
		}
	}
}

/* A lazy sync case: once per batch and rw-lock (and, in expand_shape, per mask),
 * not once per shootdown path / method / algorithm it does not use - the first
 * combination the loops reach emits it, with fixed values for those (lazy_entry
 * flushes the whole TLB: method cr3; no path, no algorithm). */
static void expand_lazy(struct expand *e, struct bcase *c, unsigned b, unsigned l)
{
	if (b >= AX_MAX || (e->lazy_seen[b] >> l & 1))
		return;
	e->lazy_seen[b] |= 1u << l;
	struct bcase x = *c;
	x.flush = XCB_FLUSH_VECTOR;
	x.method = XCB_METHOD_CR3;
	x.algo = 0;
	expand_shape(e, &x);
}

/* The deliveries an algorithm runs under, of those the suite asked for. One
 * that sends its own unicast IPIs (.sends = XCALL_SENDS_UNICAST: tree's
 * leaders) ignores delivery=, so one per delivery gave copies labelled
 * x2apic_cluster and allbutself that sent unicast (x_delivery_used said so),
 * and compare paired lockless-allbutself (the shorthand) with them. It runs
 * once: as `unicast`, what it sends, where the suite has unicast (compare then
 * pairs it with the others' unicast cases); else as `auto` (the policy's own
 * choice, which for it is unicast); under neither it has no case - it cannot
 * send as asked. */
static unsigned xcall_deliveries(const struct xcall_ops *a, unsigned asked)
{
	const unsigned uni = 1u << XCB_DELIVERY_UNICAST;
	if (a->sends != XCALL_SENDS_UNICAST)
		return asked;
	return (asked & uni) ? uni : asked & (1u << XCB_DELIVERY_AUTO);
}

/* kind=xcall: algorithm x delivery (xcall_deliveries) x wait (those the
 * algorithm declares) x harness x idle x group, each over the shapes. */
static void expand_xcall(struct expand *e, struct bcase *c, unsigned na)
{
	const struct suite *s = e->s;

	if (!(s->kinds & (1u << XCB_KIND_XCALL)))
		return;
	c->kind = XCB_KIND_XCALL;
	for_each_bit(a, s->algos, na) {
		c->algo = xcall_algos[a];
		for_each_bit(d, xcall_deliveries(c->algo, s->deliveries), XCB_N_delivery) {
			c->delivery = (enum xcb_delivery)d;
			for_each_bit(w, s->waits, XCB_N_wait) {
				/* only the waits the algorithm declares (xcall.h) */
				if (!(c->algo->waits & XCALL_WAIT_BIT(w)))
					continue;
				c->wait = (enum xcb_wait)w;
				for_each_bit(hw, s->harnesses, 2) {
					c->harness = hw;
					for_each_bit(id, s->idles, XCB_N_idle) {
						c->idle = id;
						/* G only where the algorithm has groups */
						unsigned ng = c->algo->set_group ? s->ngroups : 1;
						for (unsigned g = 0; g < ng; g++) {
							c->group = c->algo->set_group ? s->groups[g] : 0;
							expand_shape(e, c);
						}
						c->group = 0;
					}
					c->idle = XCB_IDLE_HLT;
				}
				c->harness = 0;
			}
		}
	}
}

/* One kind's shootdown axes under one delivery (c->delivery): path x
 * algorithm x method x batch (x rw-lock x mode, innermost, for sync: a group
 * of interleaved cases, bench.c, is then the three modes of one shape). */
static void expand_paths(struct expand *e, struct bcase *c, unsigned na, unsigned sync)
{
	const struct suite *s = e->s;
	unsigned nl = sync ? 2 : 1, nmd = sync ? XCB_N_sync_mode : 1;

	for_each_bit(p, s->flushes, XCB_N_flush) {
		c->flush = (enum xcb_flush)p;
		for (unsigned a = 0; a < na; a++) {
			/* only the xcall path runs through an algorithm */
			if (p != XCB_FLUSH_XCALL ? a > 0 : !(s->algos & (1u << a)))
				continue;
			c->algo = p != XCB_FLUSH_XCALL ? 0 : xcall_algos[a];
			/* one that sends its own unicast IPIs runs once, as xcall
			 * cases do (xcall_deliveries) */
			if (c->algo && !(xcall_deliveries(c->algo, s->flush_deliveries) >> c->delivery & 1u))
				continue;
			for_each_bit(m, s->methods, XCB_N_method) {
				/* sync: method none is its control, not a case */
				if (sync && m == XCB_METHOD_NONE)
					continue;
				c->method = (enum xcb_method)m;
				for (unsigned b = 0; b < s->nbatches; b++)
					for_each_bit(l, sync ? s->rwlocks : 1u, nl)
						for_each_bit(md, sync ? s->modes : 1u, nmd) {
							c->batch = s->batches[b];
							c->rwlock = l;
							c->mode = (enum xcb_sync_mode)md;
							if (sync_lazy(c))
								expand_lazy(e, c, b, l);
							else
								expand_shape(e, c);
						}
			}
		}
	}
}

/* TLB cases, and sync cases (seed 002) whose shootdown has the same axes plus
 * the rw-lock and the mode, and, outermost, the writer's CPU x the readers
 * (writer=0 readers=0: the boot CPU writes, the targets read - the cases
 * before those axes existed, with the same ids) x the delivery the
 * shootdowns are sent under (flush_deliveries: `auto` alone unless
 * deliveries= was given, so one delivery keeps the ids). A lazy sync case
 * sends no IPI: it comes once, under the first delivery (lazy_seen). */
static void expand_tlb_sync(struct expand *e, struct bcase *c, unsigned na)
{
	const struct suite *s = e->s;

	for (unsigned k = XCB_KIND_TLB; k <= XCB_KIND_SYNC; k += XCB_KIND_SYNC - XCB_KIND_TLB) {
		if (!(s->kinds & (1u << k)))
			continue;
		unsigned sync = k == XCB_KIND_SYNC;
		c->kind = (enum xcb_kind)k;
		c->wait = XCB_WAIT_DONE;
		c->batch_reads = sync ? (unsigned)s->batch_reads : 0;
		c->entry_us = sync ? (unsigned)s->entry_us : 0;
		for (unsigned wi = 0; wi < (sync ? s->nwriters : 1); wi++)
			for (unsigned ri = 0; ri < (sync ? s->nreaders : 1); ri++) {
				c->writer = sync ? s->writers[wi] : 0;
				c->readers = sync ? s->readers[ri] : 0;
				memset(e->lazy_seen, 0, sizeof(e->lazy_seen));
				for_each_bit(d, s->flush_deliveries, XCB_N_delivery) {
					c->delivery = (enum xcb_delivery)d;
					expand_paths(e, c, na, sync);
				}
			}
	}
	c->delivery = XCB_DELIVERY_AUTO;
	c->batch_reads = c->entry_us = c->rwlock = c->writer = c->readers = 0;
	c->mode = XCB_SYNC_INSIDE;
}

/* The floors: one initiator, one target, per placement. */
static void expand_raw(struct expand *e, struct bcase *c)
{
	const struct suite *s = e->s;

	if (!(s->kinds & (1u << XCB_KIND_RAW)))
		return;
	c->kind = XCB_KIND_RAW;
	c->algo = 0;
	c->delivery = XCB_DELIVERY_AUTO;
	c->wait = XCB_WAIT_DONE;
	c->inits = 1;
	c->mask = 1;
	c->overlap = 0;
	c->work_us = 0;
	for_each_bit(p, s->placements, XCB_N_placement) {
		c->placement = (enum xcb_placement)p;
		for (unsigned f = 0; f < XCB_N_floor; f++) {
			c->floor = (enum xcb_floor)f;
			emit(e, c);
		}
	}
}

static void expand_all(struct expand *e)
{
	struct bcase c = { 0 };
	unsigned na = nalgos();

	/* In this order: the case ids follow it. */
	expand_xcall(e, &c, na);
	expand_tlb_sync(e, &c, na);
	expand_raw(e, &c);
}

unsigned suite_for_each_case(const struct suite *s, unsigned ncpus,
			     void (*fn)(const struct bcase *c, void *ctx), void *ctx)
{
	struct expand e = { .s = s, .ncpus = ncpus, .count = 0, .fn = fn, .ctx = ctx };

	expand_all(&e);
	return e.count;
}

unsigned suite_shorthand_left(const struct suite *s, unsigned ncpus)
{
	struct expand e = { .s = s, .ncpus = ncpus };

	expand_all(&e);
	return e.shorthand_left;
}
