/*
 * bind_db.c — the SQL of the binding rules (bind_db.h): a job goes only to
 * the machine it is for. boot.c decides with these; the HELLO side of the
 * rules (who consumed the job, the machine's known address, uuid/serial
 * filled once) is in store_sql.c's S_HELLO_* statements, which run in the
 * same transaction as the frame.
 */
#include <string.h>

#include "bind_db.h"
#include "util.h"

/* Runs sql with ?1 text (or NULL) and ?2, ?3 integers; the first column of
 * its first row (def if none), or, for a statement without rows, the
 * number of rows it changed. -1 on error. */
static int64_t run1(struct dbi *db, const char *sql, const char *text, int64_t a, int64_t b, int64_t def)
{
	struct dbi_stmt *st;
	int64_t v = def;
	int rc;

	if (dbi_prepare(db, sql, &st) != DBI_OK)
		return -1;
	if (text)
		dbi_bind_text(st, 1, text, -1);
	dbi_bind_i64(st, 2, a);
	dbi_bind_i64(st, 3, b);
	rc = dbi_step(st);
	if (rc == DBI_ROW)
		v = dbi_column_i64(st, 0);
	else if (rc == DBI_DONE && dbi_column_count(st) == 0)
		v = dbi_changes(db);
	else if (rc != DBI_DONE)
		v = -1;
	dbi_finalize(st);
	return v;
}

int bind_may_take_job(struct dbi *db, const char *mac, const char *peer, int allowed)
{
	struct dbi_stmt *st;
	int ok = allowed;

	if (dbi_prepare(db, "SELECT boot_addr FROM machines WHERE mac = ? AND boot_addr IS NOT NULL", &st) != DBI_OK)
		return 0;
	dbi_bind_text(st, 1, mac, -1);
	if (dbi_step(st) == DBI_ROW && strcmp(dbi_column_text(st, 0), peer) == 0)
		ok = 1;
	dbi_finalize(st);
	return ok;
}

int bind_job_to_boot(struct dbi *db, int64_t job_id, int64_t until)
{
	return run1(db, "UPDATE jobs SET bound_until = ?3 WHERE id = ?2 AND consumed IS NULL",
		    NULL, job_id, until, 0) == 1 ? 0 : -1;
}

int bind_requeue(struct dbi *db, int64_t job_id, int forget_addr)
{
	int64_t n;

	if (forget_addr &&
	    run1(db, "UPDATE machines SET boot_addr = NULL WHERE mac = (SELECT mac FROM jobs WHERE id = ?2 "
		 "AND consumed IS NOT NULL)", NULL, job_id, 0, 0) < 0)
		return -1;
	n = run1(db, "UPDATE jobs SET consumed = NULL, run_id = NULL, consumed_by = NULL, bound_until = NULL "
		 "WHERE id = ?2 AND consumed IS NOT NULL", NULL, job_id, 0, 0);
	return n < 0 ? -1 : n > 0;
}

int64_t bind_pending_jobless(struct dbi *db, const char *peer)
{
	return run1(db, "SELECT count(*) FROM runs WHERE boot_peer = ?1 AND status = 'pending' AND job_id IS NULL",
		    peer, 0, 0, 0);
}
