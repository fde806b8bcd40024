/*
 * xcb_schema_desc.c — the run-time descriptors of xcb_schema.h's tables (case
 * axes, RESULT fields, vocabularies) and the look-ups over them, for the host
 * (the daemon's store, GET /api/v1/schema, the unit tests). The firmware
 * links nothing of it (--gc-sections). Freestanding all the same: no libc.
 */
#include "xcb_schema.h"
#include "xcb_proto.h"

#define VOCAB_DESC(name, LIST, tag) { #name, xcb_##name##_names, xcb_##name##_words, XCB_N_##name },
const struct xcb_vocab xcb_vocabs[] = { XCB_VOCABS(VOCAB_DESC) };
#undef VOCAB_DESC
const unsigned xcb_n_vocabs = sizeof(xcb_vocabs) / sizeof(xcb_vocabs[0]);

#define HV_DESC(sig, name) { sig, name },
const struct xcb_hypervisor xcb_hypervisors[] = { XCB_HYPERVISORS(HV_DESC) };
#undef HV_DESC
const unsigned xcb_n_hypervisors = sizeof(xcb_hypervisors) / sizeof(xcb_hypervisors[0]);

#define FACT_TEXT "text"
#define FACT_YES_NO "yes_no"
#define FACT_CYCLES "cycles"
#define FACT_CODE "code"
#define FACT_PART "part"
#define FACT_DESC(key, name, shown) { key, name, FACT_##shown },
const struct xcb_hello_fact xcb_hello_facts[] = { XCB_HELLO_FACTS(FACT_DESC) };
#undef FACT_DESC
const unsigned xcb_n_hello_facts = sizeof(xcb_hello_facts) / sizeof(xcb_hello_facts[0]);

#define STORE_COL 1
#define STORE_JSON 0
#define AXIS_DESC(key, type, role, store, pref, vocab) \
	{ #key, XCB_TY_##type, XCB_ROLE_##role, STORE_##store, pref, vocab },
const struct xcb_axis xcb_axes[XCB_N_AXES] = { XCB_CASE_AXES(AXIS_DESC) };
#undef AXIS_DESC

/* struct xcb_result mirrors the wire (one member per field, no padding), so
 * a member's offset is its field's wire offset. */
#define FIELD_DESC(name, bits, part) \
	{ #name, bits, offsetof(struct xcb_result, name), XCB_PART_##part },
const struct xcb_field xcb_result_fields[XCB_N_RESULT_FIELDS] = { XCB_RESULT_FIELDS(FIELD_DESC) };
#undef FIELD_DESC

uint64_t xcb_result_get(const struct xcb_result *r, unsigned i)
{
	const uint8_t *m = (const uint8_t *)r + xcb_result_fields[i].offset;

	switch (xcb_result_fields[i].bits) {
	case 64: return *(const uint64_t *)m;
	case 32: return *(const uint32_t *)m;
	default: return *(const uint16_t *)m;
	}
}

/* Byte-wise compare of a counted key with a C string (no libc here). */
static int key_is(const char *k, size_t len, const char *s)
{
	size_t i = 0;

	while (i < len && s[i] && k[i] == s[i])
		i++;
	return i == len && !s[i];
}

const struct xcb_axis *xcb_axis_find(const char *key, size_t len)
{
	for (unsigned i = 0; i < XCB_N_AXES; i++)
		if (key_is(key, len, xcb_axes[i].key))
			return &xcb_axes[i];
	return 0;
}

int xcb_axis_matches(const char *key, int without_algo)
{
	size_t len = 0;
	const struct xcb_axis *a;

	while (key[len])
		len++;
	a = xcb_axis_find(key, len);
	if (!a) {
		const char *pre = XCB_NOTE_PREFIX;
		size_t i = 0;

		while (pre[i] && key[i] == pre[i])
			i++;
		return pre[i] != 0; /* matched unless the whole prefix is there */
	}
	if (without_algo && a == &xcb_axes[XCB_AX_algo])
		return 0;
	return a->role == XCB_ROLE_IDENTITY || a->role == XCB_ROLE_CHART || a->role == XCB_ROLE_AXIS;
}

const struct xcb_vocab *xcb_vocab_find(const char *name)
{
	size_t len = 0;

	while (name[len])
		len++;
	for (unsigned i = 0; i < xcb_n_vocabs; i++)
		if (key_is(name, len, xcb_vocabs[i].name))
			return &xcb_vocabs[i];
	return 0;
}

const char *xcb_hypervisor_name(const char *sig)
{
	const char *s = sig;
	size_t n = 0;

	while (*s == ' ')
		s++;
	while (s[n])
		n++;
	if (!n || key_is(s, n, "none") || key_is(s, n, "0"))
		return XCB_HV_BARE_METAL;
	for (unsigned i = 0; i < xcb_n_hypervisors; i++) {
		const char *p = xcb_hypervisors[i].signature;
		unsigned k = 0;

		while (p[k] && s[k] == p[k])
			k++;
		if (!p[k])
			return xcb_hypervisors[i].name;
	}
	return 0;
}

const char *xcb_type_text(enum xcb_type_id t)
{
	return t == XCB_TY_INT ? "integer" : "text";
}

const char *xcb_role_text(enum xcb_role r)
{
	static const char *const names[] = { "id", "identity", "chart", "axis", "param", "note" };

	return (unsigned)r < sizeof(names) / sizeof(names[0]) ? names[r] : "?";
}

const char *xcb_part_text(enum xcb_part p)
{
	static const char *const names[] = { "key", "v1", "pad", "appended" };

	return (unsigned)p < sizeof(names) / sizeof(names[0]) ? names[p] : "?";
}
