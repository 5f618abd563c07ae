/* mn_adapt.c - a migratory counter and a read-shared table on 2 nodes, for
 * tests/mn_adapt.sh (the adaptive protocol, DSM_ADAPT=on, in the runtime):
 * the nodes take turns incrementing a counter under a lock (read then
 * write: migratory), then both read a table node 0 wrote, in turns, without
 * writing it, then node 1 consumes a buffer node 0 produces in rounds.
 * Prints the counter, the table's sum and what was consumed; all must be
 * exact with the adaptation on or off. */
#include <stdio.h>

#include "dsm.h"

#define ROUNDS 40

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv))
        return 1;
    int me = dsm_node(), n = dsm_nodes();
    size_t bs = dsm_block_size();
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
    long want_consumed = me ? 28L * ROUNDS : 0;
    printf("mn_adapt: node %d: counter %ld (expected %d), table sum %ld (expected %ld), "
           "consumed %ld (expected %ld)\n", me, counter[0], ROUNDS * n, sum,
           2016L * (ROUNDS / n), consumed, want_consumed);
    int ok = counter[0] == ROUNDS * n && sum == 2016L * (ROUNDS / n) && consumed == want_consumed;
    dsm_barrier();
    dsm_finalize();
    return ok ? 0 : 1;
}
