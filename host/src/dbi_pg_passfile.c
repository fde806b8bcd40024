/*
 * dbi_pg_passfile.c — why libpq found no password for a store that wants
 * one, said from the password file it read: a lab host's daemon gets its
 * password only from there (README, "A central store"), and libpq's
 * "fe_sendauth: no password supplied" is the same words whether that file
 * is missing, readable by others (libpq then ignores it, with a warning
 * that does not name the store) or has no line for this server, database
 * and user — the three ways an operator gets it wrong, each with its own
 * repair.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "dbi_pg_conn.h"

/* The password file libpq looked in: PGPASSFILE, the URL's passfile=, or
 * ~/.pgpass (libpq fills the option in itself), or NULL. */
static int passfile_of(PGconn *c, char *out, size_t n)
{
	PQconninfoOption *opts = PQconninfo(c);
	int found = 0;

	for (PQconninfoOption *o = opts; o && o->keyword; o++)
		if (!strcmp(o->keyword, "passfile") && o->val && *o->val) {
			snprintf(out, n, "%s", o->val);
			found = 1;
		}
	PQconninfoFree(opts);
	return found;
}

void pg_password_hint(PGconn *c, char *out, size_t n)
{
	char file[512];
	struct stat st;
	const char *host = PQhost(c);

	/* What libpq matches a line's first field against: a Unix socket
	 * directory as it is, except the default one, which is "localhost". */
	if (!host || !*host || !strcmp(host, "/var/run/postgresql") || !strcmp(host, "/run/postgresql"))
		host = "localhost";
	if (!passfile_of(c, file, sizeof(file))) {
		snprintf(out, n, "; put its password in a password file (PGPASSFILE, ~/.pgpass) or PGPASSWORD");
		return;
	}
	if (stat(file, &st) != 0)
		snprintf(out, n, "; put its password in a password file (PGPASSFILE, ~/.pgpass) or PGPASSWORD: "
			 "the password file %s: %s", file, strerror(errno));
	else if (!S_ISREG(st.st_mode))
		snprintf(out, n, "; the password file %s is not a plain file: libpq ignores it", file);
	else if (st.st_mode & (S_IRWXG | S_IRWXO))
		snprintf(out, n, "; the password file %s is readable by others (mode %03o), so libpq ignores "
			 "it: chmod 600 %s", file, (unsigned)(st.st_mode & 0777), file);
	else
		snprintf(out, n, "; the password file %s has no line for this store: add "
			 "'%s:%s:%s:%s:PASSWORD' (host:port:database:user, * for any)", file, host,
			 PQport(c) && *PQport(c) ? PQport(c) : "5432", PQdb(c), PQuser(c));
}
