/*
 * boot.c — the iPXE side: GET /boot.ipxe renders a per-machine script (the
 * oldest queued job for the MAC, else the default suite) with a fresh run
 * token, and GET /firmware/xcbench.elf (BIOS, multiboot) and
 * /firmware/xcbench.efi (UEFI, PE32+; next to --firmware) serve the payload.
 * One script for both: iPXE's ${platform} (pcbios or efi) picks the image,
 * the command line is the same. The addresses in
 * the script come from the request's Host header: that is the address the
 * booting machine demonstrably reaches us at (10.0.2.2 under QEMU user
 * networking), whatever our own interfaces are.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "casekey.h"
#include "http.h"
#include "xcbd.h"

#define CMDLINE_MAX 500 /* iPXE cuts the kernel line at 511 */

struct boot_task {
	const char *mac, *uuid, *serial;
	uint64_t token;
	int64_t run_id, job_id;
	char *suite, *params, *label;
};

static char *col_dup(sqlite3_stmt *st, int c)
{
	const char *s = (const char *)sqlite3_column_text(st, c);

	return s ? strdup(s) : NULL;
}

static void boot_fn(sqlite3 *db, void *arg)
{
	struct boot_task *t = arg;
	int64_t machine = 0, now = now_s();
	sqlite3_stmt *st;

	if (t->mac) {
		if (sqlite3_prepare_v2(db, "INSERT INTO machines(mac, uuid, serial, first_seen, last_seen) "
				       "VALUES (?1, ?2, ?3, ?4, ?4) ON CONFLICT(mac) DO UPDATE SET "
				       "uuid = COALESCE(?2, uuid), serial = COALESCE(?3, serial), last_seen = ?4",
				       -1, &st, NULL) == SQLITE_OK) {
			sqlite3_bind_text(st, 1, t->mac, -1, SQLITE_TRANSIENT);
			if (t->uuid)
				sqlite3_bind_text(st, 2, t->uuid, -1, SQLITE_TRANSIENT);
			if (t->serial)
				sqlite3_bind_text(st, 3, t->serial, -1, SQLITE_TRANSIENT);
			sqlite3_bind_int64(st, 4, now);
			sqlite3_step(st);
			sqlite3_finalize(st);
		}
		if (sqlite3_prepare_v2(db, "SELECT id FROM machines WHERE mac = ?", -1, &st, NULL) == SQLITE_OK) {
			sqlite3_bind_text(st, 1, t->mac, -1, SQLITE_TRANSIENT);
			if (sqlite3_step(st) == SQLITE_ROW)
				machine = sqlite3_column_int64(st, 0);
			sqlite3_finalize(st);
		}
		if (sqlite3_prepare_v2(db, "SELECT id, suite, params, label FROM jobs WHERE mac = ? AND "
				       "consumed IS NULL ORDER BY id LIMIT 1", -1, &st, NULL) == SQLITE_OK) {
			sqlite3_bind_text(st, 1, t->mac, -1, SQLITE_TRANSIENT);
			if (sqlite3_step(st) == SQLITE_ROW) {
				t->job_id = sqlite3_column_int64(st, 0);
				t->suite = col_dup(st, 1);
				t->params = col_dup(st, 2);
				t->label = col_dup(st, 3);
			}
			sqlite3_finalize(st);
		}
	}
	if (!t->suite)
		t->suite = strdup(cfg.suite);
	t->token = fresh_token();
	t->run_id = store_create_run(db, t->token, machine, t->job_id, t->suite, t->params, t->label);
	if (!t->run_id)
		return;
	if (t->job_id && sqlite3_prepare_v2(db, "UPDATE jobs SET consumed = ?, run_id = ? WHERE id = ?",
					    -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, now);
		sqlite3_bind_int64(st, 2, t->run_id);
		sqlite3_bind_int64(st, 3, t->job_id);
		sqlite3_step(st);
		sqlite3_finalize(st);
	}
	pthread_mutex_lock(&reg_lock);
	reg_add(t->token, t->run_id);
	pthread_mutex_unlock(&reg_lock);
}

static int host_ok(const char *h)
{
	size_t n = strlen(h);

	return n > 0 && n <= 64 && strspn(h, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]") == n;
}

/* Attribute strings from the query: printable, bounded, or dropped. */
static char *attr(struct req *rq, const char *name)
{
	const char *v = qarg(rq, name);
	char *s;

	if (!v)
		return NULL;
	s = sanitize_text(v, strnlen(v, 128));
	return s;
}

