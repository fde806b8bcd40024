# tests/lib/browser.sh — what the headless-Chromium page tests (t-web-*)
# need before they start, checked once, and the driver run (run_driver) with its
# cleanup (browser_traps). Source after tap.sh (and test-daemon.sh).

# browser_missing [FILE...]: prints what a browser test lacks (nothing when
# node, /usr/bin/chromium, web/node_modules/playwright-core, web/vendor's
# Chart.js builds, the rendered pages (web/*.html, from web/pages/) and every
# FILE, the host binaries a test drives, are here). A test with more than its
# browser step (t-pg-live) skips only that step.
browser_missing() {
	local missing="" f
	command -v node >/dev/null || missing="$missing node"
	[ -x /usr/bin/chromium ] || missing="$missing /usr/bin/chromium"
	[ -d "$ROOT/web/node_modules/playwright-core" ] || missing="$missing playwright-core (make -C web)"
	[ -f "$ROOT/web/vendor/chart.umd.min.js" ] && [ -f "$ROOT/web/vendor/chartjs-chart-matrix.min.js" ] \
		|| missing="$missing web/vendor (make -C web)"
	for f in "$ROOT"/web/pages/*.html; do
		[ "${f##*/}" = shell.html ] || [ -f "$ROOT/web/${f##*/}" ] || missing="$missing web/${f##*/} (make -C web)"
	done
	for f in "$@"; do
		[ -x "$f" ] || missing="$missing $f (make -C host)"
	done
	printf %s "$missing"
}

# browser_require NAME [FILE...]: unless browser_missing finds nothing, one
# SKIP line for NAME naming what is missing, and the test ends.
browser_require() {
	local name=$1 missing
	shift
	missing=$(browser_missing "$@")
	if [ -n "$missing" ]; then
		skip "$name" "missing:$missing"
		exit 0
	fi
}

# browser_traps: on exit, the driver (if one runs) and the daemon stop.
browser_traps() {
	driver=""
	trap browser_cleanup EXIT
	trap "exit 143" TERM INT
}

browser_cleanup() {
	[ -n "$driver" ] && kill "$driver" 2>/dev/null && wait "$driver" 2>/dev/null
	cleanup_daemon
}

# run_driver SCRIPT: node tests/web/SCRIPT (its TAP lines), then the daemon's
# log tail on failure and a clean SIGTERM of the daemon. A driver that
# fails without a failed check of its own (a syntax error, a crash before
# its first check) is a failed line here: its TAP alone read as a pass.
run_driver() {
	local fd tee_pid rc
	exec {fd}> >(tee "$TMP/driver.tap") # streamed, and kept for the test below
	tee_pid=$!
	node "$ROOT/tests/web/$1" >&"$fd" 2>&1 &
	driver=$!
	wait "$driver"
	rc=$?
	driver=""
	exec {fd}>&-
	wait "$tee_pid" # every line written before it is read
	[ $rc = 0 ] || grep -q '^not ok' "$TMP/driver.tap" || notok "$1 ran to its end (it exited $rc before any failed check)"
	[ $rc = 0 ] || tail -n 20 "$TMP/daemon.log" | sed 's/^/# /'
	check "SIGTERM: clean shutdown" stop_daemon
}
