/* mn_litmus.c - litmus tests of sequential consistency across nodes.
 *
 * Plain loads and stores on shared memory must behave as some interleaving
 * of the nodes' program orders.  Each test runs many iterations of a small
 * racing program and checks that the outcome SC forbids never shows up:
 *   mp    message passing   T0: x=1; y=1          T1: r0=y; r1=x     forbidden r0=1,r1=0
 *   sb    store buffering   T0: x=1; r0=y         T1: y=1; r1=x      forbidden r0=0,r1=0
 *   lb    load buffering    T0: r0=x; y=1         T1: r1=y; x=1      forbidden r0=1,r1=1
 *   iriw  independent reads of independent writes  T0: x=1  T1: y=1
 *                           T2: r0=x; r1=y        T3: r2=y; r3=x     forbidden 1,0,1,0
 *   2+2w                    T0: x=1; y=2          T1: y=1; x=2       forbidden final x=1,y=1
 * Every iteration uses fresh, zero-filled locations (slot i of arrays of
 * ITERS slots), so nothing has to be reset and most iterations need no
 * barrier: nodes synchronise with one barrier every SYNC iterations, plus a
 * random delay before each iteration to vary the interleavings.  Reusing
 * the blocks of earlier iterations is what makes the test bite: a node keeps
 * a (possibly stale, if the protocol is wrong) copy of x's block from the
 * previous iterations when it reads the new x.
 * Layouts: "diff" puts x and y in different blocks (two dsm_alloc calls), so
 * coherence moves them independently; "same" puts them next to each other in
 * one block.  With more nodes than a test needs, nodes/T independent groups
 * run at once on interleaved slots (the rest only join the barriers).
 *
 * Usage: mn_litmus -t TEST [-i ITERS] [-l diff|same|both] [-s SYNC]
 *                  [-d MAXDELAY_US] [-r SEED]
 * Exit 0 only if the forbidden outcome was never seen on any group. */
