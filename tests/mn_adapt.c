/* mn_adapt.c - a migratory counter and a read-shared table on 2 nodes, for
 * tests/mn_adapt.sh (the adaptive protocol, DSM_ADAPT=on, in the runtime):
 * the nodes take turns incrementing a counter under a lock (read then
 * write: migratory), then both read a table node 0 wrote, in turns, without
 * writing it.  Prints the counter and the table's sum; both must be exact
 * with the adaptation on or off. */
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
    dsm_barrier();
    printf("mn_adapt: node %d: counter %ld (expected %d), table sum %ld (expected %ld)\n", me,
           counter[0], ROUNDS * n, sum, 2016L * (ROUNDS / n));
    int ok = counter[0] == ROUNDS * n && sum == 2016L * (ROUNDS / n);
    dsm_barrier();
    dsm_finalize();
    return ok ? 0 : 1;
}
