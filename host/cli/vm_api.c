/*
 * vm_api.c — the daemon side of `xcbench vm`: a machine's queued job, its
 * boot as the daemon describes it (GET /boot.json, for direct boot), its
 * run as the API reports it, and its console attached to that run. Nothing
 * here decides what happens next: cmd_vm.c's state machine does.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "skipped.h"
#include "verdict.h"
#include "vm.h"
#include "xcb_schema.h"

int vm_queue_job(struct vm *v, const char *suite, const char *label, json_t *params)
{
	json_t *body = json_pack("{s:s, s:s, s:O}", "mac", v->mac, "suite", suite, "params", params), *o;

	if (label)
		json_object_set_new(body, "label", json_string(label));
	o = api_json("POST", "/api/v1/jobs", body);
	json_decref(body);
	if (!o) {
		/* api_json said why (the daemon's answer, with a hint on a 401). */
		fprintf(stderr, "xcbench vm: cannot queue the job for %s\n", v->mac);
		return -1;
	}
	v->job_id = json_integer_value(json_object_get(json_object_get(o, "job"), "id"));
	json_decref(o);
	return 0;
}

/* A job nobody booted must not surprise the next boot of that MAC. */
void vm_drop_job(struct vm *v)
{
	char path[96];
	json_t *o, *j;
	size_t i;
	struct buf q = { 0 };

	if (!v->job_id)
		return;
	buf_addf(&q, "/api/v1/jobs?pending=1&mac=");
	url_encode(&q, v->mac);
	o = api_json("GET", q.p, NULL);
	buf_free(&q);
	json_array_foreach(json_object_get(o, "jobs"), i, j)
		if (json_integer_value(json_object_get(j, "id")) == v->job_id) {
			/* A queued job is deleted; one its boot request already moved on
			 * (stage booting: the job lifecycle) is cancelled, which the
			 * daemon allows at any stage before the end. */
			const char *stage = json_string_value(json_object_get(j, "stage"));
			int queued = !stage || strcmp(stage, "queued") == 0;

			json_t *none = queued ? NULL : json_object();

			snprintf(path, sizeof(path), "/api/v1/jobs/%lld%s", (long long)v->job_id, queued ? "" : "/cancel");
			json_decref(api_json(queued ? "DELETE" : "POST", path, none));
			json_decref(none);
		}
	json_decref(o);
}

/* Direct boot: the daemon says what iPXE would boot (creating the run,
 * consuming nothing), asked under the address the guest reaches it at so
 * that server= names it as the guest must, with the network values QEMU
 * user networking gives the guest. */
int vm_boot_spec(struct vm *v, const struct vm_opts *o, char *image, size_t len)
{
	struct buf path = { 0 }, host = { 0 };
	struct http_resp r;
	json_t *spec = NULL;
	const char *args, *img;
	int rc = -1;

	buf_addf(&path, "/boot.json?firmware=%s&ip=%s&gw=%s&netmask=%s&mac=", XCB_NAME(boot, o->firmware),
		 VM_GUEST_IP, VM_GUEST_GW, VM_GUEST_NETMASK);
	url_encode(&path, v->mac);
	buf_addf(&path, "&uuid=%s&serial=", v->uuid);
	url_encode(&path, v->serial);
	buf_addf(&host, "%s:%d", o->guest_host, o->http_port);
	if (http_call_as(host.p, "GET", path.p, NULL, &r, NULL))
		goto out;
	spec = json_loadb(r.body.p, r.body.len, 0, NULL);
	args = json_string_value(json_object_get(spec, "args"));
	img = json_string_value(json_object_get(spec, "image"));
	if (r.status != 200 || !args || !img) {
		char *msg = http_error_text(&r);

		fprintf(stderr, "xcbench vm: GET %s: HTTP %d: %s\n", path.p, r.status, msg ? msg : "");
		free(msg);
		goto out;
	}
	v->cmdline = strdup(args);
	v->run_id = json_integer_value(json_object_get(json_object_get(spec, "run"), "id"));
	snprintf(image, len, "%s", img);
	rc = v->cmdline ? 0 : -1;
out:
	json_decref(spec);
	buf_free(&path);
	buf_free(&host);
	buf_free(&r.body);
	return rc;
}

int vm_fetch(const char *dest, const char *route)
{
	struct http_resp r;
	FILE *f = fopen(dest, "w");
	int rc;

	if (!f) {
		fprintf(stderr, "xcbench vm: cannot write %s: %s\n", dest, strerror(errno));
		return -1;
	}
	rc = http_call("GET", route, NULL, &r, f);
	fclose(f);
	if (rc == 0 && r.status != 200) {
		char *msg = http_error_text(&r);

		fprintf(stderr, "xcbench vm: GET %s: HTTP %d: %s\n", route, r.status, msg ? msg : "");
		free(msg);
		rc = -1;
	}
	buf_free(&r.body);
	return rc;
}

