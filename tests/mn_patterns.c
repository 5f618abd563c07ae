/* mn_patterns.c - programs whose sharing is known, for the augmented
 * protocol: each structure below is used the way one pattern describes, and
 * tests/mn_patterns.sh checks the dominant pattern the homes report for its
 * blocks (DSM_STATS file, "pattern" lines).  Node 0 prints, for each
 * structure, "structure NAME EXPECTED BLOCK..." so the script knows what to
 * look for.  Run on 3 or more nodes (read-only needs two readers besides
 * the writer). */
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsm.h"

static size_t bs;

/* n blocks homed at node 0 (its dsm_malloc arena), block aligned, the same
 * address on every node through a shared pointer. */
static char *blocks_at_node0(int nblocks, const char *name)
{
    char **slot = dsm_alloc(sizeof(char *), "mn_patterns.ptr");
    if (dsm_node() == 0) {
        char *raw = dsm_malloc((size_t)(nblocks + 1) * bs, name);
        *slot = (char *)(((uintptr_t)raw + bs - 1) & ~(uintptr_t)(bs - 1));
    }
    dsm_barrier();
    return *slot;
}

static void say(const char *name, const char *expect, const void *p, int nblocks)
{
    if (dsm_node() != 0)
        return;
    printf("structure %s %s", name, expect);
    for (int i = 0; i < nblocks; i++)
        printf(" %ld", dsm_block_index((const char *)p + (size_t)i * bs));
    printf("\n");
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv))
        return 1;
    int me = dsm_node(), n = dsm_nodes();
    int rounds = argc > 1 ? atoi(argv[1]) : 20;
    bs = dsm_block_size();
    if (n < 3) {
        if (me == 0)
            fprintf(stderr, "mn_patterns: needs at least 3 nodes\n");
        dsm_finalize();
        return 2;
    }

    /* 1. a record passed between nodes under a lock: migratory */
    long *record = (long *)blocks_at_node0(1, "record");
    for (int r = 0; r < rounds; r++) {
        dsm_lock(1);
        record[0] += 1;          /* read, then write: the record migrates */
        record[1] = me;
        dsm_unlock(1);
        sched_yield();
    }
    dsm_barrier();
    say("record", "migratory", record, 1);

    /* 2. a buffer written by node 0 and read by the others each phase:
     *    producer-consumer */
    long *buffer = (long *)blocks_at_node0(1, "buffer");
    for (int r = 0; r < rounds; r++) {
        if (me == 0)
            buffer[0] = r + 1;
        dsm_barrier();
        if (me != 0 && buffer[0] != r + 1) {
            fprintf(stderr, "mn_patterns: node %d read %ld from the buffer in phase %d\n", me,
                    buffer[0], r);
            return 1;
        }
        dsm_barrier();
    }
    say("buffer", "producer_consumer", buffer, 1);

    /* 3. a table written once by node 0, then read by every other node:
     *    read-only (one read per block: blocks may be as small as 32 bytes) */
    long *table = (long *)blocks_at_node0(2, "table");
    if (me == 0)
        for (size_t i = 0; i < 2 * bs / sizeof(long); i++)
            table[i] = (long)i;
    dsm_barrier();
    long sum = 0;
    if (me != 0)
        for (int r = 0; r < rounds; r++)
            for (size_t i = 0; i < 2 * bs / sizeof(long); i += bs / sizeof(long))
                sum += table[i];
    dsm_barrier();
    say("table", "read_only", table, 2);

    /* 4. three blocks always touched in the same order (node 1 writes them
     *    in order, node 2 reads them in order, each phase): they form a
     *    group, and their sharing pattern is producer-consumer (the group is
     *    a co-access pattern, reported beside it: doc/patterns.md) */
    char *trio = blocks_at_node0(3, "trio");
    for (int r = 0; r < rounds; r++) {
        if (me == 1)
            for (int b = 0; b < 3; b++)
                trio[(size_t)b * bs] = (char)r;
        dsm_barrier();
        if (me == 2)
            for (int b = 0; b < 3; b++)
                sum += trio[(size_t)b * bs];
        dsm_barrier();
    }
    say("trio", "producer_consumer", trio, 3);

    /* 5. per-node slots packed into one block (false sharing), each node
     *    updating its own slot in turn: migratory */
    long *slots = (long *)blocks_at_node0(1, "slots");
    for (int r = 0; r < rounds; r++) {
        dsm_lock(3);
        slots[me] += 1;
        dsm_unlock(3);
        sched_yield();
    }
    dsm_barrier();
    say("slots", "migratory", slots, 1);

    int ok = record[0] == (long)n * rounds;
    for (int i = 0; i < n; i++)
        ok = ok && slots[i] == rounds;
    if (me == 0)
        printf("mn_patterns: values %s (sum %ld)\n", ok ? "OK" : "WRONG", sum);
    dsm_barrier();
    dsm_finalize();
    return !ok;
}