#include <dsm.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { MP, SB, LB, IRIW, W22 };
static const struct test {
    const char *name;
    int threads;    /* nodes per group */
    int nres;       /* values per outcome */
    const char *vars;
    int forbidden[4];
} tests[] = {
    [MP] = { "mp", 2, 2, "T1:r0=y,r1=x", { 1, 0 } },
    [SB] = { "sb", 2, 2, "T0:r0=y T1:r1=x", { 0, 0 } },
    [LB] = { "lb", 2, 2, "T0:r0=x T1:r1=y", { 1, 1 } },
    [IRIW] = { "iriw", 4, 4, "T2:r0=x,r1=y T3:r2=y,r3=x", { 1, 0, 1, 0 } },
    [W22] = { "2+2w", 2, 2, "final x,y", { 1, 1 } },
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

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* Half the iterations start at once, the others after a random busy delay
 * of up to maxdelay microseconds (a miss costs tens of microseconds, so
 * this shifts the racing accesses against each other). */
static void random_delay(int maxdelay)
{
    uint64_t r = next_rand();
    if (maxdelay <= 0 || (r & 1))
        return;
    double until = now_us() + (double)((r >> 1) % (uint64_t)maxdelay);
    while (now_us() < until)
        ;
}

static void usage(void)
{
    if (me == 0)
        fprintf(stderr, "usage: mn_litmus -t mp|sb|lb|iriw|2+2w [-i ITERS] [-l diff|same|both]"
                        " [-s SYNC] [-d MAXDELAY_US] [-r SEED]\n");
    dsm_finalize();
    exit(2);
}

/* Run one test in one layout; returns the number of forbidden outcomes seen
 * by this node's group (only the group's T0 counts them). */
static long run(int t, int same, long iters, long sync, int maxdelay)
{
    const struct test *tc = &tests[t];
    int T = tc->threads, groups = nodes / T;
    int active = me < groups * T, g = me / T, role = me % T;
    size_t slots = (size_t)iters * (size_t)groups;
    volatile int *X, *Y;
    int stride;
    if (same) {
        /* x and y of a slot are adjacent ints: 8-byte aligned, one block */
        X = dsm_alloc(2 * slots * sizeof(int), "litmus.xy");
        Y = X ? X + 1 : NULL;
        stride = 2;
    } else {
        X = dsm_alloc(slots * sizeof(int), "litmus.x");
        Y = dsm_alloc(slots * sizeof(int), "litmus.y");
        stride = 1;
    }
    /* results of every node, read by the group's T0 after the run */
    int *res = dsm_alloc((size_t)nodes * (size_t)iters * 2 * sizeof(int), "litmus.results");
    int *mine = calloc((size_t)iters * 2, sizeof(int));
    if (!X || !Y || !res || !mine) {
        fprintf(stderr, "mn_litmus: node %d: allocation failed (%ld iterations)\n", me, iters);
        exit(1);
    }

    dsm_barrier();
    double t0 = dsm_wtime();
    for (long i = 0; i < iters; i++) {
        if (i % sync == 0)
            dsm_barrier();
        if (!active)
            continue;
        size_t s = ((size_t)i * (size_t)groups + (size_t)g) * (size_t)stride;
        volatile int *x = &X[s], *y = &Y[s];
        int *r = &mine[2 * i];
        random_delay(maxdelay);
        switch (t) {
        case MP:
            if (role == 0) { *x = 1; *y = 1; }
            else { r[0] = *y; r[1] = *x; }
            break;
        case SB:
            if (role == 0) { *x = 1; r[0] = *y; }
            else { *y = 1; r[0] = *x; }
            break;
        case LB:
            if (role == 0) { r[0] = *x; *y = 1; }
            else { r[0] = *y; *x = 1; }
            break;
        case IRIW:
            if (role == 0) *x = 1;
            else if (role == 1) *y = 1;
            else if (role == 2) { r[0] = *x; r[1] = *y; }
            else { r[0] = *y; r[1] = *x; }
            break;
        case W22:
            if (role == 0) { *x = 1; *y = 2; }
            else { *y = 1; *x = 2; }
            break;
        }
    }
    dsm_barrier();
    double el = dsm_wtime() - t0;
    memcpy(&res[(size_t)me * (size_t)iters * 2], mine, (size_t)iters * 2 * sizeof(int));
    dsm_barrier();

    long forbidden = 0;
    if (active && role == 0) {
        /* outcome digits are 0..2: histogram over base-3 codes */
        long hist[81] = { 0 };
        int bad_val = 0;
        for (long i = 0; i < iters; i++) {
            int v[4] = { 0 };
            const int *r0 = &res[((size_t)(g * T) * (size_t)iters + (size_t)i) * 2];
            const int *r1 = &res[((size_t)(g * T + 1) * (size_t)iters + (size_t)i) * 2];
            size_t s = ((size_t)i * (size_t)groups + (size_t)g) * (size_t)stride;
            switch (t) {
            case MP: v[0] = r1[0]; v[1] = r1[1]; break;
            case SB: case LB: v[0] = r0[0]; v[1] = r1[0]; break;
            case IRIW: {
                const int *r2 = &res[((size_t)(g * T + 2) * (size_t)iters + (size_t)i) * 2];
                const int *r3 = &res[((size_t)(g * T + 3) * (size_t)iters + (size_t)i) * 2];
                v[0] = r2[0]; v[1] = r2[1]; v[2] = r3[0]; v[3] = r3[1];
                break;
            }
            case W22: v[0] = X[s]; v[1] = Y[s]; break;
            }
            int code = 0, forb = 1;
            for (int k = 0; k < tc->nres; k++) {
                if (v[k] < 0 || v[k] > 2) {
                    if (bad_val++ < 5)
                        fprintf(stderr, "mn_litmus: node %d: FAIL %s/%s group %d iteration %ld: "
                                "impossible value %d\n", me, tc->name, same ? "same" : "diff", g, i, v[k]);
                    v[k] = 0;
                }
                code = code * 3 + v[k];
                forb &= v[k] == tc->forbidden[k];
            }
            hist[code]++;
            if (forb && forbidden++ < 5)
                fprintf(stderr, "mn_litmus: node %d: FAIL %s/%s group %d (nodes %d-%d) iteration %ld: "
                        "forbidden outcome seen\n", me, tc->name, same ? "same" : "diff", g,
                        g * T, g * T + T - 1, i);
        }
        char line[1024];
        int len = snprintf(line, sizeof line, "mn_litmus: %s/%s group %d (nodes %d-%d): %ld iterations, "
                           "%.2f s; outcomes %s:", tc->name, same ? "same" : "diff", g, g * T,
                           g * T + T - 1, iters, el, tc->vars);
        int ncodes = 1;
        for (int k = 0; k < tc->nres; k++)
            ncodes *= 3;
        for (int c = 0; c < ncodes && len < (int)sizeof line - 40; c++) {
            if (!hist[c])
                continue;
            char digits[5] = { 0 };
            for (int k = tc->nres - 1, cc = c; k >= 0; k--, cc /= 3)
                digits[k] = (char)('0' + cc % 3);
            int forb = 1;
            for (int k = 0; k < tc->nres; k++)
                forb &= digits[k] - '0' == tc->forbidden[k];
            len += snprintf(line + len, sizeof line - (size_t)len, " %s=%ld%s", digits, hist[c],
                            forb ? "(FORBIDDEN)" : "");
        }
        printf("%s\n", line);
        fflush(stdout);
        forbidden += bad_val;
    }
    free(mine);
    /* The arrays are not freed: dsm_alloc memory lives until dsm_finalize. */
    return forbidden;
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv) != 0) {
        perror("mn_litmus: dsm_init");
        return 1;
    }
    me = dsm_node();
    nodes = dsm_nodes();
    int t = -1, maxdelay = 20;
    long iters = 10000, sync = 1;
    unsigned long seed = 12345;
    const char *layout = "both";
    int c;
    while ((c = getopt(argc, argv, "t:i:l:s:d:r:")) != -1) {
        switch (c) {
        case 't':
            for (size_t k = 0; k < sizeof tests / sizeof tests[0]; k++)
                if (strcmp(optarg, tests[k].name) == 0 ||
                    (k == W22 && strcmp(optarg, "2p2w") == 0))
                    t = (int)k;
            break;
        case 'i': iters = atol(optarg); break;
        case 'l': layout = optarg; break;
        case 's': sync = atol(optarg); break;
        case 'd': maxdelay = atoi(optarg); break;
        case 'r': seed = strtoul(optarg, NULL, 0); break;
        default: usage();
        }
    }
    if (t < 0 || iters < 1 || sync < 1 || optind != argc ||
        (strcmp(layout, "diff") && strcmp(layout, "same") && strcmp(layout, "both")))
        usage();
    if (nodes < tests[t].threads) {
        if (me == 0)
            fprintf(stderr, "mn_litmus: %s needs at least %d nodes, this job has %d\n",
                    tests[t].name, tests[t].threads, nodes);
        dsm_finalize();
        return 2;
    }
    rng = (seed + 1) * 0x9E3779B97F4A7C15ull + (uint64_t)me * 0xBF58476D1CE4E5B9ull;
    if (!rng)
        rng = 1;

    long forbidden = 0;
    if (strcmp(layout, "same") != 0)
        forbidden += run(t, 0, iters, sync, maxdelay);
    if (strcmp(layout, "diff") != 0)
        forbidden += run(t, 1, iters, sync, maxdelay);
    if (forbidden)
        fprintf(stderr, "mn_litmus: node %d: FAIL %s: %ld forbidden outcomes\n", me,
                tests[t].name, forbidden);
    dsm_finalize();
    return forbidden ? 1 : 0;
}
