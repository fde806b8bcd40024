/*
 * boot.c — the iPXE side: GET /boot.ipxe renders a per-machine script (the
 * oldest queued job for the MAC, else the default suite) with a fresh run
 * token, GET /boot.json says the same boot as data (the kernel URL and its
 * arguments for one firmware kind: what `xcbench vm --boot direct` hands
 * QEMU), and GET /firmware/xcbench.elf (BIOS, multiboot) and
 * /firmware/xcbench.efi (UEFI, PE32+; next to --firmware) serve the payload.
 * Both answers come from one place: boot_fws[] (which image for which
 * firmware) and boot_args() (the arguments). One script for both firmware
 * kinds: iPXE's ${platform} picks the image (boot_fws[] maps its words to
 * the schema's boot vocabulary, the only place they appear), the command
 * line is the same. The addresses come from the request's Host header: that is
 * the address the booting machine demonstrably reaches us at (10.0.2.2 under
 * QEMU user networking), whatever our own interfaces are.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bind_db.h"
#include "bootnet.h"
#include "casekey.h"
#include "labels_db.h"
#include "labs_db.h"
#include "http_reply.h"
#include "jobs_db.h"
#include "machines_db.h"

#include "run_limits.h"
#include "ratelimit.h"
#include "registry.h"
#include "store.h"
#include "writer.h"
#include "xcbd.h"
#include "xcb_schema.h"

#define CMDLINE_MAX 500 /* iPXE cuts the kernel line at 511 */

/* The firmware kinds a machine boots with: the first is the script's
 * default, the others are picked by iPXE's ${platform}. http.c hands every
 * /firmware/ path to boot_firmware(), which serves the entry whose image
 * route it is: the routes are named here only. */
static const struct boot_fw {
	enum xcb_boot boot;     /* its name is ?firmware= of /boot.json (xcbench vm --firmware) */
	const char *platform;   /* iPXE's ${platform}: its word for that firmware */
	const char *image;      /* the payload's route */
	const char *file;       /* beside --firmware; NULL: --firmware itself */
} boot_fws[] = {
	{ XCB_BOOT_BIOS, "pcbios", "/firmware/xcbench.elf", NULL },
	{ XCB_BOOT_UEFI, "efi", "/firmware/xcbench.efi", "xcbench.efi" },
};
#define BOOT_FWS (sizeof(boot_fws) / sizeof(boot_fws[0]))

/* The payload's network arguments: what iPXE fills in from the interface
 * the script came through. ${netX/...} is the interface iPXE opened last,
 * i.e. that one: ${net0/...} would be wrong on a machine that boots from its
 * second NIC (the payload would pick another NIC and address). /boot.json
 * takes the values as query arguments of the same names instead (a client
 * that boots the payload itself knows them; an absent one is empty, which
 * the payload takes as "ask DHCP"), mac= being ?mac=. */
enum { NET_IP, NET_GW, NET_NETMASK, NET_MAC, NET_ARGS };
static const struct net_arg {
	const char *key;        /* on the payload's command line and in ?KEY= */
	const char *ipxe;       /* the iPXE setting that fills it in */
} net_args[NET_ARGS] = {
	[NET_IP] = { "ip", "${netX/ip}" },
	[NET_GW] = { "gw", "${netX/gateway}" },
	[NET_NETMASK] = { "netmask", "${netX/netmask}" },
	[NET_MAC] = { "mac", "${netX/mac}" },
};

struct boot_task {
	const char *mac, *uuid, *serial, *host, *hostname;
	char peer[INET_ADDRSTRLEN];
	uint64_t token;
	int64_t run_id, job_id;
	int fresh;                 /* a new run (register its token once committed) */
	int allowed;               /* peer is in an allowed boot network (--boot-from) */
	int too_many;              /* refused: peer has RUNS_PER_ADDR pending job-less runs */
	struct buf args;           /* the kernel arguments, rendered before any write */
	size_t line_len;           /* the longest kernel line they make in the script */
	const char *net[NET_ARGS]; /* /boot.json: given network values, else NULL */
	char *suite, *params, *label;
	char other_lab[40];        /* the MAC is that lab's (--lab): refused */
};

