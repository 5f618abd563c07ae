/* bench_sim.c - the speed of the simulated machines: simulated
 * references per second and the slowdown of a simulated run against the
 * native run of the same binary.  Targets: full statistics at most 30x
 * native, time sampling at most 8x (MemSpy reached 30-50x and 8-25x).
 *
 * For each issue-6 application (apps/fft, lu, radix, ocean, mm) at the
 * paper sizes (--quick: small sizes) five settings are timed, as the CPU
 * time (user + system) of the whole process (start-up and the statistics
 * file included; CPU rather than wall time, as the development machine is
 * shared and loaded):
 *   native   the plain -O2 program (bench/plain_APP: the same source built
 *            without dsmcc's hooks, one node), the reference of the
 *            slowdowns,
 *   hooks    the instrumented program natively (no DSM_MACHINE: its hooks
 *            off), for information,
 *   full     the uniform machine, P processors, every statistic,
 *   sampled  the uniform machine with time sampling: statistics in windows of
 *            SAMPLE_LENGTH references every SAMPLE_PERIOD (stale caches count
 *            the machine's references; 10%, as in MemSpy Ch. 6, whose runs
 *            used a 10% ratio and 0.5M-3M references per sample),
 *   flash    the FLASH machine (control mode), for information (no target).
 * Each setting runs RUNS times, the settings interleaved (and rotated from
 * round to round) so drifts of a shared machine fall on all alike; the table
 * shows medians.  DSM_PROFILE=off and DSM_PROFILE_SUMMARY=off in every run
 * (the DSM's own profile is not what is measured).  The sampled run's
 * estimates (Eq. 6.1, protocol/sim/memspy.c) are compared with the full
 * run's counts: total misses and miss rate.
 *
 * Run: bench/bench_sim [--runs K] [--procs P] [--quick] [--no-flash]
 *      from the build directory (make run-bench), or with APPS (directory of
 *      the applications) and LIBDIR (of libdsm, for the real programs behind
 *      libtool's wrappers) set. */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"

#define FULL_TARGET 30.0
#define SAMPLED_TARGET 8.0
#define SAMPLE_PERIOD 1000000
#define SAMPLE_LENGTH 100000
#define MAX_RUNS 32

typedef struct app {
    const char *name, *paper_args, *quick_args;
} app;

static const app apps[] = {
    {"fft", "--paper", "--m=12"},
    {"lu", "--paper", "--n=128"},
    {"radix", "--paper", "--keys=65536"},
    {"ocean", "--paper", "--n=64 --iters=10"},
    {"mm", "--memspy", "--n=64"},
};
#define NAPPS (sizeof apps / sizeof apps[0])

enum { NATIVE, HOOKS, FULL, SAMPLED, FLASH, NSETTINGS };
static const char *const setting_names[NSETTINGS] = {"native", "hooks", "full", "sampled",
                                                     "flash"};

/* The whole of a small file, NUL-terminated (malloc'd), or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1)
            break;
        char *b = realloc(buf, cap *= 2);
        if (!b) {
            free(buf);
            buf = NULL;
        }
        buf = b;
    }
    fclose(f);
    if (buf)
        buf[n] = '\0';
    return buf;
}

/* A number in a JSON text reached by a path of keys, each looked for after
 * the previous one (enough for the dsm-sim/1 files, whose keys come in a
 * fixed order); an object in the last place gives its "value".  NaN when
 * absent. */
static double json_path(const char *text, const char *const *keys)
{
    const char *at = text;
    for (; at && *keys; keys++) {
        char k[80];
        snprintf(k, sizeof k, "\"%s\":", *keys);
        at = strstr(at, k);
        if (at)
            at += strlen(k);
    }
    if (!at)
        return 0.0 / 0.0;
    while (*at == ' ' || *at == '\n')
        at++;
    if (*at == '{') {
        at = strstr(at, "\"value\":");
        if (!at)
            return 0.0 / 0.0;
        at += strlen("\"value\":");
    }
    char *end;
    double v = strtod(at, &end);
    return end == at ? 0.0 / 0.0 : v;
}

typedef struct paths {
    char prog[4300];     /* the program run (the real one when libtool wraps it) */
    char plain[4300];    /* the plain -O2 build of the same source */
    char libpath[12800];  /* LD_LIBRARY_PATH for it ("" to leave alone) */
    char tmp[64];
} paths;

typedef struct outcome {
    double wall;
    double refs;        /* from the summary line (simulated runs) */
} outcome;

