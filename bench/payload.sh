#!/bin/bash
# bench/payload.sh — the payload's own costs, from QEMU boots:
#  1. each algorithm's one-initiator, one-target latency (all three waits) as
#     a ratio to the `ipi` floor of the same boot (one IPI, a handler that sets
#     a flag: measured before every repetition, RESULT ipi_floor, and as the
#     kind=raw algo=ipi case), beside the `roundtrip` floor; the timing cost
#     per sample (HELLO overhead_min/median_cycles: back-to-back TSC reads);
#     and the harness overhead 1->1 and 1->N: the same calls with the harness's
#     bookkeeping (exactly-once ledger, watchdog record) and without it
#     (harness=bare), at -smp 4, in ONE boot with their repetitions
#     interleaved (a loaded host moves both alike), paired rep by rep;
#  2. boot-to-first-frame: from starting QEMU to the first frame, for a
#     direct boot (-kernel) on the serial console and over UDP to xcbenchd,
#     and for the full PXE chain (SeaBIOS → iPXE → TFTP → /boot.ipxe → HTTP
#     fetch of the payload → UDP), and the same two on UEFI: OVMF -kernel
#     xcbench.efi, and OVMF → QEMU's EFI iPXE ROM → TFTP → /boot.ipxe →
#     xcbench.efi → UDP. The accelerator is tools/qemu-accel's.
# BENCH_REPS and BENCH_ITERS (as tree-crossover.sh's) size the two boots of
# part 1 (default 5 x 500 and 11 x 300); t-bench-tiny makes them tiny.
. "$(dirname "$0")/lib.sh"
need "$XCB_ELF" "$XCBENCHD"
T=$(mktemp -d "$BOUT/payload.XXXXXX")
SMP=${BENCH_SMP:-2}
ACCEL=$(accel)

# first_line FILE PID: seconds until FILE has an "XCB1 " line (or PID exits).
wait_serial_frame() {
	local f=$1 pid=$2 t0=$3
	while kill -0 "$pid" 2>/dev/null; do
		grep -aq 'XCB1 ' "$f" 2>/dev/null && { echo "$(now) - $t0" | bc; return; }
		sleep 0.02
	done
	grep -aq 'XCB1 ' "$f" 2>/dev/null && echo "$(now) - $t0" | bc || echo NA
}
# wait_daemon_frame QUERY PID T0: seconds until a run matching QUERY
# (token=… or label=…) has a frame stored.
# A short run may be over (QEMU gone) between one poll and the next, so a
# QEMU that has exited gets one last look before NA.
wait_daemon_frame() {
	local q="/api/v1/runs?limit=5&$1" pid=$2 t0=$3 last=0
	for _ in $(seq 3000); do
		if curl -sf "$URL$q" | $PY -c 'import json,sys; sys.exit(0 if any(r["frames_received"] > 0 for r in json.load(sys.stdin)["runs"]) else 1)'; then
			echo "$(now) - $t0" | bc; return
		fi
		[ "$last" = 1 ] && break
		kill -0 "$pid" 2>/dev/null || last=1
		sleep 0.05
	done
	echo NA
}
# post_job JSON: queues a boot job (a write route: JSON content type, or the
# daemon answers 415). A job that is not queued is this bench failing, said
# at once: without it the PXE boot runs no labelled run, its row read "n/a"
# and the bench waited out the boot (the Content-Type rule came in cbca25f
# and both PXE figures went missing, unnoticed, until a row saying n/a
# failed the bench too).
post_job() {
	local code
	code=$(curl -s -o "$T/job.out" -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
		-d "$1" "$URL/api/v1/jobs")
	case $code in 2??) return 0 ;; esac
	echo "payload: POST /api/v1/jobs answered $code: $(head -c 200 "$T/job.out")" >&2
	return 1
}
qemu() { # LOG CMDLINE [args]: direct boot in the background; sets QPID
	local log=$1 cl=$2; shift 2
	timeout -k 5 180 qemu-system-x86_64 -accel "$ACCEL" -M q35 -m 256 -smp "$SMP" -nographic -no-reboot \
		-bios /usr/share/qemu/qboot.rom -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-serial "file:$log" -monitor none -display none -kernel "$XCB_ELF" -append "$cl" "$@" \
		</dev/null >/dev/null 2>&1 &
	QPID=$!
	PIDS+=("$QPID")
}

