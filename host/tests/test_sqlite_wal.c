/*
 * test_sqlite_wal.c — the SQLite engine's process settings and its
 * writer's VFS (dbi_sqlite.c, dbi_sqlite_wal.c) on a real database file:
 * SQLite keeps no memory statistics (their mutex was the writer's most
 * frequent lock); a COMMIT of ~100 pages reaches the WAL in a few writes
 * (SQLite alone makes two a page) and is read back by another connection
 * and after a reopen; a write that fails fails the COMMIT, which then
 * stores nothing, and the next one succeeds as before; a commit padded to
 * a sector boundary is whole when it returns; frames spilled before a
 * COMMIT and not written (a full disk) are written by it or fail it; a
 * failed COMMIT is no commit in the file a crash leaves; a rolled-back
 * transaction's spilled frames never overwrite another writer's commit.
 *
 * The writes are counted (and failed) at the unix VFS's system calls
 * (xSetSystemCall), under the VFS that gathers them.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "dbi.h"
#include "dbi_sqlite_conn.h"

#define ROWS 200          /* of ~2000 bytes: ~100 pages of 4 KiB */

/* The unix VFS's pwrite and pwrite64 (whichever it uses), counted, and
 * failed with ENOSPC while fail_writes is set. */
typedef ssize_t (*pwrite_fn)(int, const void *, size_t, off_t);
static pwrite_fn real_pwrite, real_pwrite64;
static int writes, fail_writes;

/* One write through real, counted (or failed). */
static ssize_t counted(pwrite_fn real, int fd, const void *p, size_t n, off_t off)
{
	writes++;
	if (fail_writes) {
		errno = ENOSPC;
		return -1;
	}
	return real(fd, p, n, off);
}

static ssize_t count_pwrite(int fd, const void *p, size_t n, off_t off) { return counted(real_pwrite, fd, p, n, off); }
static ssize_t count_pwrite64(int fd, const void *p, size_t n, off_t off)
{
	return counted(real_pwrite64, fd, p, n, off);
}

/* Installs the counters (after SQLite was configured by a dbi_open). */
static void count_writes(void)
{
	sqlite3_vfs *unix_vfs = sqlite3_vfs_find("unix");

	assert_non_null(unix_vfs);
	if (!real_pwrite && !real_pwrite64) {
		real_pwrite = (pwrite_fn)unix_vfs->xGetSystemCall(unix_vfs, "pwrite");
		real_pwrite64 = (pwrite_fn)unix_vfs->xGetSystemCall(unix_vfs, "pwrite64");
		if (real_pwrite)
			unix_vfs->xSetSystemCall(unix_vfs, "pwrite", (sqlite3_syscall_ptr)count_pwrite);
		if (real_pwrite64)
			unix_vfs->xSetSystemCall(unix_vfs, "pwrite64", (sqlite3_syscall_ptr)count_pwrite64);
	}
	assert_true(real_pwrite || real_pwrite64);
	writes = fail_writes = 0;
}

struct files {
	char dir[64], path[96], wal[104];
	struct dbi *db;   /* read-write, the writer's kind */
};

