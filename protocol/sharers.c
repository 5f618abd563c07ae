/* sharers.c - full bit-vector representation of a directory's sharer set
 * (one bit per node, as the SGI Origin keeps it), and the initialisation of a
 * set with any representation (dsm_sharers_init_with).  Works for any node
 * count: up to DSM_SHARERS_INLINE_NODES the words are inside the set, beyond
 * that they are allocated.  The count is cached so that the protocol's
 * "exactly one sharer" tests cost nothing.  The engine's calls (sharers.h)
 * do the bit vector's add/remove/contains/clear in place; the ops below are
 * the same operations for callers that go through the table. */
#include "sharers.h"

#include <stdlib.h>
#include <string.h>

size_t dsm_sharers_words(int nnodes) { return ((size_t)nnodes + 63) / 64; }

static void bv_add(dsm_sharers *s, int node)
{
    uint64_t bit = UINT64_C(1) << (node & 63);
    uint64_t *w = &dsm_sharers_bv_words(s)[node >> 6];
    if (!(*w & bit)) {
        *w |= bit;
        s->n++;
    }
}

static void bv_remove(dsm_sharers *s, int node)
{
    uint64_t bit = UINT64_C(1) << (node & 63);
    uint64_t *w = &dsm_sharers_bv_words(s)[node >> 6];
    if (*w & bit) {
        *w &= ~bit;
        s->n--;
    }
}

static int bv_contains(const dsm_sharers *s, int node)
{
    if (node < 0 || node >= s->nnodes)
        return 0;
    return (dsm_sharers_bv_cwords(s)[node >> 6] >> (node & 63)) & 1;
}

static int bv_count(const dsm_sharers *s) { return s->n; }

static void bv_clear(dsm_sharers *s)
{
    memset(dsm_sharers_bv_words(s), 0, dsm_sharers_words(s->nnodes) * sizeof(uint64_t));
    s->n = 0;
}

int dsm_sharers_bv_next(const dsm_sharers *s, int from)
{
    if (from < 0)
        from = 0;
    size_t nw = dsm_sharers_words(s->nnodes);
    size_t wi = (size_t)from >> 6;
    if (wi >= nw || s->n == 0)
        return -1;
    const uint64_t *words = dsm_sharers_bv_cwords(s);
    uint64_t w = words[wi] & (~UINT64_C(0) << (from & 63));
    for (;;) {
        if (w) {
            int node = (int)(wi * 64 + (size_t)__builtin_ctzll(w));
            return node < s->nnodes ? node : -1;
        }
        if (++wi >= nw)
            return -1;
        w = words[wi];
    }
}

const dsm_sharers_ops dsm_sharers_bitvector = {
    .name = "bitvector",
    .add = bv_add,
    .remove = bv_remove,
    .contains = bv_contains,
    .count = bv_count,
    .clear = bv_clear,
    .next = dsm_sharers_bv_next,
    .init = NULL,     /* the words are set up by dsm_sharers_init_with */
    .destroy = NULL,
};

int dsm_sharers_init_with(dsm_sharers *s, int nnodes, const dsm_sharers_ops *ops)
{
    memset(s, 0, sizeof *s);
    s->ops = ops ? ops : &dsm_sharers_bitvector;
    s->nnodes = nnodes;
    if (s->ops->init)
        return s->ops->init(s, nnodes) ? -1 : 0;
    if (nnodes <= DSM_SHARERS_INLINE_NODES)
        return 0;  /* the inline words, zeroed above */
    s->u.bits = calloc(dsm_sharers_words(nnodes), sizeof(uint64_t));
    return s->u.bits ? 0 : -1;
}

int dsm_sharers_init(dsm_sharers *s, int nnodes)
{
    return dsm_sharers_init_with(s, nnodes, NULL);
}

size_t dsm_sharers_heap_bytes(const dsm_sharers *s)
{
    if (s->ops == &dsm_sharers_bitvector && s->nnodes > DSM_SHARERS_INLINE_NODES)
        return dsm_sharers_words(s->nnodes) * sizeof(uint64_t);
    return 0;
}

void dsm_sharers_destroy(dsm_sharers *s)
{
    if (!s->ops)
        return;  /* never initialised, or destroyed already */
    if (s->ops->destroy)
        s->ops->destroy(s);
    else if (s->ops == &dsm_sharers_bitvector && s->nnodes > DSM_SHARERS_INLINE_NODES)
        free(s->u.bits);
    memset(s, 0, sizeof *s);
}
