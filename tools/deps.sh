#!/bin/sh
# Installs what xcbench needs on Debian 12 when (and only when) something is
# missing, so `make`, `make test` and `make run` work on a fresh machine as root.
set -e
PKGS="gcc make binutils clang libclang-rt-14-dev python3 curl iproute2 \
qemu-system-x86 qemu-utils ipxe dnsmasq-base docker-compose \
libmicrohttpd-dev libsqlite3-dev sqlite3 libjansson-dev libcmocka-dev \
chromium"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
		|| missing="$missing $p"
done
# Node.js may come from outside Debian (a newer one); only add Debian's when absent.
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
[ -z "$missing" ] && exit 0
echo "deps: installing:$missing"
if [ "$(id -u)" != 0 ]; then
	echo "deps: not root; install these packages and retry:$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing
