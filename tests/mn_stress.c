/* mn_stress.c - randomized stress test of locks and coherence, checked by replay.
 *
 * Shared words are spread over several blocks; word w belongs to lock
 * w % LOCKS, so words of different locks share blocks (false sharing) and a
 * lock's words sit in several blocks.  Each node does OPS operations: take a
 * random lock, bump that lock's sequence number (a shared per-lock counter,
 * incremented under the lock), then read, and mostly write, 1..WORDS random
 * words of that lock, logging (lock, seq, word, value read, value written).
 * Written values are unique (node, op, position), so a read names the write
 * it saw.  At the end the logs are gathered through a dsm_alloc'd area and
 * node 0 replays all operations in per-lock sequence order: every value read
 * must be the replay's current value, the sequence numbers of each lock must
 * be 0..n-1 with no duplicate, and the final shared memory must equal the
 * replay's final state.
 *
 * Usage: mn_stress [-k OPS] [-l LOCKS] [-b BLOCKS] [-w WORDS] [-s SEED] [-u]
 *   defaults: 2000 ops per node, 16 locks, 8 blocks, up to 4 words per op.
 *   -u skips the locks: the replay must then FAIL (checks the checker).
 * Exit 0 only if the replay matched. */
#include <dsm.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct entry {
    uint32_t lock, seq, word;
    uint16_t node, pos; /* position within the operation */
    uint64_t read, wrote; /* wrote == read: a read-only access */
};

static int me, nodes;

