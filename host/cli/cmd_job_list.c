/*
 * cmd_job_list.c — `xcbench job list`: the jobs the daemon holds, newest
 * first, one a line (GET /api/v1/jobs and its filters). An operator had
 * curl and the raw API to see what waited, or `machine show` one MAC at a
 * time.
 */
#include <string.h>

#include "client.h"

int job_list(const struct cmd *cmd, const char *mac, const char *lab, int pending, int as_json)
{
	struct buf path = { 0 };
	char id[32], run[32], created[40], lb[48];
	json_t *o, *j, *jobs;
	size_t i;
	int rc;

	buf_addf(&path, "/api/v1/jobs?pending=%d", pending);
	if (mac) {
		buf_addf(&path, "&mac=");
		url_encode(&path, mac);
	}
	if (lab) {
		buf_addf(&path, "&lab=");
		url_encode(&path, lab);
	}
	/* cmd: a refused --mac is named as the option (api_json_for) */
	o = api_answer_for(cmd, "GET", path.p, NULL, as_json, &rc);
	buf_free(&path);
	if (!o) /* a refused filter (400: "mac: ... is not a MAC") is a usage error */
		return rc && api_last_status() == 400 ? 2 : rc;
	jobs = json_object_get(o, "jobs");
	printf("%-6s %-17s  %-10s %-8s %-11s %-20s %s\n", "ID", "MAC", "LAB", "SUITE", "STAGE", "CREATED", "RUN");
	json_array_foreach(jobs, i, j)
		printf("%-6s %-17s  %-10s %-8s %-11s %-20s %s\n", jstr(json_object_get(j, "id"), id, sizeof(id)),
		       json_string_value(json_object_get(j, "mac")), jstr(json_object_get(j, "lab"), lb, sizeof(lb)),
		       json_string_value(json_object_get(j, "suite")), json_string_value(json_object_get(j, "stage")),
		       jstr(json_object_get(j, "created"), created, sizeof(created)),
		       jstr(json_object_get(j, "run_id"), run, sizeof(run)));
	if (!json_array_size(jobs))
		printf("(no jobs%s)\n", mac || lab || pending ? " match" : "");
	json_decref(o);
	return 0;
}
