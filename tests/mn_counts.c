/* mn_counts.c - sharing whose coherence events are known exactly, for
 * tests/mn_counts.sh to check the Figure 3 counters in the DSM_STATS file.
 *
 * Every mode touches only groups of GROUP blocks homed at node 0 (the first
 * run of a blocked dsm_alloc of GROUP * nodes * k blocks), one word per
 * block, in phases separated by barriers, so the per-node totals of the
 * per-block metrics come from these accesses alone.  Node 0 prints
 * "group NAME FIRST COUNT" (block numbers as in the stats file) and
 * "barriers N" / "locks N" (calls made by every node).
 *
 *   read      node 1 reads group r once                 -> stacheReadMisses
 *   homeread  node 0 reads group h three times          -> homeReadMisses
 *   write     node 0 writes group hi (invalid)          -> homeWriteInv
 *             node 1 writes group si (invalid)          -> stacheWriteInv
 *             node 0 reads then writes group hr         -> homeReadMisses, homeWriteRO
 *             node 1 reads then writes group sr         -> stacheReadMisses, stacheWriteRO
 *   inv       nodes 1.. read group ro, then node 0 writes it      -> invRO at the readers
 *             node 1 writes group rw, then node 0 reads it        -> invRW at node 1
 *   sync      BARRIERS barriers and LOCKS lock/unlock pairs per node
 *
 * Usage: mn_counts MODE   (run under dsmrun -n N, N >= 2, DSM_HOMES=blocked) */
#include <dsm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GROUP 100

static int me, nodes;
static size_t bs;
static int barriers;

static void barrier(void)
{
    dsm_barrier();
    barriers++;
}

/* GROUP * k blocks homed at node 0, block aligned; checks the homes. */
static char *groups_at_node0(int k)
{
    char *p = dsm_alloc((size_t)GROUP * k * (size_t)nodes * bs, "groups");
    if (!p) {
        fprintf(stderr, "mn_counts: node %d: dsm_alloc failed\n", me);
        exit(1);
    }
    for (int i = 0; i < GROUP * k; i++)
        if (dsm_home_of(p + (size_t)i * bs) != 0) {
            fprintf(stderr, "mn_counts: block %d of the allocation is homed at node %d, not 0 "
                            "(run with DSM_HOMES=blocked)\n", i, dsm_home_of(p + (size_t)i * bs));
            exit(1);
        }
    return p;
}

static void announce(const char *name, char *g)
{
    if (me == 0)
        printf("group %s %ld %d\n", name, dsm_block_index(g), GROUP);
}

static long read_group(char *g)
{
    long s = 0;
    for (int i = 0; i < GROUP; i++)
        s += ((volatile long *)(g + (size_t)i * bs))[0];
    return s;
}

static void write_group(char *g, long v)
{
    for (int i = 0; i < GROUP; i++)
        ((volatile long *)(g + (size_t)i * bs))[0] = v + i;
}

/* Every read, then every write: a read miss, then an upgrade per block.
 * (In block mode one check covers a block's accesses in a basic block with
 * the strongest need, so `*w = *w + v` would be a single write miss.) */
static void read_write_group(char *g, long v)
{
    long old[GROUP];
    for (int i = 0; i < GROUP; i++)
        old[i] = ((volatile long *)(g + (size_t)i * bs))[0];
    for (int i = 0; i < GROUP; i++)
        ((volatile long *)(g + (size_t)i * bs))[0] = old[i] + v;
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv) != 0) {
        perror("mn_counts: dsm_init");
        return 1;
    }
    me = dsm_node();
    nodes = dsm_nodes();
    bs = dsm_block_size();
    const char *mode = argc > 1 ? argv[1] : "";
    if (nodes < 2) {
        fprintf(stderr, "mn_counts: needs at least 2 nodes\n");
        dsm_finalize();
        return 2;
    }
    long sink = 0;
    int bad = 0;
    if (!strcmp(mode, "read")) {
        char *r = groups_at_node0(1);
        announce("r", r);
        barrier();
        if (me == 1)
            sink += read_group(r);
        barrier();
    } else if (!strcmp(mode, "homeread")) {
        char *h = groups_at_node0(1);
        announce("h", h);
        barrier();
        if (me == 0)
            for (int k = 0; k < 3; k++)
                sink += read_group(h);
        barrier();
    } else if (!strcmp(mode, "write")) {
        char *g = groups_at_node0(4);
        char *hi = g, *si = g + GROUP * bs, *hr = g + 2 * GROUP * bs, *sr = g + 3 * GROUP * bs;
        announce("hi", hi);
        announce("si", si);
        announce("hr", hr);
        announce("sr", sr);
        barrier();
        if (me == 0)
            write_group(hi, 1);
        if (me == 1)
            write_group(si, 2);
        barrier();
        if (me == 0)
            read_write_group(hr, 3);
        if (me == 1)
            read_write_group(sr, 4);
        barrier();
        /* the values must have arrived (not counted: the groups are left alone
         * by the counts above only if node 0 checks its own groups) */
        if (me == 0)
            for (int i = 0; i < GROUP; i++)
                if (((volatile long *)(hi + (size_t)i * bs))[0] != 1 + i ||
                    ((volatile long *)(hr + (size_t)i * bs))[0] != 3)
                    bad = 1;
        barrier();
    } else if (!strcmp(mode, "inv")) {
        char *g = groups_at_node0(2);
        char *ro = g, *rw = g + GROUP * bs;
        announce("ro", ro);
        announce("rw", rw);
        barrier();
        if (me != 0)
            sink += read_group(ro);
        if (me == 1)
            write_group(rw, 7);
        barrier();
        if (me == 0) {
            write_group(ro, 5);
            long s = read_group(rw), want = 0;
            for (int i = 0; i < GROUP; i++)
                want += 7 + i;
            if (s != want)
                bad = 1;
        }
        barrier();
    } else if (!strcmp(mode, "sync")) {
        int locks = 25;
        for (int i = 0; i < 10; i++)
            barrier();
        for (int i = 0; i < locks; i++) {
            dsm_lock(3);
            dsm_unlock(3);
        }
        barrier();
        if (me == 0)
            printf("locks %d\n", locks);
    } else {
        if (me == 0)
            fprintf(stderr, "usage: mn_counts read|homeread|write|inv|sync\n");
        dsm_finalize();
        return 2;
    }
    if (me == 0)
        printf("barriers %d\n", barriers);
    if (bad)
        fprintf(stderr, "mn_counts: node %d: wrong values read back\n", me);
    if (sink == -1)
        printf("(unlikely sum)\n");
    fflush(stdout);
    dsm_finalize();
    return bad;
}
