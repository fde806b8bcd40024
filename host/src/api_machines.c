/*
 * api_machines.c — the lab's routes: one machine with its power settings
 * and jobs (GET /api/v1/machines/{mac}), its power settings (PUT
 * .../power) and a power action (POST .../power), one job with its events
 * (GET /api/v1/jobs/{job}), a cancel (POST /api/v1/jobs/{job}/cancel), and
 * the overview of every machine (GET /api/v1/lab). The SQL is jobs_db.c's.
 * A password is never accepted here, only a password file's path.
 */
#include <stdio.h>
#include <string.h>

#include "api_power_call.h"
#include "http_limits.h"
#include "job_runner.h"
#include "jobs_db.h"
#include "labs_db.h"
#include "routes.h"
#include "xcbd.h"

/* The {mac} path parameter as http.c passes it: the 48 bits as a number. */
static void mac_text(int64_t v, char out[18])
{
	snprintf(out, 18, "%02x:%02x:%02x:%02x:%02x:%02x", (unsigned)(v >> 40) & 0xff, (unsigned)(v >> 32) & 0xff,
		 (unsigned)(v >> 24) & 0xff, (unsigned)(v >> 16) & 0xff, (unsigned)(v >> 8) & 0xff, (unsigned)v & 0xff);
}

int parse_mac_param(const char *s, int64_t *v)
{
	char mac[18];
	unsigned b[6];

	if (norm_mac(s, mac) || sscanf(mac, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]) != 6)
		return -1;
	*v = 0;
	for (int i = 0; i < 6; i++)
		*v = (*v << 8) | b[i];
	return 0;
}

enum MHD_Result api_machine(struct req *rq, int64_t m)
{
	struct dbi *db = rdb();
	char mac[18];
	json_t *o;
	int failed;

	if (!db)
		return reply_error(rq, 503, "database unavailable");
	mac_text(m, mac);
	o = jobs_db_machine_json(db, mac, is_admin(rq), &failed);
	if (failed)
		return reply_db_failed(rq, db, NULL);
	if (!o)
		return reply_error(rq, 404, "no machine %s", mac);
	return reply_json(rq, 200, json_pack("{s:o}", "machine", o));
}

/* A string field of body into dst: 0, or -1 when it is there and not a
 * string or too long (why says which). */
static int str_field(json_t *body, const char *k, char *dst, size_t n, char *why, size_t whylen)
{
	json_t *v = json_object_get(body, k);

	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v) || strlen(json_string_value(v)) >= n) {
		snprintf(why, whylen, "%s: expected a string of at most %zu characters", k, n - 1);
		return -1;
	}
	snprintf(dst, n, "%s", json_string_value(v));
	return 0;
}

enum MHD_Result api_machine_power_set(struct req *rq, int64_t m)
{
	static const char *const known[] = { "driver", "host", "port", "user", "password_file", "command", "sol",
					     "take", NULL };
	struct power_cfg c = { 0 };
	const char *k;
	char err[600], other[400];
	json_t *body, *v;
	enum MHD_Result ret;
	int rc, take;

	body = admin_body(rq, &ret);
	if (!body)
		return ret;
	mac_text(m, c.mac);
	json_object_foreach(body, k, v) {
		int ok = 0;

		for (int i = 0; known[i]; i++)
			ok |= strcmp(k, known[i]) == 0;
		if (!ok) {
			/* Say so plainly: a password sent here would otherwise be
			 * dropped in silence, or worse, stored. */
			ret = reply_error(rq, 400, strcmp(k, "password") == 0
					  ? "password: not accepted; give password_file, a file only the daemon can read"
					  : "%s: not a power setting (driver, host, port, user, password_file, command, sol)", k);
			goto out;
		}
	}
	if (str_field(body, "driver", c.driver, sizeof(c.driver), err, sizeof(err)) ||
	    str_field(body, "host", c.host, sizeof(c.host), err, sizeof(err)) ||
	    str_field(body, "user", c.user, sizeof(c.user), err, sizeof(err)) ||
	    str_field(body, "password_file", c.password_file, sizeof(c.password_file), err, sizeof(err)) ||
	    str_field(body, "command", c.command, sizeof(c.command), err, sizeof(err))) {
		ret = reply_error(rq, 400, "%s", err);
		goto out;
	}
	v = json_object_get(body, "port");
	if (v && !json_is_null(v)) {
		if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 65535) {
			ret = reply_error(rq, 400, "port: expected 1..65535");
			goto out;
		}
		c.port = (int)json_integer_value(v);
	}
	v = json_object_get(body, "sol");
	if (v && !json_is_boolean(v)) {
		ret = reply_error(rq, 400, "sol: expected true or false");
		goto out;
	}
	c.sol = json_is_true(v);
	v = json_object_get(body, "take");
	if (v && !json_is_boolean(v)) {
		ret = reply_error(rq, 400, "take: expected true or false");
		goto out;
	}
	take = json_is_true(v);
	if (take && !cfg.lab) {
		ret = reply_error(rq, 400, "take: this daemon serves no lab (--lab): it has no lab to take a machine into");
		goto out;
	}
	if (!c.driver[0])
		snprintf(c.driver, sizeof(c.driver), "manual");
	/* No password_file: keep the stored one (the pages never see it, so
	 * they cannot send it back). No command: likewise (a page read without
	 * the admin token never saw it: power_json). Not for manual, which
	 * uses neither (power_check refuses them): a machine set from command
	 * to manual drops its template. */
	if ((!json_object_get(body, "password_file") || !json_object_get(body, "command")) && rdb() &&
	    strcmp(c.driver, "manual") != 0) {
		struct power_cfg old;

		if (jobs_db_power_cfg(rdb(), c.mac, &old) == 0) {
			if (!json_object_get(body, "password_file"))
				memcpy(c.password_file, old.password_file, sizeof(c.password_file));
			if (!json_object_get(body, "command"))
				memcpy(c.command, old.command, sizeof(c.command));
		}
	}
	if (power_check(&c, err, sizeof(err))) {
		ret = reply_error(rq, 400, "%s", err);
		goto out;
	}
	if (c.sol && strcmp(c.driver, "ipmi")) {
		ret = reply_error(rq, 400, "sol: serial-over-LAN needs the ipmi driver");
		goto out;
	}
	rc = jobs_db_set_power(&c, take, other, sizeof(other));
	if (rc) {
		ret = rc > 0 ? reply_error(rq, 409, "%s", other) : reply_write_failed(rq, "cannot store the settings now");
		goto out;
	}
	ret = api_machine(rq, m);
