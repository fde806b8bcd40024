/*
 * dbi_pg_sql.c — rewriting the daemon's SQL (written in the subset of
 * dbi.h) for PostgreSQL, once per prepared statement:
 *   ?      -> $N, N one more than the highest so far (SQLite's rule);
 *   ?N     -> $N;
 *   :name  -> $N, the same N for each use of the name;
 *   json_extract(x, '$.key') -> (x::jsonb ->> 'key') (the CASE keys are
 *             strings, so text is what SQLite returns too);
 * and it notes which parameters are a LIMIT's (SQLite's LIMIT -1 is "all",
 * bound as NULL here). Quoted strings, quoted names and comments are copied
 * as they are.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "dbi_pg_sql.h"
#include "util.h"

enum { PARAMS_MAX = 256 };

static int ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The word that ends at s[end) (letters only), upper-cased into w. */
static void last_word(const struct buf *out, char *w, size_t n)
{
	size_t e = out->len, b;

	while (e && isspace((unsigned char)out->p[e - 1]))
		e--;
	b = e;
	while (b && ident_char(out->p[b - 1]))
		b--;
	if (e - b >= n)
		b = e - (n - 1);
	for (size_t i = b; i < e; i++)
		w[i - b] = (char)toupper((unsigned char)out->p[i]);
	w[e - b] = 0;
}

/* json_extract(EXPR, '$.KEY') at s (s points at "json_extract("): the
 * rewrite appended to out, and the length consumed; 0 if not that form. */
static size_t json_extract(const char *s, struct buf *out)
{
	const char *p = s + strlen("json_extract("), *comma, *key, *kend, *close;

	comma = strchr(p, ',');
	if (!comma || memchr(p, '(', (size_t)(comma - p)))
		return 0;
	key = comma + 1;
	while (*key == ' ')
		key++;
	if (strncmp(key, "'$.", 3))
		return 0;
	key += 3;
	kend = strchr(key, '\'');
	if (!kend)
		return 0;
	close = kend + 1;
	while (*close == ' ')
		close++;
	if (*close != ')')
		return 0;
	buf_addf(out, "((%.*s)::jsonb ->> '%.*s')", (int)(comma - p), p, (int)(kend - key), key);
	return (size_t)(close + 1 - s);
}

int pg_sql_rewrite(const char *sql, struct pg_sql *q)
{
	struct buf out = { 0 };
	char *names[PARAMS_MAX + 1] = { 0 }, limit[PARAMS_MAX + 1] = { 0 }, used[PARAMS_MAX + 1] = { 0 }, w[8];
	int n = 0;
	const char *s = sql;

	memset(q, 0, sizeof(*q));
	while (*s) {
		int idx = 0;

		if (*s == '\'' || *s == '"') {
			const char *e = strchr(s + 1, *s);

			e = e ? e + 1 : s + strlen(s);
			buf_addf(&out, "%.*s", (int)(e - s), s);
			s = e;
			continue;
		}
		if (s[0] == '-' && s[1] == '-') {
			const char *e = strchr(s, '\n');

			e = e ? e : s + strlen(s);
			buf_addf(&out, "%.*s", (int)(e - s), s);
			s = e;
			continue;
		}
		if (strncasecmp(s, "json_extract(", 13) == 0 && (s == sql || !ident_char(s[-1]))) {
			size_t used = json_extract(s, &out);

			if (used) {
				s += used;
				continue;
			}
		}
		if (*s == '?') {
			char *e;
			long v = strtol(s + 1, &e, 10);

			idx = e > s + 1 ? (int)v : n + 1;
			s = e > s + 1 ? e : s + 1;
		} else if (*s == ':' && s[1] != ':' && (s == sql || s[-1] != ':') &&
			   (isalpha((unsigned char)s[1]) || s[1] == '_')) {
			const char *e = s + 1;

			while (ident_char(*e))
				e++;
			for (int i = 1; i <= n && !idx; i++)
				if (names[i] && strlen(names[i]) == (size_t)(e - s) && !strncmp(names[i], s, (size_t)(e - s)))
					idx = i;
			if (!idx) {
				idx = n + 1;
				if (idx > PARAMS_MAX)
					goto fail;
				names[idx] = strndup(s, (size_t)(e - s));
			}
			s = e;
		} else {
			buf_addf(&out, "%c", *s++);
			continue;
		}
		if (idx < 1 || idx > PARAMS_MAX)
			goto fail;
		last_word(&out, w, sizeof(w));
		if (!strcmp(w, "LIMIT"))
			limit[idx] = 1;
		used[idx] = 1;
		buf_addf(&out, "$%d", idx);
		if (idx > n)
			n = idx;
	}
	q->sql = out.p ? out.p : strdup("");
	q->nparams = n;
	q->names = calloc((size_t)n + 1, sizeof(*q->names));
	q->is_limit = calloc((size_t)n + 1, 1);
	q->used = calloc((size_t)n + 1, 1);
	if (!q->sql || !q->names || !q->is_limit || !q->used)
		goto fail_q;
	memcpy(q->used, used, (size_t)n + 1);
	memcpy(q->names, names, ((size_t)n + 1) * sizeof(*names));
	memcpy(q->is_limit, limit, (size_t)n + 1);
	return 0;
fail:
	free(out.p);
fail_q:
	free(q->sql);
	for (int i = 0; i <= PARAMS_MAX; i++)
		free(names[i]);
	free(q->names);
	free(q->is_limit);
	free(q->used);
	memset(q, 0, sizeof(*q));
	return -1;
}

void pg_sql_free(struct pg_sql *q)
{
	for (int i = 1; q->names && i <= q->nparams; i++)
		free(q->names[i]);
	free(q->names);
	free(q->is_limit);
	free(q->used);
	free(q->sql);
	memset(q, 0, sizeof(*q));
}

int pg_sql_param_index(const struct pg_sql *q, const char *name)
{
	for (int i = 1; i <= q->nparams; i++)
		if (q->names[i] && !strcmp(q->names[i], name))
			return i;
	return 0;
}
