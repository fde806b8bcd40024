#!/bin/bash
# timeout: 240
# `xcbench calibrate --boot 4`: four real boots of one configuration (QEMU
# TCG, direct boot, 2 CPUs, a trimmed quick suite), one after another on one
# virtual machine, then the A/A calibration of their runs: the single pairs
# (groups need 6 boots, 3 a side for an interval: four compare none; the
# groups' 5 % bound is asserted on six fixed captures in t-compare-groups).
# Measured here: 28-63 % for pairs, once (a quiet host, four boots alike)
# 0 %: the boots' chance, not a property, so the pairs are checked for what
# calibrate must count (six comparisons over every case, the rate their
# flagged share) and the rate is printed. The boots run on machine 3 (--first 3 among the VM options):
# the runs calibrated are exactly that machine's four (calibrate once added
# its own --first 1 and then took machine 1's newest runs, which refused a
# --first 3 boot's runs or took another invocation's). --vms and --json are
# calibrate's to decide and are refused before any boot.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
need_host_build "calibrate --boot"
need_payload
trap cleanup_daemon EXIT

admin_daemon calib-admin
"$XCBENCH" --server "$URL" --token-file "$TMP/token" calibrate --boot 4 -- --vms 2 --cpus 2 >/dev/null 2>"$TMP/vms.err"
rc=$?
check "calibrate --boot 4 -- --vms 2: refused with exit 2 before a boot ($rc: $(head -c 120 "$TMP/vms.err"))" \
	bash -c '[ "$1" = 2 ] && grep -q "leave --vms and --json out" "$2" && ! grep -q "boot 1 of" "$2"' _ "$rc" "$TMP/vms.err"
"$XCBENCH" --server "$URL" --token-file "$TMP/token" calibrate --boot 4 --json -- --first 3 --cpus 2 --suite quick \
	--boot direct --dir "$TMP/vm" kinds=xcall reps=5 iters=30 >"$TMP/cal.json" 2>"$TMP/cal.err"
rc=$?
grep -v '^vm1 ' "$TMP/cal.err" | sed 's/^/# /' | tail -6
check "calibrate --boot 4: exit 0 ($rc)" [ "$rc" = 0 ]
python3 - "$TMP/cal.json" "$URL" <<'PY'
import json, sys, urllib.request
def tap(ok, what): print(("ok - " if ok else "not ok - ") + what)
d = json.load(open(sys.argv[1]))
m3 = json.load(urllib.request.urlopen(sys.argv[2] + "/api/v1/runs?machine=52:54:00:78:63:03&limit=50"))
tap(sorted(r["id"] for r in d["runs"]) == sorted(r["id"] for r in m3["runs"]) and len(m3["runs"]) == 4,
    f"the runs calibrated are machine 3's four ({[r['id'] for r in d['runs']]} vs {[r['id'] for r in m3['runs']]})")
g, p = d["groups"], d["pairs"]
tap(d["boots"] == 4 and len(d["runs"]) == 4 and len({r["id"] for r in d["runs"]}) == 4,
    f"four booted runs calibrated ({[r['id'] for r in d['runs']]})")
# Groups need 3 boots a side (6): 2 a side have no interval, so four boots
# compare no group (they once counted every untested case as unmarked).
tap(g["comparisons"] == 0 and d["groups_min_boots"] == 6,
    f"groups: none of 2 vs 2 ({g['comparisons']} comparisons; groups need {d.get('groups_min_boots')} boots)")
# Each pair compares every case of two boots.
tap(p["comparisons"] == 6 and p["cases"] > 0 and
    abs(p["false_positive_rate"] - p["flagged"] / p["cases"]) < 1e-9,
    f"pairs: 6 comparisons, {p['cases']} cases, {100 * p['false_positive_rate']:.1f} % marked "
    f"(groups: none)")
PY
check "SIGTERM: clean shutdown" stop_daemon
