/* bench_hooks.c - what the dsmcc instrumentation costs a program that
 * runs natively (or on the DSM): every load and store calls a __tsan_* hook
 * and every function a __cyg_profile_* hook, which return at once when no
 * simulation runs.  Built with DSMCC_CFLAGS.
 *
 *   bench_hooks              native: ns per hook call, measured three ways
 *                            (direct calls, an instrumented loop against the
 *                            same loop without instrumentation, a function
 *                            call); exits 1 if the two loops disagree
 *   bench_hooks pingpong N   simulated with 2+ processors: N stores each to
 *                            the processor's own line (hits after the first),
 *                            for the context switch cost under --quantum=1 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dsm.h"

void __tsan_read4(void *p);

#define CALLS 20000000L

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static volatile int sink[1024];

static __attribute__((noinline)) long loop_instrumented(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++) {
        sink[i & 1023] = (int)i; /* one store hook */
        s += sink[(i + 7) & 1023]; /* one load hook */
    }
    return s;
}

static __attribute__((noinline, no_sanitize_thread, no_instrument_function)) long
loop_plain(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++) {
        sink[i & 1023] = (int)i;
        s += sink[(i + 7) & 1023];
    }
    return s;
}

static __attribute__((noinline)) int leaf(int x) { return x + 1; }
static __attribute__((noinline, no_instrument_function)) int leaf_plain(int x)
{
    return x + 1;
}

static double best_of(double (*f)(void))
{
    double b = 1e9;
    for (int i = 0; i < 5; i++) {
        double t = f();
        if (t < b)
            b = t;
    }
    return b;
}

static double direct(void)
{
    int x = 0;
    double t0 = now();
    for (long i = 0; i < CALLS; i++)
        __tsan_read4(&x);
    return (now() - t0) / CALLS * 1e9;
}

static double loop_diff(void)
{
    memset((void *)sink, 0, sizeof sink);
    double t0 = now();
    long a = loop_instrumented(CALLS / 2);
    double t1 = now();
    memset((void *)sink, 0, sizeof sink);
    long b = loop_plain(CALLS / 2);
    double t2 = now();
    if (a != b) {
        fprintf(stderr, "bench_hooks: the instrumented and plain loops disagree\n");
        exit(1);
    }
    double d = ((t1 - t0) - (t2 - t1)) / CALLS * 1e9; /* CALLS/2 iterations x 2 hooks */
    return d < 0 ? 0 : d;
}

static double calls_diff(void)
{
    int x = 0;
    double t0 = now();
    for (long i = 0; i < CALLS / 4; i++)
        x = leaf(x);
    double t1 = now();
    int y = 0;
    for (long i = 0; i < CALLS / 4; i++)
        y = leaf_plain(y);
    double t2 = now();
    if (x != y) {
        fprintf(stderr, "bench_hooks: the instrumented and plain calls disagree\n");
        exit(1);
    }
    /* two hooks per call (enter, exit) plus tsan's func entry/exit */
    double d = ((t1 - t0) - (t2 - t1)) / (CALLS / 4) * 1e9;
    return d < 0 ? 0 : d;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "pingpong")) {
        long n = argc > 2 ? atol(argv[2]) : 100000;
        if (dsm_init(&argc, &argv))
            return 1;
        int me = dsm_node();
        size_t stride = dsm_block_size() / sizeof(int);
        volatile int *own = dsm_alloc((size_t)dsm_nodes() * stride * sizeof(int), "own");
        double t0 = now();
        for (long i = 0; i < n; i++)
            own[(size_t)me * stride] = (int)i;
        double t = now() - t0;
        dsm_barrier();
        if (me == 0)
            printf("bench_hooks: %ld stores per processor in %.3f s host time (%.0f ns per "
                   "simulated store, switches included)\n",
                   n, t, t / (double)n / dsm_nodes() * 1e9);
        dsm_finalize();
        return 0;
    }
    double d = best_of(direct), l = best_of(loop_diff), c = best_of(calls_diff);
    printf("bench_hooks: native cost of a hook call: %.2f ns direct, %.2f ns in a loop "
           "(instrumented minus plain, per load/store); %.2f ns per instrumented function call "
           "(entry+exit hooks)\n",
           d, l, c);
    return 0;
}
