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
