/*
 * platform_host.c — lib/platform.h and xcall/platform.h for host tests:
 * pthreads as CPUs; cycles are CLOCK_MONOTONIC nanoseconds.
 *
 * An IPI adds one to the target's pending count of its kind; the target
 * notices it in plat_cpu_relax() (every spin loop calls it) when its
 * simulated interrupt flag is on, and runs the registered handler once with
 * the flag off — several IPIs of one kind that arrived meanwhile coalesce,
 * as in the APIC's IRR — exactly what a real CPU spinning with interrupts
 * enabled does, which is what keeps an A->B / B->A pair of calls from
 * deadlocking.
 *
 * Any thread may send — an initiator, or a target's handler forwarding (a
 * tree's leader) — and a test ends only when none is in flight: `inflight`
 * counts IPIs sent and not yet handled to the end, so a forwarded IPI that
 * arrives after every CPU's fn returned is still served in its own test,
 * never left over to be run as a duplicate in the next one.
 *
 * The pending count is raised with RELEASE and taken with ACQUIRE, because that
 * is what the hardware gives: the APIC layer orders every ICR write after
 * the sender's earlier stores (arch/apic.c: MFENCE; LFENCE before the x2APIC
 * WRMSR, xAPIC's UC MMIO write by itself), so a target's handler sees every
 * store its initiator made before the IPI. With relaxed bits C11 would let the handler read the
 * algorithm's state from before the call, find nothing for it, and return:
 * a lost call would be an ALLOWED outcome, so the test could prove race
 * freedom but not liveness. With the pair, a lost call is a bug the test
 * reports. The algorithms' own acquire/release pairs (among initiators,
 * and target -> initiator, which no IPI covers) are still what TSan checks.
 *
 * TLB model: one shared page table (window page -> frame, -1 = not present)
 * and a private software TLB per CPU that caches a translation on first use
 * and keeps it until this CPU invalidates it — never a not-present one, like
 * x86 — so a missing shootdown shows up as a stale read.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/platform.h"
#include "xcall/platform.h"
#include "xcall/platform_host.h"
#include "xcall/amask.h"

struct hcpu {
	uint32_t pending[PLAT_IPI_NR];	/* IPIs waiting, per kind (atomic) */
	int irq_on;			/* simulated IF; this thread only */
	int in_handler;
} __attribute__((aligned(64)));

static unsigned ncpus_h;
static struct hcpu *cpus;
static plat_ipi_handler_t handlers[PLAT_IPI_NR];
static __thread unsigned my_cpu;
static uint64_t ipis_sent;
static uint64_t ipis_kind[PLAT_IPI_NR];
static unsigned finished;		/* CPUs whose fn returned (atomic) */
static uint64_t inflight;		/* IPIs sent, not yet served to the end (atomic) */
static unsigned pool_used;		/* pool kinds handed out (init, CPU 0) */

/* TLB window */
static unsigned tw_pages;
static int *pt;				/* shared page table (atomic ints) */
static uint64_t *frames;		/* 2*tw_pages markers */
static int *tlb;			/* [cpu][page]: cached frame, -2 = none */
static uint64_t tlb_nocache;		/* CPUs that cache nothing (test control) */

void plat_host_tlb_nocache(uint64_t mask)
{
	/* relaxed: set by the test between runs (thread creation orders it). */
	__atomic_store_n(&tlb_nocache, mask, __ATOMIC_RELAXED);
}

/* XCB_HOST_TURN_US=N: every turn of every spin (plat_cpu_relax) lasts N µs,
 * slept instead of yielded — a loaded host, made repeatable: a host under
 * other load gave 8 spinning threads ~3 ms a turn, and what a wait does
 * "after K turns" came K times that late (t-xcall-faults: no_checkin). 0:
 * yield, as ever. */
static unsigned turn_us;

int plat_host_init(unsigned ncpus)
{
	const char *e = getenv("XCB_HOST_TURN_US");

	if (ncpus == 0 || ncpus > AMASK_MAX_CPUS)
		return -1;
	turn_us = e ? (unsigned)strtoul(e, NULL, 10) : 0;
	ncpus_h = ncpus;
	free(cpus);
	cpus = calloc(ncpus, sizeof(*cpus));
	if (!cpus)
		return -1;
	my_cpu = 0;
	cpus[0].irq_on = 1;
	return 0;
}

