/* lib/cmdline.c — key=value command-line parsing (see lib/cmdline.h). */
#include "lib/cmdline.h"
#include "lib/cmdline_words.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "xcb_secret.h"

static char line[CMDLINE_MAX];
static char shown[CMDLINE_MAX]; /* line, secrets masked (cmdline_shown) */
static char words[CMDLINE_MAX];
static const char *key_of[CMDLINE_MAX_WORDS];
static const char *val_of[CMDLINE_MAX_WORDS];
static int nwords;

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Lower-case ASCII. */
static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

size_t cmdline_image_name_len(const char *s, const char *image)
{
	size_t n = 0, lead = 0;
	if (!s)
		return 0;
	while (is_space(s[lead]))
		lead++;
	s += lead;
	bool eq = false, sep = false;
	while (s[n] && !is_space(s[n])) {
		eq |= s[n] == '=';
		sep |= s[n] == '\\' || s[n] == '/' || s[n] == ':';
		n++;
	}
	if (!n || eq)
		return 0;
	/* A file: a path, or a name ending in .efi (iPXE passes the image's
	 * name, the shell its path) - or exactly the name the firmware loaded. */
	bool efi = n > 4 && s[n - 4] == '.' && lower(s[n - 3]) == 'e' && lower(s[n - 2]) == 'f' &&
		   lower(s[n - 1]) == 'i';
	bool same = image && *image && strlen(image) == n;
	for (size_t i = 0; same && i < n; i++)
		same = lower(s[i]) == lower(image[i]);
	if (!sep && !efi && !same)
		return 0;
	while (is_space(s[n]))
		n++;
	return lead + n;
}

/* Copies and splits s, which has no image name in front. */
static int split(const char *s);

int cmdline_init_noname(const char *s)
{
	nwords = 0;
	line[0] = 0;
	if (!s)
		return 0;
	while (is_space(*s))
		s++;
	return split(s);
}

int cmdline_init(const char *s)
{
	nwords = 0;
	line[0] = 0;
	shown[0] = 0;
	if (!s)
		return 0;
	while (is_space(*s))
		s++;
	/* Drop the image name QEMU/iPXE/GRUB put first (a word without '='). */
	const char *e = s;
	while (*e && !is_space(*e))
		e++;
	bool first_has_eq = false;
	for (const char *p = s; p < e; p++)
		if (*p == '=')
			first_has_eq = true;
	if (!first_has_eq && e > s) {
		s = e;
		while (is_space(*s))
			s++;
	}
	return split(s);
}

static int split(const char *s)
{
	xcb_strlcpy(line, s, sizeof(line));
	xcb_strlcpy(words, line, sizeof(words));
	xcb_strlcpy(shown, line, sizeof(shown));
	xcb_mask_secrets(shown, strlen(shown));

	char *p = words;
	while (*p && nwords < CMDLINE_MAX_WORDS) {
		while (is_space(*p))
			*p++ = 0;
		if (!*p)
			break;
		char *k = p;
		while (*p && !is_space(*p))
			p++;
		if (*p)
			*p++ = 0;
		char *eq = strchr(k, '=');
		if (eq) {
			*eq = 0;
			val_of[nwords] = eq + 1;
		} else {
			val_of[nwords] = "";
		}
		key_of[nwords++] = k;
	}
	return nwords;
}

const char *cmdline_get(void)
{
	return line;
}

const char *cmdline_shown(void)
{
	return shown;
}

int cmdline_check_keys(void)
{
	int bad = 0;
	for (int i = 0; i < nwords; i++) {
		if (!cmdline_key_find(key_of[i])) {
			const struct cmdline_key *m = cmdline_key_nearest(key_of[i]);
			if (m)
				kprintf("xcbench: warning: unknown cmdline key '%s' (ignored); did you mean '%s' (%s)?\n",
					key_of[i], m->key, m->help);
			else
				kprintf("xcbench: warning: unknown cmdline key '%s' (ignored)\n", key_of[i]);
			bad++;
		}
	}
	return bad;
}