# 1. Same-boot ratios, serial transport; also the direct serial boot time.
t0=$(now)
qemu "$T/ratio.log" "suite=quick kinds=raw,xcall inits=1 masks=1 reps=${BENCH_REPS:-5} iters=${BENCH_ITERS:-500} transport=serial"
first_serial=$(wait_serial_frame "$T/ratio.log" "$QPID" "$t0")
wait "$QPID"
$PY "$ROOT/tests/lib/engine_frames.py" "$T/ratio.log" --json >"$T/ratio.json" 2>"$T/ratio.err" || { echo "payload run failed: $(head -3 "$T/ratio.err")"; exit 1; }
# Harness overhead: full vs bare bookkeeping, 1 -> 1 and 1 -> all, one boot.
HSMP=${BENCH_HARNESS_SMP:-4}
SMP=$HSMP qemu "$T/harness.log" "suite=quick kinds=xcall waits=done inits=1 masks=1,all deliveries=auto reps=${BENCH_REPS:-11} iters=${BENCH_ITERS:-300} transport=serial harness=full,bare"
wait "$QPID"
$PY "$ROOT/tests/lib/engine_frames.py" "$T/harness.log" --json >"$T/harness.json" 2>/dev/null || { echo "harness run failed"; exit 1; }

# 2. Direct boot over UDP to the daemon.
daemon "$T/xcbench.db" --open --firmware "$XCB_ELF" || exit 1
tok=0b0071000000000$((RANDOM % 9))
t0=$(now)
qemu "$T/udp.log" "run=$tok server=10.0.2.2:$PORT transport=udp ip=10.0.2.15 gw=10.0.2.2 netmask=255.255.255.0 suite=quick kinds=raw reps=1 iters=50" \
	-netdev user,id=n0 -device virtio-net-pci,netdev=n0
first_udp=$(wait_daemon_frame "token=$tok" "$QPID" "$t0")
wait "$QPID"

# 3. PXE: SeaBIOS runs QEMU's iPXE ROM; TFTP hands it a script that chains to the daemon.
first_pxe=skip # "skip": this machine lacks the firmware; "NA": booted, no frame
if [ -e /usr/share/qemu/efi-virtio.rom ] || [ -e /usr/lib/ipxe/qemu/efi-virtio.rom ]; then
	mkdir -p "$T/tftp"
	printf '#!ipxe\nchain http://10.0.2.2:%s/boot.ipxe?mac=${mac:hexhyp}\n' "$PORT" >"$T/tftp/boot.ipxe"
	post_job '{"mac":"52:54:00:be:4c:01","suite":"quick","label":"pxe-bench","params":{"kinds":"raw","reps":"1","iters":"50"}}' || exit 1
	t0=$(now)
	timeout -k 5 180 qemu-system-x86_64 -accel "$ACCEL" -M q35 -m 256 -smp "$SMP" -nographic -no-reboot \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 -serial "file:$T/pxe.log" -monitor none -display none \
		-netdev "user,id=n0,tftp=$T/tftp,bootfile=boot.ipxe" -device virtio-net-pci,netdev=n0,mac=52:54:00:be:4c:01 \
		-boot n </dev/null >/dev/null 2>&1 &
	QPID=$!
	PIDS+=("$QPID")
	first_pxe=$(wait_daemon_frame "label=pxe-bench" "$QPID" "$t0")
	wait "$QPID"
