/* runs_filter.c — the run list's query parameters (see runs_filter.h). */
#include <stdio.h>
#include <string.h>

#include "labs_db.h"
#include "runs_filter.h"
#include "verdict_words.h"

const char *run_filters_parse(struct req *rq, struct run_filters *f)
{
	const char *m = qarg(rq, "machine"), *s = qarg(rq, "since"), *l = qarg(rq, "limit"),
		   *o = qarg(rq, "offset"), *vd = qarg(rq, "verdict");
	uint64_t v;

	memset(f, 0, sizeof(*f));
	f->status = qarg(rq, "status");
	f->suite = qarg(rq, "suite");
	f->label = qarg(rq, "label");
	f->lab = qarg(rq, "lab");
	f->q = qarg(rq, "q");
	f->tag = qarg(rq, "tag");
	if (f->q && !*f->q)
		f->q = NULL;
	if (f->q && strlen(f->q) > 200)
		return "q: at most 200 characters";
	f->limit = 100;
	if (qarg(rq, "token")) {
		uint64_t t;

		/* Otherwise anyone could test guesses against the list. */
		if (!is_admin(rq))
			return "token: the token filter is for admins (Authorization: Bearer)";

		if (parse_hex64(qarg(rq, "token"), &t))
			return "token: expected 1 to 16 hex digits";
		snprintf(f->token, sizeof(f->token), "%016llx", (unsigned long long)t);
	}
	if (m && parse_id(m, &f->machine) && norm_mac(m, f->mac))
		return "machine: expected a machine id or a MAC address";
	if (s && (f->since = parse_time(s)) < 0)
		return "since: expected an ISO time (2026-11-29T23:55:00Z) or unix seconds";
	if (l) {
		if (parse_u64(l, &v) || v < 1 || v > 1000)
			return "limit: expected 1..1000";
		f->limit = (int64_t)v;
	}
	if (o) {
		if (parse_u64(o, &v) || v > INT32_MAX)
			return "offset: expected 0..2147483647";
		f->offset = (int64_t)v;
	}
	if (f->status && strcmp(f->status, "pending") && strcmp(f->status, "running") &&
	    strcmp(f->status, "complete") && strcmp(f->status, "lost") && strcmp(f->status, "crashed"))
		return "status: expected pending, running, complete, lost or crashed";
	if (vd && (f->verdict = verdict_parse(vd) + 1) == 0)
		return "verdict: expected " VERDICT_NAMES " (any case)";
	return NULL;
}

int run_filters_refused(struct req *rq, struct dbi *db, const struct run_filters *f, enum MHD_Result *res)
{
	char why[300];
	int u = f->lab ? labs_filter_unknown(db, f->lab, why, sizeof(why)) : 0;

	if (u)
		*res = u < 0 ? reply_db_failed(rq, db, NULL) : reply_error(rq, 400, "%s", why);
	return u != 0;
}
