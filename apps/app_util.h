/* app_util.h - small helpers shared by the issue-6 applications (fft, lu,
 * radix, ocean, mm, slots): command-line options, a deterministic hash for
 * input data, and the partition of an index range over the processors.
 *
 * Why a private parser and not getopt: under `dsmrun --machine=...` the P
 * simulated processors are contexts of ONE process and each runs main(), so
 * getopt's file-scope state (optind) would be shared and the second
 * processor would see no options.  Everything here keeps its state in the
 * caller's locals; nothing in this header writes a file-scope variable.
 *
 * Options are "--name=VALUE", "--name VALUE" or, for flags, "--name".  A
 * preset flag (--paper, or --memspy for mm) sets every option the user did
 * not give to its paper value. */
#ifndef DSM_APP_UTIL_H
#define DSM_APP_UTIL_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Small value helpers carry APP_LEAF: under dsmcc (-finstrument-functions)
 * every call of an instrumented function reports its entry and exit, which
 * would cost more than these helpers do and fill the per-procedure
 * statistics with names that touch no shared data. */
#define APP_LEAF __attribute__((no_instrument_function))

typedef struct app_opt {
    const char *name;     /* without the leading "--" */
    const char *help;
    long *value;          /* set by the parser; holds the default on entry */
    long min, max;        /* accepted range (flags: ignored) */
    long paper;           /* value under the preset flag (flags: ignored) */
    int is_flag;          /* no argument: sets *value to 1 */
    int given;            /* set by the parser when the user gave it */
} app_opt;

APP_LEAF static inline void app_usage(FILE *f, const char *prog, const app_opt *opts, int nopts,
                             const char *preset)
{
    fprintf(f, "usage: %s [options]\n", prog);
    for (int i = 0; i < nopts; i++) {
        if (opts[i].is_flag)
            fprintf(f, "  --%-12s %s\n", opts[i].name, opts[i].help);
        else
            fprintf(f, "  --%s=N%*s %s (default %ld, %s %ld, range %ld..%ld)\n", opts[i].name,
                    (int)(strlen(opts[i].name) < 10 ? 10 - strlen(opts[i].name) : 0), "",
                    opts[i].help, *opts[i].value, preset, opts[i].paper, opts[i].min,
                    opts[i].max);
    }
    fprintf(f, "  --%-12s the paper's sizes for every option not given\n", preset);
}

/* Parse an integer in [min, max] with nothing after it (no errno: strtol's
 * errno is not reliable across simulated processors sharing one thread). */
APP_LEAF static inline int app_parse_long(const char *s, long min, long max, long *out)
{
    char *end = NULL;
    if (!s || !*s)
        return -1;
    long v = strtol(s, &end, 0);
    if (!end || *end || v < min || v > max || v == LONG_MIN || v == LONG_MAX)
        return -1;
    *out = v;
    return 0;
}

/* Parse argv[1..argc-1].  preset: name of the preset flag ("paper").
 * Returns 0 when the program should run, 1 after --help (usage printed by
 * node 0), -1 on a bad argument (one line on stderr from node 0 naming it). */
APP_LEAF static inline int app_parse(const char *prog, int argc, char **argv, app_opt *opts, int nopts,
                            const char *preset, int me)
{
    int use_preset = 0;
    for (int a = 1; a < argc; a++) {
        const char *arg = argv[a];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            if (me == 0)
                app_usage(stdout, prog, opts, nopts, preset);
            return 1;
        }
        if (strncmp(arg, "--", 2) != 0) {
            if (me == 0)
                fprintf(stderr, "%s: unexpected argument '%s' (options are --name=N; --help)\n",
                        prog, arg);
            return -1;
        }
        const char *name = arg + 2, *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        if (strlen(preset) == len && strncmp(name, preset, len) == 0 && !eq) {
            use_preset = 1;
            continue;
        }
        app_opt *o = NULL;
        for (int i = 0; i < nopts; i++)
            if (strlen(opts[i].name) == len && strncmp(opts[i].name, name, len) == 0)
                o = &opts[i];
        if (!o) {
            if (me == 0)
                fprintf(stderr, "%s: unknown option '%s' (--help lists them)\n", prog, arg);
            return -1;
        }
        if (o->is_flag) {
            if (eq) {
                if (me == 0)
                    fprintf(stderr, "%s: option --%s takes no value\n", prog, o->name);
                return -1;
            }
            *o->value = 1;
            o->given = 1;
            continue;
        }
        const char *val = eq ? eq + 1 : (a + 1 < argc ? argv[++a] : NULL);
        if (app_parse_long(val, o->min, o->max, o->value) != 0) {
            if (me == 0)
                fprintf(stderr, "%s: option --%s needs an integer in %ld..%ld, got '%s'\n", prog,
                        o->name, o->min, o->max, val ? val : "(nothing)");
            return -1;
        }
        o->given = 1;
    }
    if (use_preset)
        for (int i = 0; i < nopts; i++)
            if (!opts[i].given && !opts[i].is_flag)
                *opts[i].value = opts[i].paper;
    return 0;
}

/* A 64-bit mixer (splitmix64's finaliser): input values that look random
 * but are a pure function of the index, so any node can regenerate them. */
APP_LEAF static inline uint64_t app_mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* A double in [0, 1) from the hash of i. */
APP_LEAF static inline double app_unit(uint64_t i)
{
    return (double)(app_mix64(i) >> 11) * (1.0 / 9007199254740992.0);
}

/* Processor me's share [*lo, *hi) of n items split into contiguous bands. */
APP_LEAF static inline void app_band(long n, int me, int nprocs, long *lo, long *hi)
{
    *lo = n * me / nprocs;
    *hi = n * (me + 1) / nprocs;
}

#endif