/* One run of app in a setting; 0, or -1 after a message. */
static int run(const paths *ps, const app *a, const char *args, int setting, int procs,
               const char *stats, outcome *out)
{
    char log[128], mach[128], nprocs[16];
    snprintf(log, sizeof log, "%s/out", ps->tmp);
    snprintf(nprocs, sizeof nprocs, "%d", procs);
    if (setting == SAMPLED)
        snprintf(mach, sizeof mach, "uniform,sample_period=%d,sample_length=%d", SAMPLE_PERIOD,
                 SAMPLE_LENGTH);
    else
        snprintf(mach, sizeof mach, "%s", setting == FLASH ? "flash" : "uniform");
    char argbuf[256];
    char *argv[16];
    int argc = 0;
    argv[argc++] = (char *)ps->prog;
    snprintf(argbuf, sizeof argbuf, "%s", args);
    for (char *save = NULL, *w = strtok_r(argbuf, " ", &save); w && argc < 15;
         w = strtok_r(NULL, " ", &save))
        argv[argc++] = w;
    argv[argc] = NULL;

    double t0 = bench_now();
    pid_t pid = fork();
    if (pid < 0) {
        perror("bench_sim: fork");
        return -1;
    }
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
            _exit(126);
        setenv("DSM_PROFILE", "off", 1);
        setenv("DSM_PROFILE_SUMMARY", "off", 1);
        if (*ps->libpath)
            setenv("LD_LIBRARY_PATH", ps->libpath, 1);
        if (setting == NATIVE || setting == HOOKS) {
            unsetenv("DSM_MACHINE");
        } else {
            setenv("DSM_MACHINE", mach, 1);
            setenv("DSM_SIM_PROCS", nprocs, 1);
            setenv("DSM_SIM_PROFILE", stats, 1);
        }
        if (setting == NATIVE)
            argv[0] = (char *)ps->plain;
        execv(argv[0], argv);
        _exit(127);
    }
    int st;
    struct rusage ru;
    while (wait4(pid, &st, 0, &ru) < 0 && errno == EINTR)
        ;
    /* CPU time (user + system) of the child: on a shared, loaded machine
     * the wall time says more about the neighbours than about the run */
    (void)t0;
    out->wall = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
                (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
    char *text = slurp(log);
    char ok[64];
    snprintf(ok, sizeof ok, "%s: result OK", a->name);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || !text || !strstr(text, ok)) {
        fprintf(stderr, "bench_sim: %s %s (%s) failed (status %d); its output:\n%s\n", a->name,
                args, setting_names[setting], st, text ? text : "(none)");
        free(text);
        return -1;
    }
    out->refs = 0;
    const char *sum = strstr(text, "dsm-sim: ");
    if (sum) {
        const char *r = strstr(sum, " cycles, ");
        if (r)
            out->refs = strtod(r + strlen(" cycles, "), NULL);
    }
    free(text);
    if (setting != NATIVE && setting != HOOKS && out->refs <= 0) {
        fprintf(stderr, "bench_sim: %s (%s): no \"dsm-sim:\" summary line with the references\n",
                a->name, setting_names[setting]);
        return -1;
    }
    return 0;
}

/* The directory this program lives in, minus bench/ and .libs/: the build
 * directory. */
