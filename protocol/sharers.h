/* sharers.h - the set of nodes holding a read copy of a block, as kept in a
 * directory entry.  An interface with interchangeable representations: full
 * bit vector (Origin, here); linked pointer lists (FLASH, sharers_list.c) and
 * limited pointers with software overflow (Alewife LimitLESS) plug in behind
 * the same calls.  Representations differ in cost, never in protocol outcome:
 * next() yields the members in ascending order whatever the representation,
 * because the engine sends its invalidations in that order.
 *
 * A representation that keeps its own storage supplies init/destroy hooks
 * and hangs that storage on `impl`; the bit vector uses `bits` and needs no
 * hooks (dsm_sharers_init_with allocates the bits when ops->init is NULL). */
#ifndef DSM_SHARERS_H
#define DSM_SHARERS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dsm_sharers dsm_sharers;

typedef struct dsm_sharers_ops {
    const char *name;
    void (*add)(dsm_sharers *s, int node);
    void (*remove)(dsm_sharers *s, int node);
    int (*contains)(const dsm_sharers *s, int node);
    int (*count)(const dsm_sharers *s);
    void (*clear)(dsm_sharers *s);
    /* smallest member >= from, or -1 */
    int (*next)(const dsm_sharers *s, int from);
    /* Optional (NULL for the bit vector).  init sets up an empty set of
     * nnodes possible members (it owns s->impl, and s->bits if it wants
     * them); 0, or -1 when out of memory.  destroy releases what init took;
     * dsm_sharers_destroy frees s->bits afterwards in any case. */
    int (*init)(dsm_sharers *s, int nnodes);
    void (*destroy)(dsm_sharers *s);
} dsm_sharers_ops;

struct dsm_sharers {
    const dsm_sharers_ops *ops;
    int nnodes;
    int n;            /* cached member count */
    uint64_t *bits;   /* bit-vector representation: ceil(nnodes/64) words */
    void *impl;       /* storage of a representation with its own init hook */
};

extern const dsm_sharers_ops dsm_sharers_bitvector;

/* Initialise with the bit-vector representation; 0 or -1 (no memory). */
int dsm_sharers_init(dsm_sharers *s, int nnodes);
/* Initialise with the representation `ops` (NULL: the bit vector); 0 or -1
 * (no memory). */
int dsm_sharers_init_with(dsm_sharers *s, int nnodes, const dsm_sharers_ops *ops);
void dsm_sharers_destroy(dsm_sharers *s);
size_t dsm_sharers_words(int nnodes);

static inline void sharers_add(dsm_sharers *s, int node) { s->ops->add(s, node); }
static inline void sharers_remove(dsm_sharers *s, int node) { s->ops->remove(s, node); }
static inline int sharers_contains(const dsm_sharers *s, int node) { return s->ops->contains(s, node); }
static inline int sharers_count(const dsm_sharers *s) { return s->ops->count(s); }
static inline void sharers_clear(dsm_sharers *s) { s->ops->clear(s); }
static inline int sharers_next(const dsm_sharers *s, int from) { return s->ops->next(s, from); }

#define SHARERS_FOREACH(s, var) \
    for (int var = sharers_next((s), 0); var >= 0; var = sharers_next((s), var + 1))

#ifdef __cplusplus
}
#endif
#endif
