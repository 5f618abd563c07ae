/* bench_profile.c - the cost of the data-centric profile: every application
 * run with the profile on (everything: names, miss causes, code attribution,
 * twins and diffs, timeslices) and with DSM_PROFILE=off.  Target: at most 3%
 * (the paper's figure for per-structure profiling), twin and diff included.
 *
 * Method: each application is a child job (dsmrun -n NODES), run PAIRS times
 * per setting, interleaved on/off, off/on, ... so drifts of the machine fall
 * on both settings alike; the table shows the median of the loop time the
 * application prints itself (the measured phase, which is what profiling
 * slows down) and, apart, the median wall time of the whole job (start-up,
 * and at finalize the gathering, symbolization and the JSON file, paid once).
 * Medians, not minima: a run can land in a fast or a slow polling mode, and
 * one lucky run moves a minimum.
 * The counters (DSM_COUNTERS) are on in both settings: the profile is built
 * on them, their own cost is bench_patterns'.
 *
 * Run: bench/bench_profile [--pairs K] [--nodes N] [--quick]   (make run-bench)
 *      from the build directory, or with DSMRUN and APPS (directory) set. */
#define _GNU_SOURCE 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"

#define TARGET_PCT 3.0
#define MAX_PAIRS 64

typedef struct app {
    const char *label, *prog, *args, *key; /* key: the line that has the time */
} app;

/* sizes for loops of 0.2 to 2 s on 4 nodes of a small machine */
static const app apps[] = {
    { "jacobi", "jacobi", "512 1000", "jacobi: " },
    { "matmul", "matmul", "768", "matmul: " },
    { "particles v2", "particles", "--version 2 4096 20", "particles: time " },
    { "particles v3", "particles", "--version 3 16384 40", "particles: time " },
};
#define NAPPS (sizeof apps / sizeof apps[0])

/* The loop time an application printed: "particles: time T s", or the last
 * ", T s" of "jacobi: ..." / "matmul: ..." (the line with the checksum). */
static int loop_time(const app *a, const char *line, double *t)
{
    if (strncmp(line, a->key, strlen(a->key)))
        return 0;
    if (!strcmp(a->prog, "particles"))
        return sscanf(line + strlen(a->key), "%lf", t) == 1;
    if (!strstr(line, "checksum"))
        return 0;
    const char *c = strrchr(line, ',');
    return c && sscanf(c + 1, "%lf s", t) == 1;
}

