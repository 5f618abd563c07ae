/* alloc.c - where shared memory comes from.
 *
 * Region layout (offsets): the first half is the collective arena, carved
 * in call order by dsm_alloc on every node alike, so every node computes
 * the same addresses and homes without talking; the second half is split in
 * one dsm_malloc arena per node, homed at that node, so the home of any
 * malloc'd address follows from the address alone.
 *
 * Homes of a collective allocation (DSM_HOMES): "blocked" (default) splits
 * its blocks in N contiguous runs, run k homed at node k, which matches
 * owner-computes partitions; allocations of fewer blocks than nodes are
 * rotated over the nodes so small structures do not all land on node 0.
 * "cyclic" homes block i of the allocation at node (i + rotation) mod N.
 *
 * Homes of dsm_malloc memory (DSM_MALLOC_HOMES): "caller" (default) homes
 * a node's arena at that node; "round-robin" homes block b of the region
 * at node b mod N, whichever arena it is in.  Either way the home follows
 * from the address alone, fixed at dsm_init, so an allocation needs no
 * message: a master that allocates everything for its workers (the
 * thread-model start, PARMACS's G_MALLOC) spreads its data over the nodes.
 *
 * Sizes that cannot be served (no room left, or so large that rounding
 * them up would wrap around): dsm_alloc, being collective, ends the job
 * with a line naming the size (every node asked the same); dsm_malloc
 * returns NULL with errno ENOMEM, as malloc(3) does, and says so in one
 * line on stderr (node, call, size, the arena and what to raise): a
 * program that does not check gets the reason before its crash. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "growable.h"
#include "node.h"

typedef struct extent {
    size_t off, len;
} extent;

typedef struct dsm_heap {
    size_t base, size;
    extent *free_v;   /* sorted by offset, coalesced */
    size_t nfree, capfree;
    extent *used_v;   /* sorted by offset */
    size_t nused, capused;
} dsm_heap;

static int vec_insert(extent **v, size_t *n, size_t *cap, size_t at, extent x)
{
    if (growable_reserve(v, cap, *n + 1, sizeof **v))
        return -1;
    memmove(*v + at + 1, *v + at, (*n - at) * sizeof **v);
    (*v)[at] = x;
    (*n)++;
    return 0;
}

static void vec_erase(extent *v, size_t *n, size_t at)
{
    memmove(v + at, v + at + 1, (*n - at - 1) * sizeof *v);
    (*n)--;
}

