/* block_ranges.c - the range windows of versioned loops under fire (the
 * counterpart of blk_stress.c for loop-level checks).  Built with dsmcc
 * --dsm (tests/block.mk) as tests/blk_ranges.  Every thread of every node
 * owns a few words of one 64-byte block and, round after round, adds 1 to
 * each of them a few times in a small loop nest with known trip counts and
 * no call:
 * exactly what the pass versions (dsm/tools/checkpass/loops.cpp), so the
 * whole loop runs after one range check, under a range window, without a
 * per-access check.  The nodes write the same block (false sharing), so it
 * changes hands all the time; an invalidation or a recall that landed
 * while a loop was running would lose that node's increments (the data
 * would leave before the loop's stores, which then go to a dead copy).
 * Node 0 checks every word at the end.
 *
 * A second loop (add_scatter) adds 1 to the thread's words of that block
 * and, through indices loaded from a private table (a scatter no range can
 * bound), to its words of a second contended block: the pass versions it
 * with the scatter's check kept in the fast copy, whose misses close the
 * range window while they wait and reopen it (__dsm_blk_miss_ranges); a
 * block of the window taken meanwhile and not noticed would lose
 * increments of the first block.
 *
 * With DSMCHECK_COUNT=1 at compile time the program prints how often the
 * loop ran in its fast copy (tests/block_stress.sh makes sure it did).
 *
 * Usage: blk_ranges [-t THREADS_PER_NODE] [-i MIN_ROUNDS] [-s SECONDS]
 * Exit 0 and "blk_ranges: ... OK" only if no increment was lost. */
#include <dsm.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { WORDS_PER_THREAD = 2, MAX_THREADS = 4, REPS = 8 };

static uint64_t *words; /* one 64-byte block: 8 words */
static uint64_t *scattered; /* another: add_scatter's targets */
static int slot_of[8]; /* word j of the block -> its slot in scattered (set at run time) */
static uint64_t *rounds_made; /* per thread (another block) */
static int threads = 2, min_rounds = 1000;
static double seconds = 1.0;

/* The versioned loop nest: known trip counts, no call, plain loads and
 * stores; one range check covers all REPS passes, so the range window is
 * open for a while (kept plain loops: a vectorised copy of two words would
 * run its vector body once, below the trip count where a check pays). */
__attribute__((noinline)) static void add_one(uint64_t *w, long lo, long hi, long reps)
{
#pragma clang loop unroll(disable)
    for (long r = 0; r < reps; r++)
#pragma clang loop vectorize(disable) interleave(disable) unroll(disable)
        for (long j = lo; j < hi; j++)
            w[j] += 1;
}

/* Versioned too, but the store through idx has no bounds: it keeps its
 * check in the fast copy. */
__attribute__((noinline)) static void add_scatter(uint64_t *w, uint64_t *s, const int *idx, long lo,
                                                  long hi, long reps)
{
#pragma clang loop unroll(disable)
    for (long r = 0; r < reps; r++)
#pragma clang loop vectorize(disable) interleave(disable) unroll(disable)
        for (long j = lo; j < hi; j++) {
            w[j] += 1;
            s[idx[j]] += 1;
        }
}

struct arg {
    int k;
};

static void *hammer(void *p)
{
    int k = ((struct arg *)p)->k;
    long lo = (long)k * WORDS_PER_THREAD, hi = lo + WORDS_PER_THREAD;
    double end = dsm_wtime() + seconds;
    uint64_t r;
    for (r = 0; r < (uint64_t)min_rounds || (r % 256 || dsm_wtime() < end); r++) {
        /* private work between rounds, so the nodes want the block at once */
        for (volatile int j = 0; j < 40; j++)
            ;
        add_one(words, lo, hi, REPS);
        add_scatter(words, scattered, slot_of, lo, hi, REPS);
    }
    rounds_made[k] = r;
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
            min_rounds = atoi(optarg);
        else if (c == 's')
            seconds = atof(optarg);
        else
            return 2;
    }
    int nodes = dsm_nodes(), me = dsm_node();
    if (threads < 1 || threads > MAX_THREADS || nodes * threads * WORDS_PER_THREAD > 8 ||
        min_rounds < 1) {
        fprintf(stderr, "blk_ranges: need 1 <= threads <= %d, nodes x threads x %d <= 8 words, "
                        "rounds >= 1\n", MAX_THREADS, WORDS_PER_THREAD);
        return 2;
    }
    words = dsm_alloc(64, "ranged block");
    scattered = dsm_alloc(64, "scattered block");
    for (int j = 0; j < 8; j++)
        slot_of[j] = 7 - j;
    rounds_made = dsm_alloc(dsm_block_size() > 64 ? dsm_block_size() : 64, "rounds made");
    dsm_barrier();
    double t0 = dsm_wtime();
    pthread_t tid[MAX_THREADS];
    struct arg a[MAX_THREADS];
    for (int t = 0; t < threads; t++) {
        a[t].k = me * threads + t;
        if (pthread_create(&tid[t], NULL, hammer, &a[t])) {
            fprintf(stderr, "blk_ranges: pthread_create failed\n");
            return 1;
        }
    }
    for (int t = 0; t < threads; t++)
        pthread_join(tid[t], NULL);
    dsm_barrier();
    int bad = 0;
    if (me == 0) {
        uint64_t total = 0;
        for (int k = 0; k < nodes * threads; k++) {
            total += rounds_made[k];
            for (int w = 0; w < WORDS_PER_THREAD; w++) {
                uint64_t got = words[k * WORDS_PER_THREAD + w];
                uint64_t sgot = scattered[slot_of[k * WORDS_PER_THREAD + w]];
                if (sgot != rounds_made[k] * REPS) {
                    printf("blk_ranges: thread %d's scattered word %d is %llu, expected %llu "
                           "(lost increments)\n", k, w, (unsigned long long)sgot,
                           (unsigned long long)rounds_made[k] * REPS);
                    bad = 1;
                }
                if (got != 2 * rounds_made[k] * REPS) {
                    printf("blk_ranges: thread %d's word %d is %llu, expected %llu (lost "
                           "increments)\n", k, w, (unsigned long long)got,
                           (unsigned long long)(2 * rounds_made[k] * REPS));
                    bad = 1;
                }
            }
        }
        if (!bad)
            printf("blk_ranges: %d nodes x %d threads, %llu rounds, block %zu B, %.2f s: OK\n",
                   nodes, threads, (unsigned long long)total, dsm_block_size(), dsm_wtime() - t0);
    }
    dsm_barrier();
    dsm_finalize();
    return bad;
}