uint64_t plat_host_inflight(void)
{
	/* acquire: pairs with serve()'s release decrement. */
	return __atomic_load_n(&inflight, __ATOMIC_ACQUIRE);
}

uint64_t plat_host_ipis(void)
{
	/* relaxed: a pure counter, read by tests once the CPU threads joined. */
	return __atomic_load_n(&ipis_sent, __ATOMIC_RELAXED);
}

uint64_t plat_host_ipis_of(unsigned kind)
{
	/* relaxed: as plat_host_ipis() */
	return kind < PLAT_IPI_NR ? __atomic_load_n(&ipis_kind[kind], __ATOMIC_RELAXED) : 0;
}

unsigned plat_cpu_id(void) { return my_cpu; }

int plat_host_in_handler(void)
{
	return cpus[my_cpu].in_handler;	/* this thread's own */
}
unsigned plat_num_cpus(void) { return ncpus_h; }

void plat_ipi_register(enum plat_ipi kind, plat_ipi_handler_t fn)
{
	/* Registered on CPU 0 before the CPU threads start (pthread_create
	 * orders it before their reads). */
	handlers[kind] = fn;
}

void plat_ipi_pool_reset(void)
{
	pool_used = 0;
	for (unsigned k = PLAT_IPI_POOL0; k < PLAT_IPI_NR; k++)
		handlers[k] = NULL;
}

int plat_ipi_alloc(void)
{
	/* The same pool size as the payload's (platform.h). */
	return pool_used == PLAT_IPI_POOL ? -1 : (int)(PLAT_IPI_POOL0 + pool_used++);
}

void plat_send_ipi(unsigned cpu, enum plat_ipi kind)
{
	if ((unsigned)kind >= PLAT_IPI_NR || !handlers[kind] || cpu >= ncpus_h) {
		fprintf(stderr, "platform_host: IPI kind %u to CPU %u from CPU %u: %s\n", (unsigned)kind, cpu,
			my_cpu, cpu >= ncpus_h ? "no such CPU" : "kind not allocated/registered");
		abort();
	}
	/* Counted in flight before it can be seen: pairs with the acq_rel
	 * decrement in serve(), after the handler (which may itself send,
	 * counting its own first), so inflight == 0 means none pending and none
	 * being handled. */
	__atomic_fetch_add(&inflight, 1, __ATOMIC_RELAXED);
	/* release: pairs with the acquire exchange in serve() — the model of
	 * the APIC layer's fence before the ICR write (top of this file). */
	__atomic_fetch_add(&cpus[cpu].pending[kind], 1, __ATOMIC_RELEASE);
	__atomic_fetch_add(&ipis_sent, 1, __ATOMIC_RELAXED);	/* a counter */
	__atomic_fetch_add(&ipis_kind[kind], 1, __ATOMIC_RELAXED);	/* per kind, likewise */
}

void plat_send_ipi_mask(const struct amask *mask, enum plat_ipi kind)
{
	unsigned c;
	amask_for_each(c, mask, amask_words(ncpus_h))
		plat_send_ipi(c, kind);
}

/* Take and run this CPU's pending IPIs, interrupts "off" meanwhile. */
static void serve(void)
{
	struct hcpu *me = &cpus[my_cpu];

	for (unsigned k = 0; k < PLAT_IPI_NR; k++) {
		/* relaxed peek first: most kinds are idle. */
		if (!__atomic_load_n(&me->pending[k], __ATOMIC_RELAXED))
			continue;
		/* acquire: pairs with the release add in plat_send_ipi(), so the
		 * handler sees what the sender stored before it sent the IPI. */
		uint32_t n = __atomic_exchange_n(&me->pending[k], 0, __ATOMIC_ACQUIRE);
		if (!n)
			continue;
		me->irq_on = 0;
		me->in_handler = 1;
		handlers[k]();	/* registered for every kind that is sent (plat_send_ipi) */
		me->in_handler = 0;
		me->irq_on = 1;
		/* release: the handler's effects (and its own sends' increments)
		 * before the drop; pairs with the acquire loads in cpu_thread(). */
		__atomic_fetch_sub(&inflight, n, __ATOMIC_RELEASE);
	}
}

