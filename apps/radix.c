/* radix.c - parallel radix sort of integer keys, in the manner of SPLASH-2's
 * RADIX kernel.
 *
 * Each processor owns a contiguous band of the key array.  Every pass sorts
 * by one digit of log2(R) bits:
 *   1. each processor counts the digits of its band and publishes its
 *      histogram (row `me` of the shared P x R "radix.hist");      barrier
 *   2. each processor reads all histograms and computes, per digit, where
 *      its keys go: all keys of smaller digits, plus the keys of this digit
 *      on lower-numbered processors (a stable order);
 *   3. each processor writes its keys to their places in the other array
 *      (scattered remote writes: the permutation is the all-to-all step that
 *      dominates RADIX's misses);                                  barrier
 * Check: every processor checks that its band of the result is in order
 * (with its left neighbour's last key) and adds a hash of each key it holds
 * to a sum under lock 0; node 0 compares the sum and the number of keys with
 * the same sum over the generated input, so the result is a sorted
 * permutation of the input.
 *
 * Usage: radix [--keys=N] [--radix=R] [--bits=B] [--paper]
 *   N keys (default 65536), radix R a power of two (default 256), keys below
 *   2^B (default 24).  --paper: 1M keys, radix 256, as in the FlashPoint
 *   paper.  Prints "radix: result OK". */
#include <dsm.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "app_util.h"

typedef struct radix_check {
    uint64_t key_hash_sum;   /* sum of app_mix64(key) over the result */
    long out_of_order;       /* adjacent pairs in the wrong order */
    int ok;
} radix_check;

APP_LEAF static uint32_t key_of(long i, long bits)
{
    return (uint32_t)(app_mix64((uint64_t)i ^ 0x5a5a) & ((1ULL << bits) - 1));
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv) != 0) {
        perror("radix: dsm_init");
        return 1;
    }
    int me = dsm_node(), nprocs = dsm_nodes();
    long nkeys = 65536, radix = 256, bits = 24;
    app_opt opts[] = {
        { "keys", "number of keys", &nkeys, 1, 1L << 28, 1L << 20, 0, 0 },
        { "radix", "radix, a power of two", &radix, 2, 1L << 16, 256, 0, 0 },
        { "bits", "keys are below 2^bits", &bits, 1, 32, 24, 0, 0 },
    };
    int parsed = app_parse("radix", argc, argv, opts, 3, "paper", me);
    if (parsed == 0 && (radix & (radix - 1))) {
        if (me == 0)
            fprintf(stderr, "radix: --radix=%ld is not a power of two\n", radix);
        parsed = -1;
    }
    if (parsed != 0) {
        dsm_finalize();
        return parsed > 0 ? 0 : 2;
    }
    int digit_bits = 0;
    while ((1L << digit_bits) < radix)
        digit_bits++;
    int passes = (int)((bits + digit_bits - 1) / digit_bits);

    size_t bytes = (size_t)nkeys * sizeof(uint32_t);
    uint32_t *keys[2] = { dsm_alloc(bytes, "radix.key0"), dsm_alloc(bytes, "radix.key1") };
    long *hist = dsm_alloc((size_t)nprocs * (size_t)radix * sizeof(long), "radix.hist");
    radix_check *chk = dsm_alloc(sizeof *chk, "radix.check");
    long *count = malloc((size_t)radix * sizeof *count);   /* this processor's, private */
    if (!keys[0] || !keys[1] || !hist || !chk || !count) {
        fprintf(stderr, "radix: node %d: allocation of %zu bytes failed\n", me, bytes);
        return 1;
    }

    long lo, hi;
    app_band(nkeys, me, nprocs, &lo, &hi);
    for (long i = lo; i < hi; i++)
        keys[0][i] = key_of(i, bits);
    if (me == 0) {
        chk->key_hash_sum = 0;
        chk->out_of_order = 0;
    }
    dsm_barrier();

    dsm_sim_section_begin(); /* the measured section of a simulated run */
    double t0 = dsm_wtime();
    for (int pass = 0; pass < passes; pass++) {
        const uint32_t *src = keys[pass % 2];
        uint32_t *dst = keys[(pass + 1) % 2];
        int shift = pass * digit_bits;
        uint32_t mask = (uint32_t)radix - 1;
        for (long d = 0; d < radix; d++)
            count[d] = 0;
        for (long i = lo; i < hi; i++)
            count[(src[i] >> shift) & mask]++;
        for (long d = 0; d < radix; d++)
            hist[me * radix + d] = count[d];
        dsm_barrier();
        /* count[d] becomes my first position for digit d: all keys with a
         * smaller digit, then this digit's keys of lower-numbered processors */
        long base = 0;
        for (long d = 0; d < radix; d++) {
            long total = 0, before = 0;
            for (int q = 0; q < nprocs; q++) {
                long h = hist[q * radix + d];
                total += h;
                if (q < me)
                    before += h;
            }
            count[d] = base + before;
            base += total;
        }
        for (long i = lo; i < hi; i++) {
            uint32_t k = src[i];
            dst[count[(k >> shift) & mask]++] = k;
        }
        dsm_barrier(); /* the next pass reads all of dst and rewrites hist */
    }
    dsm_sim_section_end();
    double elapsed = dsm_wtime() - t0;

    const uint32_t *sorted = keys[passes % 2];
    long disorder = 0;
    uint64_t hash_sum = 0;
    for (long i = lo; i < hi; i++) {
        if (i > 0 && sorted[i - 1] > sorted[i])
            disorder++;
        hash_sum += app_mix64(sorted[i]);
    }
    dsm_lock(0);
    chk->key_hash_sum += hash_sum;
    chk->out_of_order += disorder;
    dsm_unlock(0);
    dsm_barrier();

    if (me == 0) {
        uint64_t want = 0;
        for (long i = 0; i < nkeys; i++)
            want += app_mix64(key_of(i, bits));
        int good = chk->out_of_order == 0 && chk->key_hash_sum == want;
        if (chk->out_of_order)
            fprintf(stderr, "radix: %ld adjacent keys out of order\n", chk->out_of_order);
        if (chk->key_hash_sum != want)
            fprintf(stderr, "radix: the result is not a permutation of the input "
                    "(key hash sum %016llx, input %016llx)\n",
                    (unsigned long long)chk->key_hash_sum, (unsigned long long)want);
        chk->ok = good;
        printf("radix: %d procs, %ld keys below 2^%ld, radix %ld (%d passes), %.3f s\n", nprocs,
               nkeys, bits, radix, passes, elapsed);
        printf("radix: result %s\n", good ? "OK" : "WRONG");
        fflush(stdout);
    }
    dsm_barrier(); /* node 0's verdict is in chk->ok */
    int good = chk->ok;
    free(count);
    dsm_finalize();
    return good ? 0 : 1;
}
