#!/bin/bash
# t-schema-boot.sh — the one schema end to end: GET /api/v1/schema answers
# with the case keys (x_boot a note with its vocabulary) and the RESULT
# fields; the payload, booted by BIOS (qboot, multiboot) and by UEFI (OVMF,
# when installed), sends x_boot=bios / x_boot=uefi with every case, and the
# daemon's API gives it back in each case's config — a case field added in
# proto/xcb_schema.h and the firmware only.
# timeout: 300
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
. "$(dirname "$0")/lib/uefi.sh"
daemon_test "schema end to end"
# --open: loopback writes (the ingest) need no token.
start_daemon --open || { notok "daemon starts"; exit 1; }

check "GET /api/v1/schema: x_boot is a note with the boot vocabulary" test "$(pyjson "$URL/api/v1/schema" \
	"[(k['role'], k['vocabulary'], k['matching']) for k in d['case_keys'] if k['key'] == 'x_boot'] == [('note', 'boot', False)] and d['vocabularies']['boot']['values'] == ['bios', 'uefi']")" = True
check "GET /api/v1/schema: the RESULT fields fill 240 bytes, p50 at offset 24" test "$(pyjson "$URL/api/v1/schema" \
	"sum(f['bits'] for f in d['result_fields']) // 8 == d['result_len_full'] == 240 and [f['offset'] for f in d['result_fields'] if f['name'] == 'p50'] == [24]")" = True
code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' -d '{}' "$URL/api/v1/schema")
check "POST /api/v1/schema is 405 ($code)" test "$code" = 405

# boot_run NAME WANT: ingest the capture TMP/NAME.log (run token NAME) and
# check every case of that run says x_boot=WANT.
boot_run() {
	local name=$1 want=$2 id
	if ! grep -q 'XCB1 ' "$TMP/$name.log"; then
		notok "$want boot: the console holds frames"
		return
	fi
	"$XCBENCH" --server "$URL" ingest "$TMP/$name.log" >"$TMP/$name.out" 2>"$TMP/$name.err"
	check "$want boot: xcbench ingest stores the run" test $? -eq 0
	id=$(pyjson "$URL/api/v1/runs?token=$name" "d['runs'][0]['id'] if d['runs'] else ''")
	check "$want boot: every case of run $id has x_boot=$want" test "$(pyjson "$URL/api/v1/runs/$id" \
		"len(d['cases']) > 0 and all(c['config'].get('x_boot') == '$want' for c in d['cases'])")" = True
}

ARGS="suite=quick kinds=raw reps=1 transport=serial"
XCB_QEMU_TIMEOUT=120 qemu_direct "$TMP/000000000005b105.log" 2 "$ARGS run=000000000005b105"
boot_run 000000000005b105 bios

if [ -r "$OVMF_CODE" ] && [ -r "$OVMF_VARS" ] && [ -f "$XCB_EFI" ]; then
	XCB_QEMU_TIMEOUT=200 qemu_uefi "$TMP/0000000000005e11.log" 2 "$ARGS run=0000000000005e11"
	boot_run 0000000000005e11 uefi
else
	skip "uefi boot: x_boot=uefi" "OVMF or $XCB_EFI missing"
fi
