/* blk_stress.c - block mode under fire: several threads on every node
 * hammer one block.  Built with dsmcc --dsm (tests/block.mk), so every
 * access below is an inline check followed by the access; a recall or an
 * invalidation that landed between the two would lose an update here.
 *   word 0: a counter every thread of every node increments atomically
 *           (atomicrmw: checked as a write);
 *   word 1+k: thread k's own counter, plain load + store, every 8th update
 *           done with memcpy (the runtime's chunked copy).
 * All words share one block (64 bytes hold 8 words: at most 7 threads in
 * all).  Node 0 checks every word at the end.
 *
 * Every thread runs for -s seconds (and at least -i updates), so the nodes
 * overlap however the machine schedules them; each thread then publishes
 * how many updates it made (word 8+k) and node 0 checks the sums.
 *
 * Usage: blk_stress [-t THREADS_PER_NODE] [-i MIN_ITERATIONS] [-s SECONDS]
 * Exit 0 and "blk_stress: ... OK" only if no update was lost. */
#include <dsm.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t *words;
static int threads = 3, iters = 1000;
static double seconds = 1.0;
static uint64_t *made; /* per thread: updates made (another block) */
static volatile size_t word_bytes = sizeof(uint64_t); /* keeps memcpy a real call */

struct arg {
    int k;
};

static void *hammer(void *p)
{
    int k = ((struct arg *)p)->k;
    uint64_t *mine = &words[1 + k];
    double end = dsm_wtime() + seconds;
    uint64_t i;
    for (i = 0; i < (uint64_t)iters || (i % 256 || dsm_wtime() < end); i++) {
        /* private work between updates, so both nodes want the block at once */
        for (volatile int j = 0; j < 40; j++)
            ;
        __atomic_fetch_add(&words[0], 1, __ATOMIC_SEQ_CST);
        if (i % 8 == 7) {
            uint64_t v;
            memcpy(&v, mine, word_bytes);
            v++;
            memcpy(mine, &v, word_bytes);
        } else {
            *(volatile uint64_t *)mine += 1;
        }
    }
    made[k] = i;
    return NULL;
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv))
        return 1;
    int c;
    while ((c = getopt(argc, argv, "t:i:s:")) != -1) {
        if (c == 't')
            threads = atoi(optarg);
        else if (c == 'i')
            iters = atoi(optarg);
        else if (c == 's')
            seconds = atof(optarg);
        else
            return 2;
    }
    int nodes = dsm_nodes(), me = dsm_node();
    if (threads < 1 || nodes * threads > 7 || iters < 1) {
        fprintf(stderr, "blk_stress: need 1 <= nodes x threads <= 7 and iterations >= 1\n");
        return 2;
    }
    words = dsm_alloc(64, "hammered block");
    made = dsm_alloc(dsm_block_size() > 64 ? dsm_block_size() : 64, "updates made");
    if (me == 0)
        memset(words, 0, 64);
    dsm_barrier();
    double t0 = dsm_wtime();
    pthread_t tid[8];
    struct arg a[8];
    for (int t = 0; t < threads; t++) {
        a[t].k = me * threads + t;
        if (pthread_create(&tid[t], NULL, hammer, &a[t])) {
            fprintf(stderr, "blk_stress: pthread_create failed\n");
            return 1;
        }
    }
    for (int t = 0; t < threads; t++)
        pthread_join(tid[t], NULL);
    dsm_barrier();
    int bad = 0;
    if (me == 0) {
        uint64_t want = 0;
        for (int k = 0; k < nodes * threads; k++)
            want += made[k];
        if (words[0] != want) {
            printf("blk_stress: shared counter %llu, expected %llu (lost updates)\n",
                   (unsigned long long)words[0], (unsigned long long)want);
            bad = 1;
        }
        for (int k = 0; k < nodes * threads; k++)
            if (words[1 + k] != made[k]) {
                printf("blk_stress: thread %d's counter %llu, expected %llu (lost updates)\n", k,
                       (unsigned long long)words[1 + k], (unsigned long long)made[k]);
                bad = 1;
            }
        if (!bad)
            printf("blk_stress: %d nodes x %d threads, %llu updates, block %zu B, %.2f s: OK\n",
                   nodes, threads, (unsigned long long)want, dsm_block_size(), dsm_wtime() - t0);
    }
    dsm_barrier();
    dsm_finalize();
    return bad;
}
