/*
 * routes.h — the route handlers that http.c's route table names, one file
 * each: api_misc.c, api_runs.c, api_csv.c, api_samples.c, api_run_write.c, api_console.c,
 * api_compare.c, api_schema.c, api_jobs.c, api_machines.c, boot.c, static.c.
 */
#ifndef XCB_ROUTES_H
#define XCB_ROUTES_H

#include <stdint.h>

#include "http_reply.h"

enum MHD_Result api_health(struct req *rq);
enum MHD_Result api_machines(struct req *rq);
enum MHD_Result api_labs(struct req *rq);
enum MHD_Result api_runs(struct req *rq);
enum MHD_Result api_runs_csv(struct req *rq);
enum MHD_Result api_run_create(struct req *rq);
enum MHD_Result api_run(struct req *rq, int64_t id);
enum MHD_Result api_run_patch(struct req *rq, int64_t id);
enum MHD_Result api_run_csv(struct req *rq, int64_t id);
enum MHD_Result api_run_events(struct req *rq, int64_t id);
enum MHD_Result api_run_console(struct req *rq, int64_t id);
enum MHD_Result api_histogram(struct req *rq, int64_t id, int64_t case_id);
enum MHD_Result api_samples(struct req *rq, int64_t id, int64_t case_id);  /* api_samples.c */
enum MHD_Result api_samples_csv(struct req *rq, int64_t id);
enum MHD_Result api_compare(struct req *rq, int csv);
enum MHD_Result api_calibrate(struct req *rq);
enum MHD_Result api_baselines(struct req *rq);      /* api_baselines.c */
enum MHD_Result api_baseline_set(struct req *rq);
enum MHD_Result api_schema(struct req *rq);             /* api_schema.c */
enum MHD_Result api_jobs(struct req *rq);
enum MHD_Result api_job_create(struct req *rq);
enum MHD_Result api_job_delete(struct req *rq, int64_t id);
/* api_machines.c: the lab (issue 23) */
enum MHD_Result api_machine(struct req *rq, int64_t mac);
enum MHD_Result api_machine_power_set(struct req *rq, int64_t mac);
enum MHD_Result api_machine_power(struct req *rq, int64_t mac);
enum MHD_Result api_job(struct req *rq, int64_t id);
enum MHD_Result api_job_cancel(struct req *rq, int64_t id);
enum MHD_Result api_lab(struct req *rq);
/* The {mac} path parameter: a MAC address as its 48 bits; 0 or -1. */
int parse_mac_param(const char *s, int64_t *v);
enum MHD_Result api_job_requeue(struct req *rq, int64_t id);  /* api_job_bind.c */
enum MHD_Result boot_ipxe(struct req *rq);
enum MHD_Result boot_json(struct req *rq);   /* /boot.json: the same boot as data */
/* 1 for the kernel-line keys the daemon itself sets (server=, run=, ...):
 * the payload takes the last of a repeated key, so a job must not set them
 * (v: the value; transport=both is allowed, it still reports to us). */
int boot_reserved_key(const char *k, const char *v);
enum MHD_Result boot_firmware(struct req *rq);
int boot_is_payload(const char *url);
/* The file of the i-th payload image the daemon serves (--firmware first,
 * the UEFI one beside it): 0, or -1 past the last. */
int boot_image_path(size_t i, char *path, size_t n);
enum MHD_Result static_file(struct req *rq);

#endif
