/* bench_util.h - what every benchmark here needs: a monotonic clock, the
 * median of a set of runs, and the build directory a bench
 * program runs from (to find dsmrun and the apps next to it). */
#ifndef DSM_BENCH_UTIL_H
#define DSM_BENCH_UTIL_H

#include <stddef.h>

/* CLOCK_MONOTONIC in seconds. */
double bench_now(void);
/* Median of v[0..n) (v is not changed; n >= 1). */
double bench_median(const double *v, int n);
/* The build directory of the running bench program (.../bench/prog, or
 * .../bench/.libs/prog for a libtool wrapper's program): 0, or -1. */
int bench_build_dir(char *out, size_t len);

#endif
