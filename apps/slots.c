/* slots.c - per-processor 4-byte slots packed in one cache line, the false
 * sharing MemSpy found in LocusRoute (MemSpy, App. A.2):
 * `RouteFreeListHead[MAXPROCS]` holds one 4-byte free-list head per
 * processor, so 8 processors' heads share a 32-byte line, and every
 * processor updating only its own head still invalidates everyone else's
 * copy.  In a simulated run this bin's misses are invalidations, and the
 * invalidating writer never touched the missing processor's bytes: false
 * sharing.  --pad=BYTES gives each slot its own BYTES-byte stretch (the fix
 * of Figure A.5, one per-processor record per line); with BYTES at least the
 * line size the invalidation misses disappear.
 *
 * Each processor runs ITERS rounds of: read its slot, a little private work
 * (the route evaluation between two free-list operations), write the slot
 * plus one.  The slots live in dsm memory; the pointer is volatile so the
 * compiler keeps every read and write (otherwise the loop would fold into
 * one addition and there would be nothing to share).
 *
 * Check: every slot ends at ITERS and the total is P * ITERS (node 0).
 *
 * Usage: slots [--iters=K] [--pad=BYTES] [--work=W]   (default 2000 rounds,
 * packed slots (pad 4), 16 steps of private work per round).
 * Prints "slots: result OK". */
#include <dsm.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "app_util.h"

typedef struct slots_check { int ok; } slots_check;

/* The slots start on a 128-byte boundary inside their allocation, so the
 * packed slots of up to 32 processors share one line of any size 128 bytes or
 * less, however the allocator aligns. */
enum { SLOT_ALIGN = 128 };

/* Private work between two slot updates: a few steps of a local generator,
 * in registers, touching no memory. */
APP_LEAF static uint32_t private_work(uint32_t v, long steps)
{
    for (long s = 0; s < steps; s++)
        v = v * 1664525u + 1013904223u;
    return v;
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv) != 0) {
        perror("slots: dsm_init");
        return 1;
    }
    int me = dsm_node(), nprocs = dsm_nodes();
    long iters = 2000, pad = 4, work = 16;
    app_opt opts[] = {
        { "iters", "updates of its slot per processor", &iters, 1, 1L << 30, 100000, 0, 0 },
        { "pad", "bytes per slot: 4 packs them, the line size or more separates them", &pad, 4,
          4096, 4, 0, 0 },
        { "work", "steps of private work between two updates", &work, 0, 1L << 20, 16, 0, 0 },
    };
    int parsed = app_parse("slots", argc, argv, opts, 3, "paper", me);
    if (parsed == 0 && pad % 4) {
        if (me == 0)
            fprintf(stderr, "slots: --pad=%ld is not a multiple of 4 (the slot size)\n", pad);
        parsed = -1;
    }
    if (parsed != 0) {
        dsm_finalize();
        return parsed > 0 ? 0 : 2;
    }
    size_t bytes = SLOT_ALIGN + (size_t)nprocs * (size_t)pad;
    char *area = dsm_alloc(bytes, "slots.free_list_heads");
    slots_check *chk = dsm_alloc(sizeof *chk, "slots.check");
    if (!area || !chk) {
        fprintf(stderr, "slots: node %d: dsm_alloc of %zu bytes failed\n", me, bytes);
        return 1;
    }
    uintptr_t first = ((uintptr_t)area + SLOT_ALIGN - 1) & ~(uintptr_t)(SLOT_ALIGN - 1);
    volatile int32_t *my_slot = (volatile int32_t *)(first + (size_t)me * (size_t)pad);
    *my_slot = 0;
    dsm_barrier();

    double t0 = dsm_wtime();
    uint32_t v = (uint32_t)me;
    for (long k = 0; k < iters; k++) {
        int32_t head = *my_slot;
        v = private_work(v + (uint32_t)head, work);
        *my_slot = head + 1;
    }
    dsm_barrier();
    double elapsed = dsm_wtime() - t0;

    if (me == 0) {
        long bad = 0, total = 0;
        for (int p = 0; p < nprocs; p++) {
            int32_t got = *(volatile int32_t *)(first + (size_t)p * (size_t)pad);
            total += got;
            if (got != iters && bad++ == 0)
                fprintf(stderr, "slots: processor %d's slot is %ld, expected %ld\n", p, (long)got,
                        iters);
        }
        if (total != iters * nprocs)
            fprintf(stderr, "slots: total %ld, expected %ld\n", total, iters * nprocs);
        chk->ok = bad == 0 && total == iters * nprocs;
        /* the digest of node 0's private work is printed so the compiler keeps it */
        printf("slots: %d procs, %ld updates each, %ld bytes per slot, total %ld, work digest %08x, %.3f s\n",
               nprocs, iters, pad, total, (unsigned)v, elapsed);
        printf("slots: result %s\n", chk->ok ? "OK" : "WRONG");
        fflush(stdout);
    }
    dsm_barrier(); /* node 0's verdict is in chk->ok */
    int good = chk->ok;
    dsm_finalize();
    return good ? 0 : 1;
}
