/* mn_adapt.c - a migratory counter and a read-shared table on 2 nodes, for
 * tests/mn_adapt.sh (the adaptive protocol, DSM_ADAPT=on, in the runtime):
 * the nodes take turns incrementing a counter under a lock (read then
 * write: migratory), then both read a table node 0 wrote (its block made
 * migratory first by a word beyond the table), in turns, without writing
 * it, then node 1 consumes a buffer node 0 produces in rounds,
 * then a group of blocks homed at node 0 is written by one of the other
 * nodes in turn, read by node 0 and then by the rest (on 3 nodes and more
 * the last readers' misses bring the group along: a bulk fetch).  Prints
 * the counter, the table's sum, what was consumed and the group values read
 * wrong; all must be exact with the adaptation on or off.
 *   mn_adapt buffer=N: only a produced buffer of N blocks (a word of each
 *   written by node 0, read by the others, round by round), for the limit
 *   on the blocks a release pushes (dsm/node.c, ADAPT_PUSH_MAX). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsm.h"

#define ROUNDS 40

/* The produced buffer of `blocks` blocks: prints what was consumed. */
static int produce_consume(int me, size_t bs, long blocks)
{
    volatile char *buf = dsm_alloc((size_t)blocks * bs, "big_buffer");
    if (!buf) {
        fprintf(stderr, "mn_adapt: dsm_alloc of %ld blocks failed\n", blocks);
        return 1;
    }
    long consumed = 0;
    for (int r = 0; r < ROUNDS; r++) {
        if (me == 0)
            for (long b = 0; b < blocks; b++)
                *(volatile long *)(buf + (size_t)b * bs) = r + b;
        dsm_barrier();
        if (me != 0)
            for (long b = 0; b < blocks; b++)
                consumed += *(volatile long *)(buf + (size_t)b * bs) - r;
        dsm_barrier();
    }
    long want = me ? ROUNDS * (blocks * (blocks - 1) / 2) : 0;
    printf("mn_adapt: node %d: %ld-block buffer consumed %ld (expected %ld)\n", me, blocks,
           consumed, want);
    dsm_barrier();
    dsm_finalize();
    return consumed == want ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv))
        return 1;
    int me = dsm_node(), n = dsm_nodes();
    size_t bs = dsm_block_size();
    if (argc > 1 && !strncmp(argv[1], "buffer=", 7)) {
        long blocks = atol(argv[1] + 7);
        if (blocks < 1 || blocks > 4096) {
            fprintf(stderr, "mn_adapt: %s: want buffer=N with N in 1..4096\n", argv[1]);
            dsm_finalize();
            return 2;
        }
        return produce_consume(me, bs, blocks);
    }
    volatile long *counter = dsm_alloc(bs, "counter");
    volatile long *table = dsm_alloc(bs, "table");
    volatile long *turn = dsm_alloc(bs, "turn");
    /* strictly in turn (the turn word in a block of its own), each turn a
     * read then a write of the counter under lock 1 */
    for (int r = 0; r < ROUNDS; r++) {
        while (*turn % n != me)
            ;
        dsm_lock(1);
        long v = counter[0];
        counter[0] = v + 1;
        dsm_unlock(1);
        (*turn)++;
    }
    dsm_barrier();
    if (me == 0)
        for (int i = 0; i < 64; i++)
            table[i] = i;
    dsm_barrier();
    /* the table's block migrates first (a word beyond the 64 read later,
     * incremented by the nodes in turn: read then write), so that the reads
     * below are granted exclusive and, not followed by a write, fall back
     * to shared grants (without this only the turn word's spin fell back,
     * when a spinning read happened to come before the increment) */
    for (int r = 0; r < 4; r++) {
        if (r % n == me)
            table[100] += 1;
        dsm_barrier();
    }
    long sum = 0;
    for (int r = 0; r < ROUNDS; r++) { /* read in turns, never written */
        dsm_barrier();
        if (r % n == me)
            for (int i = 0; i < 64; i++)
                sum += table[i];
    }
    /* a buffer node 0 produces and the others consume, round by round
     * (producer-consumer: the consumers' reads downgrade the producer) */
    volatile long *buffer = dsm_alloc(bs, "buffer");
    long consumed = 0;
    for (int r = 0; r < ROUNDS; r++) {
        if (me == 0)
            for (int i = 0; i < 8; i++)
                buffer[i] = r + i;
        dsm_barrier();
        if (me != 0)
            for (int i = 0; i < 8; i++)
                consumed += buffer[i] - r;
        dsm_barrier();
    }
    /* the group: GROUP blocks homed at node 0, one writer a round (not
     * producer-consumer: the writers alternate), node 0 reads them, then
     * the others; each value checked */
    enum { GROUP = 8 };
    char *volatile *slot = dsm_alloc(sizeof *slot, "group_slot");
    if (me == 0)
        *slot = dsm_malloc(GROUP * bs, "group");
    dsm_barrier();
    char *group = *slot;
    long wrong = 0;
    for (int r = 0; r < ROUNDS && n > 1; r++) {
        int writer = 1 + r % (n - 1);
        if (me == writer)
            for (int b = 0; b < GROUP; b++)
                *(volatile long *)(group + (size_t)b * bs) = r * GROUP + b;
        dsm_barrier();
        for (int pass = 0; pass < 2; pass++) {
            if ((pass == 0) == (me == 0) && me != writer)
                for (int b = 0; b < GROUP; b++)
                    wrong += *(volatile long *)(group + (size_t)b * bs) != r * GROUP + b;
            dsm_barrier();
        }
    }
    long want_consumed = me ? 28L * ROUNDS : 0;
    long want_sum = 2016L * ((ROUNDS - me + n - 1) / n); /* the rounds r % n == me */
    printf("mn_adapt: node %d: counter %ld (expected %d), table sum %ld (expected %ld), "
           "consumed %ld (expected %ld), group values read wrong %ld\n", me, counter[0],
           ROUNDS * n, sum, want_sum, consumed, want_consumed, wrong);
    int ok = counter[0] == ROUNDS * n && sum == want_sum && consumed == want_consumed &&
             wrong == 0;
    dsm_barrier();
    dsm_finalize();
    return ok ? 0 : 1;
}
