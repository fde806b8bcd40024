# Helpers for the lab tests (tests/t-lab-*.sh): OpenIPMI's ipmi_sim as a
# real BMC on loopback whose chassis power starts and stops a command (a
# QEMU machine), and its serial-over-LAN wired to that machine's serial
# port. Source after lib.sh and netlib.sh (its NET_DIR, NET_PIDS, cleanup).
# Not a test itself.

LAB_PIDFILES=()      # startcmd processes (QEMU), ended on exit

lab_cleanup() {
	local f
	for f in "${LAB_PIDFILES[@]}"; do
		[ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	net_cleanup
}
trap lab_cleanup EXIT

# lab_require: skips (exit 0) without ipmi_sim or ipmitool.
lab_require() {
	command -v ipmi_sim >/dev/null || { skip "$1" "ipmi_sim missing (Debian openipmi: make deps)"; exit 0; }
	command -v ipmitool >/dev/null || { skip "$1" "ipmitool missing (make deps)"; exit 0; }
}

# lab_vm_script NAME MAC SOLPORT|- [qemu args...]: writes NET_DIR/NAME.vm, the
# BMC's start command: QEMU as the machine (-smp 2, TCG or KVM as tools/
# qemu-accel says), its pid in NET_DIR/NAME.pid, its serial port a TCP
# server the BMC's SOL connects to (SOLPORT; QEMU waits for it, so the
# console is whole from the firmware's first line), bounded to 300 s.
lab_vm_script() {
	local name=$1 sol=$3 serial
	shift 3
	if [ "$sol" = - ]; then serial="-serial null"; else serial="-serial tcp:127.0.0.1:$sol,server=on,wait=on"; fi
	cat >"$NET_DIR/$name.vm" <<VM
#!/bin/sh
echo \$\$ >"$NET_DIR/$name.pid"
exec timeout -k 5 300 qemu-system-x86_64 -accel $(accel) -M q35 -m 256 -smp 2 -nographic -no-reboot \
	$serial -monitor none -display none $* >>"$NET_DIR/$name.qemu.out" 2>&1
VM
	chmod +x "$NET_DIR/$name.vm"
	LAB_PIDFILES+=("$NET_DIR/$name.pid")
}

# lab_bmc NAME VAR USER PASSWORD [SOLPORT]: ipmi_sim for machine NAME on a
# free loopback UDP port (VAR is set to it), one admin user, power through
# NET_DIR/NAME.vm, SOL to 127.0.0.1:SOLPORT when given.
lab_bmc() {
	local name=$1 var=$2 user=$3 pass=$4 sol=${5:-} port vmport dir
	dir=$NET_DIR/$name.bmc
	port=$(free_port)
	vmport=$(free_port)
	mkdir -p "$dir/state"
	{
		echo "name \"xcb23$name\""
		echo "set_working_mc 0x20"
		echo "  startlan 1"
		echo "    addr 127.0.0.1 $port"
		echo "    priv_limit admin"
		for p in callback user operator admin; do echo "    allowed_auths_$p md5"; done
		echo "    guid a123456789abcdefa123456789abcdef"
		echo "  endlan"
		# The VM serial channel is where ipmi_sim's chassis control
		# lives; nothing connects to it, so power is startcmd's.
		echo "  serial 15 127.0.0.1 $vmport codec VM"
		[ -n "$sol" ] && echo "  sol \"tcp:127.0.0.1:$sol\" 115200"
		echo "  startcmd \"$NET_DIR/$name.vm\""
		echo "  startnow false"
		echo "  poweroff_wait 0"
		echo "  kill_wait 2"
		echo "  user 2 true \"$user\" \"$pass\" admin 10 md5"
	} >"$dir/lan.conf"
	chmod 600 "$dir/lan.conf"
	printf 'mc_setbmc 0x20\nmc_add 0x20 0 no-device-sdrs 0x23 9 8 0x9f 0x1291 0xf02 persist_sdr\nmc_enable 0x20\n' >"$dir/emu"
	ipmi_sim -c "$dir/lan.conf" -f "$dir/emu" -s "$dir/state" -n >"$dir/sim.log" 2>&1 &
	NET_PIDS+=("$!")
	printf -v "$var" %s "$port"
	# Ready once it answers a session (a second or so).
	local i
	for i in $(seq 50); do
		ipmitool -I lanplus -C 3 -H 127.0.0.1 -p "$port" -U "$user" -f <(echo "$pass") -N 1 -R 1 \
			chassis power status >/dev/null 2>&1 && return 0
		sleep 0.2
	done
	return 1
}

# lab_job_wait PORT JOB STAGE... : waits (up to LAB_WAIT s, default 240)
# until the job is in one of the stages with its end action done when the
# stage is final; prints the stage. 0 or 1.
lab_job_wait() {
	local port=$1 job=$2 t s
	shift 2
	for t in $(seq $(( ${LAB_WAIT:-240} * 4 ))); do
		s=$(api "$port" "/api/v1/jobs/$job" | json "j['job']['stage'] + ('' if j['job']['ended'] or j['job']['stage'] in ('queued','powering_on','booting','running') else '-ending')" 2>/dev/null)
		for want in "$@"; do
			[ "$s" = "$want" ] && { echo "$s"; return 0; }
		done
		sleep 0.25
	done
	echo "$s"
	return 1
}

# lab_events PORT JOB: the job's events, "stage: reason" one a line.
lab_events() {
	api "$1" "/api/v1/jobs/$2" | "$NET_PY" -c '
import json, sys
for e in json.load(sys.stdin)["job"]["events"]:
    print("%s %s: %s" % (e["attempt"], e["stage"], e["reason"]))'
}
