/* sharers.h - the set of nodes holding a read copy of a block, as kept in a
 * directory entry.  An interface with interchangeable representations: full
 * bit vector (Origin, here); linked pointer lists (FLASH, sharers_list.c) and
 * limited pointers with software overflow (Alewife LimitLESS) plug in behind
 * the same calls.  Representations differ in cost, never in protocol outcome:
 * next() yields the members in ascending order whatever the representation,
 * because the engine sends its invalidations in that order.
 *
 * A representation that keeps its own storage supplies init/destroy hooks
 * and hangs that storage on `impl`.  The bit vector needs no hooks: up to
 * DSM_SHARERS_INLINE_NODES nodes its words live inside the set (no pointer
 * to chase on a directory lookup), beyond that dsm_sharers_init_with
 * allocates them.  The inline calls below do the bit vector's work in place
 * and call through the ops only for other representations, so the default
 * representation costs no indirect call on the engine's miss path. */
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
     * nnodes possible members (it owns s->u.impl); 0, or -1 when out of
     * memory.  destroy releases what init took. */
    int (*init)(dsm_sharers *s, int nnodes);
    void (*destroy)(dsm_sharers *s);
} dsm_sharers_ops;

/* Nodes whose bit vector fits inside the set itself. */
#define DSM_SHARERS_INLINE_WORDS 2
#define DSM_SHARERS_INLINE_NODES (64 * DSM_SHARERS_INLINE_WORDS)

struct dsm_sharers {
    const dsm_sharers_ops *ops;
    int nnodes;
    int n;            /* cached member count */
    union {
        /* bit vector, nnodes <= DSM_SHARERS_INLINE_NODES: the words */
        uint64_t word[DSM_SHARERS_INLINE_WORDS];
        /* bit vector, more nodes: ceil(nnodes/64) allocated words */
        uint64_t *bits;
        /* storage of a representation with its own init hook */
        void *impl;
    } u;
};

extern const dsm_sharers_ops dsm_sharers_bitvector;

/* Initialise with the bit-vector representation; 0 or -1 (no memory). */
int dsm_sharers_init(dsm_sharers *s, int nnodes);
/* Initialise with the representation `ops` (NULL: the bit vector); 0 or -1
 * (no memory). */
int dsm_sharers_init_with(dsm_sharers *s, int nnodes, const dsm_sharers_ops *ops);
void dsm_sharers_destroy(dsm_sharers *s);
size_t dsm_sharers_words(int nnodes);
/* Bytes a set of this representation allocated outside the struct itself
 * (the bit vector's words beyond the inline ones; a representation with an
 * init hook: not known here, 0). */
size_t dsm_sharers_heap_bytes(const dsm_sharers *s);

/* The bit vector's words (the set must use the bit vector). */
static inline uint64_t *dsm_sharers_bv_words(dsm_sharers *s)
{
    return s->nnodes <= DSM_SHARERS_INLINE_NODES ? s->u.word : s->u.bits;
}

static inline const uint64_t *dsm_sharers_bv_cwords(const dsm_sharers *s)
{
    return s->nnodes <= DSM_SHARERS_INLINE_NODES ? s->u.word : s->u.bits;
}

static inline int dsm_sharers_is_bv(const dsm_sharers *s)
{
    return s->ops == &dsm_sharers_bitvector;
}

/* Out-of-line bit-vector search (sharers.c): smallest member >= from, -1. */
int dsm_sharers_bv_next(const dsm_sharers *s, int from);

static inline void sharers_add(dsm_sharers *s, int node)
{
    if (!dsm_sharers_is_bv(s)) {
        s->ops->add(s, node);
        return;
    }
    uint64_t bit = UINT64_C(1) << (node & 63);
    uint64_t *w = &dsm_sharers_bv_words(s)[node >> 6];
    if (!(*w & bit)) {
        *w |= bit;
        s->n++;
    }
}

static inline void sharers_remove(dsm_sharers *s, int node)
{
    if (!dsm_sharers_is_bv(s)) {
        s->ops->remove(s, node);
        return;
    }
    uint64_t bit = UINT64_C(1) << (node & 63);
    uint64_t *w = &dsm_sharers_bv_words(s)[node >> 6];
    if (*w & bit) {
        *w &= ~bit;
        s->n--;
    }
}

static inline int sharers_contains(const dsm_sharers *s, int node)
{
    if (!dsm_sharers_is_bv(s))
        return s->ops->contains(s, node);
    if (node < 0 || node >= s->nnodes)
        return 0;
    return (dsm_sharers_bv_cwords(s)[node >> 6] >> (node & 63)) & 1;
}

static inline int sharers_count(const dsm_sharers *s)
{
    return dsm_sharers_is_bv(s) ? s->n : s->ops->count(s);
}

static inline void sharers_clear(dsm_sharers *s)
{
    if (!dsm_sharers_is_bv(s)) {
        s->ops->clear(s);
        return;
    }
    if (s->nnodes <= DSM_SHARERS_INLINE_NODES) {
        for (int i = 0; i < DSM_SHARERS_INLINE_WORDS; i++)
            s->u.word[i] = 0;
    } else {
        for (size_t i = 0; i < dsm_sharers_words(s->nnodes); i++)
            s->u.bits[i] = 0;
    }
    s->n = 0;
}

static inline int sharers_next(const dsm_sharers *s, int from)
{
    if (!dsm_sharers_is_bv(s))
        return s->ops->next(s, from);
    /* the common case in place: a member in the first word */
    if (s->n == 0)
        return -1;
    if (from < 0)
        from = 0;
    if (from < 64) {
        uint64_t w = dsm_sharers_bv_cwords(s)[0] & (~UINT64_C(0) << from);
        if (w) {
            int node = __builtin_ctzll(w);
            return node < s->nnodes ? node : -1;
        }
        from = 64;
    }
    return dsm_sharers_bv_next(s, from);
}

#define SHARERS_FOREACH(s, var) \
    for (int var = sharers_next((s), 0); var >= 0; var = sharers_next((s), var + 1))

#ifdef __cplusplus
}
#endif
#endif
