# tests/lib/browser.sh — what the t-web-*.sh suites that drive a page in
# headless Chromium share (sourced after tap.sh): skip when the browser, its
# driver, the vendored charts or the host build is missing; for the suites on
# test-daemon.sh, run a tests/web/*.mjs driver killably, stopping the daemon
# afterwards.

# browser_require NAME [FILE...]: unless node, /usr/bin/chromium,
# web/node_modules/playwright-core, web/vendor's Chart.js builds and every
# FILE (the host binaries a test drives) are here, one SKIP line for NAME
# naming what is missing, and the test ends. Sets no trap: a suite with its
# own cleanup (net.sh's) keeps it.
browser_require() {
	local name=$1 missing="" f
	shift
	command -v node >/dev/null || missing="$missing node"
	[ -x /usr/bin/chromium ] || missing="$missing /usr/bin/chromium"
	[ -d "$ROOT/web/node_modules/playwright-core" ] || missing="$missing playwright-core (make -C web)"
	[ -f "$ROOT/web/vendor/chart.umd.min.js" ] && [ -f "$ROOT/web/vendor/chartjs-chart-matrix.min.js" ] \
		|| missing="$missing web/vendor (make -C web)"
	for f in "$@"; do
		[ -x "$f" ] || missing="$missing $f (make -C host)"
	done
	if [ -n "$missing" ]; then
		skip "$name" "missing:$missing"
		exit 0
	fi
}

# need_browser NAME: browser_require for a suite on test-daemon.sh (the
# daemon and the CLI), then a cleanup that kills a running driver and stops
# the daemon on any exit or signal.
need_browser() {
	browser_require "$1" "$XCBENCHD" "$XCBENCH"
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
