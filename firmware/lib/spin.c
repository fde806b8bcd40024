/* lib/spin.c — the spin-wait policy cpu_relax() follows (lib/spinlock.h):
 * 0 = `pause`, 1 = a plain compiler barrier. One word, set at start-up. */
#include "lib/spinlock.h"

int cpu_relax_plain;
