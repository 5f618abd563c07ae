/* blk_register.c - linked into the unchecked build of a kernel by
 * bench/block_bench.sh for its instruction counts: it tells libdsm the
 * program is checked (what the dsmcheck pass's constructor does), so the
 * unchecked binary runs in block mode like the checked one, without faults
 * (page mode's mprotect and SIGSEGV do not run under valgrind), and the
 * difference of the two counts is the checks alone. */
#include "../dsm/access.h" /* DSM_BLK_ABI: a hard-coded copy went stale once */

__attribute__((constructor)) static void register_as_checked(void) { __dsm_blk_register(DSM_BLK_ABI); }
