#!/bin/bash
# The whole PXE path through QEMU's own iPXE NIC ROM: TFTP script → HTTP chain
# to xcbenchd's /boot.ipxe (a queued job for this MAC) → payload fetched over
# HTTP → results over UDP. The job asks for transport=both, so the same boot
# also writes every frame to the serial console; those frames, replayed into a
# second daemon, must give a run identical in content to the one the UDP
# transport stored.
# NET_PXE_NIC=e1000|e1000e boots through that NIC's ROM instead of virtio's.
# timeout: 300
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/net.sh"
net_require "network PXE boot"
ROMS=/usr/share/qemu
if [ ! -e "$ROMS/efi-virtio.rom" ] && [ ! -e /usr/lib/ipxe/qemu/efi-virtio.rom ]; then
	skip "network PXE boot" "QEMU's iPXE ROMs (ipxe-qemu) missing"; exit 0
fi

MAC=52:54:00:be:ef:01
net_daemon pxe PORT
net_daemon serial PORT2

# The job the next boot of this MAC consumes (suite params win over the
# defaults because the payload takes the last of a repeated key).
read -r -d '' JOB <<JSON
{"mac": "$MAC", "suite": "quick", "label": "pxe-test",
 "params": {"transport": "both", "kinds": "xcall", "reps": "2", "iters": "20"}}
JSON
check "job queued for $MAC" api "$PORT" /api/v1/jobs -X POST -H 'Content-Type: application/json' -d "$JOB" -o /dev/null

TFTP=$NET_DIR/tftp
mkdir -p "$TFTP"
printf '#!ipxe\nchain http://10.0.2.2:%s/boot.ipxe?mac=${mac:hexhyp}\n' "$PORT" >"$TFTP/boot.ipxe"
LOG=$NET_DIR/pxe.serial.log
t0=$SECONDS

# SeaBIOS (QEMU's default -bios) runs the NIC's option ROM; qboot does not.
timeout -k 5 "${XCB_QEMU_TIMEOUT:-180}" qemu-system-x86_64 \
	-accel "$(accel)" -M q35 -m 256 -smp 2 -nographic -no-reboot \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	-serial "file:$LOG" -monitor none -display none \
	-netdev "user,id=n0,tftp=$TFTP,bootfile=boot.ipxe" \
	-device "${NET_PXE_NIC:-virtio-net-pci},netdev=n0,mac=$MAC" -boot n </dev/null >"$NET_DIR/qemu.out" 2>&1
rc=$?
cp "$LOG" "$OUTDIR/t-net-pxe.serial.log" 2>/dev/null
diag "qemu status $rc after $((SECONDS - t0)) s; $(grep -m1 'net: .* ip ' "$LOG")"
check "payload booted through iPXE (loader names iPXE)" grep -qi 'loader "ipxe' "$LOG"

ID=$(api "$PORT" "/api/v1/runs?machine=$MAC" | json "j['runs'][0]['id'] if j['runs'] else ''")
if [ -z "$ID" ]; then
	notok "run created by /boot.ipxe for $MAC"
	grep -E '^(net|xcbench)' "$LOG" | tail -15 | sed 's/^/#   /'
	exit 1
fi
ok "run $ID created by /boot.ipxe for $MAC"
check "run $ID complete over UDP, every frame stored" run_complete_ok "$PORT" "$ID"
check "run $ID has the job's label" test "$(api "$PORT" "/api/v1/runs/$ID" | json "j['run']['label']")" = pxe-test
TOKEN=$(api "$PORT" "/api/v1/runs/$ID" | json "j['run']['token']")
check "serial log has the run's frames" grep -q '^XCB1 ' "$LOG"

# The same frames from the serial console, into the second daemon.
check "serial frames replayed into a second daemon" serial_ingest "$LOG" "$PORT2"
ID2=$(run_id "$PORT2" "$TOKEN")
check "serial run complete" run_complete_ok "$PORT2" "${ID2:-0}"
same_results "results over UDP identical to serial" "$PORT" "$ID" "$PORT2" "${ID2:-0}" "$NET_DIR/"
rows=$(($(wc -l <"$NET_DIR/udp.csv") - 1))
diag "results: $rows rows over UDP, $(($(wc -l <"$NET_DIR/serial.csv") - 1)) over serial"
check "UDP run has results" test "$rows" -gt 0
# The CSV names deliveries as the API's cases do: delivery is what the case
# asked for, delivery_used the mode the payload resolved it to (never `auto`).
deliv=$(python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
used = sorted({r["delivery_used"] for r in rows if r["kind"] == "xcall"})
asked = sorted({r["delivery"] for r in rows if r["kind"] == "xcall"})
print("used=%s asked=%s" % (",".join(used), ",".join(asked)))
sys.exit(0 if used and "auto" not in used and "" not in used and "auto" in asked else 1)' "$NET_DIR/udp.csv")
check "CSV delivery_used column is the mode used, delivery the one asked ($deliv)" test $? -eq 0
s1=$(run_summary "$PORT" "$ID" | cut -d' ' -f2-)
s2=$(run_summary "$PORT2" "${ID2:-0}" | cut -d' ' -f2-)
check "same frame counts over UDP and serial ($s1)" test "$s1" = "$s2"
