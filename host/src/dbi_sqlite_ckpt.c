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
 * its size, so it is rare: once per 4000 pages (~16 MiB, where SQLite
 * alone synced every 1000); each page is still copied once per pass.
 *
 * The catch-up is small, and runs after the commit's answers, not in it.
 * Small: at CKPT_CATCHUP, unless a pass ended within CKPT_TAIL pages of
 * the WAL's end, one pass more is asked for first, and the catch-up
 * follows it, copying and syncing only what was committed during it (the
 * passes' pace left it up to CKPT_STEP pages, ~4 MiB, to write and sync:
 * 13-17 ms traced on this VM, against ~1 ms for a batch). After the answers:
 * the hook only marks it due, and the writer does it in dbi_settle once
 * the batch's ACKs are sent; inside the COMMIT it held every ACK of its
 * batch, and each sender's 128-frame window filled and waited. The WAL's
 * next write is the writer's next batch, after the settle, so the rewind
 * still follows it.
 * If a pass is slow and the WAL reaches CKPT_MAX, the writer waits for it
 * and catches up in the hook: the WAL stays bounded whatever the disk
 * does, and whether or not its owner settles.
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
#define CKPT_CATCHUP LITE_CKPT_CATCHUP
#define CKPT_TAIL 256      /* a pass this near the WAL's end leaves a catch-up little to copy */
#define CKPT_MAX LITE_CKPT_MAX

struct lite_ckpt {
	pthread_t th;
	pthread_mutex_t mu;  /* guards the four fields below, between the writer and th */
	pthread_cond_t cv;   /* signals a change of them, both ways */
	int want;            /* the writer asked for a pass */
	int busy;            /* th is in a pass */
	int stop;
	int asked;           /* the WAL's pages when the writer last asked for a pass */
	/* The writer's alone (its WAL hook and lite_ckpt_settle), no lock: */
	int last;            /* the pass asked for is the last before a catch-up */
	int due;             /* a catch-up waits for lite_ckpt_settle */
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
 * CKPT_CATCHUP, if no pass runs, marks the catch-up due for
 * lite_ckpt_settle; at CKPT_MAX it waits for the pass and catches up here.
 * Always SQLITE_OK: the commit has happened, and a failed checkpoint is
 * tried again later (see the top of this file). */
static int ckpt_hook(void *arg, sqlite3 *db, const char *name, int pages)
{
	struct lite_ckpt *ck = arg;
	int now = 0;

	pthread_mutex_lock(&ck->mu);
	if (pages >= CKPT_MAX)
		while (ck->busy || ck->want)
			pthread_cond_wait(&ck->cv, &ck->mu);
	if (pages < ck->asked) /* rewound since (the idle writer's checkpoint) */
		ck->asked = ck->last = 0;
	if (!ck->busy && !ck->want) {
		if (pages >= CKPT_MAX ||
		    (pages >= CKPT_CATCHUP && (ck->last || pages - ck->asked <= CKPT_TAIL))) {
			/* No pass is asked for while it is due (want stays 0
			 * until the settle or the next commit's hook): the
			 * settle copies alone. */
			ck->due = 1;
			ck->last = 0;
			now = pages >= CKPT_MAX;
		} else if (pages >= CKPT_CATCHUP || pages - ck->asked >= CKPT_STEP) {
			/* Past CKPT_CATCHUP, one pass more first, so that the
			 * catch-up after it copies only what was committed
			 * during it. */
			ck->want = 1;
			ck->asked = pages;
			ck->last = pages >= CKPT_CATCHUP;
			pthread_cond_broadcast(&ck->cv);
		}
	}
	pthread_mutex_unlock(&ck->mu);
	if (now)
		lite_ckpt_settle(ck, db);
	(void)name;
	return SQLITE_OK;
}

void lite_ckpt_settle(struct lite_ckpt *ck, sqlite3 *writer)
{
	if (!ck || !ck->due)
		return;
	ck->due = 0;
	pthread_mutex_lock(&ck->mu);
	ck->asked = 0; /* our next write rewinds the WAL */
	pthread_mutex_unlock(&ck->mu);
	sqlite3_wal_checkpoint_v2(writer, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
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
