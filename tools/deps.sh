#!/bin/sh
# Installs what xcbench needs on Debian 12 when (and only when) something is
# missing, so `make`, `make test` and `make run` work on a fresh machine as root.
#
# QEMU must be 10.x or newer: Debian 12's 7.2 has no x2APIC under TCG and no
# igb (Intel 82576), and the suite tests both. On Debian 12 this adds the
# bookworm-backports suite (its mirror taken from the machine's own Debian apt
# source, so no host name lives in this repository) and installs QEMU and OVMF
# from there; on Debian 13 and later the stable packages are new enough.
set -e
PKGS="gcc make binutils clang libclang-rt-14-dev python3 curl iproute2 \
qemu-system-x86 qemu-utils ipxe ipxe-qemu ovmf mtools dosfstools dnsmasq-base docker-compose \
libmicrohttpd-dev libsqlite3-dev sqlite3 libjansson-dev libcmocka-dev libpq-dev postgresql \
chromium openipmi ipmitool redfishtool openssl"
# Packages that must come from backports on Debian 12 (QEMU 10 and its firmware).
BPO_PKGS="qemu-system-x86 qemu-utils qemu-system-data qemu-system-common ovmf"
QEMU_MIN_MAJOR=10

# One dpkg query for every package at once (the common case, nothing
# missing, costs this and two `command -v`): "name status version" lines.
# Packages dpkg has never heard of print nothing (an error on stderr).
STATE=$(dpkg-query -W -f='${Package} ${db:Status-Status} ${Version}\n' $PKGS 2>/dev/null || true)

installed() {
	case "
$STATE" in *"
$1 installed "*) return 0 ;; esac
	return 1
}

# The installed qemu-system-x86's major version, or 0 (from the same query,
# refreshed after an install).
qemu_major() {
	v=$(echo "$STATE" | awk '$1 == "qemu-system-x86" && $2 == "installed" { print $3 }')
	v=${v#*:}
	echo "${v%%.*}" | grep -E '^[0-9]+$' || echo 0
}

codename=$(. /etc/os-release 2>/dev/null; echo "${VERSION_CODENAME:-}")

missing=""
for p in $PKGS; do
	installed "$p" || missing="$missing $p"
done
# Node.js may come from outside Debian (a newer one); only add Debian's when absent.
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
need_bpo=0
if [ "$codename" = bookworm ] && [ "$(qemu_major)" -lt "$QEMU_MIN_MAJOR" ]; then
	need_bpo=1
fi
[ -z "$missing" ] && [ "$need_bpo" = 0 ] && exit 0
echo "deps: installing:$missing$([ $need_bpo = 1 ] && echo " (QEMU $QEMU_MIN_MAJOR from bookworm-backports)")"
if [ "$(id -u)" != 0 ]; then
	echo "deps: not root; install these packages and retry:$missing" >&2
	[ "$need_bpo" = 1 ] && echo "deps: and QEMU >= $QEMU_MIN_MAJOR (bookworm-backports: $BPO_PKGS)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive

if [ "$need_bpo" = 1 ]; then
	# The mirror URI of the machine's first Debian source (deb822 or one-line
	# format); backports lives on the same mirror as the main suite.
	src=/etc/apt/sources.list.d/xcbench-backports.list
	if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
		uri=$(grep -hsE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null |
			awk '{print $2}' | grep -E '/debian/?$' | head -n 1)
		[ -n "$uri" ] || uri=$(grep -hsE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
			grep -v security | awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' |
			grep -E '/debian/?$' | head -n 1)
		if [ -z "$uri" ]; then
			echo "deps: no Debian apt source found to take a mirror from; add bookworm-backports by hand" >&2
			exit 1
		fi
		echo "deb $uri bookworm-backports main" >"$src"
		echo "deps: added bookworm-backports ($src)"
	fi
fi

apt-get update -qq
if [ -n "$missing" ]; then
	# Packages that backports provides are installed from there in one go below.
	plain=""
	for p in $missing; do
		case " $BPO_PKGS " in *" $p "*) [ "$need_bpo" = 1 ] && continue ;; esac
		plain="$plain $p"
	done
	[ -n "$plain" ] && apt-get install -y -qq --no-install-recommends $plain
fi
if [ "$need_bpo" = 1 ]; then
	apt-get install -y -qq --no-install-recommends -t bookworm-backports $BPO_PKGS
fi
STATE=$(dpkg-query -W -f='${Package} ${db:Status-Status} ${Version}\n' qemu-system-x86 2>/dev/null || true)
if [ "$codename" = bookworm ] && [ "$(qemu_major)" -lt "$QEMU_MIN_MAJOR" ]; then
	echo "deps: qemu-system-x86 is still older than $QEMU_MIN_MAJOR" >&2
	exit 1
fi
exit 0
