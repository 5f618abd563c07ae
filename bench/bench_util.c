/* bench_util.c - clock, median and the build directory for the benchmarks
 * (bench_util.h). */
#define _GNU_SOURCE 1
#include "bench_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(const double *v, int n)
{
    double *t = malloc((size_t)n * sizeof *t);
    if (!t)
        return v[0];
    memcpy(t, v, (size_t)n * sizeof *v);
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    double m = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
    free(t);
    return m;
}

int bench_build_dir(char *out, size_t len)
{
    char here[4096];
    ssize_t n = readlink("/proc/self/exe", here, sizeof here - 1);
    if (n <= 0)
        return -1;
    here[n] = '\0';
    char *slash = strrchr(here, '/'); /* .../bench/prog -> .../bench */
    if (!slash)
        return -1;
    *slash = '\0';
    slash = strrchr(here, '/');
    if (slash && !strcmp(slash + 1, ".libs")) { /* a libtool wrapper's real program */
        *slash = '\0';
        slash = strrchr(here, '/');
    }
    if (slash) /* bench -> the build directory */
        *slash = '\0';
    snprintf(out, len, "%s", here);
    return 0;
}