int64_t vm_find_run(const struct vm *v, int64_t t0)
{
	struct buf q = { 0 };
	json_t *o, *r;
	int64_t id = 0;

	buf_addf(&q, "/api/v1/runs?limit=1&since=%lld&machine=", (long long)t0);
	url_encode(&q, v->mac);
	o = api_json("GET", q.p, NULL);
	buf_free(&q);
	r = json_array_get(json_object_get(o, "runs"), 0);
	if (r)
		id = json_integer_value(json_object_get(r, "id"));
	json_decref(o);
	return id;
}

int vm_poll_run(struct vm *v)
{
	char path[64];
	json_t *o, *run;
	const char *st, *err;

	snprintf(path, sizeof(path), "/api/v1/runs/%lld", (long long)v->run_id);
	o = api_json("GET", path, NULL);
	run = json_object_get(o, "run");
	st = json_string_value(json_object_get(run, "status"));
	if (!st) {
		json_decref(o);
		return -1;
	}
	snprintf(v->status, sizeof(v->status), "%s", st);
	v->frames = json_integer_value(json_object_get(run, "frames_received"));
	v->cases = json_integer_value(json_object_get(run, "cases"));
	v->cases_done = json_integer_value(json_object_get(run, "cases_done"));
	v->cases_planned = json_integer_value(json_object_get(run, "cases_planned"));
	err = json_string_value(json_object_get(run, "error"));
	snprintf(v->run_error, sizeof(v->run_error), "%s", err ? err : "");
	v->verdict = run_verdict(run);	/* a static string: outlives o */
	skipped_sentence(o, v->skipped, sizeof(v->skipped));
	json_decref(o);
	return 0;
}

void vm_run_url(char *buf, size_t len, int64_t id)
{
	size_t n = strlen(opt_server);

	while (n > 0 && opt_server[n - 1] == '/')
		n--;
	snprintf(buf, len, "%.*s/run.html?id=%lld", (int)n, opt_server, (long long)id);
}

/* POSTs the console to the run's log (.../console, kind "console") in
 * chunks under the daemon's body limit, each naming its first line. */
static void upload_console(const struct vm *v)
{
	char path[96], *text = NULL;
	size_t len = 0, off = 0;
	long line = 0;
	FILE *f = fopen(v->console, "r");

	if (!f)
		return;
	{
		struct buf b = { 0 };
		char tmp[8192];
		size_t n;

		while ((n = fread(tmp, 1, sizeof(tmp), f)) > 0)
			buf_add(&b, tmp, n);
		text = b.p;
		len = b.len;
	}
	fclose(f);
	for (size_t i = 0; i < len; i++)	/* the body travels as a C string */
		if (!text[i])
			text[i] = '?';
	while (off < len) {
		size_t n = len - off;
		struct http_resp r;
		char save;

		if (n > 60000) {	/* cut after a newline, under 64 KiB */
			n = 60000;
			while (n > 1 && text[off + n - 1] != '\n')
				n--;
			if (n == 1)
				n = 60000;
		}
		save = text[off + n];
		text[off + n] = 0;
		snprintf(path, sizeof(path), "/api/v1/runs/%lld/console?line=%ld", (long long)v->run_id, line);
		if (http_call("POST", path, text + off, &r, NULL) || r.status != 200) {
			fprintf(stderr, "xcbench vm: vm%d: could not attach the console to run %lld%s%s\n", v->idx,
				(long long)v->run_id, r.body.p ? ": " : "", r.body.p ? r.body.p : "");
			buf_free(&r.body);
			break;
		}
		buf_free(&r.body);
		for (size_t i = off; i < off + n; i++)
			line += text[i] == '\n';
		text[off + n] = save;
		off += n;
	}
	free(text);
}

/* The run's notes name the console and QEMU log files. */
static void note_console(const struct vm *v)
{
	char path[64];
	json_t *body, *o;
	struct buf note = { 0 };

	buf_addf(&note, "xcbench vm: console %s (QEMU log %s)", v->console, v->qemu_log);
	body = json_pack("{s:s}", "notes", note.p);
	snprintf(path, sizeof(path), "/api/v1/runs/%lld", (long long)v->run_id);
	o = api_json("PATCH", path, body);
	json_decref(o);
	json_decref(body);
	buf_free(&note);
}

void vm_attach_console(const struct vm *v)
{
	if (!v->run_id)
		return;
	upload_console(v);
	note_console(v);
}
