/* sharers_limitless.c - LimitLESS sharer sets (sharers_limitless.h).
 *
 * Storage per directory entry: DSM_LIMITLESS_POINTERS hardware pointers and
 * the software bit vector the trap handler keeps in memory.  An add that
 * finds every hardware pointer in use traps: software moves the pointers'
 * nodes into its bit vector (the pointers are free again) and the new
 * member takes a pointer, as LimitLESS empties the hardware directory into
 * its software extension.  The bit vector is allocated with the set (a word
 * per 64 nodes; Alewife has at most 64): an add cannot fail.  Members come
 * out of next() in ascending order, from both places, exactly like the bit
 * vector: representations differ in cost, never in protocol outcome.  The
 * timing model (protocol/sim/alewife.c) charges the traps; this file only
 * keeps the shape and counts them. */
#include "sharers_limitless.h"

#include <stdlib.h>
#include <string.h>

typedef struct limitless {
    int32_t ptr[DSM_LIMITLESS_POINTERS];
    int nhw;                /* pointers in use */
    uint64_t traps;
    uint64_t soft[];        /* the software bit vector */
} limitless;

static limitless *impl_of(const dsm_sharers *s) { return (limitless *)s->u.impl; }

static int soft_has(const limitless *l, int node)
{
    return (int)((l->soft[node >> 6] >> (node & 63)) & 1);
}

static int hw_index(const limitless *l, int node)
{
    for (int i = 0; i < l->nhw; i++)
        if (l->ptr[i] == node)
            return i;
    return -1;
}

static int ll_contains(const dsm_sharers *s, int node)
{
    if (node < 0 || node >= s->nnodes)
        return 0;
    const limitless *l = impl_of(s);
    return hw_index(l, node) >= 0 || soft_has(l, node);
}

static void ll_add(dsm_sharers *s, int node)
{
    if (node < 0 || node >= s->nnodes || ll_contains(s, node))
        return;
    limitless *l = impl_of(s);
    if (l->nhw == DSM_LIMITLESS_POINTERS) { /* overflow: the software trap */
        for (int i = 0; i < l->nhw; i++)
            l->soft[l->ptr[i] >> 6] |= UINT64_C(1) << (l->ptr[i] & 63);
        l->nhw = 0;
        l->traps++;
    }
    l->ptr[l->nhw++] = node;
    s->n++;
}

static void ll_remove(dsm_sharers *s, int node)
{
    if (node < 0 || node >= s->nnodes)
        return;
    limitless *l = impl_of(s);
    int i = hw_index(l, node);
    if (i >= 0) {
        l->ptr[i] = l->ptr[--l->nhw];
        s->n--;
    } else if (soft_has(l, node)) {
        l->soft[node >> 6] &= ~(UINT64_C(1) << (node & 63));
        s->n--;
    }
}

static int ll_count(const dsm_sharers *s) { return s->n; }

static void ll_clear(dsm_sharers *s)
{
    limitless *l = impl_of(s);
    l->nhw = 0;
    memset(l->soft, 0, dsm_sharers_words(s->nnodes) * sizeof l->soft[0]);
    s->n = 0;
}

static int ll_next(const dsm_sharers *s, int from)
{
    if (from < 0)
        from = 0;
    const limitless *l = impl_of(s);
    int best = -1;
    for (int i = 0; i < l->nhw; i++)
        if (l->ptr[i] >= from && (best < 0 || l->ptr[i] < best))
            best = l->ptr[i];
    int limit = best >= 0 ? best : s->nnodes;
    for (int w = from >> 6; w * 64 < limit; w++) {
        uint64_t bits = l->soft[w];
        if (w == from >> 6)
            bits &= ~UINT64_C(0) << (from & 63);
        if (bits) {
            int node = w * 64 + __builtin_ctzll(bits);
            return node < limit ? node : best;
        }
    }
    return best;
}

static int ll_init(dsm_sharers *s, int nnodes)
{
    limitless *l = calloc(1, sizeof *l + dsm_sharers_words(nnodes) * sizeof l->soft[0]);
    if (!l)
        return -1;
    s->u.impl = l;
    s->n = 0;
    return 0;
}

static void ll_destroy(dsm_sharers *s)
{
    free(s->u.impl);
    s->u.impl = NULL;
}

const dsm_sharers_ops dsm_sharers_limitless = {
    .name = "limitless",
    .add = ll_add,
    .remove = ll_remove,
    .contains = ll_contains,
    .count = ll_count,
    .clear = ll_clear,
    .next = ll_next,
    .init = ll_init,
    .destroy = ll_destroy,
};

uint64_t dsm_sharers_limitless_traps(const dsm_sharers *s) { return impl_of(s)->traps; }

int dsm_sharers_limitless_hardware(const dsm_sharers *s) { return impl_of(s)->nhw; }
