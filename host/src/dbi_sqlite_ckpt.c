/*
 * dbi_sqlite_ckpt.c — the checkpoints of a read-write SQLite connection,
 * run on a thread of their own (its own connection to the same file), so
 * the writer's commits do not wait for the disk.
 *
 * Why: SQLite checkpoints inside the COMMIT that takes the WAL past 1000
 * pages: it copies them into the database file and fdatasyncs the WAL and
 * the database, and the writer (so every ACK of the batch, so the senders'
 * windows) waits. Traced during bench/ingest.sh sends (perf sched, this
 * 2-core VM, split placement, quiet): both cores were idle 21-23 % of the
 * streaming time, all of it with the writer off-CPU in those fdatasyncs
 * (ext4's data writeback wait, the device flush, the inode). Checkpointing
 * less often in the writer does not help (4000 pages: as many bytes to
 * sync, the same blocked time); the copies and their syncs must leave the
 * writer's thread.
 *
 * How: the writer's WAL hook (after each commit; it replaces SQLite's
 * automatic checkpoint) asks this thread for a PASSIVE checkpoint each time
 * the WAL grew CKPT_STEP pages: a pass copies the frames committed before
 * it started, while the writer keeps committing. SQLite rewinds the WAL
 * (writes it from its start again) only at a write that finds every frame
 * copied, which with commits going on no pass does. So at CKPT_CATCHUP the
 * writer copies what the passes left, itself (the catch-up: the frames of
 * the last pass's length, and their syncs), and its next transaction
 * rewinds the WAL. A catch-up costs the writer an fdatasync pair whatever
 * its size (~2 ms each here), so it is rare: once per 4000 pages (~16 MiB,
 * where SQLite alone synced every 1000); each page is still copied once
 * per pass. If a pass is slow and the WAL reaches CKPT_MAX, the writer
 * waits for it and catches up: the WAL stays bounded whatever the disk does.
 *
 * Same durability as SQLite's own checkpoints: the same PASSIVE
 * checkpoints with the same syncs (synchronous=NORMAL), only on another
 * thread; a checkpoint that fails (disk full, I/O error) is retried at the
 * next one, as SQLite's automatic checkpoint ignores its failures. Each
 * connection is used by one thread only (SQLITE_OPEN_NOMUTEX); the mutex
 * guards this file's flags alone.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "dbi_sqlite_conn.h"

#define CKPT_STEP 1000     /* a pass is asked for each time the WAL grew this many pages */
#define CKPT_CATCHUP 4000  /* the writer copies what the passes left (and the WAL rewinds) */
#define CKPT_MAX LITE_CKPT_MAX

struct lite_ckpt {
	pthread_t th;
	pthread_mutex_t mu;  /* guards the four fields below, between the writer and th */
	pthread_cond_t cv;   /* signals a change of them, both ways */
	int want;            /* the writer asked for a pass */
	int busy;            /* th is in a pass */
	int stop;
	int asked;           /* the WAL's pages when the writer last asked for a pass */
	sqlite3 *h;          /* th's own connection */
};

