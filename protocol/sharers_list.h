/* sharers_list.h - FLASH's dynamic pointer allocation [Sim92] as a sharer-set
 * representation behind dsm_sharers_ops (protocol/sharers.h).
 *
 * A directory entry keeps its sharers as a linked list of pointer entries
 * (node id + link) taken from a pool with a free list, as FLASH's MAGIC keeps
 * them in the home's memory (FlashPoint, section 3.1.2: "a link field
 * which is the head of a linked list of sharers").  The protocol outcome is
 * the same as with the bit vector (same members, same next() order); the
 * difference is cost: every operation walks the list, and the walk length is
 * counted so that the FLASH timing model (protocol/sim/flash.c) can charge
 * the protocol processor for it.
 *
 * Select it with dsm_sharers_init_with(&s, nnodes, &dsm_sharers_pointer_list)
 * or, for a whole engine, proto_config.sharers_ops = &dsm_sharers_pointer_list.
 */
#ifndef DSM_SHARERS_LIST_H
#define DSM_SHARERS_LIST_H

#include <stdint.h>

#include "sharers.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const dsm_sharers_ops dsm_sharers_pointer_list;

/* Pointer entries visited by all list walks of this set so far (add, remove,
 * contains, next); 0 for a set of another representation. */
uint64_t dsm_sharers_list_walk_steps(const dsm_sharers *s);
/* Pointer entries currently allocated from this set's pool (in use + free):
 * the storage the representation costs. */
uint32_t dsm_sharers_list_pool_entries(const dsm_sharers *s);

#ifdef __cplusplus
}
#endif
#endif