/* first index whose off >= off */
static size_t lower_bound(const extent *v, size_t n, size_t off)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (v[mid].off < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static long heap_alloc(dsm_heap *h, size_t len)
{
    for (size_t i = 0; i < h->nfree; i++) {
        extent *f = &h->free_v[i];
        if (f->len < len)
            continue;
        size_t off = f->off;
        f->off += len;
        f->len -= len;
        if (!f->len)
            vec_erase(h->free_v, &h->nfree, i);
        size_t at = lower_bound(h->used_v, h->nused, off);
        if (vec_insert(&h->used_v, &h->nused, &h->capused, at, (extent){ off, len }))
            return -1;
        return (long)off;
    }
    return -1;
}

/* 0, or -1 if off is not the start of a live allocation */
static int heap_free(dsm_heap *h, size_t off)
{
    size_t at = lower_bound(h->used_v, h->nused, off);
    if (at == h->nused || h->used_v[at].off != off)
        return -1;
    extent x = h->used_v[at];
    vec_erase(h->used_v, &h->nused, at);
    size_t i = lower_bound(h->free_v, h->nfree, x.off);
    if (i > 0 && h->free_v[i - 1].off + h->free_v[i - 1].len == x.off) {
        h->free_v[i - 1].len += x.len;
        if (i < h->nfree && h->free_v[i - 1].off + h->free_v[i - 1].len == h->free_v[i].off) {
            h->free_v[i - 1].len += h->free_v[i].len;
            vec_erase(h->free_v, &h->nfree, i);
        }
        return 0;
    }
    if (i < h->nfree && x.off + x.len == h->free_v[i].off) {
        h->free_v[i].off = x.off;
        h->free_v[i].len += x.len;
        return 0;
    }
    return vec_insert(&h->free_v, &h->nfree, &h->capfree, i, x) ? -1 : 0;
}

int dsm_alloc_init(dsm_rt *rt)
{
    size_t bs = rt->region.block_size;
    uint32_t nb = rt->region.nblocks;
    uint32_t coll_blocks = nb / 2;
    uint32_t arena_blocks = (nb - coll_blocks) / (uint32_t)rt->nnodes;
    if (coll_blocks == 0 || arena_blocks == 0) {
        fprintf(stderr,
                "dsm: node %d: dsm_init: DSM_REGION_SIZE (%zu bytes) is too small for %d nodes "
                "with %zu-byte blocks\n",
                rt->self, rt->region.size, rt->nnodes, bs);
        return -1;
    }
    rt->coll_base = 0;
    rt->coll_next = 0;
    rt->coll_end = (size_t)coll_blocks * bs;
    rt->arena_size = (size_t)arena_blocks * bs;
    if (rt->cfg.malloc_spread) {
        for (uint32_t b = coll_blocks; b < coll_blocks + (uint32_t)rt->nnodes * arena_blocks; b++)
            proto_set_home(rt->eng, b, 1, (int)(b % (uint32_t)rt->nnodes));
    } else {
        for (int n = 0; n < rt->nnodes; n++)
            proto_set_home(rt->eng, coll_blocks + (uint32_t)n * arena_blocks, arena_blocks, n);
    }
    dsm_heap *h = calloc(1, sizeof *h);
    if (!h)
        return -1;
    h->base = rt->coll_end + (size_t)rt->self * rt->arena_size;
    h->size = rt->arena_size;
    if (vec_insert(&h->free_v, &h->nfree, &h->capfree, 0, (extent){ h->base, h->size }))
        return -1;
    rt->heap = h;
    return 0;
}

void *dsm_alloc_collective(dsm_rt *rt, size_t size, const char *name)
{
    size_t bs = rt->region.block_size;
    size_t arena = rt->coll_end - rt->coll_base;
    /* compared before rounding: SIZE_MAX rounded up would wrap to 0 */
    if (size > arena)
        dsm_fatal("dsm_alloc", "%zu bytes are more than the whole collective arena (%zu bytes: "
                               "half of DSM_REGION_SIZE)",
                  size, arena);
    size_t len = size ? (size + bs - 1) / bs * bs : bs;
    dsm_rt_enter();
    pthread_mutex_lock(&rt->alloc_lock);
    if (len > rt->coll_end - rt->coll_next)
        dsm_fatal("dsm_alloc", "no room for %zu bytes: %zu of %zu bytes of the collective arena "
                               "are in use (raise DSM_REGION_SIZE)",
                  size, rt->coll_next, rt->coll_end);
    size_t off = rt->coll_next;
    rt->coll_next += len;
    uint32_t first = (uint32_t)(off / bs), nb = (uint32_t)(len / bs);
    uint32_t n = (uint32_t)rt->nnodes;
    uint32_t rot = (uint32_t)(rt->alloc_seq++ % n);
    for (uint32_t i = 0; i < nb; i++) {
        uint32_t home;
        if (rt->cfg.homes_cyclic)
            home = (i + rot) % n;
        else if (nb < n)
            home = (i + rot) % n;
        else
            home = (uint32_t)((uint64_t)i * n / nb);
        proto_set_home(rt->eng, first + i, 1, (int)home);
    }
    pthread_mutex_unlock(&rt->alloc_lock);
    if (rt->prof)
        dsm_prof_alloc(rt, off, size ? size : len, name, 1);
    /* Homes are set before the collective: once any node leaves it, every
     * node knows the new blocks and can serve requests for them.  A
     * mismatched call ends the job in the collective anyway. */
    dsm_collective(rt, COLL_ALLOC, size, "dsm_alloc");
    dsm_rt_leave();
    return rt->region.app + off;
}

/* dsm_malloc cannot serve size: say so once per call, then NULL. */
static void *malloc_refused(dsm_rt *rt, size_t size)
{
    size_t used = 0;
    dsm_rt_enter();
    pthread_mutex_lock(&rt->alloc_lock);
    for (size_t i = 0; i < rt->heap->nused; i++)
        used += rt->heap->used_v[i].len;
    pthread_mutex_unlock(&rt->alloc_lock);
    dsm_rt_leave();
    fprintf(stderr, "dsm: node %d: dsm_malloc: no room for %zu bytes in this node's arena of "
                    "%zu bytes (%zu in use; the arena is DSM_REGION_SIZE/2/nodes: raise "
                    "DSM_REGION_SIZE)\n",
            rt->self, size, rt->heap->size, used);
    errno = ENOMEM;
    return NULL;
}

void *dsm_alloc_local(dsm_rt *rt, size_t size, const char *name)
{
    if (size > rt->heap->size) /* also keeps the rounding below from wrapping */
        return malloc_refused(rt, size);
    size_t len = size ? (size + 15) & ~(size_t)15 : 16;
    /* alloc_lock is also taken by the messages a fault may serve */
    dsm_rt_enter();
    pthread_mutex_lock(&rt->alloc_lock);
    long off = heap_alloc(rt->heap, len);
    pthread_mutex_unlock(&rt->alloc_lock);
    if (off >= 0 && rt->prof)
        dsm_prof_alloc(rt, (size_t)off, size ? size : len, name, 0);
    dsm_rt_leave();
    if (off < 0)
        return malloc_refused(rt, size);
    return rt->region.app + off;
}

static void free_local(dsm_rt *rt, size_t off, int from)
{
    dsm_rt_enter(); /* alloc_lock is also taken by the messages a fault may serve */
    pthread_mutex_lock(&rt->alloc_lock);
    int rc = heap_free(rt->heap, off);
    pthread_mutex_unlock(&rt->alloc_lock);
    dsm_rt_leave();
    if (rc) {
        if (from == rt->self)
            dsm_fatal("dsm_free", "%p was not returned by dsm_malloc or is already freed",
                      (void *)(rt->region.app + off));
        dsm_fatal("dsm_free", "node %d freed %p, which was not returned by dsm_malloc or is "
                              "already freed",
                  from, (void *)(rt->region.app + off));
    }
}

void dsm_free_any(dsm_rt *rt, void *p)
{
    size_t off = (size_t)((char *)p - rt->region.app);
    if (off < rt->coll_end)
        return; /* collective memory lives until dsm_finalize */
    int home = (int)((off - rt->coll_end) / rt->arena_size);
    if (home >= rt->nnodes)
        dsm_fatal("dsm_free", "%p is past the last dsm_malloc arena", p);
    if (home == rt->self) {
        free_local(rt, off, rt->self);
        return;
    }
    dsm_msg_hdr h = { 0 };
    h.type = RT_FREE;
    h.arg[0] = off;
    dsm_rt_send(rt, home, &h);
}

void dsm_alloc_handle(dsm_rt *rt, const dsm_msg_hdr *h)
{
    size_t off = (size_t)h->arg[0];
    if (off < rt->heap->base || off >= rt->heap->base + rt->heap->size)
        dsm_fatal("transport", "free request from node %d for an offset outside this node's arena",
                  h->src);
    free_local(rt, off, h->src);
}
