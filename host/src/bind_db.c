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

int bind_may_take_job(struct dbi *db, const char *mac, const char *peer, int allowed)
{
	struct dbi_stmt *st;
	int ok = allowed;

	if (dbi_row(db, "SELECT boot_addr FROM machines WHERE mac = ? AND boot_addr IS NOT NULL", &st,
		    DBI_T(mac)) == DBI_ROW && strcmp(dbi_column_text(st, 0), peer) == 0)
		ok = 1;
	dbi_finalize(st);
	return ok;
}

int bind_job_to_boot(struct dbi *db, int64_t job_id, int64_t until)
{
	return dbi_run(db, "UPDATE jobs SET bound_until = ?1 WHERE id = ?2 AND consumed IS NULL", DBI_I(until),
		       DBI_I(job_id)) == DBI_OK && dbi_changes(db) == 1 ? 0 : -1;
}

int bind_requeue(struct dbi *db, int64_t job_id, int forget_addr)
{
	if (forget_addr &&
	    dbi_run(db, "UPDATE machines SET boot_addr = NULL WHERE mac = (SELECT mac FROM jobs WHERE id = ?1 "
		    "AND consumed IS NOT NULL)", DBI_I(job_id)) != DBI_OK)
		return -1;
	if (dbi_run(db, "UPDATE jobs SET consumed = NULL, run_id = NULL, consumed_by = NULL, bound_until = NULL "
		    "WHERE id = ?1 AND consumed IS NOT NULL", DBI_I(job_id)) != DBI_OK)
		return -1;
	return dbi_changes(db) > 0;
}

int64_t bind_pending_jobless(struct dbi *db, const char *peer)
{
	return dbi_i64(db, "SELECT count(*) FROM runs WHERE boot_peer = ?1 AND status = 'pending' AND job_id IS NULL",
		       -1, DBI_T(peer));
}