out:
	json_decref(body);
	return ret;
}

enum MHD_Result api_machine_power(struct req *rq, int64_t m)
{
	struct power_cfg c;
	const char *name;
	enum MHD_Result res;
	char msg[600], mac[18];
	json_t *body;
	int a;

	body = admin_body(rq, &res);
	if (!body)
		return res;
	name = json_string_value(json_object_get(body, "action"));
	a = power_action_parse(name);
	json_decref(body);
	if (a < 0)
		return reply_error(rq, 400, "action: expected on, off, cycle, status or pxe");
	mac_text(m, mac);
	if (!rdb() || jobs_db_power_cfg(rdb(), mac, &c))
		return reply_error(rq, 503, "database unavailable");
	/* Its BMC is on that lab's network, and its jobs that lab's runner's. */
	if (lab_machine_elsewhere(rdb(), mac, msg, sizeof(msg)))
		return reply_error(rq, 409, "machine %s belongs to lab '%s': power it from that lab's daemon", mac, msg);
	/* A MAC never registered nor booted is most often a typo: as a manual
	 * machine it answered "someone must power … on", a success. */
	if (dbi_i64(rdb(), "SELECT id FROM machines WHERE mac = ?1", 0, DBI_T(mac)) == 0)
		return reply_error(rq, 404, "no machine %s (check the MAC, or give it a power driver: "
				   "xcbench machine set %s --power ...)", mac, mac);
	/* A call may take POWER_TIMEOUT_S, and a failed session one more to
	 * say why (power_ipmi.c): longer than --request-timeout's default. */
	http_limits_extend(rq->conn, 2 * POWER_TIMEOUT_S + 5);
	/* Off this HTTP thread: its other connections are served meanwhile. */
	return power_call_begin(rq, &c, (enum power_action)a);
}

enum MHD_Result api_job(struct req *rq, int64_t id)
{
	struct dbi *db = rdb();
	json_t *o;
	int failed;

	if (!db)
		return reply_error(rq, 503, "database unavailable");
	o = jobs_db_job_json(db, id, &failed);
	if (failed)
		return reply_db_failed(rq, db, NULL);
	if (!o)
		return reply_error(rq, 404, "no job %lld", (long long)id);
	return reply_json(rq, 200, json_pack("{s:o}", "job", o));
}

enum MHD_Result api_job_cancel(struct req *rq, int64_t id)
{
	int rc;

	if (!is_admin(rq))
		return reply_error(rq, 401, "write routes need 'Authorization: Bearer <admin token>'");
	/* Said as an operator did it ("through the API" read as if something
	 * other than their `xcbench job cancel` had cancelled it). */
	rc = jobs_db_cancel(id, "cancelled on request (xcbench job cancel, the machine page's Cancel, or the API)");
	if (rc == -2) /* a job is "not there" only when the store said so */
		return reply_write_failed(rq, "cannot cancel the job now");
	if (rc < 0)
		return reply_error(rq, 404, "no job %lld", (long long)id);
	if (rc == 0)
		return reply_error(rq, 409, "job %lld has already ended", (long long)id);
	job_runner_kick(); /* its end action now, not at the next tick */
	return api_job(rq, id);
}

enum MHD_Result api_lab(struct req *rq)
{
	struct dbi *db = rdb();
	const char *f = qarg(rq, "failing");
	uint64_t n = 3;
	json_t *lab;

	if (f && (parse_u64(f, &n) || n > 100))
		return reply_error(rq, 400, "failing: '%s' is not 0..100 jobs", f);
	if (!db)
		return reply_error(rq, 503, "database unavailable");
	lab = jobs_db_lab_json(db, (int)n);
	if (!lab)
		return reply_db_failed(rq, db, NULL);
	/* lab: this daemon's (--lab), as /health says it, beside each
	 * machine's: the Lab page marks the machines this daemon boots. */
	return reply_json(rq, 200, json_pack("{s:o, s:I, s:I, s:o}", "machines", lab,
					     "failing_after", (json_int_t)n, "now", (json_int_t)now_s(),
					     "lab", cfg.lab ? json_string(cfg.lab) : json_null()));
}
