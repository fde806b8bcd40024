/*
 * xcb_secret.c — masks the values of secret command-line keys in a text
 * (xcb_secret.h). No libc: the payload links it too.
 */
#include "xcb_secret.h"

static const char *const secret_keys[] = { "run", "server" };

static int word_end(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '"' || c == '\'';
}

/* The length of the secret key (with its '=') that starts at s[i], or 0.
 * A key starts a word, or follows '=' ("cmdline=run=..." is a HELLO fact
 * whose command line starts with the token). */
static size_t secret_at(const char *s, size_t i, size_t len)
{
	if (i > 0 && !word_end(s[i - 1]) && s[i - 1] != '=')
		return 0;
	for (size_t k = 0; k < sizeof(secret_keys) / sizeof(secret_keys[0]); k++) {
		const char *key = secret_keys[k];
		size_t n = 0;

		while (key[n] && i + n < len && s[i + n] == key[n])
			n++;
		if (!key[n] && i + n < len && s[i + n] == '=')
			return n + 1;
	}
	return 0;
}

size_t xcb_mask_secrets(char *s, size_t len)
{
	size_t r = 0, w = 0;

	while (r < len) {
		size_t k = secret_at(s, r, len);

		if (!k) {
			s[w++] = s[r++];
			continue;
		}
		/* Copy the key and '=', then one mask for the whole value (an
		 * empty value stays empty: nothing to hide). */
		for (size_t j = 0; j < k; j++)
			s[w++] = s[r++];
		if (r < len && !word_end(s[r]))
			s[w++] = XCB_SECRET_MASK;
		while (r < len && !word_end(s[r]))
			r++;
	}
	if (w < len)
		s[w] = 0;
	return w;
}

int xcb_is_secret_key(const char *key, size_t n)
{
	for (size_t k = 0; k < sizeof(secret_keys) / sizeof(secret_keys[0]); k++) {
		const char *sk = secret_keys[k];
		size_t i = 0;

		while (i < n && sk[i] && sk[i] == key[i])
			i++;
		if (i == n && !sk[i])
			return 1;
	}
	return 0;
}