void plat_cpu_relax(void)
{
	if (cpus[my_cpu].irq_on)
		serve();
	if (turn_us) {
		struct timespec ts = { turn_us / 1000000, (long)(turn_us % 1000000) * 1000 };
		nanosleep(&ts, NULL);
		return;
	}
	/* 8+ spinning threads on 2 loaded cores: give the CPU away. */
	sched_yield();
}

uint64_t plat_cycles(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t plat_cycles_fast(void) { return plat_cycles(); }
uint64_t plat_tsc_khz(void) { return 1000000; }	/* ns per ms */
uint64_t plat_now_us(void) { return plat_cycles() / 1000; }

int plat_irqs_enabled(void) { return cpus[my_cpu].irq_on; }

void plat_irq_enable(void) { cpus[my_cpu].irq_on = 1; }

unsigned long plat_irq_save(void)
{
	unsigned long f = (unsigned long)cpus[my_cpu].irq_on;
	cpus[my_cpu].irq_on = 0;
	return f;
}

void plat_irq_restore(unsigned long flags)
{
	cpus[my_cpu].irq_on = (int)flags;
}

void *plat_alloc_zeroed(unsigned long bytes)
{
	return calloc(1, bytes ? bytes : 1);
}

struct run_arg {
	void (*fn)(unsigned, void *);
	void *arg;
	unsigned cpu;
};

static void *cpu_thread(void *p)
{
	struct run_arg *ra = p;

	my_cpu = ra->cpu;
	cpus[my_cpu].irq_on = 1;
	ra->fn(ra->cpu, ra->arg);
	/* release/acquire on `finished`: once a CPU sees every CPU finished,
	 * every call any fn made has been sent (and counted in inflight). */
	__atomic_fetch_add(&finished, 1, __ATOMIC_RELEASE);
	/* Keep answering until everyone is done and nothing is in flight:
	 * others may still be waiting for us, and a handler anywhere may still
	 * forward an IPI to us (a tree's leader). */
	while (__atomic_load_n(&finished, __ATOMIC_ACQUIRE) < ncpus_h ||
	       __atomic_load_n(&inflight, __ATOMIC_ACQUIRE))
		plat_cpu_relax();
	return NULL;
}

void plat_host_run(void (*fn)(unsigned cpu, void *arg), void *arg)
{
	pthread_t th[AMASK_MAX_CPUS];
	struct run_arg ra[AMASK_MAX_CPUS];

	/* relaxed: no CPU thread exists yet; pthread_create publishes it. */
	__atomic_store_n(&finished, 0, __ATOMIC_RELAXED);
	for (unsigned i = 0; i < ncpus_h; i++) {
		ra[i] = (struct run_arg){ fn, arg, i };
		if (pthread_create(&th[i], NULL, cpu_thread, &ra[i])) {
			perror("pthread_create");
			abort();
		}
	}
	for (unsigned i = 0; i < ncpus_h; i++)
		pthread_join(th[i], NULL);
	/* acquire: as in cpu_thread (and joined: nothing can send now). */
	if (__atomic_load_n(&inflight, __ATOMIC_ACQUIRE)) {
		fprintf(stderr, "platform_host: %llu IPIs still in flight after every CPU exited\n",
			(unsigned long long)inflight);
		abort();
	}
	my_cpu = 0;
	cpus[0].irq_on = 1;
}

/* ---- TLB window -------------------------------------------------------- */

int plat_tw_init(unsigned npages)
{
	tw_pages = npages;
	pt = calloc(npages, sizeof(*pt));
	frames = calloc(PLAT_TW_FRAMES * npages, sizeof(*frames));
	tlb = malloc((size_t)ncpus_h * npages * sizeof(*tlb));
	if (!pt || !frames || !tlb)
		return -1;
	for (unsigned i = 0; i < npages; i++)
		pt[i] = -1;
	for (size_t i = 0; i < (size_t)ncpus_h * npages; i++)
		tlb[i] = -2;
	return (int)npages;
}

void plat_tw_map(unsigned page, int frame)
{
	/* release: a CPU that walks the table (acquire) after missing in its
	 * TLB sees a complete entry — the real walker reads a whole PTE. */
	__atomic_store_n(&pt[page], frame < 0 ? -1 : frame, __ATOMIC_RELEASE);
}

volatile uint64_t *plat_tw_frame(unsigned frame)
{
	return &frames[frame];
}

int plat_tw_read(unsigned page, uint64_t *val)
{
	int *e = &tlb[(size_t)my_cpu * tw_pages + page];

	if (my_cpu < 64 && (__atomic_load_n(&tlb_nocache, __ATOMIC_RELAXED) >> my_cpu & 1))
		*e = -2;			/* this CPU keeps nothing */
	if (*e == -2) {				/* TLB miss: walk */
		int f = __atomic_load_n(&pt[page], __ATOMIC_ACQUIRE);
		if (f < 0)
			return -1;		/* #PF; not-present is never cached */
		*e = f;
	}
	*val = frames[*e];			/* written once, before any thread */
	return 0;
}

void plat_tlb_flush(enum plat_tlb_op op, unsigned page)
{
	int *row = &tlb[(size_t)my_cpu * tw_pages];

	switch (op) {
	case PLAT_TLB_INVLPG:
	case PLAT_TLB_INVPCID:		/* individual-address invalidation */
		row[page] = -2;
		break;
	case PLAT_TLB_CR3:
		for (unsigned i = 0; i < tw_pages; i++)
			row[i] = -2;
		break;
	case PLAT_TLB_NONE:
		break;
	}
}

int plat_tlb_supported(enum plat_tlb_op op)
{
	(void)op;
	return 1;
}

int plat_tw_fault_safe(void)
{
	return 1;
}

/* Waits' notes (platform.h), as the payload keeps them: per waiting CPU, the
 * CPU waited on and what for, which a host test's time bound names
 * (test_xcall's quiet phase: an initiator that every target answered but
 * still waits). Relaxed: a diagnostic read by the watcher thread while the
 * waiter may change it; `what` is a string literal, and the pair may be
 * read torn between two waits, which costs only a stale word in a report. */
static struct { unsigned target; const char *what; } wait_notes[AMASK_MAX_CPUS];
/* The wait's clock (platform.h plat_wait_look): µs of its first look or last
 * note; each thread's own. */
static __thread uint64_t wait_since;

int plat_wait_look(unsigned *spins)
{
	uint64_t now = plat_now_us();

	if (*spins == PLAT_WAIT_LOOK_TURNS) {	/* this wait's first look */
		wait_since = now;
		return 0;
	}
	if (now - wait_since < PLAT_WAIT_NOTE_US)
		return 0;
	wait_since = now;
	*spins = PLAT_WAIT_NOTED;
	return 1;
}

void plat_wait_note(unsigned target, const char *what)
{
	__atomic_store_n(&wait_notes[my_cpu].target, target, __ATOMIC_RELAXED);
	__atomic_store_n(&wait_notes[my_cpu].what, what, __ATOMIC_RELAXED);
}

void plat_wait_clear(void)
{
	__atomic_store_n(&wait_notes[my_cpu].what, NULL, __ATOMIC_RELAXED);
}

int plat_waiting_on(unsigned cpu, const char **what)
{
	if (cpu >= AMASK_MAX_CPUS)
		return -1;
	*what = __atomic_load_n(&wait_notes[cpu].what, __ATOMIC_RELAXED);
	return *what ? (int)__atomic_load_n(&wait_notes[cpu].target, __ATOMIC_RELAXED) : -1;
}

/* The lost-answer fault: payload-only (the host tests have fault builds). */
unsigned plat_lost_cpu(enum plat_lost site) { (void)site; return ~0u; }
uint64_t plat_raw_wait_ms(void) { return 0; }
