/*
 * dbi_sqlite_wal.c — the writer's VFS (LITE_WAL_VFS): the default one with
 * the writes to a WAL file gathered in memory and written together, one
 * write for up to ~31 frames (GATHER_MAX) and one at the end of each
 * commit, where SQLite writes each WAL frame as two (its 24-byte header,
 * then the page).
 *
 * Why: a batch's COMMIT writes every page it changed (tens to a hundred:
 * each table and index a frame touches at the end of four runs' ranges),
 * so the writer made ~0.9 pwrite calls a frame stored, each a system call
 * with this VM's paravirtual interrupt toggling on the way (perf: pwrite
 * and its kernel path ~12 % of the writer's samples).
 *
 * Same file contents, same order, same errors, before anyone can read
 * them: a WAL frame is visible to a reader (another connection, another
 * thread) only once its commit is published in the wal-index, which SQLite
 * does after the commit frame's write returns; that write (a frame header
 * with a database size, SQLite's mark of a commit, then its page) writes
 * the gathered bytes and returns their error, so a failed write fails the
 * COMMIT as it did (the writer rolls the batch back); so does each write
 * after it until the next transaction's first (a commit padded to a
 * sector boundary: its copies of the commit frame are published too).
 * Anything else done to the file (read, sync, size, truncate, a file
 * control) and any write that does not extend the gathered run (SQLite
 * rewriting a frame of its own transaction) writes the gathered bytes
 * first. A rollback (lite_wal_rolled_back) or a close drops them: a
 * transaction's spilled frames, written after SQLite let go of the WAL,
 * could overwrite another writer's commit. Durability is as
 * before: the same bytes reach the kernel at the same commit (no fsync
 * added or lost). Only WAL files are wrapped; the database file, the
 * journal and the shared memory are the default VFS's own objects.
 */
#include <stdlib.h>
#include <string.h>

#include "dbi_sqlite_conn.h"

#define WAL_HDR 32                /* the WAL file's header (SQLite's file format) */
#define WAL_FRAME_HDR 24          /* a WAL frame's header */
/* The most gathered into one write: the unix VFS takes writes under
 * 128 KiB only (its seekAndWriteFd keeps a length's low 17 bits), ~31
 * frames of 4 KiB pages. */
#define GATHER_MAX 0x1ffffu

struct wfile {
	sqlite3_file base;        /* our methods */
	sqlite3_file *real;       /* the default VFS's file, after us in the same allocation */
	unsigned char *buf;       /* the gathered bytes: file offsets at .. at+len-1 */
	size_t len, cap;
	sqlite3_int64 at;
	/* Set by a commit frame's header, cleared by the next transaction's
	 * first write (a frame header that is no commit's, or the WAL
	 * header): while set, each write is written before it returns. Not
	 * only the commit frame's page: with synchronous=FULL on a file
	 * without powersafe overwrite SQLite pads the commit to a sector
	 * boundary with copies of its frame, splits the last copy at the
	 * boundary with a sync between its pieces, and publishes them all;
	 * a piece left gathered would be a published frame a reader cannot
	 * read (test_sqlite_wal padded_commit_is_whole). */
	int committing;
	int page_next;            /* the last write was a commit frame's header */
	sqlite3_int64 frame;      /* a frame's bytes (header and page), learnt
				   * from a commit frame's page (never split: SQLite
				   * splits only the padding); 0 until then */
};

/* The real file's object follows ours, aligned for it. */
#define REAL_AT ((sizeof(struct wfile) + 15) & ~(size_t)15)

static sqlite3_vfs *dflt;     /* the default VFS (wrapped, set before registration) */

/* Writes the gathered bytes (in one write): SQLITE_OK or the write's error.
 * A failed write keeps them, to be written again by the next flush: its
 * error may reach SQLite from a read (a spilled page read back), where
 * SQLite rolls back only the statement when it may (SQLITE_FULL, a
 * statement journal) and goes on with a transaction whose spilled frames
 * the wal-index lists; dropped, they were never written, yet a COMMIT
 * after published them (test_sqlite_wal
 * spilled_frames_lost_fail_the_commit). Kept, that COMMIT writes them or
 * fails. But a commit's bytes (committing) are dropped: its COMMIT fails
 * and is rolled back, and written later its commit frame would follow the
 * last commit with valid checksums, a commit the WAL's recovery after a
 * crash would find (failed_commit_stays_failed_after_a_crash). */
static int flush(struct wfile *w)
{
	int rc = SQLITE_OK;

	if (w->len)
		rc = w->real->pMethods->xWrite(w->real, w->buf, (int)w->len, w->at);
	if (rc == SQLITE_OK || w->committing)
		w->len = 0;
	return rc;
}