/* A burst of 30 boots per source address, then 2 a second: a lab boots
 * each machine from its own address, QEMU's user networking all from one. */
static struct ratelimit boot_rl = RATELIMIT_INIT(30, 2);

/* A copy of column c's text, or NULL (the caller frees it). */
static char *col_dup(struct dbi_stmt *st, int c)
{
	const char *s = dbi_column_text(st, c);

	return s ? strdup(s) : NULL;
}

static void boot_args(struct boot_task *t);
static void note_refused_peer(struct dbi *db, const struct boot_task *t, int64_t now);

/* The job to run: the oldest one not yet consumed (by a HELLO), if this
 * request may have it (bind_db.c: the machine's known boot address, else an
 * allowed network), not bound by a power driver to a boot now over, and not
 * ended (cancelled, timed out: job_runner.c). */
static void pick_job(struct dbi *db, struct boot_task *t)
{
	enum { PJ_ID, PJ_SUITE, PJ_PARAMS, PJ_LABEL }; /* the query's columns, in its order */
	struct dbi_stmt *st;

	if (!bind_may_take_job(db, t->mac, t->peer, t->allowed)) {
		note_refused_peer(db, t, now_s());
		return;
	}
	if (dbi_row(db, "SELECT id, suite, params, label FROM jobs WHERE mac = ?1 AND "
			"consumed IS NULL AND (bound_until IS NULL OR bound_until >= ?2) "
			"AND stage IN ('queued', 'powering_on', 'booting', 'running') ORDER BY id LIMIT 1", &st,
		    DBI_T(t->mac), DBI_I(now_s())) == DBI_ROW) {
		t->job_id = dbi_column_i64(st, PJ_ID);
		t->suite = col_dup(st, PJ_SUITE);
		t->params = col_dup(st, PJ_PARAMS);
		t->label = col_dup(st, PJ_LABEL);
	}
	dbi_finalize(st);
}

/* The pending run this request may have again: same MAC, same job, asked
 * for from the same address. 0 if none. */
static int64_t reusable_run(struct dbi *db, struct boot_task *t, int64_t machine)
{
	enum { RR_ID, RR_TOKEN }; /* the query's columns, in its order */
	struct dbi_stmt *st;
	int64_t id = 0;

	if (dbi_row(db, "SELECT id, token FROM runs WHERE machine_id = ? AND status = 'pending' "
			"AND job_id IS NOT DISTINCT FROM ? AND boot_peer IS NOT DISTINCT FROM ? ORDER BY id DESC LIMIT 1",
		    &st, DBI_I(machine), t->job_id ? DBI_I(t->job_id) : DBI_NUL, DBI_T(t->peer)) == DBI_ROW) {
		id = dbi_column_i64(st, RR_ID);
		t->token = strtoull(dbi_column_text(st, RR_TOKEN), NULL, 16);
	}
	dbi_finalize(st);
	return id;
}

/* One event, why, on the job of mac that waits for its boot (a job not
 * yet handed to a boot: queued, powering_on or booting), once per attempt:
 * a boot request that could not take it says so where the operator looks,
 * where the job otherwise timed out "in powering_on" with "the machine
 * has not asked for /boot.ipxe", though it had. The job's rows may be
 * another lab's daemon's (a shared store). */
static void note_waiting_job(struct dbi *db, const char *mac, const char *why, int64_t now)
{
	struct dbi_stmt *st;
	int64_t job = 0;
	int attempt = 0;

	if (dbi_row(db, "SELECT id, attempt FROM jobs WHERE mac = ? AND consumed IS NULL AND ended IS NULL "
		    "AND stage IN ('queued', 'powering_on', 'booting') ORDER BY id LIMIT 1", &st, DBI_T(mac)) == DBI_ROW) {
		job = dbi_column_i64(st, 0);
		attempt = dbi_column_int(st, 1);
	}
	dbi_finalize(st);
	if (!job)
		return;
	dbi_run(db, "INSERT INTO job_events(job_id, at, stage, attempt, reason) SELECT ?1, ?2, stage, ?3, ?4 "
		"FROM jobs WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM job_events WHERE job_id = ?1 AND attempt = ?3 "
		"AND reason = ?4)", DBI_I(job), DBI_I(now), DBI_I(attempt), DBI_T(why));
}