static uint64_t rng;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static int cmp_entry(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    if (x->lock != y->lock)
        return x->lock < y->lock ? -1 : 1;
    if (x->seq != y->seq)
        return x->seq < y->seq ? -1 : 1;
    if (x->node != y->node) /* only when mutual exclusion failed */
        return x->node < y->node ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static void usage(void)
{
    if (me == 0)
        fprintf(stderr, "usage: mn_stress [-k OPS] [-l LOCKS] [-b BLOCKS] [-w WORDS] [-s SEED] [-u]\n");
    dsm_finalize();
    exit(2);
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv) != 0) {
        perror("mn_stress: dsm_init");
        return 1;
    }
    me = dsm_node();
    nodes = dsm_nodes();
    long ops = 2000, nlocks = 16, nblocks = 8, maxw = 4;
    unsigned long seed = 1;
    int c, unlocked = 0;
    while ((c = getopt(argc, argv, "k:l:b:w:s:u")) != -1) {
        switch (c) {
        case 'k': ops = atol(optarg); break;
        case 'l': nlocks = atol(optarg); break;
        case 'b': nblocks = atol(optarg); break;
        case 'w': maxw = atol(optarg); break;
        case 's': seed = strtoul(optarg, NULL, 0); break;
        case 'u': unlocked = 1; break;
        default: usage();
        }
    }
    size_t bs = dsm_block_size();
    size_t nwords = (size_t)nblocks * bs / sizeof(uint64_t);
    if (optind != argc || ops < 0 || ops > (1L << 24) || nlocks < 1 || nlocks > dsm_lock_count() ||
        nblocks < 1 || maxw < 1 || maxw > 1000 || nwords < (size_t)nlocks || nodes > 65535)
        usage();
    rng = (seed + 1) * 0x9E3779B97F4A7C15ull ^ ((uint64_t)me + 1) * 0xBF58476D1CE4E5B9ull;
    if (!rng)
        rng = 1;

    /* Lock l uses lock id l * spacing: ids spread over the whole range. */
    unsigned spacing = dsm_lock_count() / (unsigned)nlocks;
    size_t per_node = (size_t)ops * (size_t)maxw;
    volatile uint64_t *words = dsm_alloc(nwords * sizeof(uint64_t), "stress.words");
    volatile uint32_t *seqs = dsm_alloc((size_t)nlocks * sizeof(uint32_t), "stress.seq");
    struct entry *logs = dsm_alloc((size_t)nodes * per_node * sizeof(struct entry), "stress.logs");
    volatile long *counts = dsm_alloc((size_t)nodes * sizeof(long), "stress.counts");
    struct entry *log = malloc((per_node ? per_node : 1) * sizeof *log);
    if (!words || !seqs || !logs || !counts || !log) {
        fprintf(stderr, "mn_stress: node %d: allocation failed\n", me);
        return 1;
    }

    dsm_barrier();
    double t0 = dsm_wtime();
    size_t n = 0;
    size_t per_lock = (nwords - 1) / (size_t)nlocks + 1; /* words of lock 0; the others have <= */
    for (long op = 0; op < ops; op++) {
        uint32_t l = (uint32_t)(next_rand() % (uint64_t)nlocks);
        int k = 1 + (int)(next_rand() % (uint64_t)maxw);
        if (!unlocked)
            dsm_lock(l * spacing);
        uint32_t seq = seqs[l];
        seqs[l] = seq + 1;
        for (int pos = 0; pos < k; pos++) {
            size_t w;
            do /* the words of lock l are l, l + LOCKS, l + 2 LOCKS, ... */
                w = l + (size_t)nlocks * (size_t)(next_rand() % per_lock);
            while (w >= nwords);
            uint64_t v = words[w], nv = v;
            if (next_rand() % 4 != 0) {
                nv = ((uint64_t)(me + 1) << 48) | ((uint64_t)op << 16) | (uint64_t)pos;
                words[w] = nv;
            }
            log[n++] = (struct entry){ .lock = l, .seq = seq, .word = (uint32_t)w, .node = (uint16_t)me,
                                       .pos = (uint16_t)pos, .read = v, .wrote = nv };
        }
        if (!unlocked)
            dsm_unlock(l * spacing);
    }
    double el = dsm_wtime() - t0;
    memcpy(&logs[(size_t)me * per_node], log, n * sizeof *log);
    counts[me] = (long)n;
    dsm_barrier();

    long bad = 0;
    if (me == 0) {
        /* failures by kind, each kind printed at most 10 times */
        long seq_bad = 0, corrupt = 0, read_bad = 0, lock_bad = 0;
        size_t total = 0;
        for (int i = 0; i < nodes; i++)
            total += (size_t)counts[i];
        struct entry *all = malloc((total ? total : 1) * sizeof *all);
        uint64_t *state = calloc(nwords, sizeof *state);
        if (!all || !state) {
            fprintf(stderr, "mn_stress: node 0: out of memory for the replay\n");
            return 1;
        }
        size_t at = 0;
        for (int i = 0; i < nodes; i++) {
            memcpy(&all[at], &logs[(size_t)i * per_node], (size_t)counts[i] * sizeof *all);
            at += (size_t)counts[i];
        }
        qsort(all, total, sizeof *all, cmp_entry);

        long nops = 0;
        for (size_t i = 0; i < total; i++) {
            const struct entry *e = &all[i];
            int first_of_op = i == 0 || e->lock != all[i - 1].lock || e->seq != all[i - 1].seq ||
                              e->node != all[i - 1].node;
            if (first_of_op) {
                nops++;
                /* the previous operation of this lock must be seq - 1 */
                uint32_t want = i > 0 && all[i - 1].lock == e->lock ? all[i - 1].seq + 1 : 0;
                if (e->seq != want && seq_bad++ < 10)
                    fprintf(stderr, "mn_stress: FAIL lock %u: node %u's operation has sequence number %u, "
                            "expected %u%s\n", e->lock, e->node, e->seq, want,
                            e->seq + 1 == want ? " (two nodes got the same number: mutual exclusion "
                                                 "or the counter failed)" : "");
            }
            if (e->word % (uint32_t)nlocks != e->lock || e->word >= nwords) {
                if (corrupt++ < 10)
                    fprintf(stderr, "mn_stress: FAIL corrupt log entry (node %u, word %u, lock %u)\n",
                            e->node, e->word, e->lock);
                continue;
            }
            if (e->read != state[e->word] && read_bad++ < 10)
                fprintf(stderr, "mn_stress: FAIL node %u read word %u (block %zu) = %#llx in lock %u op %u, "
                        "replay has %#llx (written by node %d)\n", e->node, e->word,
                        e->word * sizeof(uint64_t) / bs, (unsigned long long)e->read, e->lock, e->seq,
                        (unsigned long long)state[e->word], (int)(state[e->word] >> 48) - 1);
            state[e->word] = e->wrote;
        }
        for (long l = 0; l < nlocks; l++) {
            /* the last seq of each lock must match the shared counter */
            long seen = 0;
            for (size_t i = 0; i < total; i++)
                if (all[i].lock == (uint32_t)l && (i + 1 == total || all[i + 1].lock != all[i].lock))
                    seen = (long)all[i].seq + 1;
            if (seen != (long)seqs[l] && lock_bad++ < 10)
                fprintf(stderr, "mn_stress: FAIL lock %ld: counter is %u, the logs end at %ld\n",
                        l, seqs[l], seen);
        }
        if (nops != (long)nodes * ops && lock_bad++ < 10)
            fprintf(stderr, "mn_stress: FAIL %ld operations in the logs, expected %ld\n", nops,
                    (long)nodes * ops);
        size_t diff = 0;
        for (size_t w = 0; w < nwords; w++)
            if (words[w] != state[w] && diff++ < 5)
                fprintf(stderr, "mn_stress: FAIL final word %zu (block %zu) = %#llx, replay has %#llx\n",
                        w, w * sizeof(uint64_t) / bs, (unsigned long long)words[w],
                        (unsigned long long)state[w]);
        bad = seq_bad + corrupt + read_bad + lock_bad + (long)diff;
        if (bad)
            fprintf(stderr, "mn_stress: FAIL %ld sequence errors, %ld corrupt entries, %ld wrong reads, "
                    "%ld counter errors, %zu wrong final words\n", seq_bad, corrupt, read_bad, lock_bad, diff);
        printf("mn_stress: %d nodes x %ld ops (%zu accesses) on %ld locks, %zu words in %ld blocks: "
               "%.2f s, %.1f us per op; replay %s\n", nodes, ops, total, nlocks, nwords, nblocks, el,
               ops ? el * 1e6 / (double)ops : 0.0, bad ? "FAILED" : "matched");
        fflush(stdout);
        free(all);
        free(state);
        counts[0] = bad ? -1 : (long)counts[0]; /* the verdict, for the others */
    }
    dsm_barrier();
    if (counts[0] < 0)
        bad = 1;
    free(log);
    dsm_finalize();
    return bad ? 1 : 0;
}