fi
# 4. UEFI: OVMF (a fresh copy of its variable store each boot), xcbench.efi.
first_uefi=skip first_uefi_pxe=skip
OVMF=/usr/share/OVMF
XCB_EFI=$ROOT/firmware/build/xcbench.efi
if [ -r "$OVMF/OVMF_CODE_4M.fd" ] && [ -r "$XCB_EFI" ] && [ -r /usr/lib/ipxe/qemu/efi-virtio.rom ]; then
	uefi() { # LOG [args]: OVMF boot in the background; sets QPID
		local log=$1; shift
		cp "$OVMF/OVMF_VARS_4M.fd" "$log.vars"
		timeout -k 5 180 qemu-system-x86_64 -accel "$ACCEL" -M q35 -m 256 -smp "$SMP" -nographic -no-reboot \
			-drive "if=pflash,format=raw,unit=0,readonly=on,file=$OVMF/OVMF_CODE_4M.fd" \
			-drive "if=pflash,format=raw,unit=1,file=$log.vars" \
			-device isa-debug-exit,iobase=0xf4,iosize=0x04 -serial "file:$log" -monitor none -display none \
			"$@" </dev/null >/dev/null 2>&1 &
		QPID=$!
		PIDS+=("$QPID")
	}
	mkdir -p "$T/tftp"
	[ -e "$T/tftp/boot.ipxe" ] || printf '#!ipxe\nchain http://10.0.2.2:%s/boot.ipxe?mac=${mac:hexhyp}\n' "$PORT" >"$T/tftp/boot.ipxe"
	tok=0b0071000000001$((RANDOM % 9))
	t0=$(now)
	uefi "$T/uefi.log" -kernel "$XCB_EFI" -netdev user,id=n0 -device virtio-net-pci,netdev=n0,romfile= \
		-append "run=$tok server=10.0.2.2:$PORT transport=udp ip=10.0.2.15 gw=10.0.2.2 netmask=255.255.255.0 suite=quick kinds=raw reps=1 iters=50"
	first_uefi=$(wait_daemon_frame "token=$tok" "$QPID" "$t0")
	wait "$QPID"
	post_job '{"mac":"52:54:00:be:4c:02","suite":"quick","label":"uefi-pxe-bench","params":{"kinds":"raw","reps":"1","iters":"50"}}' || exit 1
	t0=$(now)
	uefi "$T/uefi-pxe.log" -netdev "user,id=n0,tftp=$T/tftp,bootfile=boot.ipxe" \
		-device virtio-net-pci,netdev=n0,mac=52:54:00:be:4c:02,romfile=/usr/lib/ipxe/qemu/efi-virtio.rom,bootindex=1
	first_uefi_pxe=$(wait_daemon_frame "label=uefi-pxe-bench" "$QPID" "$t0")
	wait "$QPID"
fi
stop_daemon

$PY - "$T/ratio.json" "$first_serial" "$first_udp" "$first_pxe" "$ACCEL" "$SMP" "$HSMP" "$T" "$first_uefi" "$first_uefi_pxe" <<'PY'
import json, statistics, sys
d = json.load(open(sys.argv[1]))
fs, fu, fp, accel, smp, hsmp, tdir, ue, up = sys.argv[2:11]
fs, fu, fp, ue, up = ("not run (its firmware is not installed here)" if x == "skip" else
                      "%.2f" % float(x) if x not in ("NA", "") else "n/a"
                      for x in (fs, fu, fp, ue, up))
h = d["hello"]
allrows = [r for r in d["results"] if r["initiator"] == 65535]
def p50(cid):
    v = [r["p50"] for r in allrows if r["case_id"] == int(cid)]
    return statistics.median(v) if v else None
def ratio(cid):
    # median over reps of p50 / that repetition's own ipi floor (RESULT ipi_floor)
    v = [r["p50"] / r["ipi_floor"] for r in allrows if r["case_id"] == int(cid) and r.get("ipi_floor")]
    return statistics.median(v) if v else None
def floor_case(name):
    k = [k for k, c in d["cases"].items() if c.get("kind") == "raw" and c.get("algo") == name]
    return p50(k[0]) if k else None
fipi, frt = floor_case("ipi"), floor_case("roundtrip")
khz = int(h.get("tsc_khz", 0)) or None
ns = lambda cyc: "%.0f" % (cyc * 1e6 / khz) if khz and cyc else "-"
print("### Payload: %s, -smp %s, %s, tsc %s kHz (%s), spin %s (%s)" % (accel, smp, h.get("brand", "?"), h.get("tsc_khz"),
      h.get("tsc_source"), h.get("spin", "?"), h.get("spin_policy", "?")))
print()
print("Floors in this boot: `ipi` (one IPI, the handler sets the caller's flag) p50 %s cycles (%s ns); "
      "`roundtrip` (ping-pong, two IPIs) p50 %s cycles (%s ns); ratio roundtrip/ipi %s. "
      "HELLO (CPU 0 -> 1 at start): ipi %s, roundtrip %s cycles."
      % (fipi, ns(fipi), frt, ns(frt), "%.2f" % (frt / fipi) if fipi and frt else "-",
         h.get("floor_ipi_cycles"), h.get("floor_roundtrip_cycles")))
print()
print("Timing cost per sample (back-to-back serialised TSC reads): min %s, median %s cycles (%s ns median)."
      % (h.get("overhead_min_cycles"), h.get("overhead_median_cycles"), ns(int(h.get("overhead_median_cycles", 0)))))
print()
print("| case (1 initiator, 1 target) | delivery | wait | p50 cycles | p50 ns | x own-rep ipi floor | x ipi case | x roundtrip |")
print("|---|---|---|---:|---:|---:|---:|---:|")
order = {"none": 0, "ack": 1, "done": 2}
cs = sorted((c for c in d["cases"].values() if c.get("kind") == "xcall" and c.get("delivery") in ("unicast",)),
            key=lambda c: (c["algo"], order.get(c["wait"], 9)))
