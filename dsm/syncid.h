/* syncid.h - the ids of synchronisation objects and who manages them.
 *
 * Two kinds of ids share the 32-bit space:
 *   fixed ids     below 2^31, chosen by the program (dsm_lock's 0 ..
 *                 DSM_LOCKS-1; any barrier or condition id): managed by
 *                 node id mod N, as always;
 *   made ids      2^31 | (k * N + n) for the k-th object node n made
 *                 (dsm_lock_new, dsm_barrier_new, dsm_cond_new): unique
 *                 without a message, and managed by node (n + k) mod N, so
 *                 the objects one node makes (the master's, in a program
 *                 whose main makes them all) spread over the nodes.
 * Shared by sync.c (which sends) and msg.c (which checks the manager). */
#ifndef DSM_SYNCID_H
#define DSM_SYNCID_H

#include <stdint.h>

#define DSM_SYNC_MADE 0x80000000u

static inline int dsm_sync_made(uint32_t id) { return (id & DSM_SYNC_MADE) != 0; }

static inline uint32_t dsm_sync_make(uint32_t k, int self, int nnodes)
{
    return DSM_SYNC_MADE | (k * (uint32_t)nnodes + (uint32_t)self);
}

/* How many ids one node can make: (2^31 - 1) / N. */
static inline uint32_t dsm_sync_make_max(int nnodes)
{
    return (DSM_SYNC_MADE - 1u) / (uint32_t)nnodes;
}

static inline int dsm_sync_manager(uint32_t id, int nnodes)
{
    uint32_t n = (uint32_t)nnodes;
    if (!dsm_sync_made(id))
        return (int)(id % n);
    uint32_t d = id & ~DSM_SYNC_MADE;
    return (int)((d % n + d / n) % n);
}

#endif