/* One child job; 0 with its loop and job wall times, or -1 after a message. */
static int run(const char *dsmrun, const char *dir, int nodes, const app *a, int profile,
               const char *tmp, double *loop, double *wall)
{
    char cmd[16384], prof[4300], line[1024];
    if (profile)
        snprintf(prof, sizeof prof, "%s/bench_profile.json", tmp);
    else
        snprintf(prof, sizeof prof, "off");
    snprintf(cmd, sizeof cmd,
             "cd '%s' && DSM_PROFILE='%s' DSM_PROFILE_SUMMARY=off '%s' -n %d --timeout 300 "
             "'%s/%s' %s 2>&1",
             tmp, prof, dsmrun, nodes, dir, a->prog, a->args);
    double t0 = bench_now();
    FILE *f = popen(cmd, "r");
    if (!f) {
        perror("bench_profile: popen");
        return -1;
    }
    int got = 0, ok = 0;
    while (fgets(line, sizeof line, f)) {
        got |= loop_time(a, line, loop);
        ok |= strstr(line, "result OK") != NULL;
    }
    int st = pclose(f);
    *wall = bench_now() - t0;
    if (st != 0 || !got || !ok) {
        fprintf(stderr, "bench_profile: %s (profile %s) failed (status %d%s%s): %s\n", a->label,
                profile ? "on" : "off", st, got ? "" : ", no loop time", ok ? "" : ", no result OK",
                cmd);
        return -1;
    }
    if (profile && access(prof, R_OK)) {
        fprintf(stderr, "bench_profile: %s wrote no profile %s\n", a->label, prof);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int pairs = 5, nodes = 4;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--pairs") && i + 1 < argc)
            pairs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--nodes") && i + 1 < argc)
            nodes = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--quick"))
            pairs = 1;
        else {
            fprintf(stderr, "usage: bench_profile [--pairs K] [--nodes N] [--quick]\n");
            return 1;
        }
    }
    if (pairs < 1 || pairs > MAX_PAIRS || nodes < 1) {
        fprintf(stderr, "bench_profile: --pairs 1..%d, --nodes >= 1\n", MAX_PAIRS);
        return 1;
    }
    /* the launcher and the apps: next to this program unless told */
    char here[4096], dsmrun[4200], dir[4200];
    if (bench_build_dir(here, sizeof here)) {
        perror("bench_profile: /proc/self/exe");
        return 1;
    }
    snprintf(dsmrun, sizeof dsmrun, "%s", getenv("DSMRUN") ? getenv("DSMRUN") : "");
    if (!*dsmrun)
        snprintf(dsmrun, sizeof dsmrun, "%s/dsmrun", here);
    snprintf(dir, sizeof dir, "%s", getenv("APPS") ? getenv("APPS") : "");
    if (!*dir)
        snprintf(dir, sizeof dir, "%s/apps", here);
    char tmp[] = "/tmp/bench_profile.XXXXXX";
    if (!mkdtemp(tmp)) {
        perror("bench_profile: mkdtemp");
        return 1;
    }

    printf("bench_profile: profile on (names, causes, code attribution, twins and diffs, "
           "timeslices) vs DSM_PROFILE=off\n");
    printf("%d nodes, %d runs per setting, interleaved; medians; target: overhead <= %.0f%%\n\n",
           nodes, pairs, TARGET_PCT);
    printf("%-14s %-26s %10s %10s %9s   %10s %10s %9s\n", "application", "arguments", "loop off",
           "loop on", "overhead", "job off", "job on", "overhead");
    int met = 1, failed = 0;
    double worst = 0;
    for (size_t k = 0; k < NAPPS; k++) {
        const app *a = &apps[k];
        double loop[2][MAX_PAIRS], wall[2][MAX_PAIRS];
        int bad = 0;
        for (int i = 0; i < pairs && !bad; i++)
            for (int j = 0; j < 2 && !bad; j++) {
                int on = (i + j) % 2 == 0; /* on/off, off/on, ... */
                bad = run(dsmrun, dir, nodes, a, on, tmp, &loop[on][i], &wall[on][i]);
            }
        if (bad) {
            failed = 1;
            continue;
        }
        double l0 = bench_median(loop[0], pairs), l1 = bench_median(loop[1], pairs);
        double w0 = bench_median(wall[0], pairs), w1 = bench_median(wall[1], pairs);
        double ov = 100.0 * (l1 - l0) / l0, ovw = 100.0 * (w1 - w0) / w0;
        if (ov > worst)
            worst = ov;
        if (ov > TARGET_PCT)
            met = 0;
        printf("%-14s %-26s %8.3f s %8.3f s %+8.1f%%   %8.3f s %8.3f s %+8.1f%%\n", a->label,
               a->args, l0, l1, ov, w0, w1, ovw);
        fflush(stdout);
    }
    char rm[4200];
    snprintf(rm, sizeof rm, "rm -rf '%s'", tmp);
    if (system(rm) != 0)
        fprintf(stderr, "bench_profile: could not remove %s\n", tmp);
    if (failed) {
        printf("\nbench_profile: some runs failed (above): no verdict\n");
        return 1;
    }
    printf("\nloop-time overhead of the profile (medians): worst %+.1f%%: target <= %.0f%% %s\n",
           worst, TARGET_PCT, met ? "MET" : "NOT MET");
    return 0;
}
