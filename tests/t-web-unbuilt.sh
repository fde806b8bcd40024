#!/bin/bash
# t-web-unbuilt.sh — a daemon whose --web directory has no rendered pages
# (the host built with `make -C host` alone, as docs/ADDING-AN-ALGORITHM.md
# step 4 once said; the pages come from `make -C web`): it started without a
# word, every page was 404 and `/` answered the API's JSON {"error":"not
# found: /"}. Now the start warns, naming the directory and the make command,
# and a page's 404 says the same to a person (plain text to curl, HTML to a
# browser); the JS is served as before, a missing file's 404 is unchanged,
# and the pages are served once rendered, without a restart.
# timeout: 60
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "a --web without rendered pages"
TMP=$(mktemp -d "$OUTDIR/daemon.XXXXXX")
# the repository's web/ as a fresh checkout has it: sources, JS, CSS, no pages
W=$TMP/web
mkdir -p "$W" && cp -r "$ROOT/web/pages" "$ROOT/web/js" "$ROOT/web/css" "$W/"
start_daemon --open --web "$W" || { notok "the daemon starts"; exit 1; }

check "the start warns: --web has no index.html, build with make -C web" \
	grep -qF "xcbenchd: warning: --web '$W' has no index.html: the dashboard's pages are not rendered, and every page is 404 until they are (make -C web" "$TMP/daemon.log"
# get PATH [curl args]: status, content type and body into TMP/get.*.
get() {
	local p=$1
	shift
	curl -s -o "$TMP/get.body" -w '%{http_code} %{content_type}' "$@" "$URL$p" >"$TMP/get.head"
}
get /
check "GET / (curl): 404 in plain text, not the API's JSON ($(cat "$TMP/get.head"))" \
	grep -q '^404 text/plain' "$TMP/get.head"
check "... naming the missing build step and the directory ($(sed -n 2,3p "$TMP/get.body" | tr '\n' ' '))" \
	bash -c 'grep -qF "Build them with make -C web" "$1" && grep -qF "($2) has no index.html" "$1"' _ "$TMP/get.body" "$W"
get '/run.html?id=1' -H 'Accept: text/html,application/xhtml+xml'
check "GET /run.html?id=1 (a browser): 404 HTML saying the dashboard is not built ($(cat "$TMP/get.head"))" \
	bash -c 'grep -q "^404 text/html" "$1" && grep -qF "<h1>The dashboard is not built</h1>" "$2" && grep -qF "<code>make -C web" "$2"' \
	_ "$TMP/get.head" "$TMP/get.body"
get /js/runs.js
check "a file that is there (js/runs.js) is served as before ($(cat "$TMP/get.head"))" grep -q '^200 text/javascript' "$TMP/get.head"
get /js/nosuch.js
check "a file that is not there (js/nosuch.js): the JSON 404 as before ($(cat "$TMP/get.body"))" \
	bash -c 'grep -q "^404 application/json" "$1" && grep -qF "\"not found: /js/nosuch.js\"" "$2"' _ "$TMP/get.head" "$TMP/get.body"
# rendered afterwards (the pages the tree's make -C web wrote): served at once
if [ -f "$ROOT/web/index.html" ]; then
	cp "$ROOT"/web/*.html "$W/"
	get /
	check "once rendered, / is the runs list, no restart ($(cat "$TMP/get.head"))" \
		bash -c 'grep -q "^200 text/html" "$1" && grep -q "js/runs.js" "$2"' _ "$TMP/get.head" "$TMP/get.body"
else
	skip "once rendered, / is the runs list" "web/ not rendered here (make -C web)"
fi
check "SIGTERM: clean shutdown" stop_daemon
# The tree's own web/, rendered: no such warning.
if [ -f "$ROOT/web/index.html" ]; then
	start_daemon --open --web "$ROOT/web" || notok "the daemon starts on web/"
	check "a --web with its pages: no warning" bash -c '! tail -n "+$(($2 + 1))" "$1" | grep -q "has no index.html"' \
		_ "$TMP/daemon.log" "$DLOG_AT"
	check "SIGTERM: clean shutdown" stop_daemon
fi
