#!/bin/bash
# timeout: 300
# The central store's backup and restore as README.md's "Several labs, one
# history" gives them, its commands read out of the README (after
# "Backups"): the dump taken while a daemon ingests, every lab daemon
# stopped, the restore, and a daemon started on the restored store lists
# the same runs, each complete one with every frame. The README once said
# "restored with `pg_restore -d xcbench`": into the live database that only
# fails (every table is already there), and it named no dump.
# `sudo -u postgres` is left out: the throwaway cluster's superuser is the
# user running the test.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
. "$ROOT/tests/lib/pg.sh"
daemon_test "the central store's backup and restore"
TMP=$(mktemp -d "$OUTDIR/daemon.XXXXXX")
pg_test_cluster cleanup_daemon
# As the README's "once, on the store's host" makes it: role and database
# xcbench (no login password needed here: the daemon is the superuser).
pg_psql postgres "CREATE ROLE xcbench" && pg_psql postgres "CREATE DATABASE xcbench OWNER xcbench"
check "role and database xcbench" test "$(pg_psql xcbench 'SELECT current_database()')" = xcbench

# The README's commands after "Backups", in order: its indented code lines
# and its `...` spans that are commands (a space in them).
python3 - "$ROOT/README.md" >"$TMP/cmds" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
sec = re.search(r"^### Several labs, one history.*?(?=^### )", text, re.M | re.S).group(0)
tail = sec[sec.index("Backups"):]
for para in re.split(r"\n\s*\n", tail):
    lines = para.splitlines()
    if lines and all(l.startswith("    ") for l in lines):
        cmds = [l.strip() for l in lines if not l.strip().startswith("#")]
    else:
        cmds = [c for c in re.findall(r"`([^`]+)`", para) if " " in c]
    for c in cmds:
        if re.match(r"(sudo -u postgres )?(pg_dump|pg_restore|dropdb|createdb) |umask [0-7]+$", c):
            print(re.sub(r"^sudo -u postgres ", "", c))
EOF
sed 's/^/# README: /' "$TMP/cmds"
DUMP=$(grep -m1 '^pg_dump ' "$TMP/cmds")
check "the README gives a pg_dump command" test -n "$DUMP"
check "... and a pg_restore command" grep -q '^pg_restore ' "$TMP/cmds"

export PGHOST=$PG_DIR PGPORT=$PG_PORT PGUSER=xcb PATH=$PG_BIN:$PATH
DB=$(pg_url xcbench) start_daemon --lab A --open || { notok "a daemon starts on xcbench"; exit 1; }
"$XCB_GEN" --server "127.0.0.1:$PORT" --runs 2 --reps 3 --token ba01 >/dev/null 2>&1
# The dump while the daemon ingests (README: consistent while they write).
"$XCB_GEN" --server "127.0.0.1:$PORT" --runs 3 --reps 3 --token bb01 >/dev/null 2>&1 &
GEN=$!
# The README's umask before it: the file it writes is its owner's alone.
UMASK=$(grep -m1 '^umask ' "$TMP/cmds")
(cd "$TMP" && bash -c "${UMASK:+$UMASK; }$DUMP") 2>"$TMP/dump.err"
rc=$?
wait "$GEN"
check "the README's dump, taken while a daemon ingests: exit 0 ($(head -c 200 "$TMP/dump.err"))" test "$rc" = 0
F=$(cd "$TMP" && ls xcbench-*.dump 2>/dev/null | head -1)
check "... it wrote $F" test -s "$TMP/$F"
check "... readable by its owner alone ($(stat -c %a "$TMP/$F" 2>/dev/null); the README's '${UMASK:-no umask}')" \
	test "$(stat -c %a "$TMP/$F" 2>/dev/null)" = 600
check "SIGTERM: the daemon stops (the restore wants them stopped)" stop_daemon
before=$(pg_psql xcbench "SELECT count(*) FROM runs")

i=0
while IFS= read -r c; do
	[ "$c" = "$DUMP" ] && continue
	i=$((i + 1))
	# The README names a dump of some day: the one taken above.
	c=$(sed -E "s/xcbench-[0-9]{4}-[0-9]{2}-[0-9]{2}\.dump/$F/" <<<"$c")
	(cd "$TMP" && bash -c "$c" </dev/null) >"$TMP/restore.$i" 2>&1
	rc=$?
	check "restore step $i, '$c': exit 0 ($(head -c 200 "$TMP/restore.$i"))" test "$rc" = 0
done < <(sed -n '/^pg_dump /,$p' "$TMP/cmds")

got=$(pg_psql xcbench "SELECT count(*) FROM runs")
check "the restored store holds the dump's runs ($got; $before at the stop, 2..5 expected)" \
	test "$got" -ge 2 -a "$got" -le "$before"
bad=$(pg_psql xcbench "SELECT count(*) FROM runs r WHERE status = 'complete' AND frames_received <> (SELECT count(*) FROM $XCB_LEDGER f WHERE f.run_id = r.id)")
check "... every complete run with each of its frames ($bad not)" test "$bad" = 0
check "... owned by xcbench" test "$(pg_psql postgres "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = 'xcbench'")" = xcbench
DB=$(pg_url xcbench) start_daemon --lab A --open || { notok "a daemon starts on the restored store"; exit 1; }
n=$(pyjson "$URL/api/v1/runs" 'len(d["runs"])')
check "a daemon on the restored store lists its $got runs ($n)" test "$n" = "$got"
