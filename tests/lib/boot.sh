# tests/lib/boot.sh — helpers shared by the t-boot-*.sh payload boot tests.
# Source after tap.sh.

# host_tsc_khz: the host's TSC frequency, measured (rdtsc against
# CLOCK_MONOTONIC over 200 ms, median of 5) — TCG guests read the host TSC.
host_tsc_khz() {
	local src=$OUTDIR/tscprobe.c bin=$OUTDIR/tscprobe
	if [ ! -x "$bin" ]; then
		cat >"$src" <<'C'
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>
static uint64_t ns(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1000000000ull+t.tv_nsec;}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
int main(void){double k[5];for(int i=0;i<5;i++){uint64_t n0=ns(),t0=__rdtsc();struct timespec d={0,200000000};nanosleep(&d,0);uint64_t n1=ns(),t1=__rdtsc();k[i]=(double)(t1-t0)*1e6/(double)(n1-n0);}qsort(k,5,sizeof k[0],cmp);printf("%.0f\n",k[2]);return 0;}
C
		gcc -O2 -o "$bin" "$src" || return 1
	fi
	"$bin"
}

# within_pct A B PCT: |A-B| <= PCT% of B
within_pct() {
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d * 100 <= p * b) }'
}

# summary_field LOG: prints "online listed khz source mode" from the summary line.
summary_fields() {
	sed -nE 's/^xcbench: ([0-9]+)\/([0-9]+) cpus online, tsc ([0-9]+) kHz \(([a-z0-9]+)\), apic ([a-z0-9]+)$/\1 \2 \3 \4 \5/p' "$1" | head -1
}

# cpus_online_ok LOG N: lines "xcbench: cpu i apic A ... online" for i in 0..N-1,
# each with a distinct APIC ID; prints the APIC IDs in order.
cpu_apics() {
	sed -nE 's/^xcbench: cpu ([0-9]+) apic ([0-9]+) pkg [0-9]+ core [0-9]+ thread [0-9]+ online$/\1 \2/p' "$1"
}
