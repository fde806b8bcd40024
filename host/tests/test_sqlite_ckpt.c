/*
 * test_sqlite_ckpt.c — a read-write SQLite connection's checkpoints on a
 * thread of their own (dbi_sqlite_ckpt.c), on a real database file: under
 * a stream of commits the WAL stays bounded (copied by the thread's
 * passes and the writer's catch-ups, and rewound: a checkpointer that
 * never let the WAL rewind grew it past 160 MB in one bench), every row is
 * there after a reopen, and the file is intact; and the catch-up is not
 * the COMMIT's but dbi_settle's, after the batch's ACKs (the WAL grows
 * past LITE_CKPT_CATCHUP when nothing settles, and is still bounded).
 */
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

#include "dbi.h"
#include "dbi_sqlite_conn.h"

#define TXNS 4000  /* commits of ROWS rows of ~3 KiB: ~12,000 pages, three rewinds' worth */
#define ROWS 3

static off_t size_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_size;
}

/* TXNS commits, each followed by dbi_settle when `settle` (as the
 * daemon's writer does after each batch's ACKs): the WAL file never holds
 * more than LITE_CKPT_MAX pages and one commit's (each page a 24-byte
 * frame header on top of it, plus the WAL's 32-byte header), so it was
 * copied and rewound; all rows read back after a reopen, and quick_check
 * says ok. Returns the WAL file's largest size. */
static off_t commits(int settle)
{
	char dir[] = "/tmp/xcb-sqlite-ckpt.XXXXXX", path[64], wal[72], err[256];
	/* a commit: ROWS rows of ~3 KiB, each on a page of its own, and the b-tree's pages above */
	const off_t page = 4096 + 24, bound = 32 + (LITE_CKPT_MAX + 2 * (ROWS + 2)) * page;
	off_t most = 0, sz;
	struct dbi *db;
	struct dbi_stmt *st = NULL;
	int64_t n = -1;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/t.db", dir);
	snprintf(wal, sizeof(wal), "%s-wal", path);
	db = dbi_open(path, DBI_RW, err, sizeof(err));
	assert_non_null(db);
	assert_int_equal(dbi_exec(db, "CREATE TABLE t(id INTEGER PRIMARY KEY, s TEXT)"), DBI_OK);
	for (int k = 0; k < TXNS; k++) {
		assert_int_equal(dbi_exec(db, "BEGIN"), DBI_OK);
		for (int i = 0; i < ROWS; i++)
			assert_int_equal(dbi_run(db, "INSERT INTO t(id, s) VALUES (?, printf('%.*c', 3000, 'x'))",
						 DBI_I(k * ROWS + i)), DBI_OK);
		assert_int_equal(dbi_exec(db, "COMMIT"), DBI_OK);
		if (settle)
			dbi_settle(db);
		sz = size_of(wal);
		if (sz > most)
			most = sz;
	}
	print_message("WAL at most %lld bytes (bound %lld) over %d commits, %s\n", (long long)most,
		      (long long)bound, TXNS, settle ? "settled after each" : "never settled");
	assert_true(most > 0);
	assert_true(most <= bound);
	dbi_close(db);

	db = dbi_open(path, DBI_RW, err, sizeof(err)); /* quick_check on open: NULL if damaged */
	assert_non_null(db);
	assert_int_equal(dbi_prepare(db, "SELECT count(*) FROM t WHERE length(s) = 3000", &st), DBI_OK);
	assert_int_equal(dbi_step(st), DBI_ROW);
	n = dbi_column_i64(st, 0);
	dbi_finalize(st);
	assert_int_equal(n, TXNS * ROWS);
	dbi_close(db);
	unlink(path);
	unlink(wal);
	snprintf(wal, sizeof(wal), "%s-shm", path);
	unlink(wal);
	rmdir(dir);
	return most;
}

/* The writer's way: a settle after each commit. */
static void wal_bounded_rows_kept(void **state)
{
	(void)state;
	commits(1);
}

/* No settle: no COMMIT copies at LITE_CKPT_CATCHUP pages (the WAL grows
 * past it: a catch-up inside the COMMIT held the batch's ACKs for two
 * fdatasyncs), and the hook's own catch-up at LITE_CKPT_MAX still bounds
 * the WAL (commits' bound). */
static void catch_up_is_the_settles(void **state)
{
	(void)state;
	/* 100 pages past it: the COMMIT's catch-up kept it within a commit
	 * or two of it (4,004 pages traced; a pass running at the mark puts
	 * it off to a later commit), the hook's at LITE_CKPT_MAX lets it reach that. */
	assert_true(commits(0) > 32 + (off_t)(LITE_CKPT_CATCHUP + 100) * (4096 + 24));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(wal_bounded_rows_kept),
		cmocka_unit_test(catch_up_is_the_settles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
