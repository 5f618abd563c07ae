/* known_sharing.c - a program whose sharing is known, structure by
 * structure, for tests/known_sharing.sh to check every verdict of the
 * profile (doc/patterns.md, doc/profile-format.md) exactly: the sharing
 * pattern of each block, its group, false against true sharing and the
 * bytes each node wrote.  Run on 4 nodes (three consumers), in page mode
 * (tests/known_sharing) or block mode (tests/blk_known_sharing, dsmcc --dsm).
 *
 *   counter   one word incremented under a lock by every node in turn
 *             (an atomic add: one instruction that reads and writes):
 *             migratory, true sharing
 *   buffer1   one block written by node 0, read by node 1, every round:
 *             producer-consumer
 *   buffer3   two blocks written by node 0, read by nodes 1-3, every round
 *             (several consumers, several blocks of one home):
 *             producer-consumer
 *   table     two blocks initialised by node 1 with read-modify-writes,
 *             then only read by every node: read-only
 *   private   one block per node, read and written by that node alone:
 *             private, and no coherence miss
 *   slots     one block, an 8-byte slot per node, each node adding to its
 *             own slot in turn under a lock: migratory, false sharing (the
 *             writers' bytes are disjoint and none reads another's), node k
 *             writing exactly [8k, 8k+8)
 *   ring      one block, an 8-byte slot per node: a token passed around, node
 *             k reading slot k-1 and writing slot k: migratory, true sharing
 *             (communication), although the writes are disjoint
 *   overwrite one block overwritten whole by every node in turn, never read:
 *             write-shared (not migratory: nobody reads what moved), and no
 *             false sharing (the same bytes)
 *   group     three blocks node 1 writes in order and node 2 reads in order
 *             every round: producer-consumer, and one group
 *
 * Usage: known_sharing phased|interleaved [ROUNDS]: phased runs each
 * structure's rounds in turn, interleaved runs round r of every structure
 * before round r + 1.  Node 0 prints "structure NAME BLOCK..." (the blocks
 * the structure uses); every node prints "known_sharing: node K OK" when the
 * values it checks are right. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsm.h"

#define NODES 4
#define ONES 0x0101010101010101L /* every byte of a word changes */

enum { COUNTER, BUFFER1, BUFFER3, TABLE, PRIVATE, SLOTS, RING, OVERWRITE, GROUP, NSTRUCT };
static const char *const names[NSTRUCT] = { "counter", "buffer1", "buffer3", "table", "private",
                                            "slots", "ring", "overwrite", "group" };
static const int nblocks[NSTRUCT] = { 1, 1, 2, 2, NODES, 1, 1, 1, 3 };

static size_t bs, words; /* block size, longs per block */
static int me;
static volatile long *s[NSTRUCT];
static long sum;

/* Every structure in blocks of its own at node 0's home (its dsm_malloc
 * arena), block aligned, the same addresses everywhere. */
static void allocate(void)
{
    long **slot = dsm_alloc(NSTRUCT * sizeof(long *), "known.pointers");
    if (me == 0)
        for (int i = 0; i < NSTRUCT; i++) {
            char *raw = dsm_malloc((size_t)(nblocks[i] + 2) * bs, names[i]);
            if (!raw) {
                fprintf(stderr, "known_sharing: dsm_malloc failed\n");
                exit(1);
            }
            slot[i] = (long *)(((uintptr_t)raw + bs - 1) & ~(uintptr_t)(bs - 1));
        }
    dsm_barrier();
    for (int i = 0; i < NSTRUCT; i++)
        s[i] = slot[i];
    dsm_barrier();
}

static volatile long *block(int st, int b) { return s[st] + (size_t)b * words; }

/* one round of each structure (barriers included) */
static void counter_round(void)
{
    dsm_lock(1);
    __atomic_fetch_add((long *)s[COUNTER], 1, __ATOMIC_RELAXED);
    dsm_unlock(1);
    dsm_barrier();
}

static void buffer1_round(int r)
{
    if (me == 0)
        for (size_t i = 0; i < words; i++)
            s[BUFFER1][i] = r * ONES;
    dsm_barrier();
    if (me == 1)
        for (size_t i = 0; i < words; i++)
            sum += s[BUFFER1][i];
    dsm_barrier();
}

