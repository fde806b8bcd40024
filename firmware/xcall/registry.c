/*
 * registry.c — the cross-call algorithms linked in: the linker table that
 * XCALL_ALGO() entries fill (section `xcall_algos`), sorted by name once,
 * and lookup by name. No platform code here, so suite tests can link it
 * with stand-in entries.
 */
#include "xcall/xcall.h"
#include "xcb_schema.h"

/* Defined by the linker: GNU ld for any section named like a C identifier
 * (host), boot/linker.ld for the payload. */
extern const struct xcall_ops *const __start_xcall_algos[];
extern const struct xcall_ops *const __stop_xcall_algos[];

/* Sorted copy, NULL-terminated. Written once by the first xcall_algo_list()
 * (CPU 0, before the APs run: xcall.h), read-only after. */
static const struct xcall_ops *sorted[XCALL_MAX_ALGOS + 1];
static unsigned nsorted, overflow;
static int ready;

/* Names compared as strcmp does; a missing name (a hand-written entry
 * without one) as "", so that the sort and the lookups never fault on it
 * and xcall_decl_error() can name the mistake. */
static int cmp(const char *a, const char *b)
{
	a = a ? a : "";
	b = b ? b : "";
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

const struct xcall_ops *const *xcall_algo_list(void)
{
	if (ready)
		return sorted;
	for (const struct xcall_ops *const *e = __start_xcall_algos; e < __stop_xcall_algos; e++) {
		if (nsorted == XCALL_MAX_ALGOS) {
			overflow++;	/* xcall_init_all() refuses to start */
			continue;
		}
		/* insertion by name */
		unsigned i = nsorted++;
		while (i > 0 && cmp(sorted[i - 1]->name, (*e)->name) > 0) {
			sorted[i] = sorted[i - 1];
			i--;
		}
		sorted[i] = *e;
	}
	sorted[nsorted] = 0;
	ready = 1;
	return sorted;
}

unsigned xcall_algo_count(void)
{
	xcall_algo_list();
	return nsorted;
}

/* Entries that did not fit XCALL_MAX_ALGOS (0 normally). */
unsigned xcall_algo_overflow(void)
{
	xcall_algo_list();
	return overflow;
}

const struct xcall_ops *xcall_find(const char *name)
{
	for (const struct xcall_ops *const *a = xcall_algo_list(); *a; a++)
		if (!cmp((*a)->name, name))
			return *a;
	return 0;
}

/*
 * Names an algorithm cannot take. The CASE key `algo` names one thing per
 * kind (proto/xcb_schema.h): a cross-call algorithm, or a flush path
 * (kind=tlb, flush other than xcall), a floor (kind=raw) or a sync mode
 * (kind=sync). An algorithm named like one of those would share its `algo`
 * value - the dashboard's charts and `xcbench compare --algo-a` select by
 * it - and `all` in algos= means every algorithm, so one named `all` could
 * never be selected alone. The words come from those vocabularies, not from
 * a list of their own here, so a new flush path or floor is reserved too.
 */
struct reserved_vocab {
	const char *const *names;
	unsigned n;
	const char *what;		/* how the error names the clash */
};
static const struct reserved_vocab reserved[] = {
	{ xcb_flush_names, XCB_N_flush, "name reserved: a flush path's (kind=tlb cases carry it as their algo)" },
	{ xcb_floor_names, XCB_N_floor, "name reserved: a floor's (kind=raw cases carry it as their algo)" },
	{ xcb_sync_mode_names, XCB_N_sync_mode, "name reserved: a sync mode's (kind=sync cases carry it as their algo)" },
};

/*
 * The one clash allowed, because it predates this check: the algorithm
 * `concurrent` and the flush path `concurrent` are the same idea (Linux 5.12:
 * the initiator runs its own share between sending and waiting) at two
 * layers. Their cases never meet: a kind=tlb case says which with its
 * `flush` key (xcall: the algorithm under the cross-call path; concurrent:
 * the path), which every comparison matches on, and kind=xcall has no flush
 * path. Renaming either would orphan the runs stored under the name. Only
 * this pair is exempt: a new algorithm named `concurrent` is refused as a
 * duplicate by the registry's sorted names (test_xcall test_names), and
 * `vector` or `lazy` as below.
 */
static int exempt(const char *name, const struct reserved_vocab *v)
{
	return v->names == xcb_flush_names && !cmp(name, xcb_flush_names[XCB_FLUSH_CONCURRENT]);
}

const char *xcall_name_reserved(const char *name)
{
	if (!cmp(name, "all"))
		return "name reserved: algos=all means every algorithm";
	for (unsigned v = 0; v < sizeof(reserved) / sizeof(reserved[0]); v++)
		for (unsigned i = 0; i < reserved[v].n; i++)
			if (!cmp(name, reserved[v].names[i]) && !exempt(name, &reserved[v]))
				return reserved[v].what;
	return 0;
}

#define XCALL_STR_(x) #x
#define XCALL_STR(x) XCALL_STR_(x)

const char *xcall_decl_error(const struct xcall_ops *o)
{
	if (!o->name || !*o->name)
		return "no name: XCALL_ALGO(name, ...) gives it";
	unsigned len = 0;
	for (const char *c = o->name; *c; c++, len++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_'))
			return "name must be [a-z0-9_]+ (algos=, the CASE key algo and HELLO's algo.NAME take no other)";
	if (len > XCALL_NAME_MAX)
		/* Short: it follows the name in xcall.c's init_err[]. Past
		 * it, HELLO's key algo.NAME would pass proto's XCB_KEY_MAX and
		 * the daemon drop the algorithm's description. */
		return "name longer than " XCALL_STR(XCALL_NAME_MAX) " characters (XCALL_NAME_MAX)";
	for (const struct xcall_ops *const *a = xcall_algo_list(); *a; a++)
		if (*a != o && !cmp((*a)->name, o->name))
			return "name taken by another algorithm: rename one (xcall_find() and algos= would pick one of them)";
	/* XCALL_ALGO() always names all three; a table written out by hand
	 * (two vectors) can leave one out, and a NULL init or call faulted at
	 * init or at the first call with no word of which algorithm. */
	if (!o->init || !o->call)
		return !o->init ? ".init missing: XCALL_ALGO() takes NAME_init; a hand-written table needs .init"
				: ".call missing: XCALL_ALGO() takes NAME_call; a hand-written table needs .call";
	/* A handler past .nipi never gets a vector: the calls it serves hang.
	 * (.nipi 0 is xcall_init_all's to say.) */
	for (unsigned k = o->nipi ? o->nipi : 1; k < XCALL_MAX_IPI; k++)
		if (o->handle_ipi[k])
			return ".handle_ipi has a handler past .nipi: raise .nipi, or it never runs";
	if (!o->desc || !*o->desc)
		return ".desc missing: one line saying what it does (HELLO, the API, xcbench show)";
	len = 0;
	for (const char *c = o->desc; *c; c++, len++)
		if (*c == '\n' || *c == '\r')
			return ".desc must be one line";
	if (len > XCALL_DESC_MAX)
		/* HELLO's buffer is sized for XCALL_MAX_ALGOS descriptions of
		 * this length (bench/hello_algos.h): past it HELLO was cut off. */
		return ".desc longer than " XCALL_STR(XCALL_DESC_MAX) " characters (XCALL_DESC_MAX)";
	return 0;
}