static int w_close(sqlite3_file *f)
{
	struct wfile *w = (struct wfile *)f;
	/* Only an unfinished transaction's frames can be gathered here, rolled
	 * back by the close: dropped, not written (another writer may have
	 * committed where they would go, as after lite_wal_rolled_back). */
	int rc = w->real->pMethods ? w->real->pMethods->xClose(w->real) : SQLITE_OK;

	free(w->buf);
	w->buf = NULL;
	w->len = w->cap = 0;
	return rc;
}

/* 1 if the write of n bytes at off is a frame's header: 24 bytes at a
 * frame's start, once the frame size is known (before, no padding was
 * split: every 24-byte write is a header). */
static int frame_header(const struct wfile *w, int n, sqlite3_int64 off)
{
	return n == WAL_FRAME_HDR && (!w->frame || (off >= WAL_HDR && (off - WAL_HDR) % w->frame == 0));
}

/* Gathers a write that extends the gathered run; any other is preceded by
 * writing what was gathered. From a commit frame's header to the next
 * transaction's first write (committing), every write is written before
 * this returns: the commit frame's page, and any padding after it. */
static int w_write(sqlite3_file *f, const void *p, int n, sqlite3_int64 off)
{
	struct wfile *w = (struct wfile *)f;
	int rc = SQLITE_OK, header = frame_header(w, n, off);

	if (w->page_next)
		w->frame = WAL_FRAME_HDR + n;
	w->page_next = 0;
	if (header) {
		/* A frame header whose "database size" (bytes 4..7) is not 0
		 * is a commit's frame: its page comes next. */
		const unsigned char *h = p;

		w->committing = w->page_next = (h[4] | h[5] | h[6] | h[7]) != 0;
	} else if (off == 0) {
		w->committing = 0; /* the WAL header: a new transaction's */
	}
	if (w->len && off != w->at + (sqlite3_int64)w->len)
		rc = flush(w);
	if (rc == SQLITE_OK && w->len + (size_t)n > GATHER_MAX)
		rc = flush(w);
	if (rc != SQLITE_OK)
		return rc;
	if ((size_t)n > GATHER_MAX)
		return w->real->pMethods->xWrite(w->real, p, n, off);
	if (w->len + (size_t)n > w->cap) {
		size_t cap = w->cap ? w->cap : 16 * 1024;
		unsigned char *b;

		while (cap < w->len + (size_t)n)
			cap *= 2;
		b = realloc(w->buf, cap);
		if (!b) {
			rc = flush(w);
			return rc != SQLITE_OK ? rc : w->real->pMethods->xWrite(w->real, p, n, off);
		}
		w->buf = b;
		w->cap = cap;
	}
	if (!w->len)
		w->at = off;
	memcpy(w->buf + w->len, p, (size_t)n);
	w->len += (size_t)n;
	return w->committing && !header ? flush(w) : SQLITE_OK;
}

/* The methods that see the file: the gathered bytes are written first. */
static int w_read(sqlite3_file *f, void *p, int n, sqlite3_int64 off)
{
	struct wfile *w = (struct wfile *)f;
	int rc = flush(w);

	return rc != SQLITE_OK ? rc : w->real->pMethods->xRead(w->real, p, n, off);
}

static int w_truncate(sqlite3_file *f, sqlite3_int64 size)
{
	struct wfile *w = (struct wfile *)f;
	int rc = flush(w);

	return rc != SQLITE_OK ? rc : w->real->pMethods->xTruncate(w->real, size);
}

static int w_sync(sqlite3_file *f, int flags)
{
	struct wfile *w = (struct wfile *)f;
	int rc = flush(w);

	return rc != SQLITE_OK ? rc : w->real->pMethods->xSync(w->real, flags);
}

static int w_size(sqlite3_file *f, sqlite3_int64 *size)
{
	struct wfile *w = (struct wfile *)f;
	int rc = flush(w);

	return rc != SQLITE_OK ? rc : w->real->pMethods->xFileSize(w->real, size);
}

static int w_control(sqlite3_file *f, int op, void *arg)
{
	struct wfile *w = (struct wfile *)f;
	int rc = flush(w);

	return rc != SQLITE_OK ? rc : w->real->pMethods->xFileControl(w->real, op, arg);
}

/* The rest as the real file answers (a WAL file takes no locks of its own). */
static int w_lock(sqlite3_file *f, int l) { return ((struct wfile *)f)->real->pMethods->xLock(((struct wfile *)f)->real, l); }
static int w_unlock(sqlite3_file *f, int l) { return ((struct wfile *)f)->real->pMethods->xUnlock(((struct wfile *)f)->real, l); }
static int w_reserved(sqlite3_file *f, int *out)
{
	return ((struct wfile *)f)->real->pMethods->xCheckReservedLock(((struct wfile *)f)->real, out);
}
static int w_sector(sqlite3_file *f) { return ((struct wfile *)f)->real->pMethods->xSectorSize(((struct wfile *)f)->real); }
static int w_device(sqlite3_file *f)
{
	return ((struct wfile *)f)->real->pMethods->xDeviceCharacteristics(((struct wfile *)f)->real);
}