static void buffer3_round(int r)
{
    if (me == 0)
        for (int b = 0; b < 2; b++)
            for (size_t i = 0; i < words; i++)
                block(BUFFER3, b)[i] = r * ONES;
    dsm_barrier();
    if (me != 0)
        for (int b = 0; b < 2; b++)
            for (size_t i = 0; i < words; i++)
                sum += block(BUFFER3, b)[i];
    dsm_barrier();
}

static void table_init(void)
{
    if (me == 1)
        for (size_t i = 0; i < 2 * words; i++)
            s[TABLE][i] += (long)i + 1; /* read, then write */
    dsm_barrier();
}

static void table_round(void)
{
    for (size_t i = 0; i < 2 * words; i++)
        sum += s[TABLE][i];
    dsm_barrier();
}

static void private_round(void)
{
    volatile long *mine = block(PRIVATE, me);
    for (size_t i = 0; i < words; i++)
        mine[i] += ONES;
    dsm_barrier();
}

static void slots_round(void)
{
    dsm_lock(2);
    __atomic_fetch_add((long *)&s[SLOTS][me], ONES, __ATOMIC_RELAXED);
    dsm_unlock(2);
    dsm_barrier();
}

/* the token goes once around the ring */
static void ring_round(void)
{
    for (int k = 0; k < NODES; k++) {
        if (me == k)
            s[RING][k] = s[RING][(k + NODES - 1) % NODES] + ONES;
        dsm_barrier();
    }
}

static void overwrite_round(int r)
{
    for (int k = 0; k < NODES; k++) {
        if (me == k)
            for (size_t i = 0; i < words; i++)
                s[OVERWRITE][i] = ((r - 1) * NODES + k + 1) * ONES;
        dsm_barrier();
    }
}

static void group_round(int r)
{
    if (me == 1)
        for (int b = 0; b < 3; b++)
            block(GROUP, b)[0] = r * ONES;
    dsm_barrier();
    if (me == 2)
        for (int b = 0; b < 3; b++)
            sum += block(GROUP, b)[0];
    dsm_barrier();
}

static void one_round(int st, int r)
{
    switch (st) {
    case COUNTER: counter_round(); break;
    case BUFFER1: buffer1_round(r); break;
    case BUFFER3: buffer3_round(r); break;
    case TABLE: table_round(); break;
    case PRIVATE: private_round(); break;
    case SLOTS: slots_round(); break;
    case RING: ring_round(); break;
    case OVERWRITE: overwrite_round(r); break;
    case GROUP: group_round(r); break;
    }
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv))
        return 1;
    me = dsm_node();
    int interleaved = argc > 1 && !strcmp(argv[1], "interleaved");
    int rounds = argc > 2 ? atoi(argv[2]) : 10;
    if (dsm_nodes() != NODES || argc < 2 || (!interleaved && strcmp(argv[1], "phased")) ||
        rounds < 2) {
        if (me == 0)
            fprintf(stderr, "usage: known_sharing phased|interleaved [ROUNDS >= 2], on %d nodes\n",
                    NODES);
        dsm_finalize();
        return 2;
    }
    bs = dsm_block_size();
    words = bs / sizeof(long);
    allocate();
    table_init();
    if (interleaved) {
        for (int r = 1; r <= rounds; r++)
            for (int st = 0; st < NSTRUCT; st++)
                one_round(st, r);
    } else {
        for (int st = 0; st < NSTRUCT; st++)
            for (int r = 1; r <= rounds; r++)
                one_round(st, r);
    }
    dsm_barrier();
    /* each node checks its own slot and private block only (another's
     * read would make them shared); node 0 the shared words */
    int ok = s[SLOTS][me] == rounds * ONES && block(PRIVATE, me)[0] == rounds * ONES;
    if (me == 0)
        ok = ok && s[COUNTER][0] == (long)NODES * rounds &&
             s[RING][NODES - 1] == (long)NODES * rounds * ONES &&
             s[OVERWRITE][0] == (long)(rounds * NODES) * ONES;
    printf("known_sharing: node %d %s\n", me, ok ? "OK" : "WRONG");
    if (me == 0) {
        for (int st = 0; st < NSTRUCT; st++) {
            printf("structure %s", names[st]);
            for (int b = 0; b < nblocks[st]; b++)
                printf(" %ld", dsm_block_index((const void *)block(st, b)));
            printf("\n");
        }
        printf("known_sharing: sum %ld\n", sum);
    }
    dsm_barrier();
    dsm_finalize();
    return !ok;
}
