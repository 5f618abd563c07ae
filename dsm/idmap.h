/* idmap.h - a map from 32-bit ids to pointers, for the synchronisation
 * objects made on demand (sync.c: lock records at their manager, barriers,
 * condition variables, the locks a node holds).  Ids are sparse (a node's
 * k-th object is k * nodes + node, with a high bit), so a table indexed by
 * id does not fit; open addressing with linear probing, doubling at half
 * full.  Not thread-safe: the caller holds its own lock. */
#ifndef DSM_IDMAP_H
#define DSM_IDMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct dsm_idmap {
    uint32_t *keys;
    void **vals;        /* NULL: the slot is empty */
    size_t cap, used;
} dsm_idmap;

/* The value of id, or NULL. */
void *dsm_idmap_get(const dsm_idmap *m, uint32_t id);
/* Set id's value (non-NULL): 0, or -1 out of memory. */
int dsm_idmap_put(dsm_idmap *m, uint32_t id, void *val);
/* Remove id (nothing when absent). */
void dsm_idmap_del(dsm_idmap *m, uint32_t id);
/* The i-th slot's id and value, for i in 0 .. cap-1: NULL when empty. */
static inline void *dsm_idmap_slot(const dsm_idmap *m, size_t i, uint32_t *id)
{
    *id = m->keys[i];
    return m->vals[i];
}
void dsm_idmap_free(dsm_idmap *m);

#endif
