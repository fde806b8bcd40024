# tests/lib/uefi.sh — helpers for the UEFI (OVMF) tests, t-uefi-*.sh. Source
# after tap.sh. OVMF from Debian's ovmf package; every VM gets its own copy
# of the variable store (OVMF writes boot entries into it).
XCB_EFI=$ROOT/firmware/build/xcbench.efi
OVMF_CODE=${OVMF_CODE:-/usr/share/OVMF/OVMF_CODE_4M.fd}
OVMF_VARS=${OVMF_VARS:-/usr/share/OVMF/OVMF_VARS_4M.fd}

# uefi_require NAME: a SKIP line and exit when OVMF or the image is missing.
uefi_require() {
	if [ ! -r "$OVMF_CODE" ] || [ ! -r "$OVMF_VARS" ]; then
		skip "$1" "OVMF not installed ($OVMF_CODE; make deps installs ovmf)"
		exit 0
	fi
	if [ ! -f "$XCB_EFI" ]; then
		notok "$1: $XCB_EFI built (make -C firmware)"
		exit 1
	fi
}

# ovmf_args VARSCOPY: the two pflash drives (code read-only, vars copied).
ovmf_args() {
	cp "$OVMF_VARS" "$1"
	echo "-drive if=pflash,format=raw,unit=0,readonly=on,file=$OVMF_CODE" \
		"-drive if=pflash,format=raw,unit=1,file=$1"
}

# uefi_clean RAW OUT: the serial log without the firmware's terminal escapes
# and CRs, so the payload's lines match ^xcbench: as on BIOS.
uefi_clean() {
	[ -f "$1" ] || { : >"$2"; return; }
	sed -e 's/\x1b\[[0-9;=?]*[a-zA-Z]//g' -e 's/\r//g' "$1" >"$2"
}

# uefi_wait_for PID RAW LOG REGEX SECONDS: polls (every 0.5 s, at most
# SECONDS) until the cleaned serial log LOG (from RAW) has a line matching
# REGEX (grep -E) or QEMU (PID) has ended: the firmware goes on to its boot
# menu after an image returns, so a test waits for the line it expects.
uefi_wait_for() {
	local pid=$1 raw=$2 log=$3 re=$4 n=$(($5 * 2))
	for _ in $(seq "$n"); do
		uefi_clean "$raw" "$log"
		grep -qE "$re" "$log" && return 0
		kill -0 "$pid" 2>/dev/null || return 1
		sleep 0.5
	done
	return 1
}

# qemu_uefi LOG SMP "CMDLINE" [extra qemu args]: OVMF loads xcbench.efi with
# LoadImage (QEMU's -kernel blob, -append as LoadOptions), TCG always;
# serial to LOG (cleaned; QEMU's stderr in LOG.raw.stderr). Returns QEMU's status
# ((code<<1)|1); bounded as qemu_run says.
qemu_uefi() {
	local log=$1 smp=$2 cmdline=$3 rc; shift 3
	# shellcheck disable=SC2046
	qemu_run "$log.raw" "${XCB_QEMU_TIMEOUT:-120}" qemu-system-x86_64 \
		-accel tcg -M q35 -m 256 -smp "$smp" -nographic -no-reboot \
		$(ovmf_args "$log.vars") \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-serial "file:$log.raw" -monitor none -display none -net none \
		-kernel "${XCB_EFI_IMAGE:-$XCB_EFI}" -append "$cmdline" "$@"
	rc=$?
	uefi_clean "$log.raw" "$log"
	rm -f "$log.vars"
	return $rc
}
