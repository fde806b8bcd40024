#!/bin/bash
# t-web-lab.sh — the Lab page and the machine page in headless Chromium
# (tests/web/lab.mjs) while a job moves through its lifecycle. The machine
# is simulated by its `command` power driver: powering it on starts what a
# booting machine does to the daemon (GET /boot.ipxe, then the run's frames
# over UDP in two parts, tests/web/frames.py), so no QEMU is needed here;
# tests/t-lab-ipmi.sh boots real ones through a real BMC.
# Screenshots: tests/out/web-lab-{idle,powering_on,booting,running,done}.png,
# tests/out/web-machine.png.
# timeout: 300
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/net.sh"
. "$(dirname "$0")/lib/browser.sh"
browser_require "lab pages in the browser" "$XCBENCHD"

MAC=52:54:00:23:0e:01
net_daemon lab PORT --web "$ROOT/web"
SECRET="lab-secret-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
printf '%s\n' "$SECRET" >"$NET_DIR/pass"
chmod 600 "$NET_DIR/pass"

# The simulated machine: its power state in a file; "on" makes it boot.
cat >"$NET_DIR/power.sh" <<SH
#!/bin/sh
st=$NET_DIR/power.state
case "\$1" in
status) cat "\$st" 2>/dev/null || echo off ;;
off) echo off >"\$st" ;;
pxe) ;;
on|cycle)
	echo on >"\$st"
	[ -e $NET_DIR/noboot ] && exit 0   # powered, but it never boots (the second job)
	( sleep 2
	  tok=\$(curl -sf 'http://127.0.0.1:$PORT/boot.ipxe?mac=$MAC' | grep -oE 'run=[0-9a-f]{16}' | head -1 | cut -d= -f2)
	  sleep 2
	  $NET_PY '$ROOT/tests/web/frames.py' --server 127.0.0.1:$PORT --token "\$tok" --part first --plan log
	  sleep 3
	  $NET_PY '$ROOT/tests/web/frames.py' --server 127.0.0.1:$PORT --token "\$tok" --part rest --plan log
	) >>$NET_DIR/machine.log 2>&1 &
	;;
esac
SH
chmod +x "$NET_DIR/power.sh"
check "machine set: command driver" "$XCBENCH" --server "http://127.0.0.1:$PORT" machine set $MAC --power command \
	--command "$NET_DIR/power.sh {action}" --password-file "$NET_DIR/pass"

export XCB_BASE=http://127.0.0.1:$PORT/ XCB_OUT=$OUTDIR XCB_MAC=$MAC XCB_SECRET=$SECRET
export XCB_QUEUE="$XCBENCH --server http://127.0.0.1:$PORT queue --mac $MAC --suite quick --boot-timeout 60 --run-timeout 60 >/dev/null"
# The second job: its machine never asks for its boot script.
export XCB_QUEUE_NOBOOT="touch $NET_DIR/noboot; $XCBENCH --server http://127.0.0.1:$PORT queue --mac $MAC --suite quick --power-timeout 2 >/dev/null"
node "$ROOT/tests/web/lab.mjs"
rc=$?
[ $rc -ne 0 ] && tail -n 20 "$NET_DIR/lab.daemon.log" | sed 's/^/# /' && sed 's/^/# machine: /' "$NET_DIR/machine.log"
exit $rc