/* A new database file in a directory of its own, with table t. */
static int setup(void **state)
{
	struct files *f = calloc(1, sizeof(*f));
	char err[512];

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/test_sqlite_wal.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/t.db", f->dir);
	snprintf(f->wal, sizeof(f->wal), "%s-wal", f->path);
	f->db = dbi_open(f->path, DBI_RW, err, sizeof(err));
	if (!f->db || dbi_exec(f->db, "CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT)")) {
		fprintf(stderr, "%s\n", f->db ? dbi_errmsg(f->db) : err);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct files *f = *state;
	char p[128];

	dbi_close(f->db);
	unlink(f->path);
	unlink(f->wal);
	snprintf(p, sizeof(p), "%s-shm", f->path);
	unlink(p);
	rmdir(f->dir);
	free(f);
	return 0;
}

/* Inserts ROWS rows of ~2000 bytes from id first, in the open transaction. */
static void insert_rows(struct dbi *db, int first)
{
	for (int i = 0; i < ROWS; i++)
		assert_int_equal(dbi_run(db, "INSERT INTO t(id, s) VALUES (?, printf('%.*c', 2000, 'x'))",
					 DBI_I(first + i)), DBI_OK);
}

/* Rows of t as a new read-only connection sees them. */
static int64_t rows_seen(const char *path)
{
	char err[512];
	struct dbi *r = dbi_open(path, DBI_RO, err, sizeof(err));
	int64_t n;

	assert_non_null(r);
	n = dbi_i64(r, "SELECT count(*) FROM t WHERE length(s) = ?", -1, DBI_I(2000));
	dbi_close(r);
	return n;
}

/* No memory statistics: nothing counts the bytes SQLite allocates. */
static void no_memory_statistics(void **state)
{
	struct files *f = *state;

	assert_int_equal(dbi_exec(f->db, "BEGIN"), DBI_OK);
	insert_rows(f->db, 1);
	assert_int_equal(dbi_exec(f->db, "COMMIT"), DBI_OK);
	assert_int_equal(sqlite3_memory_used(), 0);
}

/* ~100 pages committed in a few writes (SQLite alone: ~200), all of them in
 * the WAL file when the COMMIT returns: another connection reads them, and
 * so does one after every connection was closed. */
static void commit_gathers_its_writes(void **state)
{
	struct files *f = *state;
	struct stat st;

	count_writes();
	assert_int_equal(dbi_exec(f->db, "BEGIN"), DBI_OK);
	insert_rows(f->db, 1);
	assert_int_equal(writes, 0);
	assert_int_equal(dbi_exec(f->db, "COMMIT"), DBI_OK);
	assert_int_equal(stat(f->wal, &st), 0);
	assert_true(st.st_size > 90 * 4096);
	/* 128 KiB a write at most: ~4 for ~400 KiB */
	assert_in_range(writes, 1, 8);
	assert_int_equal(rows_seen(f->path), ROWS);
	dbi_close(f->db);
	f->db = NULL;
	assert_int_equal(rows_seen(f->path), ROWS);
}

/* A write that fails (a full disk) fails the COMMIT: nothing of it is
 * seen; the next COMMIT, with the disk back, stores its rows. */
static void failed_write_fails_the_commit(void **state)
{
	struct files *f = *state;

	count_writes();
	assert_int_equal(dbi_exec(f->db, "BEGIN"), DBI_OK);
	insert_rows(f->db, 1);
	fail_writes = 1;
	assert_int_equal(dbi_exec(f->db, "COMMIT"), DBI_IOERR);
	fail_writes = 0;
	if (dbi_in_txn(f->db))
		assert_int_equal(dbi_exec(f->db, "ROLLBACK"), DBI_OK);
	assert_int_equal(rows_seen(f->path), 0);
	assert_int_equal(dbi_exec(f->db, "BEGIN"), DBI_OK);
	insert_rows(f->db, 1001);
	assert_int_equal(dbi_exec(f->db, "COMMIT"), DBI_OK);
	assert_int_equal(rows_seen(f->path), ROWS);
}

/* A COMMIT padded to a sector boundary (synchronous=FULL on a file without
 * powersafe overwrite: SQLite writes copies of the commit frame up to the
 * boundary, the last one split in two by a sync there, and publishes them
 * all) is in the WAL file whole when it returns: the file ends on a frame
 * boundary, and another connection reads the rows, the commit's last page
 * from its last copy. */
static void padded_commit_is_whole(void **state)
{
	struct files *f = *state;
	char uri[160];
	sqlite3 *h = NULL;
	struct stat st;
	int page = 0;
	int64_t rows = 0;
	sqlite3_stmt *q;

	snprintf(uri, sizeof(uri), "file:%s?psow=0", f->path);
	assert_int_equal(sqlite3_open_v2(uri, &h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI, LITE_WAL_VFS), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(h, "PRAGMA page_size", -1, &q, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(q), SQLITE_ROW);
	page = sqlite3_column_int(q, 0);
	sqlite3_finalize(q);
	/* Commits of 1..3 rows of ~2000 bytes: the commit frame ends at
	 * different offsets, so some sync point falls inside a padding
	 * frame's header and some inside its page. */
	for (int c = 0; c < 12; c++) {
		assert_int_equal(sqlite3_exec(h, "BEGIN", NULL, NULL, NULL), SQLITE_OK);
		for (int i = 0; i < 1 + c % 3; i++) {
			char sql[128];

			snprintf(sql, sizeof(sql), "INSERT INTO t(s) VALUES (printf('%%.*c', 2000, 'x'))");
			assert_int_equal(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
			rows++;
		}
		assert_int_equal(sqlite3_exec(h, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
		assert_int_equal(stat(f->wal, &st), 0);
		assert_int_equal((st.st_size - 32) % (page + 24), 0);
		assert_int_equal(rows_seen(f->path), rows);
	}
	sqlite3_close(h);
}

/* The rows of t as the raw connection h counts them, and SQLite's own
 * check of the file: "ok" or its first complaint. */
static int64_t raw_count(sqlite3 *h, const char *sql)
{
	sqlite3_stmt *q;
	int64_t n = -1;

	assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &q, NULL), SQLITE_OK);
	if (sqlite3_step(q) == SQLITE_ROW)
		n = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return n;
}

/* A transaction bigger than its page cache spills frames to the WAL before
 * its COMMIT (gathered here, not yet written); when they cannot be written
 * (a full disk) as a read of a spilled page needs them, the transaction
 * cannot commit as if they had been: its COMMIT fails, or what it commits
 * is whole (every row, the file sound), never pages that were not written. */
static void spilled_frames_lost_fail_the_commit(void **state)
{
	struct files *f = *state;
	sqlite3 *h = NULL;
	int rc;

	assert_int_equal(sqlite3_open_v2(f->path, &h, SQLITE_OPEN_READWRITE, LITE_WAL_VFS), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "PRAGMA journal_mode=WAL; PRAGMA cache_size=10", NULL, NULL, NULL),
			 SQLITE_OK);
	count_writes();
	assert_int_equal(sqlite3_exec(h, "BEGIN", NULL, NULL, NULL), SQLITE_OK);
	for (int i = 1; i <= 40; i++) {
		char sql[128];

		snprintf(sql, sizeof(sql), "INSERT INTO t(id, s) VALUES (%d, printf('%%.*c', 2000, 'x'))", i);
		assert_int_equal(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
	}
	/* Spilled, and at least the last frames still gathered (no write). */
	assert_true(writes < 3);
	fail_writes = 1;
	/* The spilled pages read back by a statement that may fail alone
	 * (several rows, a key: SQLite rolls back only it on SQLITE_FULL):
	 * the gathered frames' write fails. */
	rc = sqlite3_exec(h, "INSERT INTO t(id, s) SELECT id + 1000, s FROM t", NULL, NULL, NULL);
	fail_writes = 0;
	assert_int_not_equal(rc, SQLITE_OK);
	if (sqlite3_exec(h, "COMMIT", NULL, NULL, NULL) == SQLITE_OK) {
		assert_int_equal(rows_seen(f->path), 40);
		assert_int_equal(raw_count(h, "SELECT count(*) FROM t WHERE length(s) = 2000"), 40);
	} else {
		sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
		assert_int_equal(rows_seen(f->path), 0);
	}
	sqlite3_close(h);
	/* Either way the file is sound, after every connection closed. */
	h = NULL;
	assert_int_equal(sqlite3_open_v2(f->path, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(raw_count(h, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check <> 'ok'"), 0);
	sqlite3_close(h);
}

/* A COMMIT whose write failed stays failed: nothing of it becomes a
 * commit later, even in the file a crash leaves. The next transaction
 * spills (its frames before its COMMIT), and a copy of the database and
 * its WAL taken then, opened where no wal-index exists (SQLite rebuilds it
 * from the WAL, as after a crash), holds none of the failed one's rows. */
static void failed_commit_stays_failed_after_a_crash(void **state)
{
	struct files *f = *state;
	sqlite3 *h = NULL;
	char copy[128], cmd[1024];

	assert_int_equal(sqlite3_open_v2(f->path, &h, SQLITE_OPEN_READWRITE, LITE_WAL_VFS), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "PRAGMA journal_mode=WAL; PRAGMA cache_size=10; PRAGMA wal_autocheckpoint=0",
				      NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "INSERT INTO t(id, s) VALUES (0, 'first')", NULL, NULL, NULL), SQLITE_OK);
	count_writes();
	assert_int_equal(sqlite3_exec(h, "BEGIN; INSERT INTO t(id, s) VALUES (1, 'failed')", NULL, NULL, NULL), SQLITE_OK);
	fail_writes = 1;
	assert_int_not_equal(sqlite3_exec(h, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
	fail_writes = 0;
	sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
	assert_int_equal(sqlite3_exec(h, "BEGIN", NULL, NULL, NULL), SQLITE_OK);
	for (int i = 0; i < 40; i++)
		assert_int_equal(sqlite3_exec(h, "INSERT INTO t(s) VALUES (printf('%.*c', 2000, 'y'))", NULL, NULL, NULL),
				 SQLITE_OK);
	snprintf(copy, sizeof(copy), "%s/crash.db", f->dir);
	snprintf(cmd, sizeof(cmd), "cp %s %s && cp %s %s-wal", f->path, copy, f->wal, copy);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	h = NULL;
	assert_int_equal(sqlite3_open_v2(copy, &h, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
	assert_int_equal(raw_count(h, "SELECT count(*) FROM t WHERE id = 0"), 1);
	assert_int_equal(raw_count(h, "SELECT count(*) FROM t WHERE id = 1"), 0);
	sqlite3_close(h);
	snprintf(cmd, sizeof(cmd), "rm -f %s %s-wal %s-shm", copy, copy, copy);
	assert_int_equal(system(cmd), 0);
}

/* A transaction that spilled frames (gathered) and rolled back leaves
 * nothing another writer's commit can lose: after the other connection
 * commits where the spilled frames were, a read on the first (its next
 * use of the WAL) leaves the other's rows whole. */
static void rolled_back_spill_leaves_no_write(void **state)
{
	struct files *f = *state;
	sqlite3 *b = NULL;

	assert_int_equal(sqlite3_open_v2(f->path, &b, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
	/* (checkpointed first: the rollback reads no page from the WAL) */
	assert_int_equal(dbi_exec(f->db, "PRAGMA cache_size=10"), DBI_OK);
	assert_int_equal(dbi_i64(f->db, "PRAGMA wal_checkpoint(TRUNCATE)", -1), 0);
	assert_int_equal(dbi_exec(f->db, "BEGIN"), DBI_OK);
	for (int i = 0; i < 40; i++)
		assert_int_equal(dbi_exec(f->db, "INSERT INTO t(s) VALUES (printf('%.*c', 2000, 'a'))"), DBI_OK);
	assert_int_equal(dbi_exec(f->db, "ROLLBACK"), DBI_OK);
	for (int i = 0; i < 20; i++)
		assert_int_equal(sqlite3_exec(b, "INSERT INTO t(s) VALUES (printf('%.*c', 2000, 'b'))", NULL, NULL, NULL),
				 SQLITE_OK);
	assert_int_equal(dbi_i64(f->db, "SELECT count(*) FROM t WHERE s GLOB 'b*'", -1), 20);
	assert_int_equal(raw_count(b, "SELECT count(*) FROM t WHERE s GLOB 'b*'"), 20);
	sqlite3_close(b);
	assert_int_equal(rows_seen(f->path), 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(no_memory_statistics, setup, teardown),
		cmocka_unit_test_setup_teardown(commit_gathers_its_writes, setup, teardown),
		cmocka_unit_test_setup_teardown(failed_write_fails_the_commit, setup, teardown),
		cmocka_unit_test_setup_teardown(padded_commit_is_whole, setup, teardown),
		cmocka_unit_test_setup_teardown(spilled_frames_lost_fail_the_commit, setup, teardown),
		cmocka_unit_test_setup_teardown(failed_commit_stays_failed_after_a_crash, setup, teardown),
		cmocka_unit_test_setup_teardown(rolled_back_spill_leaves_no_write, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