static int find(const char *key)
{
	for (int i = nwords - 1; i >= 0; i--)
		if (!strcmp(key_of[i], key))
			return i;
	return -1;
}

bool cmdline_has(const char *key)
{
	return find(key) >= 0;
}

const char *cmdline_str(const char *key, const char *dflt)
{
	int i = find(key);
	return i < 0 ? dflt : val_of[i];
}

int cmdline_u64(const char *key, uint64_t dflt, uint64_t *out)
{
	*out = dflt;
	int i = find(key);
	if (i < 0)
		return 0;
	uint64_t v;
	if (cmdline_parse_u64(val_of[i], &v) < 0) {
		kprintf("xcbench: error: cmdline key '%s': bad number '%s'\n", key, val_of[i]);
		return -1;
	}
	*out = v;
	return 0;
}

int cmdline_cpu(const char *key, unsigned ncpus, unsigned *out)
{
	uint64_t v;

	*out = ~0u;
	if (cmdline_u64(key, ~0ull, &v) < 0)
		return -1;
	if (!cmdline_has(key))
		return 0;
	if (v >= ncpus) {
		kprintf("xcbench: error: cmdline key '%s': cpu %llu is not online (cpus 0-%u)\n", key,
			(unsigned long long)v, ncpus ? ncpus - 1 : 0);
		return -1;
	}
	*out = (unsigned)v;
	return 0;
}

/* s split at sep into out's items (empty ones skipped): a list value's
 * commas, a word list's '|' (CMDLINE_ALTS). */
static unsigned split_items(const char *s, char sep, struct cmdline_items *out)
{
	out->n = 0;
	xcb_strlcpy(out->buf, s, sizeof(out->buf));
	char *p = out->buf;
	while (*p && out->n < CMDLINE_LIST_MAX) {
		char *w = p;
		while (*p && *p != sep)
			p++;
		if (*p)
			*p++ = 0;
		if (*w)
			out->item[out->n++] = w;
	}
	return out->n;
}

void cmdline_refuse(const char *key, const char *v, const char *const *words, const char *const *names, unsigned n,
		    const char *more)
{
	/* The nearest word, else the nearest name (lib/cmdline_key.c's
	 * measure, the host's too): a typo among a dozen words is found by
	 * eye only slowly. */
	int near = cmdline_nearest(v, words, n);
	const char *const *nw = words;
	if (near < 0 && names)
		near = cmdline_nearest(v, names, n), nw = names;
	kprintf("xcbench: error: cmdline key '%s': unknown value '%s'", key, v);
	if (near >= 0)
		kprintf("; did you mean '%s'?", nw[near]);
	kprintf(" (one of:");
	for (unsigned j = 0; j < n; j++) {
		if (words[j])
			kprintf(" %s", words[j]);
		if (names && names[j] && (!words[j] || strcmp(names[j], words[j])))
			kprintf(" %s", names[j]);
	}
	kprintf("%s%s)\n", more ? " " : "", more ? more : "");
}

void cmdline_refuse_alts(const char *key, const char *v, const char *alts)
{
	struct cmdline_items w;
	split_items(alts, '|', &w);
	cmdline_refuse(key, v, w.item, NULL, w.n, NULL);
}

int cmdline_choice(const char *key, const char *choices, int dflt_index)
{
	int i = find(key);
	if (i < 0)
		return dflt_index;
	const char *v = val_of[i];
	int idx = cmdline_word_index(choices, v);
	if (idx >= 0)
		return idx;
	cmdline_refuse_alts(key, v, choices);
	return -1;
}

unsigned cmdline_list(const char *key, struct cmdline_items *out)
{
	int i = find(key);
	if (i < 0) {
		out->n = 0;
		return 0;
	}
	return split_items(val_of[i], ',', out);
}