/* Another lab's machine asked us for its boot script (refused): it boots
 * on this daemon's network, so its job (of the lab that owns it) says so. */
static void note_other_lab_boot(struct dbi *db, const struct boot_task *t, int64_t now)
{
	char why[400];

	snprintf(why, sizeof(why), "the machine asked the daemon of %s%s%s for its boot script (from %s), which "
		 "refused it: it belongs to lab '%s' but boots on that daemon's network; if it is that lab's, "
		 "take it there: xcbench machine set %s --take ...", cfg.lab ? "lab '" : "no lab (no --lab)",
		 cfg.lab ? cfg.lab : "", cfg.lab ? "'" : "", t->peer, t->other_lab, t->mac);
	note_waiting_job(db, t->mac, why, now);
}

/* A boot request for a MAC with a waiting job, from an address that may
 * not take it (--boot-from): it got the default suite, and the job said
 * nothing (a lab network other than the daemon's own subnets, a NAT in
 * between: the machine ran the default suite, the job timed out). */
static void note_refused_peer(struct dbi *db, const struct boot_task *t, int64_t now)
{
	char why[600], nets[256];

	bootnet_describe(nets, sizeof(nets));
	snprintf(why, sizeof(why), "a boot request for this MAC came from %s, outside the networks whose boots "
		 "may take a job (%s): it got the default suite, not this job; if that is the machine, "
		 "start xcbenchd with --boot-from a network holding %s", t->peer, nets, t->peer);
	note_waiting_job(db, t->mac, why, now);
}

static void boot_fn(struct dbi *db, void *arg)
{
	struct boot_task *t = arg;
	int64_t machine, now = now_s();

	if (lab_machine_elsewhere(db, t->mac, t->other_lab, sizeof(t->other_lab))) {
		note_other_lab_boot(db, t, now); /* nothing else written */
		return;
	}
	pick_job(db, t);
	if (!t->suite)
		t->suite = strdup(cfg.suite);
	boot_args(t);
	if (t->line_len >= CMDLINE_MAX)
		return; /* refused before anything is written */
	if (t->job_id) /* the job's lifecycle: booting (job_runner.c) */
		jobs_db_booted(db, t->job_id, now);
	/* A repeat gets its pending run again; a new job-less run needs room
	 * under the address's limit, checked before anything is written. */
	machine = dbi_i64(db, "SELECT id FROM machines WHERE mac = ?1", 0, DBI_T(t->mac));
	if (machine && (t->run_id = reusable_run(db, t, machine)) != 0)
		return;
	if (!t->job_id && bind_pending_jobless(db, t->peer) >= RUNS_PER_ADDR) {
		t->too_many = 1;
		return;
	}
	/* A new MAC gets its record; a known one is left as it is. */
	machine = machine_ensure(db, t->mac, now);
	if (!machine)
		return;
	lab_machine_adopt(db, machine);
	/* One pending run per MAC: this one replaces any other (the machine
	 * boots one script; the older run expires, as one with no HELLO does). */
	dbi_run(db, "UPDATE runs SET status = 'lost' WHERE machine_id = ?1 AND status = 'pending'", DBI_I(machine));
	t->token = fresh_token();
	t->run_id = store_create_run(db, t->token, machine, t->job_id, t->suite, t->params, t->label);
	if (!t->run_id)
		return;
	if (t->job_id)
		labels_from_job(db, t->job_id, t->run_id);	/* issue 25: the job's tags and fields */
	t->fresh = 1;
	dbi_run(db, "UPDATE runs SET boot_uuid = ?, boot_serial = ?, boot_peer = ?, boot_trusted = ? WHERE id = ?",
		DBI_T(t->uuid), DBI_T(t->serial), DBI_T(t->peer), DBI_I(t->allowed), DBI_I(t->run_id));
}

