#!/bin/bash
# timeout: 180
# Serial delivery: a console capture ("XCB1 <base64>" lines among noise, CR
# LF endings) fed to `xcbench ingest` produces exactly the same stored run
# as the same frames delivered over UDP; ingesting twice changes nothing; a
# damaged line is refused, never stored.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "serial ingest"

admin_daemon ingest-admin
XCB_ADMIN=ingest-admin # the ?token= filter is for admins

# Reference: run b000 over UDP (registered first: the daemon is not --open).
check "register the UDP run" [ "$(curl -s -o /dev/null -w '%{http_code}' "${ADMIN[@]}" -X POST -d '{"token":"b000"}' "$URL/api/v1/runs")" = 201 ]
check "UDP delivery of the reference run" "$XCB_GEN" --server 127.0.0.1:$PORT --token b000 --samples --crash --loss 0.1 --seed 3 >/dev/null 2>"$TMP/gen.err"

# The same run as a serial capture, token b001.
"$XCB_GEN" --token b001 --samples --crash --serial "$TMP/console.log" >/dev/null
check "capture has noise and CRLF lines" grep -q $'noise line.*\r$' "$TMP/console.log"
"$XCBENCH" --server "$URL" ingest "$TMP/console.log" >"$TMP/ing0.out" 2>"$TMP/ing0.err"
check "ingest without the admin token is refused with a clear error" grep -q "401" "$TMP/ing0.err"
if "$XCBENCH" --server "$URL" --token-file "$TMP/token" ingest "$TMP/console.log" >"$TMP/ing.out" 2>"$TMP/ing.err"; then
	ok "xcbench ingest: $(head -1 "$TMP/ing.err" | sed 's/^xcbench ingest: //')"
else
	notok "xcbench ingest succeeds"; sed 's/^/# /' "$TMP/ing.err"
fi
check "ingest reports the run it delivered" grep -q "token 000000000000b001 status crashed" "$TMP/ing.out"

# Identical storage: every table, row for row, except run ids and times.
compare_db() {
	python3 - "$DB" <<'PY'
import os, sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
ids = dict(db.execute("SELECT token, id FROM runs"))
a, b = ids["000000000000b000"], ids["000000000000b001"]
tables = {
    # the ledger's seqs (tests/lib/ledger.sh): its spans split as batches did
    os.environ["XCB_LEDGER"] + " AS f": "seq", "cases": "*", "results": "*", "histogram_chunks": "*",
    "sample_chunks": "*", "events": "seq, kind, text",
}
diff = []
for t, cols in tables.items():
    def rows(rid):
        q = "SELECT %s FROM %s WHERE run_id = ?" % (cols, t) if cols != "*" else \
            "SELECT * FROM %s WHERE run_id = ?" % t
        r = [tuple(x for i, x in enumerate(row) if not (cols == "*" and i == 0)) for row in db.execute(q, (rid,))]
        return sorted(r, key=repr)
    ra, rb = rows(a), rows(b)
    if ra != rb or not ra:
        diff.append("%s (%d vs %d rows)" % (t, len(ra), len(rb)))
run = "status, frames_received, frames_expected, done_status, hello, cpus, tsc_khz, error"
ra = db.execute("SELECT %s FROM runs WHERE id = ?" % run, (a,)).fetchone()
rb = db.execute("SELECT %s FROM runs WHERE id = ?" % run, (b,)).fetchone()
if ra != rb:
    diff.append("runs: %r vs %r" % (ra, rb))
print("identical" if not diff else "differ: " + ", ".join(diff))
PY
}
res=$(compare_db)
check "serial-ingested run stored identically to the UDP run ($res)" [ "$res" = identical ]
ida=$(pyjson "$URL/api/v1/runs?token=b000" 'd["runs"][0]["id"]')
idb=$(pyjson "$URL/api/v1/runs?token=b001" 'd["runs"][0]["id"]')
curl -s "$URL/api/v1/runs/$ida.csv" | cut -d, -f2- >"$TMP/a.csv"
curl -s "$URL/api/v1/runs/$idb.csv" | cut -d, -f2- >"$TMP/b.csv"
check "and their CSV exports are identical (run_id aside)" cmp -s "$TMP/a.csv" "$TMP/b.csv"
"$XCBENCH" --server "$URL" export "$idb" -o "$TMP/export.csv"
check "xcbench export writes the same CSV" cmp -s <(cut -d, -f2- "$TMP/export.csv") "$TMP/b.csv"

# Idempotent: a second ingest of the same capture changes nothing.
"$XCBENCH" --server "$URL" --token-file "$TMP/token" ingest "$TMP/console.log" >/dev/null 2>&1
res=$(compare_db)
check "ingesting twice changes nothing ($res)" [ "$res" = identical ]

# A damaged line (one base64 character changed) is refused by its CRC.
awk 'NR==40 && /XCB1/ { sub(/XCB1 ..../, "XCB1 AAAA") } { print }' "$TMP/console.log" >"$TMP/damaged.log"
"$XCBENCH" --server "$URL" --token-file "$TMP/token" ingest "$TMP/damaged.log" >/dev/null 2>"$TMP/dmg.err"
check "damaged frame detected and skipped" grep -q "1 damaged frames" "$TMP/dmg.err"
res=$(compare_db)
check "stored run unchanged after the damaged capture ($res)" [ "$res" = identical ]
check "SIGTERM: clean shutdown" stop_daemon