int main(int argc, char **argv)
{
    int runs = 3, procs = 4, quick = 0, flash = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--procs") && i + 1 < argc)
            procs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--no-flash"))
            flash = 0;
        else {
            fprintf(stderr, "usage: bench_sim [--runs K] [--procs P] [--quick] [--no-flash]\n");
            return 1;
        }
    }
    if (runs < 1 || runs > MAX_RUNS || procs < 1 || procs > 1024) {
        fprintf(stderr, "bench_sim: --runs takes 1..%d, --procs 1..1024\n", MAX_RUNS);
        return 1;
    }
    char top[4096], dir[4200];
    if (bench_build_dir(top, sizeof top)) {
        perror("bench_sim: /proc/self/exe");
        return 1;
    }
    snprintf(dir, sizeof dir, "%s", getenv("APPS") ? getenv("APPS") : "");
    if (!*dir)
        snprintf(dir, sizeof dir, "%s/apps", top);
    paths ps;
    snprintf(ps.tmp, sizeof ps.tmp, "/tmp/bench_sim.XXXXXX");
    if (!mkdtemp(ps.tmp)) {
        perror("bench_sim: mkdtemp");
        return 1;
    }

    printf("bench_sim: CPU seconds of the whole process, native vs simulated (%d processors), "
           "medians of %d interleaved runs\n", procs, runs);
    printf("full: uniform machine, all statistics; sampled: uniform,sample_period=%d,"
           "sample_length=%d (10%%); flash: control mode\n", SAMPLE_PERIOD, SAMPLE_LENGTH);
    printf("targets: full <= %.0fx native, sampled <= %.0fx native\n\n", FULL_TARGET,
           SAMPLED_TARGET);
    printf("native: the plain -O2 build (bench/plain_APP); hooks: the instrumented program "
           "natively\n");
    printf("%-6s %-18s %8s %8s %8s %7s %8s %7s %9s %9s %8s %7s %8s %8s\n", "app", "arguments",
           "native", "hooks", "full", "slow", "sampled", "slow", "Mref/s", "Mref/s", "flash",
           "slow", "est.miss", "miss rate");
    printf("%-6s %-18s %8s %8s %8s %7s %8s %7s %9s %9s %8s %7s %8s %8s\n", "", "", "s", "s", "s",
           "", "s", "", "full", "sampled", "s", "", "err", "full/est");

    double worst_full = 0, worst_sampled = 0;
    int failed = 0;
    for (size_t k = 0; k < NAPPS; k++) {
        const app *a = &apps[k];
        const char *args = quick ? a->quick_args : a->paper_args;
        snprintf(ps.prog, sizeof ps.prog, "%s/.libs/%s", dir, a->name);
        ps.libpath[0] = '\0';
        if (access(ps.prog, X_OK) == 0) { /* the real program behind libtool's wrapper */
            const char *lib = getenv("LIBDIR");
            const char *old = getenv("LD_LIBRARY_PATH");
            snprintf(ps.libpath, sizeof ps.libpath, "%s%s%s%s%s", lib ? lib : top,
                     lib ? "" : "/.libs", old && *old ? ":" : "", old && *old ? old : "", "");
        } else {
            snprintf(ps.prog, sizeof ps.prog, "%s/%s", dir, a->name);
        }
        snprintf(ps.plain, sizeof ps.plain, "%s/bench/.libs/plain_%s", top, a->name);
        if (access(ps.plain, X_OK) != 0)
            snprintf(ps.plain, sizeof ps.plain, "%s/bench/plain_%s", top, a->name);
        if (access(ps.plain, X_OK) != 0) {
            fprintf(stderr, "bench_sim: %s is not built (make bench)\n", ps.plain);
            failed = 1;
            continue;
        }
        double wall[NSETTINGS][MAX_RUNS], refs[NSETTINGS] = {0};
        char stats[NSETTINGS][128];
        int nset = flash ? NSETTINGS : FLASH, bad = 0;
        for (int s = 0; s < NSETTINGS; s++)
            snprintf(stats[s], sizeof stats[s], "%s/%s.json", ps.tmp, setting_names[s]);
        for (int r = 0; r < runs && !bad; r++)
            for (int j = 0; j < nset && !bad; j++) {
                int s = (j + r) % nset; /* rotate the order from round to round */
                outcome o = {0, 0};
                bad = run(&ps, a, args, s, procs, stats[s], &o);
                wall[s][r] = o.wall;
                refs[s] = o.refs;
            }
        if (bad) {
            failed = 1;
            continue;
        }
        double t[NSETTINGS];
        for (int s = 0; s < nset; s++)
            t[s] = bench_median(wall[s], runs);
        char *full = slurp(stats[FULL]), *smp = slurp(stats[SAMPLED]);
        double full_misses = full ? json_path(full, (const char *const[]){"totals", "misses", NULL})
                                  : 0.0 / 0.0;
        double est_misses =
            smp ? json_path(smp, (const char *const[]){"sampling", "estimates", "totals",
                                                        "misses", NULL})
                : 0.0 / 0.0;
        double est_rate =
            smp ? json_path(smp, (const char *const[]){"sampling", "miss_rate", NULL})
                : 0.0 / 0.0;
        free(full);
        free(smp);
        double full_rate = full_misses / refs[FULL];
        double sf = t[FULL] / t[NATIVE], ss = t[SAMPLED] / t[NATIVE];
        if (sf > worst_full)
            worst_full = sf;
        if (ss > worst_sampled)
            worst_sampled = ss;
        char fl[2][16] = {"-", "-"};
        if (flash) {
            snprintf(fl[0], sizeof fl[0], "%.2f", t[FLASH]);
            snprintf(fl[1], sizeof fl[1], "%.1fx", t[FLASH] / t[NATIVE]);
        }
        printf("%-6s %-18s %8.3f %8.3f %8.2f %6.1fx %8.2f %6.1fx %9.1f %9.1f %8s %7s %+7.1f%% "
               "%.2f/%.2f%%\n",
               a->name, args, t[NATIVE], t[HOOKS], t[FULL], sf, t[SAMPLED], ss,
               refs[FULL] / t[FULL] / 1e6,
               refs[SAMPLED] / t[SAMPLED] / 1e6, fl[0], fl[1],
               100.0 * (est_misses - full_misses) / full_misses, 100.0 * full_rate,
               100.0 * est_rate);
        fflush(stdout);
    }
    char rm[200];
    snprintf(rm, sizeof rm, "rm -rf '%s'", ps.tmp);
    if (system(rm) != 0)
        fprintf(stderr, "bench_sim: could not remove %s\n", ps.tmp);
    if (failed) {
        printf("\nbench_sim: some runs failed (above): no verdict\n");
        return 1;
    }
    printf("\nfull statistics: worst slowdown %.1fx: target <= %.0fx %s\n", worst_full,
           FULL_TARGET, worst_full <= FULL_TARGET ? "MET" : "NOT MET");
    printf("time sampling:   worst slowdown %.1fx: target <= %.0fx %s\n", worst_sampled,
           SAMPLED_TARGET, worst_sampled <= SAMPLED_TARGET ? "MET" : "NOT MET");
    return 0;
}
