/* blk_register.c - linked into the unchecked build of a kernel by
 * bench/block_bench.sh for its instruction counts: it tells libdsm the
 * program is checked (what the dsmcheck pass's constructor does), so the
 * unchecked binary runs in block mode like the checked one, without faults
 * (page mode's mprotect and SIGSEGV do not run under valgrind), and the
 * difference of the two counts is the checks alone. */
#include <stdint.h>

void __dsm_blk_register(uint32_t abi);

/* DSM_BLK_ABI of dsm/access.h */
enum { BLK_ABI = 2 };

__attribute__((constructor)) static void register_as_checked(void) { __dsm_blk_register(BLK_ABI); }