int boot_reserved_key(const char *k, const char *v)
{
	static const char *const reserved[] = { "server", "run", "ip", "mac", "gw", "netmask", "transport" };

	/* transport=both still sends every frame to us (and a copy to the
	 * serial console, for a capture to compare against): the one value of a
	 * reserved key that cannot take the results elsewhere. */
	if (strcmp(k, "transport") == 0 && v && strcmp(v, "both") == 0)
		return 0;
	for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
		if (strcmp(k, reserved[i]) == 0)
			return 1;
	return 0;
}

/* A Host the payload can use: an IPv4 address or a name, with an optional
 * port (the payload speaks IPv4 only: "[::1]:1" rendered server=[::1]:1:P). */
static int host_ok(const char *h)
{
	size_t n = strlen(h), name = strspn(h, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-");

	if (n == 0 || n > 64 || name == 0)
		return 0;
	if (name == n)
		return 1;
	return h[name] == ':' && n - name - 1 >= 1 && n - name - 1 <= 5 &&
	       strspn(h + name + 1, "0123456789") == n - name - 1;
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

/* The kernel line's length for image (as script_both writes it). */
static size_t line_len(const struct boot_task *t, const char *image)
{
	return strlen("kernel http://") + strlen(t->host) + strlen(image) + 1 + t->args.len;
}

/* The kernel arguments of t (token as it is now: its length never changes),
 * the same for every firmware kind; t->line_len is the longest kernel line
 * they make in the script (the one iPXE must not cut). */
static void boot_args(struct boot_task *t)
{
	json_t *params;

	t->args.len = 0;
	buf_addf(&t->args, "run=%016llx server=%s:%d suite=%s transport=udp",
		 (unsigned long long)t->token, t->hostname, ntohs(cfg.udp.sin_port), t->suite);
	for (int i = 0; i < NET_ARGS; i++)
		buf_addf(&t->args, " %s=%s", net_args[i].key, t->net[i] ? t->net[i] : net_args[i].ipxe);
	params = t->params ? json_loads(t->params, 0, NULL) : NULL;
	if (json_is_object(params)) {
		const char *k;
		json_t *v;

		/* Reserved keys are refused at POST; one queued before that
		 * rule must still not redirect the results. */
		json_object_foreach(params, k, v)
			if (json_is_string(v) && !boot_reserved_key(k, json_string_value(v)))
				buf_addf(&t->args, " %s=%s", k, json_string_value(v));
	}
	json_decref(params);
	t->line_len = 0;
	for (size_t i = 0; i < BOOT_FWS; i++)
		if (line_len(t, boot_fws[i].image) > t->line_len)
			t->line_len = line_len(t, boot_fws[i].image);
}

static void client_ip(struct req *rq, char *out, size_t n, uint32_t *addr)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(rq->conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	const struct sockaddr_in *sa = ci ? (const struct sockaddr_in *)ci->client_addr : NULL;

	*addr = 0;
	snprintf(out, n, "?");
	if (sa && sa->sin_family == AF_INET) {
		*addr = sa->sin_addr.s_addr;
		inet_ntop(AF_INET, &sa->sin_addr, out, (socklen_t)n);
	}
}

/* The script: iPXE's EFI build cannot load multiboot, its BIOS build cannot
 * run PE32+, so ${platform} picks each firmware kind's image; the arguments
 * are the same. A failed boot ends the script (iPXE stops at the first
 * failing command). */
static void script_both(struct buf *s, const struct boot_task *t)
{
	buf_addf(s, "#!ipxe\n");
	for (size_t i = 1; i < BOOT_FWS; i++)
		buf_addf(s, "iseq ${platform} %s && goto xcb_%s ||\n", boot_fws[i].platform, boot_fws[i].platform);
	for (size_t i = 0; i < BOOT_FWS; i++) {
		if (i)
			buf_addf(s, ":xcb_%s\n", boot_fws[i].platform);
		buf_addf(s, "kernel http://%s%s %s\nboot\n", t->host, boot_fws[i].image, t->args.p);
	}
}

/* /boot.json's answer for firmware kind fw. */
static json_t *boot_spec(const struct boot_task *t, const struct boot_fw *fw)
{
	struct buf url = { 0 };
	json_t *o;

	buf_addf(&url, "http://%s%s", t->host, fw->image);
	o = json_pack("{s:s, s:s, s:s, s:s, s:{s:I}}", "firmware", XCB_NAME(boot, fw->boot), "image", fw->image,
		      "kernel", url.p, "args", t->args.p, "run", "id", (json_int_t)t->run_id);
	buf_free(&url);
	return o;
}

/* Both answers: the checks, the run (boot_fn), then the script (fw NULL) or
 * fw's JSON. */
static enum MHD_Result boot_answer(struct req *rq, struct boot_task *t, const struct boot_fw *fw)
{
	const char *host = MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND, "Host"), *mac_in = qarg(rq, "mac");
	char mac[18], hostname[80], *colon;
	struct buf s = { 0 };
	enum MHD_Result ret;
	uint32_t src;

	if (!host || !host_ok(host))
		return reply_error(rq, 400, "missing or unusable Host header (an IPv4 address or a name, "
				   "with an optional port: the payload speaks IPv4)");
	if (!mac_in)
		return reply_error(rq, 400, "mac: required (iPXE: ?mac=${mac:hexhyp})");
	if (norm_mac(mac_in, mac))
		return reply_error(rq, 400, "mac: '%s' is not a MAC address", mac_in);
	client_ip(rq, t->peer, sizeof(t->peer), &src);
	if (!ratelimit_take(&boot_rl, src))
		return reply_error(rq, 429, "too many boot requests from %s; retry in a few seconds", t->peer);
	t->allowed = src && bootnet_allows(src);
	t->mac = mac;
	if (fw)
		t->net[NET_MAC] = mac;
	snprintf(hostname, sizeof(hostname), "%s", host);
	colon = strrchr(hostname, ':');
	if (colon)
		*colon = 0;
	t->host = host;
	t->hostname = hostname;
	t->uuid = attr(rq, "uuid");
	t->serial = attr(rq, "serial");
	if (writer_call(boot_fn, t)) {
		ret = reply_error(rq, 503, "cannot create a run now (see /api/v1/health)");
		goto out;
	}
	if (t->other_lab[0]) {
		ret = reply_error(rq, 409, "machine %s belongs to lab '%s': boot it from that lab's daemon",
				  mac, t->other_lab);
		goto out;
	}
	if (t->line_len >= CMDLINE_MAX) {
		ret = reply_error(rq, 500, "boot command line would be %zu characters (max %d): "
				  "the job's params are too long; nothing was changed", t->line_len, CMDLINE_MAX);
		goto out;
	}
	if (t->too_many) {
		ret = reply_error(rq, 429, "%s has %d pending runs without a job; they expire after %d s "
				  "(--lost-after)", t->peer, RUNS_PER_ADDR, cfg.lost_after);
		goto out;
	}
	if (!t->run_id) {
		ret = reply_error(rq, 503, "cannot create a run now");
		goto out;
	}
	if (t->fresh) {
		pthread_mutex_lock(&reg_lock);
		reg_add(t->token, t->run_id);
		pthread_mutex_unlock(&reg_lock);
	}
	boot_args(t);
	if (fw) {
		ret = reply_json(rq, 200, boot_spec(t, fw));
	} else {
		script_both(&s, t);
		ret = reply_text(rq, 200, "text/plain", s.p);
	}
out:
	buf_free(&s);
	buf_free(&t->args);
	free((char *)t->uuid);
	free((char *)t->serial);
	free(t->suite);
	free(t->params);
	free(t->label);
	return ret;
}

/* 1 if path opens as a regular file (errno set when not). */
static int regular_file(const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ok;

	if (fd < 0)
		return 0;
	ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	close(fd);
	if (!ok)
		errno = EISDIR;
	return ok;
}

static void fw_path(const struct boot_fw *fw, char *path, size_t n);

enum MHD_Result boot_ipxe(struct req *rq)
{
	struct boot_task t = { 0 };

	return boot_answer(rq, &t, NULL);
}

enum MHD_Result boot_json(struct req *rq)
{
	const char *name = qarg(rq, "firmware");
	const struct boot_fw *fw = NULL;
	struct boot_task t = { 0 };
	struct in_addr a;
	char path[4096];

	for (size_t i = 0; i < BOOT_FWS; i++)
		if (!name || XCB_PARSE(boot, name) == (int)boot_fws[i].boot) {
			fw = &boot_fws[i];
			break;
		}
	if (!fw)
		return reply_error(rq, 400, "firmware: '%s' is not bios or uefi", name);
	/* Checked as the payload will read them: dotted quads (nothing else
	 * reaches its command line); absent, empty (DHCP). */
	for (int i = 0; i < NET_ARGS; i++) {
		const char *v = qarg(rq, net_args[i].key);

		if (i == NET_MAC)
			continue;	/* ?mac= names the machine (boot_answer) */
		if (v && inet_pton(AF_INET, v, &a) != 1)
			return reply_error(rq, 400, "%s: '%s' is not an IPv4 address", net_args[i].key, v);
		t.net[i] = v ? v : "";
	}
	/* The image it would name must be there: a run made for a boot that
	 * cannot fetch its payload waited as pending, then stayed in the
	 * history as lost (xcbench vm before make -C firmware). */
	fw_path(fw, path, sizeof(path));
	if (!regular_file(path))
		return reply_error(rq, 503, "no %s payload to boot (%s: %s); make -C firmware, or start xcbenchd "
				   "with --firmware; no run was made", XCB_NAME(boot, fw->boot), path, strerror(errno));
	return boot_answer(rq, &t, fw);
}

/* A payload image, or a 404 that says which file is missing. */
static enum MHD_Result serve_file(struct req *rq, const char *path)
{
	enum MHD_Result res;

	if (reply_file(rq, path, "application/octet-stream", &res))
		return res;
	return reply_error(rq, 404, "firmware not built (%s)", path);
}

/* The boot_fws[] entry whose image route url is, or NULL. */
static const struct boot_fw *fw_of_image(const char *url)
{
	for (size_t i = 0; i < BOOT_FWS; i++)
		if (strcmp(url, boot_fws[i].image) == 0)
			return &boot_fws[i];
	return NULL;
}

/* 1 if url is a payload image's route: http.c routes it to boot_firmware. */
int boot_is_payload(const char *url)
{
	return fw_of_image(url) != NULL;
}

/* The file of boot_fws[] entry fw: --firmware names the BIOS image; the
 * others live next to it. */
static void fw_path(const struct boot_fw *fw, char *path, size_t n)
{
	const char *slash = strrchr(cfg.firmware, '/');
	int dir = slash ? (int)(slash - cfg.firmware + 1) : 0;

	if (!fw->file)
		snprintf(path, n, "%s", cfg.firmware);
	else
		snprintf(path, n, "%.*s%s", dir, cfg.firmware, fw->file);
}

int boot_image_path(size_t i, char *path, size_t n)
{
	if (i >= BOOT_FWS || !cfg.firmware)
		return -1;
	fw_path(&boot_fws[i], path, n);
	return 0;
}

/* GET /firmware/...: the image of the boot_fws[] entry whose route this
 * is. */
enum MHD_Result boot_firmware(struct req *rq)
{
	const struct boot_fw *fw = fw_of_image(rq->url);
	char path[4096];

	if (!fw)
		return reply_error(rq, 404, "no such payload: %s", rq->url);
	fw_path(fw, path, sizeof(path));
	return serve_file(rq, path);
}
