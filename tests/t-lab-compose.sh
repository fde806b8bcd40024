#!/bin/bash
# The lab's compose file and image recipe, checked without Docker images (none
# can be pulled here): `docker compose config` (or docker-compose) validates
# docker-compose.yml and shows it runs lab/dnsmasq-start in proxy-DHCP mode
# beside xcbenchd with its database in a volume; host/Dockerfile builds from
# Debian 12 images and Debian packages only.
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"
cd "$ROOT" || exit 1

if docker compose version >/dev/null 2>&1; then
	DC=(docker compose)
elif command -v docker-compose >/dev/null 2>&1; then
	DC=(docker-compose)
else
	skip "docker compose config" "neither 'docker compose' nor docker-compose is installed (Debian: apt-get install docker-compose)"
	DC=()
fi

if [ ${#DC[@]} -gt 0 ]; then
	out=$(env -u XCB_DAEMON_ADDR -u XCB_LAB_SUBNET "${DC[@]}" -f docker-compose.yml config 2>&1)
	rc=$?
	check "compose config without the lab's addresses fails" test "$rc" -ne 0
	check "... and says to set XCB_DAEMON_ADDR" grep -q 'set XCB_DAEMON_ADDR' <<<"$out"

	cfg=$(XCB_DAEMON_ADDR=192.0.2.10 XCB_LAB_SUBNET=192.0.2.0 XCB_LAB_IFACE=eth1 \
		"${DC[@]}" -f docker-compose.yml config 2>&1)
	rc=$?
	check "${DC[*]} config validates docker-compose.yml" test "$rc" = 0
	[ "$rc" = 0 ] || echo "$cfg" | sed 's/^/# /' | head -20
	# The rendered file is YAML; python3-yaml comes with docker-compose, else grep.
	if python3 -c 'import yaml' 2>/dev/null; then
		summary=$(python3 -c '
import sys, yaml
c = yaml.safe_load(sys.stdin)
s = c["services"]; d, x = s["dnsmasq"], s["xcbenchd"]
env = d["environment"]
ep = d["entrypoint"] if isinstance(d["entrypoint"], list) else [d["entrypoint"]]
vols = [v if isinstance(v, str) else v.get("target", "") for v in x.get("volumes", [])]
print(ep[0].endswith("/lab/dnsmasq-start"),
      env["XCB_DAEMON"] == "192.0.2.10:8080",
      env["XCB_DHCP_RANGE"] == "192.0.2.0,proxy",
      env["XCB_INTERFACE"] == "eth1",
      d.get("network_mode") == "host" and x.get("network_mode") == "host",
      any("/var/lib/xcbench" in v for v in vols),
      x["build"]["dockerfile"] == "host/Dockerfile",
      "--token-file" in x["command"])' <<<"$cfg")
	else
		summary="yaml-module-missing"
	fi
	diag "entrypoint daemon range iface hostnet dbvolume dockerfile token = $summary"
	set -- $summary
	check "dnsmasq service runs lab/dnsmasq-start (the tested config)" test "${1:-}" = True
	check "dnsmasq hands iPXE the daemon at XCB_DAEMON_ADDR:8080" test "${2:-}" = True
	check "dnsmasq is proxy-DHCP on XCB_LAB_SUBNET, on XCB_LAB_IFACE" test "${3:-}" = True -a "${4:-}" = True
	check "both services on the host network (DHCP broadcast, UDP results)" test "${5:-}" = True
	check "xcbenchd keeps its database in a volume" test "${6:-}" = True
	check "xcbenchd is built from host/Dockerfile and needs the admin token" test "${7:-}" = True -a "${8:-}" = True

	# The central profile as README.md's "Several labs, one history" gives
	# it: its last code block (the three secret files, then compose), run
	# as written in a shell of its own (no XCB_* from before) in a copy of
	# the file, compose's `up -d --build` made `config`. The profile adds
	# to the lab's services, whose dnsmasq needs XCB_DAEMON_ADDR and
	# XCB_LAB_SUBNET: the README's block did not set them, so the command
	# it gave failed ("set XCB_DAEMON_ADDR ...").
	CT=$(mktemp -d "$OUTDIR/compose.XXXXXX")
	cp docker-compose.yml "$CT/"
	python3 - README.md >"$CT/central.sh" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
sec = re.search(r"^### Several labs, one history.*?(?=^### )", text, re.M | re.S).group(0)
blocks = [b for b in re.findall(r"((?:^    .*\n)+)", sec, re.M) if "--profile central" in b]
print("\n".join(l[4:] for l in blocks[-1].splitlines()) if blocks else "false")
PY
	sed 's/^/# README: /' "$CT/central.sh"
	sed -i "s/^docker compose \(.*\)up -d --build/${DC[*]} \1config/" "$CT/central.sh"
	(cd "$CT" && env -u XCB_DAEMON_ADDR -u XCB_LAB_SUBNET -u XCB_LAB_IFACE bash -e central.sh) >"$CT/config.out" 2>&1
	rc=$?
	diag "$(head -c 300 "$CT/config.out")"
	check "README's central profile commands, as written: compose config exit 0 ($rc)" test "$rc" = 0
	summary=$(python3 -c '
import sys, yaml
s = yaml.safe_load(sys.stdin)["services"]
ok = all(s[n]["environment"]["PGPASSFILE"] == "/run/secrets/xcbench_pgpass" and "--lab" in s[n]["command"]
         and not any("password" in str(a) for a in s[n]["command"]) for n in ("xcbenchd-lab-a", "xcbenchd-lab-b"))
print("postgres" in s and ok)' <"$CT/config.out" 2>/dev/null)
	check "... a postgres service and two lab daemons with PGPASSFILE, --lab, no password on their command line" \
		test "$summary" = True
	# The payload sends results to the --udp port its boot script names;
	# behind a published 8081->8080 mapping that was 8080, the SQLite
	# daemon's. Behind a bridge, --boot-from's default (the host's
	# subnets) was the container's subnet: no lab machine got its job.
	summary=$(python3 -c '
import sys, yaml
s = yaml.safe_load(sys.stdin)["services"]
def arg(c, k): return c[c.index(k) + 1] if k in c else ""
bad = []
for n in ("xcbenchd-lab-a", "xcbenchd-lab-b"):
    c = [str(a) for a in s[n]["command"]]
    if arg(c, "--listen").rsplit(":", 1)[-1] != arg(c, "--udp").rsplit(":", 1)[-1]: bad.append(n + ": --listen and --udp ports differ")
    if s[n].get("network_mode") != "host": bad.append(n + ": not on the host network")
print("; ".join(bad) or "ok")' <"$CT/config.out" 2>&1)
	check "... each lab daemon on the host network, its HTTP and UDP on one port ($summary)" test "$summary" = ok
	summary=$(python3 -c '
import sys, yaml
s = yaml.safe_load(sys.stdin)["services"]
def vols(n): return [v if isinstance(v, str) else v.get("target", "") for v in s[n].get("volumes", [])]
print([n for n in ("xcbenchd", "xcbenchd-lab-a", "xcbenchd-lab-b") if not any(str(v).split(":")[1 if ":" in str(v) else 0] == "/etc/xcbench" or str(v).endswith("/etc/xcbench") for v in vols(n))])' <"$CT/config.out" 2>&1)
	check "... every daemon sees /etc/xcbench, where README puts BMC password files (missing: $summary)" test "$summary" = "[]"
	pp=$(cut -d: -f1,2 "$CT/var/pgpass" 2>/dev/null)
	url=$(python3 -c '
import sys, yaml
from urllib.parse import urlparse
u = urlparse([str(a) for a in yaml.safe_load(sys.stdin)["services"]["xcbenchd-lab-a"]["command"] if str(a).startswith("postgresql://")][0])
print("%s:%s" % (u.hostname, u.port or 5432))' <"$CT/config.out" 2>&1)
	check "... README's password file line is for the daemons' --db host:port ($pp, $url)" test "$pp" = "$url"
	check "... its three secret files are mode 600" \
		test "$(stat -c %a "$CT/var/lab-token" "$CT/var/pg-password" "$CT/var/pgpass" 2>/dev/null | sort -u)" = 600
	rm -rf "$CT"
fi

# host/Dockerfile: Debian 12 base images, packages from apt only.
froms=$(grep -iE '^FROM ' host/Dockerfile | awk '{print $2}')
diag "base images: $(echo $froms)"
bad=$(echo "$froms" | grep -vE '^debian:12(-slim)?$')
check "host/Dockerfile builds FROM Debian 12 images only" test -n "$froms" -a -z "$bad"
check "host/Dockerfile installs packages with apt-get only (no pip/npm/curl|sh/wget)" \
	bash -c "! grep -iE '(pip3? install|npm (ci|install)|(curl|wget)[^|]*\\| *(ba)?sh|wget |go install|cargo install)' host/Dockerfile"
check "host/Dockerfile copies lab/ (dnsmasq config) into the image" grep -qE '^COPY lab ' host/Dockerfile
check "lab/dnsmasq-start is executable (the image's dnsmasq entrypoint)" test -x lab/dnsmasq-start
# The power drivers run ipmitool (and README's Redfish script redfishtool)
# inside the daemon's container: the image lacked them.
check "host/Dockerfile's image has ipmitool and redfishtool (the power drivers' tools)" \
	sh -c "sed -n '/^FROM debian:12-slim/,\$p' host/Dockerfile | grep -q 'ipmitool redfishtool'"