/* The script around the kernel line (which names xcbench.elf): iPXE's EFI
 * build cannot load multiboot, its BIOS build cannot run PE32+, so
 * ${platform} (pcbios|efi) picks the image; the arguments are the same. A
 * failed boot ends the script (iPXE stops at the first failing command). */
static void script_both(struct buf *s, const char *line)
{
	const char *elf = strstr(line, "/firmware/xcbench.elf ");
	int upto = elf ? (int)(elf - line) + (int)strlen("/firmware/xcbench.") : 0;

	buf_addf(s, "#!ipxe\niseq ${platform} efi && goto xcb_efi ||\n%s\nboot\n:xcb_efi\n", line);
	if (elf)
		buf_addf(s, "%.*sefi%s\nboot\n", upto, line, line + upto + 3);
}

enum MHD_Result boot_ipxe(struct req *rq)
{
	const char *host = MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND, "Host"), *mac_in = qarg(rq, "mac");
	struct boot_task t = { 0 };
	char mac[18], hostname[80], *colon;
	struct buf s = { 0 }, line = { 0 };
	enum MHD_Result ret;
	json_t *params;

	if (!host || !host_ok(host))
		return reply_error(rq, 400, "missing or unusable Host header");
	if (mac_in) {
		if (norm_mac(mac_in, mac))
			return reply_error(rq, 400, "mac: '%s' is not a MAC address", mac_in);
		t.mac = mac;
	}
	snprintf(hostname, sizeof(hostname), "%s", host);
	colon = strrchr(hostname, ':');
	if (colon && !strchr(hostname, ']'))
		*colon = 0;
	t.uuid = attr(rq, "uuid");
	t.serial = attr(rq, "serial");
	if (writer_call(boot_fn, &t) || !t.run_id) {
		ret = reply_error(rq, 503, "cannot create a run now");
		goto out;
	}
	/* ${netX/...}: the interface iPXE opened last, i.e. the one this script
	 * came through. ${net0/...} would be wrong on a machine that boots from
	 * its second NIC (the payload would pick another NIC and address). */
	buf_addf(&line, "kernel http://%s/firmware/xcbench.elf run=%016llx server=%s:%d suite=%s transport=udp "
		 "ip=${netX/ip} gw=${netX/gateway} netmask=${netX/netmask} mac=${netX/mac}",
		 host, (unsigned long long)t.token, hostname, ntohs(cfg.udp.sin_port), t.suite);
	params = t.params ? json_loads(t.params, 0, NULL) : NULL;
	if (json_is_object(params)) {
		const char *k;
		json_t *v;

		json_object_foreach(params, k, v)
			if (json_is_string(v))
				buf_addf(&line, " %s=%s", k, json_string_value(v));
	}
	json_decref(params);
	if (line.len >= CMDLINE_MAX) {
		ret = reply_error(rq, 500, "boot command line would be %zu characters (max %d)", line.len, CMDLINE_MAX);
		goto out;
	}
	script_both(&s, line.p);
	ret = reply_text(rq, 200, "text/plain", s.p);
out:
	buf_free(&s);
	buf_free(&line);
	free((char *)t.uuid);
	free((char *)t.serial);
	free(t.suite);
	free(t.params);
	free(t.label);
	return ret;
}

static enum MHD_Result serve_file(struct req *rq, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct MHD_Response *r;
	struct stat sb;

	if (fd < 0 || fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		if (fd >= 0)
			close(fd);
		return reply_error(rq, 404, "firmware not built (%s)", path);
	}
	r = MHD_create_response_from_fd((uint64_t)sb.st_size, fd);
	if (!r) {
		close(fd);
		return MHD_NO;
	}
	MHD_add_response_header(r, "Content-Type", "application/octet-stream");
	return reply_response(rq, 200, r);
}

enum MHD_Result boot_firmware(struct req *rq)
{
	return serve_file(rq, cfg.firmware);
}

/* The UEFI image lives next to the BIOS one (--firmware names that). */
enum MHD_Result boot_firmware_efi(struct req *rq)
{
	const char *slash = strrchr(cfg.firmware, '/');
	int dir = slash ? (int)(slash - cfg.firmware + 1) : 0;
	char path[4096];

	snprintf(path, sizeof(path), "%.*sxcbench.efi", dir, cfg.firmware);
	return serve_file(rq, path);
}
