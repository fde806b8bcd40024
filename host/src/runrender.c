/*
 * runrender.c — finished runs' pages rendered in the writer's idle time and
 * kept in the store (runrender.h). The writer is SQLite's one writer, so
 * the renderings are written there; it renders only while no frame waits
 * (writer.c calls runrender_idle with an empty queue), one run a turn, so a
 * burst of frames waits at most one rendering. A rendering's key is read
 * before its cases, in the same transaction: on PostgreSQL another lab's
 * daemon may store a frame in between (READ COMMITTED), and then the cases
 * are newer than the key, which the run no longer matches, so it is never
 * served and is rendered again.
 */
#include <stdio.h>
#include <stdlib.h>

#include "renders_db.h"
#include "runrender.h"
#include "runs_json.h"
#include "util.h"
#include "xcbd.h"

#define PENDING_BATCH 64        /* ids taken per look: one query per 64 renderings */
/* A run with more RESULT rows than this is not rendered in idle time (its
 * page is built when asked for, as before): a rendering holds all of a
 * run's rows in memory at once (on PostgreSQL the whole PGresult: ~0.7 KB a
 * row, ~68 MiB for 100k rows by bench/csv-export.sh's idle peak), and
 * the idle writer must not grow the daemon by that unasked. */
#define RENDER_MAX_ROWS 20000

/* Writer thread only: the ids the last look found, the next to render. */
static int64_t pending[PENDING_BATCH];
static int npending, next_pending;
static int64_t left = -1;       /* pending runs at the last look; -1: not looked yet */
static double last_look = -1e9; /* now_mono() at the last look */
static int changed = 1;         /* runrender_changed since the last look (1: none yet) */

void runrender_changed(void)
{
	changed = 1;
}

void runrender_key(const struct run_row *r, struct casecache_key *k)
{
	k->id = r->id;
	k->frames = r->frames_received.i;
	k->last_frame = r->last_frame.type == DBI_NULL ? -1 : r->last_frame.i;
	k->token = r->token;
}

char *runrender_stored(struct dbi *db, const struct run_row *r, size_t *len)
{
	struct casecache_key k;

	runrender_key(r, &k);
	return renders_get(db, &k, RUN_CASES_FORMAT, len);
}

/* Renders run id's default page and stores it (text NULL when the run has
 * more cases than a page, or more rows than RENDER_MAX_ROWS: then there is
 * nothing to keep, and it is not pending any more). In the caller's transaction. 0 or -1. */
static int render_one(struct dbi *db, int64_t id)
{
	struct casecache_key k;
	struct run_row r;
	int64_t next;
	size_t len;
	char *text;
	int rc;

	/* The key first (see the top of this file). */
	rc = run_get(db, id, &r);
	if (rc != 1)
		return rc; /* 0: deleted since the look */
	runrender_key(&r, &k);
	rc = renders_too_big(db, id, RENDER_MAX_ROWS);
	if (rc) { /* too big: kept without text, so it is not pending */
		rc = rc < 0 ? -1 : renders_put(db, &k, RUN_CASES_FORMAT, NULL);
		run_row_free(&r);
		return rc == DBI_OK ? 0 : -1;
	}
	text = run_cases_text(db, &r, -1, RUN_CASES_PAGE, &next, &len);
	rc = text ? renders_put(db, &k, RUN_CASES_FORMAT, next < 0 ? text : NULL) : -1;
	free(text);
	run_row_free(&r);
	return rc == DBI_OK ? 0 : -1;
}

/* Looks for pending runs when due: 1 if some are pending now. Logs the
 * count at the first look and each time it comes down to none, which is
 * what bench/api-latency.sh waits for. */
static int look(struct dbi *db)
{
	int64_t total;
	int n;

	/* At once while the last look left runs pending (they are rendered
	 * 64 a look); else a second after a change, or a minute. */
	if (left <= 0 && now_mono() < last_look + (changed ? 1.0 : 60.0))
		return 0;
	last_look = now_mono();
	changed = 0;
	n = renders_pending(db, RUN_CASES_FORMAT, cfg.lab, pending, PENDING_BATCH, &total);
	if (n < 0)
		return -1;
	if (left < 0 || (total == 0 && left > 0))
		fprintf(stderr, "xcbenchd: stored run pages: %lld pending\n", (long long)total);
	left = total;
	npending = n;
	next_pending = 0;
	return n > 0;
}

int runrender_idle(struct dbi *db)
{
	int rc;

	if (next_pending >= npending && (rc = look(db)) <= 0)
		return rc;
	if (dbi_exec(db, "BEGIN") != DBI_OK)
		return -1;
	if (render_one(db, pending[next_pending++]) || dbi_exec(db, "COMMIT") != DBI_OK) {
		if (dbi_in_txn(db))
			dbi_exec(db, "ROLLBACK");
		return -1;
	}
	/* The last of a look: look again at once (more than a batch may be
	 * pending, or none, which the look logs). */
	return 1;
}