/* Version 1: SQLite asks a WAL file for no shared memory and no mapping. */
static const sqlite3_io_methods wal_methods = {
	.iVersion = 1, .xClose = w_close, .xRead = w_read, .xWrite = w_write, .xTruncate = w_truncate,
	.xSync = w_sync, .xFileSize = w_size, .xLock = w_lock, .xUnlock = w_unlock,
	.xCheckReservedLock = w_reserved, .xFileControl = w_control, .xSectorSize = w_sector,
	.xDeviceCharacteristics = w_device,
};

/* A WAL file is wrapped; any other file is the default VFS's own object,
 * opened in place (it never sees this VFS again). */
static int v_open(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *f, int flags, int *out)
{
	struct wfile *w = (struct wfile *)f;
	int rc;

	(void)vfs;
	if (!(flags & SQLITE_OPEN_WAL))
		return dflt->xOpen(dflt, name, f, flags, out);
	memset(w, 0, sizeof(*w));
	w->real = (sqlite3_file *)((char *)f + REAL_AT);
	rc = dflt->xOpen(dflt, name, w->real, flags, out);
	/* SQLite closes a file whose methods are set, even after a failure. */
	w->base.pMethods = w->real->pMethods ? &wal_methods : NULL;
	return rc;
}

/* Everything else of the VFS is the default one's. */
static int v_delete(sqlite3_vfs *v, const char *n, int sync) { (void)v; return dflt->xDelete(dflt, n, sync); }
static int v_access(sqlite3_vfs *v, const char *n, int f, int *out) { (void)v; return dflt->xAccess(dflt, n, f, out); }
static int v_full(sqlite3_vfs *v, const char *n, int len, char *out)
{
	(void)v;
	return dflt->xFullPathname(dflt, n, len, out);
}
static void *v_dlopen(sqlite3_vfs *v, const char *n) { (void)v; return dflt->xDlOpen(dflt, n); }
static void v_dlerror(sqlite3_vfs *v, int n, char *out) { (void)v; dflt->xDlError(dflt, n, out); }
static void (*v_dlsym(sqlite3_vfs *v, void *h, const char *s))(void) { (void)v; return dflt->xDlSym(dflt, h, s); }
static void v_dlclose(sqlite3_vfs *v, void *h) { (void)v; dflt->xDlClose(dflt, h); }
static int v_random(sqlite3_vfs *v, int n, char *out) { (void)v; return dflt->xRandomness(dflt, n, out); }
static int v_sleep(sqlite3_vfs *v, int us) { (void)v; return dflt->xSleep(dflt, us); }
static int v_time(sqlite3_vfs *v, double *t) { (void)v; return dflt->xCurrentTime(dflt, t); }
static int v_lasterr(sqlite3_vfs *v, int n, char *out) { (void)v; return dflt->xGetLastError(dflt, n, out); }
static int v_time64(sqlite3_vfs *v, sqlite3_int64 *t) { (void)v; return dflt->xCurrentTimeInt64(dflt, t); }

static sqlite3_vfs wal_vfs = {
	.iVersion = 2, .zName = LITE_WAL_VFS, .xOpen = v_open, .xDelete = v_delete, .xAccess = v_access,
	.xFullPathname = v_full, .xDlOpen = v_dlopen, .xDlError = v_dlerror, .xDlSym = v_dlsym,
	.xDlClose = v_dlclose, .xRandomness = v_random, .xSleep = v_sleep, .xCurrentTime = v_time,
	.xGetLastError = v_lasterr, .xCurrentTimeInt64 = v_time64,
};

void lite_wal_rolled_back(void *h)
{
	sqlite3_file *f = NULL;

	/* The connection's WAL file (SQLITE_FCNTL_JOURNAL_POINTER: the WAL
	 * in WAL mode), if it is ours: its gathered frames are the rolled-back
	 * transaction's (spilled, never a commit's), and once SQLite let go of
	 * the WAL's write lock another writer may commit frames where they
	 * would go: written later, they would overwrite its commit
	 * (test_sqlite_wal rolled_back_spill_leaves_no_write). Dropped. */
	if (sqlite3_file_control(h, "main", SQLITE_FCNTL_JOURNAL_POINTER, &f) == SQLITE_OK && f &&
	    f->pMethods == &wal_methods) {
		struct wfile *w = (struct wfile *)f;

		w->len = 0;
		w->committing = w->page_next = 0;
	}
}

int lite_wal_register(void)
{
	dflt = sqlite3_vfs_find(NULL);
	if (!dflt || dflt->iVersion < 2)
		return SQLITE_ERROR;
	wal_vfs.mxPathname = dflt->mxPathname;
	wal_vfs.szOsFile = (int)REAL_AT + dflt->szOsFile;
	if (wal_vfs.szOsFile < dflt->szOsFile)
		return SQLITE_ERROR;
	return sqlite3_vfs_register(&wal_vfs, 0);
}
