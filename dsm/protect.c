/* protect.c - coalescing the engine's protection changes (DSM_PROTECT_BATCH).
 *
 * On a VM an mprotect that removes rights pays a TLB shootdown the
 * hypervisor traps (35-50 us on Firecracker, doc/patterns.md), once per
 * call however many pages it covers; adding rights costs less, but also per
 * call.  A bulk fetch changes the access of up to ADAPT_GROUP_MAX + 1
 * contiguous blocks in one engine call at the home (its own copies
 * downgraded, CE_GROUP_SHARE) and in one burst of messages at the
 * requester (GROUP_DATA installs), so both are done in range calls.
 *
 * Why moving a protection change within one call's actions is safe: every
 * action runs under eng_lock, so no engine decision sees the difference;
 * an application thread that touches the block meanwhile faults and waits
 * for the lock.  What must keep its order is every action on the same
 * block (a SEND copies the block, so a downgrade must come before it; an
 * INSTALL must come before the upgrade that lets the application read):
 * a change moves up only past actions on other blocks. */
#include "protect.h"

#include <errno.h>
#include <string.h>

#include "error.h"
#include "misstrace.h"

#define BATCH_MAX 64 /* set changes per batch; the bulk's are at most 17 */

static void protect_run(dsm_rt *rt, uint32_t first, uint32_t n, int access)
{
    if (rt->prof && access == PROTO_ACCESS_WRITE)
        for (uint32_t b = first; b < first + n; b++)
            dsm_prof_set_access(rt, b, access); /* the twin before the application can write */
    DSM_MT(MT_PROT_IN, first, (uint32_t)access);
    if (dsm_region_protect_range(&rt->region, first, n, access))
        dsm_fatal("protocol",
                  "mprotect of blocks %u-%u failed: %s (too many mappings? raise "
                  "vm.max_map_count or DSM_BLOCK_SIZE)",
                  first, first + n - 1, strerror(errno));
    DSM_MT(MT_PROT_OUT, first, (uint32_t)access);
    if (rt->prof && access != PROTO_ACCESS_WRITE)
        for (uint32_t b = first; b < first + n; b++)
            dsm_prof_set_access(rt, b, access);
}

static int concerns(const proto_action *a, uint32_t block)
{
    return a->kind != PA_WAIT && a->block == block;
}

void dsm_protect_batch(dsm_rt *rt, size_t i)
{
    proto_actions *a = &rt->acts;
    if (!rt->cfg.protect_batch) {
        protect_run(rt, a->v[i].block, 1, a->v[i].access);
        return;
    }
    struct { uint32_t block; uint8_t access; } set[BATCH_MAX];
    size_t nset = 0;
    /* the actions left in place between i and j: a change of one of their
     * blocks cannot move up past them */
    size_t kept[BATCH_MAX], nkept = 0;
    for (size_t j = i; j < a->n && nset < BATCH_MAX && nkept < BATCH_MAX; j++) {
        proto_action *x = &a->v[j];
        int blocked = 0;
        for (size_t k = 0; k < nkept && !blocked; k++)
            blocked = concerns(&a->v[kept[k]], x->block);
        if (x->kind == PA_SET_ACCESS && !blocked) {
            set[nset].block = x->block;
            set[nset++].access = x->access;
            x->kind = PA_WAIT; /* done here */
        } else if (x->kind != PA_WAIT) {
            kept[nkept++] = j;
        }
    }
    /* by block, stably (insertion sort: a batch is small and mostly in
     * order): two changes of one block, nothing on it between them, are
     * applied in their order */
    for (size_t k = 1; k < nset; k++)
        for (size_t m = k; m > 0 && set[m - 1].block > set[m].block; m--) {
            __typeof__(set[0]) t = set[m];
            set[m] = set[m - 1];
            set[m - 1] = t;
        }
    for (size_t k = 0; k < nset;) {
        size_t e = k + 1;
        while (e < nset && set[e].block == set[e - 1].block + 1 && set[e].access == set[k].access)
            e++;
        protect_run(rt, set[k].block, (uint32_t)(e - k), set[k].access);
        k = e;
    }
}

void dsm_protect_flush(dsm_rt *rt)
{
    if (!rt->pend_n)
        return;
    uint32_t first = rt->pend_first, n = rt->pend_n;
    __atomic_store_n(&rt->pend_n, 0, __ATOMIC_RELAXED);
    protect_run(rt, first, n, PROTO_ACCESS_READ);
}

void dsm_protect_defer_read(dsm_rt *rt, uint32_t block)
{
    if (!rt->cfg.protect_batch) {
        protect_run(rt, block, 1, PROTO_ACCESS_READ);
        return;
    }
    if (rt->pend_n && block == rt->pend_first + rt->pend_n) {
        __atomic_store_n(&rt->pend_n, rt->pend_n + 1, __ATOMIC_RELAXED);
        return;
    }
    dsm_protect_flush(rt);
    rt->pend_first = block;
    __atomic_store_n(&rt->pend_n, 1, __ATOMIC_RELAXED);
}
