/* mn_profile.c - sharing whose profile is known, for tests/mn_profile.sh to
 * check the dsm-profile/2 file (doc/profile-format.md).  Run on 2 nodes with
 * DSM_HOMES=blocked.
 *
 *   "pair"   one block, a struct whose field `a` (offset 0) only node 0
 *            writes and field `b` (offset 2048) only node 1 writes, ROUNDS
 *            rounds each: false sharing, written ranges [0,8) and [2048,2056);
 *            its element type (struct pair_fields) found from DWARF, so the
 *            advice names the fields
 *   "counter" one long incremented by both nodes under a lock: true sharing
 *   "table"  8 blocks: node 0 writes all (8 cold misses), node 1 reads all
 *            (8 cold), node 0 reads all again (8 invalidation misses), node 1
 *            writes all (8 upgrades); reads in read_table, writes in
 *            write_table
 *   unnamed  4 blocks allocated without a name in make_unnamed, read by
 *            both nodes
 * Node 0 prints "rounds N"; the unnamed site is the line marked UNNAMED_SITE. */
#include <dsm.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 20
#define TABLE_BLOCKS 8

static size_t bs;

struct pair_fields {
    long a;
    char gap[2040];
    long b;
};

__attribute__((noinline)) static char *make_unnamed(void)
{
    char *p = dsm_alloc(4 * bs, NULL); /* UNNAMED_SITE */
    __asm__ volatile("" ::: "memory"); /* no tail call: keep this frame on the path */
    return p;
}

__attribute__((noinline)) static void write_table(volatile char *t, long v)
{
    for (int i = 0; i < TABLE_BLOCKS; i++)
        t[(size_t)i * bs + 16] = (char)v;
}

__attribute__((noinline)) static long read_table(volatile char *t)
{
    long s = 0;
    for (int i = 0; i < TABLE_BLOCKS; i++)
        s += t[(size_t)i * bs + 16];
    return s;
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv) != 0)
        return 1;
    int me = dsm_node();
    if (dsm_nodes() != 2) {
        fprintf(stderr, "mn_profile: run on 2 nodes\n");
        return 1;
    }
    bs = dsm_block_size();
    volatile struct pair_fields *pair = dsm_alloc(bs, "pair");
    volatile long *counter = dsm_alloc(sizeof(long), "counter");
    volatile char *table = dsm_alloc(TABLE_BLOCKS * bs, "table");
    volatile char *un = make_unnamed();
    if (me == 0) {
        printf("rounds %d\n", ROUNDS);
        fflush(stdout);
    }

    /* false sharing: every byte of the field changes each round */
    for (int r = 1; r <= ROUNDS; r++) {
        if (me == 0)
            pair->a = 0x0101010101010101L * r;
        dsm_barrier();
        if (me == 1)
            pair->b = 0x0101010101010101L * r;
        dsm_barrier();
    }
    /* true sharing: a barrier per round, so both nodes write the counter
     * every round whatever the lock's timing (without it, one node may take
     * all its rounds before the other starts: a single transfer, before the
     * home twins the block, records no writer-to-writer transfer) */
    for (int r = 0; r < ROUNDS; r++) {
        dsm_lock(1);
        (*counter)++;
        dsm_unlock(1);
        dsm_barrier();
    }
    dsm_barrier();
    /* table: cold, cold, invalidation, upgrade */
    if (me == 0)
        write_table(table, 7);
    dsm_barrier();
    long s = 0;
    if (me == 1)
        s += read_table(table);
    dsm_barrier();
    if (me == 0)
        s += read_table(table);
    dsm_barrier();
    if (me == 1)
        write_table(table, 9);
    dsm_barrier();
    /* unnamed: read by both */
    s += un[0] + un[bs] + un[2 * bs] + un[3 * bs];
    dsm_barrier();
    int ok = *counter == 2 * ROUNDS && pair->a == 0x0101010101010101L * ROUNDS;
    if (me == 0)
        printf("mn_profile: %s (%ld)\n", ok ? "OK" : "WRONG", s);
    dsm_finalize();
    return !ok;
}
