/* origin_snbench.c - the profiler paper's snbench kernels as a program
 * (built with DSMCC_CFLAGS, run by tests/origin_snbench.sh on
 * --machine=origin), so that Figs. 4 and 5 are also reproduced through the
 * whole tool chain: dsmcc's instrumentation, the front end, first-touch
 * placement and the dsm-sim/1 file that dsmprof origin reads.
 *
 *   origin_snbench MODE HOME MB READER...
 *     MODE     reduce: sum a unit-stride array of doubles (Fig. 4);
 *              bwread: one double of each 128-byte line (Fig. 5's bw-read)
 *     HOME     the processor that writes every array first (first touch puts
 *              the pages on its node) and then reads a scratch array as
 *              large, so the lines go back to memory unowned ("the cache
 *              flushed", as snbench does)
 *     MB       megabytes per reader's array
 *     READER   processors that run the loop, ITERATIONS passes each,
 *              with a barrier between passes (the drops of Fig. 4)
 * The passes are the measured section (dsm_sim_section_begin/end).  Every
 * reader checks its sum; "origin_snbench: result OK" on success. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsm.h"

#define ITERATIONS 2
#define LINE_DOUBLES 16 /* 128-byte lines */

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv) != 0) {
        perror("origin_snbench: dsm_init");
        return 1;
    }
    int me = dsm_node(), nprocs = dsm_nodes();
    if (argc < 5 || (strcmp(argv[1], "reduce") && strcmp(argv[1], "bwread"))) {
        if (me == 0)
            fprintf(stderr, "usage: origin_snbench reduce|bwread HOME MB READER...\n");
        dsm_finalize();
        return 2;
    }
    int stride = strcmp(argv[1], "reduce") ? LINE_DOUBLES : 1;
    int home = atoi(argv[2]);
    size_t n = (size_t)atol(argv[3]) * (1u << 20) / sizeof(double);
    int nreaders = argc - 4, mine = -1;
    if (home < 0 || home >= nprocs || n == 0) {
        if (me == 0)
            fprintf(stderr, "origin_snbench: bad HOME or MB\n");
        dsm_finalize();
        return 2;
    }
    double **arrays = malloc((size_t)nreaders * sizeof *arrays);
    for (int r = 0; r < nreaders; r++) {
        arrays[r] = dsm_alloc(n * sizeof(double), "snbench.array");
        if (atoi(argv[4 + r]) == me)
            mine = r;
    }
    double *scratch = dsm_alloc(n * sizeof(double), "snbench.scratch");
    if (me == home) {
        for (int r = 0; r < nreaders; r++)
            for (size_t i = 0; i < n; i++)
                arrays[r][i] = (double)(i % 7);
        double flush = 0;
        for (size_t i = 0; i < n; i += LINE_DOUBLES)
            flush += scratch[i];
        if (flush != 0)
            fprintf(stderr, "origin_snbench: scratch not zero\n");
    }
    dsm_barrier();
    dsm_sim_section_begin();
    int bad = 0;
    for (int it = 0; it < ITERATIONS; it++) {
        if (mine >= 0) {
            const double *a = arrays[mine];
            double sum = 0, want = 0;
            for (size_t i = 0; i < n; i += (size_t)stride)
                sum += a[i];
            for (size_t i = 0; i < n; i += (size_t)stride)
                want += (double)(i % 7);
            bad |= sum != want;
        }
        dsm_barrier();
    }
    dsm_sim_section_end();
    if (bad)
        fprintf(stderr, "origin_snbench: processor %d: wrong sum\n", me);
    dsm_barrier();
    if (me == 0)
        printf("origin_snbench: result %s\n", bad ? "WRONG" : "OK");
    free(arrays);
    dsm_finalize();
    return bad;
}
