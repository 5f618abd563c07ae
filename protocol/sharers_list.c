/* sharers_list.c - dynamic pointer allocation (FLASH's directory, [Sim92] in
 * FlashPoint, section 3.1.2) behind dsm_sharers_ops.
 *
 * Storage: each sharer set owns a small pool of pointer entries {node, link}
 * with a free list; the set's members are a singly linked list threaded
 * through the pool.  FLASH keeps one pool per node (the home's pointer/link
 * store); here the pool is per directory entry, because the sharers interface
 * gives a representation no handle on its engine (ops->init sees only the set
 * and the node count) and a process-wide pool would be global mutable state
 * shared by all simulated homes.  The walk lengths, which are what the timing
 * model charges, are the same either way; only where free entries come from
 * differs.
 *
 * Order: FLASH links a new sharer at the head of the list.  This list is kept
 * sorted by node id instead, so that next() yields members in ascending
 * order exactly like the bit vector: the engine sends its invalidations in
 * next() order, and representations may differ in cost, never in protocol
 * outcome.  The price is that add walks to its insertion point; the walk is
 * counted like any other.
 *
 * next() keeps a cursor (the entry it returned last) so that a
 * SHARERS_FOREACH over n members costs n steps, not n^2/2: a call whose
 * `from` lies beyond the cursor resumes there.  Any removal resets it. */
#include "sharers_list.h"

#include <stdlib.h>

#define PLIST_END (-1)

typedef struct plist_entry {
    int32_t node;
    int32_t link;       /* index of the next entry, PLIST_END */
} plist_entry;

typedef struct plist {
    plist_entry *pool;
    int32_t pool_size;  /* entries allocated */
    int32_t head;       /* first (smallest) member, PLIST_END: empty */
    int32_t free_head;  /* free list through .link */
    int32_t cursor;     /* entry next() returned last, PLIST_END: none */
    uint64_t walk_steps;
} plist;

static plist *impl_of(const dsm_sharers *s) { return (plist *)s->u.impl; }

static int plist_init(dsm_sharers *s, int nnodes)
{
    (void)nnodes;
    plist *p = calloc(1, sizeof *p);
    if (!p)
        return -1;
    p->head = p->free_head = p->cursor = PLIST_END;
    s->u.impl = p;
    s->n = 0;
    return 0;
}

static void plist_destroy(dsm_sharers *s)
{
    plist *p = impl_of(s);
    if (p) {
        free(p->pool);
        free(p);
    }
    s->u.impl = NULL;
    s->n = 0;
}

/* One entry from the free list, growing the pool (doubling) when it is
 * empty.  The ops interface has no error return for add, and the engine
 * cannot continue with a sharer silently dropped, so running out of memory
 * for a few bytes of pointers ends the process. */
static int32_t plist_alloc(plist *p)
{
    if (p->free_head == PLIST_END) {
        int32_t grow = p->pool_size ? p->pool_size : 4;
        plist_entry *pool = realloc(p->pool, (size_t)(p->pool_size + grow) * sizeof *pool);
        if (!pool)
            abort();
        for (int32_t i = p->pool_size + grow - 1; i >= p->pool_size; i--) {
            pool[i].link = p->free_head;
            p->free_head = i;
        }
        p->pool = pool;
        p->pool_size += grow;
    }
    int32_t i = p->free_head;
    p->free_head = p->pool[i].link;
    return i;
}

/* Walk to the first entry with node >= `node`: *prev is the entry before it
 * (PLIST_END: the head), the return value the entry (PLIST_END: none). */
static int32_t plist_find(plist *p, int node, int32_t *prev)
{
    int32_t before = PLIST_END, i = p->head;
    while (i != PLIST_END) {
        p->walk_steps++;
        if (p->pool[i].node >= node)
            break;
        before = i;
        i = p->pool[i].link;
    }
    *prev = before;
    return i;
}

static void plist_add(dsm_sharers *s, int node)
{
    if (node < 0 || node >= s->nnodes)
        return;
    plist *p = impl_of(s);
    int32_t prev, at = plist_find(p, node, &prev);
    if (at != PLIST_END && p->pool[at].node == node)
        return;
    int32_t e = plist_alloc(p);
    p->pool[e].node = node;
    p->pool[e].link = at;
    if (prev == PLIST_END)
        p->head = e;
    else
        p->pool[prev].link = e;
    s->n++;
}

static void plist_remove(dsm_sharers *s, int node)
{
    plist *p = impl_of(s);
    int32_t prev, at = plist_find(p, node, &prev);
    if (at == PLIST_END || p->pool[at].node != node)
        return;
    if (prev == PLIST_END)
        p->head = p->pool[at].link;
    else
        p->pool[prev].link = p->pool[at].link;
    p->pool[at].link = p->free_head;
    p->free_head = at;
    p->cursor = PLIST_END;
    s->n--;
}

static int plist_contains(const dsm_sharers *s, int node)
{
    if (node < 0 || node >= s->nnodes)
        return 0;
    plist *p = impl_of(s);
    int32_t prev, at = plist_find(p, node, &prev);
    return at != PLIST_END && p->pool[at].node == node;
}

static int plist_count(const dsm_sharers *s) { return s->n; }

/* The whole list goes back to the free list in one splice (FLASH frees the
 * entries as its invalidation walk visits them; that walk is the next()
 * calls, already counted). */
static void plist_clear(dsm_sharers *s)
{
    plist *p = impl_of(s);
    if (p->head != PLIST_END) {
        int32_t tail = p->head;
        while (p->pool[tail].link != PLIST_END)
            tail = p->pool[tail].link;
        p->pool[tail].link = p->free_head;
        p->free_head = p->head;
        p->head = PLIST_END;
    }
    p->cursor = PLIST_END;
    s->n = 0;
}

static int plist_next(const dsm_sharers *s, int from)
{
    plist *p = impl_of(s);
    if (from < 0)
        from = 0;
    int32_t i = p->head;
    if (p->cursor != PLIST_END && p->pool[p->cursor].node < from)
        i = p->pool[p->cursor].link;
    while (i != PLIST_END) {
        p->walk_steps++;
        if (p->pool[i].node >= from)
            break;
        i = p->pool[i].link;
    }
    p->cursor = i;
    return i == PLIST_END ? -1 : p->pool[i].node;
}

const dsm_sharers_ops dsm_sharers_pointer_list = {
    .name = "pointer_list",
    .add = plist_add,
    .remove = plist_remove,
    .contains = plist_contains,
    .count = plist_count,
    .clear = plist_clear,
    .next = plist_next,
    .init = plist_init,
    .destroy = plist_destroy,
};

uint64_t dsm_sharers_list_walk_steps(const dsm_sharers *s)
{
    return s->ops == &dsm_sharers_pointer_list && s->u.impl ? impl_of(s)->walk_steps : 0;
}

uint32_t dsm_sharers_list_pool_entries(const dsm_sharers *s)
{
    return s->ops == &dsm_sharers_pointer_list && s->u.impl ? (uint32_t)impl_of(s)->pool_size : 0;
}