/* The checkpointer thread: one PASSIVE pass each time the writer asks. */
static void *ckpt_main(void *arg)
{
	struct lite_ckpt *ck = arg;

	pthread_mutex_lock(&ck->mu);
	for (;;) {
		while (!ck->want && !ck->stop)
			pthread_cond_wait(&ck->cv, &ck->mu);
		if (ck->stop)
			break;
		ck->want = 0;
		ck->busy = 1;
		pthread_mutex_unlock(&ck->mu);
		/* Takes SQLite's checkpoint lock, not the writer's: commits go on. */
		sqlite3_wal_checkpoint_v2(ck->h, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
		pthread_mutex_lock(&ck->mu);
		ck->busy = 0;
		pthread_cond_broadcast(&ck->cv); /* a writer waiting at CKPT_MAX */
	}
	pthread_mutex_unlock(&ck->mu);
	return NULL;
}

/* The writer's WAL hook: runs in its thread after each commit, with the
 * WAL's page count. Asks for a pass each CKPT_STEP pages of growth; at
 * CKPT_CATCHUP, if no pass runs, copies what the passes left (at CKPT_MAX
 * it waits for the pass first). Always SQLITE_OK: the commit has happened,
 * and a failed checkpoint is tried again later (see the top of this file). */
static int ckpt_hook(void *arg, sqlite3 *db, const char *name, int pages)
{
	struct lite_ckpt *ck = arg;
	int catch_up = 0;

	pthread_mutex_lock(&ck->mu);
	if (pages >= CKPT_MAX)
		while (ck->busy || ck->want)
			pthread_cond_wait(&ck->cv, &ck->mu);
	if (pages < ck->asked) /* rewound since (the idle writer's checkpoint) */
		ck->asked = 0;
	if (pages >= CKPT_CATCHUP && !ck->busy && !ck->want) {
		catch_up = 1;
		ck->asked = 0; /* our next write rewinds the WAL */
	} else if (pages - ck->asked >= CKPT_STEP && !ck->busy && !ck->want) {
		ck->want = 1;
		ck->asked = pages;
		pthread_cond_broadcast(&ck->cv);
	}
	pthread_mutex_unlock(&ck->mu);
	if (catch_up)
		sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
	return SQLITE_OK;
}

struct lite_ckpt *lite_ckpt_start(sqlite3 *writer)
{
	/* The file's full name: a relative one would be the same file, but
	 * this one is what the writer opened. "" for a database in memory,
	 * which has no WAL to checkpoint. */
	const char *path = sqlite3_db_filename(writer, "main");
	const char *why = "out of memory";
	struct lite_ckpt *ck;

	if (!path || !*path)
		return NULL;
	ck = calloc(1, sizeof(*ck));
	if (!ck)
		goto fail;
	pthread_mutex_init(&ck->mu, NULL);
	pthread_cond_init(&ck->cv, NULL);
	if (sqlite3_open_v2(path, &ck->h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		why = ck->h ? sqlite3_errmsg(ck->h) : "out of memory";
		goto fail;
	}
	sqlite3_busy_timeout(ck->h, 5000);
	/* A new connection learns the file is in WAL mode at its first read;
	 * until then its checkpoints do nothing. */
	if (sqlite3_exec(ck->h, "PRAGMA journal_mode", NULL, NULL, NULL) != SQLITE_OK) {
		why = sqlite3_errmsg(ck->h);
		goto fail;
	}
	if (pthread_create(&ck->th, NULL, ckpt_main, ck)) {
		why = "no thread";
		goto fail;
	}
	pthread_setname_np(ck->th, "xcbd-checkpoint"); /* for top -H, perf, ps -L */
	/* Replaces the automatic checkpoint (itself a WAL hook). */
	sqlite3_wal_hook(writer, ckpt_hook, ck);
	return ck;
fail:
	fprintf(stderr, "xcbenchd: checkpoints stay in the writer's commits (%s: %s)\n", path, why);
	if (ck) {
		sqlite3_close_v2(ck->h);
		pthread_cond_destroy(&ck->cv);
		pthread_mutex_destroy(&ck->mu);
		free(ck);
	}
	return NULL;
}

void lite_ckpt_stop(struct lite_ckpt *ck, sqlite3 *writer)
{
	if (!ck)
		return;
	sqlite3_wal_hook(writer, NULL, NULL);
	pthread_mutex_lock(&ck->mu);
	ck->stop = 1;
	pthread_cond_broadcast(&ck->cv);
	pthread_mutex_unlock(&ck->mu);
	pthread_join(ck->th, NULL);
	sqlite3_close_v2(ck->h);
	pthread_cond_destroy(&ck->cv);
	pthread_mutex_destroy(&ck->mu);
	free(ck);
}
