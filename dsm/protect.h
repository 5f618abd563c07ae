/* protect.h - the protection changes of the engine's actions, coalesced
 * into range mprotect calls (protect.c). */
#ifndef DSM_PROTECT_H
#define DSM_PROTECT_H

#include <stdint.h>

#include "node.h"

/* At action i of rt->acts (a PA_SET_ACCESS): applies it together with every
 * later PA_SET_ACCESS of the list that may be moved up to it (no action
 * between them concerns its block), contiguous blocks of one access in one
 * mprotect; the ones taken become no-ops (PA_WAIT).  Called with eng_lock
 * held, as run_actions is. */
void dsm_protect_batch(dsm_rt *rt, size_t i);

/* A read copy brought along by a bulk fetch (GROUP_DATA) gets its read
 * access later, with the copies that follow it: a run of contiguous blocks
 * is kept, and applied in one mprotect by dsm_protect_flush, which
 * run_actions calls before any other call's actions and poll_once after
 * the messages it delivered.  Until then an access to the block faults,
 * and the fault's engine call flushes first. */
void dsm_protect_defer_read(dsm_rt *rt, uint32_t block);
void dsm_protect_flush(dsm_rt *rt);

#endif
