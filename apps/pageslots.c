/* pageslots.c - the demonstration of block mode: per-node 8-byte slots, each
 * in its own 64-byte line, all in one 4 KiB page.  Every node increments its
 * own slot in a loop, with no barrier, for a fixed time; now and then it
 * reads its neighbour's slot (a progress monitor would).  Nobody shares a
 * byte, yet in page mode the page holds every slot: each node's write takes
 * the page away from the others and the page ping-pongs for the whole phase
 * (false sharing at page granularity).  Built with dsmcc --dsm and run with
 * DSM_BLOCK_SIZE=64, every slot is its own block: after the first write
 * nothing moves but the occasional peek.
 *
 * The same source is built twice: apps/pageslots (page mode) and
 * apps/blk_pageslots (block mode, tests/block.mk); tests/block_demo.sh runs
 * both on two nodes and compares the slots' coherence misses from DSM_STATS.
 *
 * Node 0 prints the slots' block range ("structure pageslots.slots FIRST
 * LAST"), the increments and peeks of all nodes, and checks every slot
 * against the count its node published: "pageslots: result OK".
 *
 * Usage: pageslots [--ms=PHASE_MS] [--peeks=N] [--work=W]
 *   PHASE_MS of incrementing (default 500), N peeks at the neighbour's slot
 *   per node (default 4), W steps of private work between increments
 *   (default 16). */
#include <dsm.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "app_util.h"

enum { LINE = 64, PAGE = 4096, MAX_NODES = PAGE / LINE };

/* Private work between two increments: a few steps of a generator, in
 * registers. */
APP_LEAF static uint32_t private_work(uint32_t v, long steps)
{
    for (long s = 0; s < steps; s++)
        v = v * 1664525u + 1013904223u;
    return v;
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv) != 0) {
        perror("pageslots: dsm_init");
        return 1;
    }
    int me = dsm_node(), nodes = dsm_nodes();
    long ms = 500, peeks = 4, work = 16;
    app_opt opts[] = {
        { "ms", "milliseconds of incrementing", &ms, 1, 600000, 500, 0, 0 },
        { "peeks", "reads of the neighbour's slot per node", &peeks, 0, 1000, 4, 0, 0 },
        { "work", "steps of private work between increments", &work, 0, 1L << 20, 16, 0, 0 },
    };
    int parsed = app_parse("pageslots", argc, argv, opts, 3, "paper", me);
    if (parsed == 0 && nodes > MAX_NODES) {
        if (me == 0)
            fprintf(stderr, "pageslots: at most %d nodes (one 64-byte line each in a page)\n",
                    MAX_NODES);
        parsed = -1;
    }
    if (parsed != 0) {
        dsm_finalize();
        return parsed > 0 ? 0 : 2;
    }
    /* one page, page-aligned inside the allocation, so in page mode it is
     * exactly one block whatever the allocator does */
    char *area = dsm_alloc(2 * PAGE, "pageslots.slots");
    uint64_t *made = dsm_alloc(MAX_NODES * sizeof(uint64_t), "pageslots.made");
    int *ok = dsm_alloc(sizeof *ok, "pageslots.ok");
    if (!area || !made || !ok) {
        fprintf(stderr, "pageslots: node %d: dsm_alloc failed\n", me);
        return 1;
    }
    char *page = (char *)(((uintptr_t)area + PAGE - 1) & ~(uintptr_t)(PAGE - 1));
    volatile uint64_t *mine = (volatile uint64_t *)(page + (size_t)me * LINE);
    volatile uint64_t *next = (volatile uint64_t *)(page + (size_t)((me + 1) % nodes) * LINE);

    *mine = 0; /* warm-up: each node's first write brings its line (or the page) */
    dsm_barrier();

    double t0 = dsm_wtime(), end = t0 + (double)ms / 1000.0;
    double peek_every = (double)ms / 1000.0 / (double)(peeks + 1), next_peek = t0 + peek_every;
    uint64_t n = 0, seen = 0;
    long peeked = 0;
    uint32_t v = (uint32_t)me;
    for (;;) {
        v = private_work(v, work);
        *mine = *mine + 1;
        if (++n % 256 == 0) {
            double now = dsm_wtime();
            if (peeked < peeks && now >= next_peek) {
                seen += *next; /* the occasional read of the neighbour's slot */
                peeked++;
                next_peek += peek_every;
            }
            if (now >= end)
                break;
        }
    }
    double elapsed = dsm_wtime() - t0;
    made[me] = n;
    dsm_barrier();

    if (me == 0) {
        long bad = 0;
        uint64_t total = 0;
        for (int k = 0; k < nodes; k++) {
            uint64_t got = *(volatile uint64_t *)(page + (size_t)k * LINE);
            total += made[k];
            if (got != made[k] && bad++ == 0)
                fprintf(stderr, "pageslots: node %d's slot is %llu, it made %llu increments\n", k,
                        (unsigned long long)got, (unsigned long long)made[k]);
        }
        *ok = bad == 0;
        printf("structure pageslots.slots %ld %ld\n", dsm_block_index(page),
               dsm_block_index(page + (size_t)nodes * LINE - 1));
        /* the digests are printed so the compiler keeps the work and the peeks */
        printf("pageslots: %d nodes, block %zu B, %llu increments (%.1f per us), %ld peeks per "
               "node, %.3f s, digest %08x/%llu\n",
               nodes, dsm_block_size(), (unsigned long long)total, (double)total / elapsed / 1e6,
               peeked, elapsed, (unsigned)v, (unsigned long long)seen);
        printf("pageslots: result %s\n", bad ? "WRONG" : "OK");
        fflush(stdout);
    }
    dsm_barrier(); /* node 0's verdict is in *ok */
    int good = *ok;
    dsm_finalize();
    return good ? 0 : 1;
}
