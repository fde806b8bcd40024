/* bench/errline.c — keeps the first "xcbench: error: " console line seen while
 * the command line is read (errline.h says why). */
#include "bench/errline.h"
#include "lib/printf.h"
#include "lib/string.h"

#define ERR_PREFIX "xcbench: error: "
#define ERR_PREFIX_LEN (sizeof(ERR_PREFIX) - 1)

/* The line being assembled (a parser prints one line in several kprintf
 * calls) and whether a whole error line is already kept. Written only from
 * the tee, which console_raw() calls under the console lock: that lock
 * serialises these writes, and errline_first() reads after errline_end(). */
static char cur[512];	/* a deliveries= or algos= list's line fits */
static unsigned cur_len;
static int cur_cut;	/* the line outgrew cur: kept cut, not dropped */
static int kept;

/* The tee: bytes of the console, line by line. */
static void listen(const char *s, size_t len)
{
	for (size_t i = 0; i < len && !kept; i++) {
		if (s[i] != '\n') {
			if (cur_len < sizeof(cur) - 1)
				cur[cur_len++] = s[i];
			else
				cur_cut = 1;
			continue;
		}
		cur[cur_len] = 0;
		if (cur_len >= ERR_PREFIX_LEN && !memcmp(cur, ERR_PREFIX, ERR_PREFIX_LEN))
			kept = 1;
		else
			cur_len = cur_cut = 0;
	}
}

void errline_begin(void)
{
	if (!kept)
		cur_len = cur_cut = 0;
	console_set_tee(listen);
}

void errline_end(void) { console_set_tee(0); }

const char *errline_first(void)
{
	if (!kept)
		return "";
	if (cur_cut && cur_len >= 3)
		cur[cur_len - 3] = cur[cur_len - 2] = cur[cur_len - 1] = '.';
	return cur + ERR_PREFIX_LEN;
}
