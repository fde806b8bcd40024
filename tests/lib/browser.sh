# tests/lib/browser.sh — what the t-web-*.sh suites that drive a page in
# headless Chromium share (sourced after tap.sh and test-daemon.sh): skip when
# the browser, its driver, the vendored charts or the host build is missing;
# run a tests/web/*.mjs driver killably, stopping the daemon afterwards.

# need_browser WHAT: skip the whole script (one TAP line) when a piece is missing.
need_browser() {
	local missing=""
	command -v node >/dev/null || missing="$missing node"
	[ -x /usr/bin/chromium ] || missing="$missing /usr/bin/chromium"
	[ -f "$ROOT/web/vendor/chart.umd.min.js" ] || missing="$missing web/vendor (make -C web)"
	[ -d "$ROOT/web/node_modules/playwright-core" ] || missing="$missing playwright-core (make -C web)"
	[ -x "$XCBENCHD" ] && [ -x "$XCBENCH" ] || missing="$missing host build (make -C host)"
	if [ -n "$missing" ]; then
		skip "$1" "missing:$missing"
		exit 0
	fi
	driver=""
	trap browser_cleanup EXIT
	trap "exit 143" TERM INT
}

browser_cleanup() {
	[ -n "$driver" ] && kill "$driver" 2>/dev/null && wait "$driver" 2>/dev/null
	cleanup_daemon
}

# run_driver SCRIPT: node tests/web/SCRIPT (its TAP lines), then the daemon's
# log tail on failure and a clean SIGTERM of the daemon.
run_driver() {
	node "$ROOT/tests/web/$1" &
	driver=$!
	wait "$driver"
	local rc=$?
	driver=""
	[ $rc = 0 ] || tail -n 20 "$TMP/daemon.log" | sed 's/^/# /'
	check "SIGTERM: clean shutdown" stop_daemon
}