below = []
for c in cs:
    v, rr = p50(c["id"]), ratio(c["id"])
    if rr is not None and rr < 1.0 and c["wait"] == "done":
        below.append("%s/%s" % (c["algo"], c["wait"]))
    print("| %s | %s | %s | %s | %s | %s | %s | %s |" % (c["algo"], c["delivery"], c["wait"], v, ns(v),
          "%.2f" % rr if rr else "-", "%.2f" % (v / fipi) if v and fipi else "-", "%.2f" % (v / frt) if v and frt else "-"))
print()
print("Every wait=done call at or above its `ipi` floor (the least it can cost): %s. "
      "(wait=none returns once the call is posted and ack once the target has read it, so they are not bounded "
      "by the floor: none overlaps a call with the delivery of the previous one.)"
      % ("yes" if not below else "NO (" + ", ".join(below) + ")"))
print()
# Harness overhead: p50 with the full harness minus p50 with harness=bare, same
# case, paired repetition by repetition (they ran back to back), median of pairs.
hx = json.load(open(tdir + "/harness.json"))
hrows = [r for r in hx["results"] if r["initiator"] == 65535]
def reps_of(cid):
    return {r["rep"]: r["p50"] for r in hrows if r["case_id"] == int(cid)}
pairs = {}
for cid, c in hx["cases"].items():
    if c.get("kind") == "xcall":
        pairs.setdefault((c["algo"], int(c["mask"])), {})[c.get("harness", "full")] = reps_of(cid)
keys = sorted((k for k, v in pairs.items() if "full" in v and "bare" in v), key=lambda k: (k[1], k[0]))
if keys:
    print("Harness overhead at -smp %s (wait=done, auto delivery): p50 with the harness's bookkeeping "
          "(ledger entry, watchdog record) minus p50 with `harness=bare`, in one boot, repetitions "
          "interleaved and paired; median over %s pairs:" % (hsmp, hx["cases"][next(iter(hx["cases"]))].get("reps")))
    print()
    print("| algo | initiator -> targets | p50 full | p50 bare | overhead cycles (median of pairs) | overhead % |")
    print("|---|---|---:|---:|---:|---:|")
    for k in keys:
        f, b = pairs[k]["full"], pairs[k]["bare"]
        common = sorted(set(f) & set(b))
        fv, bv = statistics.median(f.values()), statistics.median(b.values())
        dv = statistics.median([f[r] - b[r] for r in common]) if common else 0
        print("| %s | 1 -> %d | %.0f | %.0f | %+.0f | %+.1f %% |" % (k[0], k[1], fv, bv, dv, 100.0 * dv / bv if bv else 0))
print()
print("| boot to first frame | seconds |")
print("|---|---:|")
print("| direct (-kernel, qboot), serial console | %s |" % fs)
print("| direct (-kernel, qboot), UDP stored by xcbenchd | %s |" % fu)
print("| PXE (SeaBIOS, iPXE ROM, TFTP, /boot.ipxe, HTTP), UDP stored by xcbenchd | %s |" % fp)
print("| UEFI direct (OVMF, -kernel xcbench.efi), UDP stored by xcbenchd | %s |" % ue)
print("| UEFI PXE (OVMF, EFI iPXE ROM, TFTP, /boot.ipxe, HTTP xcbench.efi), UDP stored by xcbenchd | %s |" % up)
PY
# A boot that ran and stored no frame is a missing figure: the bench fails
# (bench/run-all: "n/a" is no figure), and says which boot and how its
# console ended; its files are kept.
missing=
for b in "serial:$first_serial:ratio.log" "udp:$first_udp:udp.log" "pxe:$first_pxe:pxe.log" \
	 "uefi:$first_uefi:uefi.log" "uefi-pxe:$first_uefi_pxe:uefi-pxe.log"; do
	IFS=: read -r name got log <<<"$b"
	[ "$got" = NA ] || [ -z "$got" ] || continue
	missing="$missing $name"
	echo "payload: the $name boot stored no first frame; the end of $T/$log:" >&2
	tail -n 5 "$T/$log" 2>/dev/null | tr -d '\r' | sed 's/^/  | /' >&2
done
[ -n "$missing" ] && { echo "payload: no boot-to-first-frame figure for:$missing" >&2; exit 1; }
rm -rf "$T"
