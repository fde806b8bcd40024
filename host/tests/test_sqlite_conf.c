/*
 * test_sqlite_conf.c — the SQLite engine's process-wide settings
 * (dbi_sqlite.c lite_configure), on a real database file: SQLite keeps no
 * memory statistics (their process-wide mutex, taken on every
 * sqlite3_malloc and sqlite3_free, was the writer's most frequent lock).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "dbi.h"

/* No memory statistics: after a real connection stored rows, nothing has
 * counted the bytes SQLite allocated for them. */
static void no_memory_statistics(void **state)
{
	char dir[] = "/tmp/xcb-sqlite-conf.XXXXXX", path[64], err[256], p[80];
	struct dbi *db;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/t.db", dir);
	db = dbi_open(path, DBI_RW, err, sizeof(err));
	assert_non_null(db);
	assert_int_equal(dbi_exec(db, "CREATE TABLE t(id INTEGER PRIMARY KEY, s TEXT)"), DBI_OK);
	assert_int_equal(dbi_exec(db, "BEGIN"), DBI_OK);
	for (int i = 0; i < 200; i++)
		assert_int_equal(dbi_run(db, "INSERT INTO t(id, s) VALUES (?, printf('%.*c', 2000, 'x'))",
					 DBI_I(i)), DBI_OK);
	assert_int_equal(dbi_exec(db, "COMMIT"), DBI_OK);
	assert_int_equal(sqlite3_memory_used(), 0);
	dbi_close(db);
	unlink(path);
	for (const char *sfx = "-wal\0-shm\0"; *sfx; sfx += strlen(sfx) + 1) {
		snprintf(p, sizeof(p), "%s%s", path, sfx);
		unlink(p);
	}
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_memory_statistics),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
