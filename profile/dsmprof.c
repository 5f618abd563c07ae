/* dsmprof.c - reports from a dsm-profile/1 file (doc/profile-format.md),
 * without the program: MemSpy-like rankings (report), one CSV table per
 * view (csv), and a before/after comparison of two runs (diff).
 * Bad input (a missing file, not JSON, another schema) is one line on
 * stderr and exit status 2; a bad command line is exit status 1. */
#include <errno.h>
#include <getopt.h>
#include <json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dsmprof_cmds.h"
#include "dsmprof_sim.h"

#define SCHEMA "dsm-profile/1"

static const char *prog = "dsmprof";

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: dsmprof report FILE [--structure NAME] [--top N]\n"
            "       dsmprof csv FILE [--view VIEW]\n"
            "       dsmprof diff BEFORE AFTER\n"
            "       dsmprof html FILE [-o OUT.html] [--title TEXT] [--threshold-NAME=PCT]...\n"
            "       dsmprof advice FILE [--first] [--threshold-NAME=PCT]...\n"
            "       dsmprof memspy FILE [--bin NAME] [--top N]\n"
            "       dsmprof flashpoint RUN CONTROL\n"
            "Reports from a DSM profile (dsm-profile/1, written by every run at dsm_finalize),\n"
            "and from a simulated run's statistics (dsm-sim/1, written by dsmrun --machine).\n"
            "\n"
            "  report      rankings by structure, by procedure, by (procedure, structure)\n"
            "              pair, and per node; --structure NAME: that structure in detail\n"
            "              (miss kinds and causes, patterns, hottest blocks, false-sharing\n"
            "              offsets); --top N: rows per ranking (default 10)\n"
            "  csv         one table per view: structures, procedures, pairs, nodes, blocks,\n"
            "              false_sharing; --view VIEW: only that one\n"
            "  diff        memory blocking time, misses and false sharing per structure,\n"
            "              before and after\n"
            "  html        one self-contained page with SVG charts (dsmprof html --help)\n"
            "  advice      the findings of the bottleneck search (doc/advice.md)\n"
            "  memspy      MemSpy's displays of a simulated run (dsmprof memspy --help)\n"
            "  flashpoint  FlashPoint's tables of a simulated FLASH run against its control run\n"
            "  -h, --help  show this help and exit\n"
            "  --version   show the version and exit\n"
            "\n"
            "Exit status: 0 ok, 1 bad usage, 2 bad input (missing file, not JSON, wrong schema,\n"
            "unknown structure).\n");
}

static void bad_input(const char *file, const char *why)
{
    fprintf(stderr, "%s: %s: %s\n", prog, file, why);
    exit(2);
}

static json_object *load(const char *file)
{
    FILE *f = fopen(file, "r");
    if (!f)
        bad_input(file, strerror(errno));
    fclose(f);
    json_object *root = json_object_from_file(file);
    if (!root || !json_object_is_type(root, json_type_object))
        bad_input(file, "not a JSON profile (expected a JSON object)");
    json_object *s;
    if (!json_object_object_get_ex(root, "schema", &s) || !json_object_is_type(s, json_type_string))
        bad_input(file, "no \"schema\": not a DSM profile");
    if (strcmp(json_object_get_string(s), SCHEMA)) {
        char why[256];
        snprintf(why, sizeof why, "schema is \"%.100s\", this dsmprof reads \"%s\"",
                 json_object_get_string(s), SCHEMA);
        bad_input(file, why);
    }
    json_object *st;
    if (!json_object_object_get_ex(root, "structures", &st) ||
        !json_object_is_type(st, json_type_array))
        bad_input(file, "no \"structures\" list");
    return root;
}

/* ---- access helpers: a missing member reads as 0 / "" / empty ---- */

static json_object *get(json_object *o, const char *k)
{
    json_object *v;
    return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

static uint64_t u(json_object *o, const char *k)
{
    json_object *v = get(o, k);
    return v ? (uint64_t)json_object_get_uint64(v) : 0;
}

static double d(json_object *o, const char *k)
{
    json_object *v = get(o, k);
    return v ? json_object_get_double(v) : 0.0;
}

static const char *s_(json_object *o, const char *k)
{
    json_object *v = get(o, k);
    return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
}

static size_t len(json_object *a)
{
    return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

static json_object *at(json_object *a, size_t i) { return json_object_array_get_idx(a, i); }

static double ms(uint64_t ns) { return (double)ns / 1e6; }

static uint64_t misses_of(json_object *m)
{
    return u(m, "stacheReadMisses") + u(m, "homeReadMisses") + u(m, "stacheWriteRO") +
           u(m, "homeWriteRO") + u(m, "stacheWriteInv") + u(m, "homeWriteInv");
}

static json_object *find_structure(json_object *root, const char *name)
{
    json_object *st = get(root, "structures");
    for (size_t i = 0; i < len(st); i++)
        if (!strcmp(s_(at(st, i), "name"), name))
            return at(st, i);
    return NULL;
}

static void print_ranges(FILE *f, json_object *ranges)
{
    for (size_t k = 0; k < len(ranges); k++) {
        json_object *r = at(ranges, k);
        fprintf(f, "%s[%llu,%llu)", k ? " " : "",
                (unsigned long long)json_object_get_uint64(at(r, 0)),
                (unsigned long long)json_object_get_uint64(at(r, 1)));
    }
}

/* ---- report ---- */

static void report_structure(json_object *root, json_object *s, int top)
{
    json_object *m = get(s, "metrics"), *c = get(s, "causes"), *p = get(s, "patterns"),
                *fs = get(s, "false_sharing");
    printf("Structure %s (%s): %llu bytes, %llu blocks, %llu allocation(s), dominant pattern %s\n",
           s_(s, "name"), s_(s, "kind"), (unsigned long long)u(s, "bytes"),
           (unsigned long long)u(s, "blocks"), (unsigned long long)u(s, "allocations"),
           s_(s, "dominant_pattern"));
    json_object *site = get(s, "site");
    if (site) {
        printf("  allocated at %s (%s:%llu), call path:", s_(site, "function"), s_(site, "file"),
               (unsigned long long)u(site, "line"));
        json_object *path = get(site, "path");
        for (size_t i = 0; i < len(path); i++)
            printf("%s %s", i ? " <" : "", json_object_get_string(at(path, i)));
        printf("\n");
    }
    printf("  memory blocking time %.3f ms, page faults %llu\n", ms(u(m, "memoryBlockTime")),
           (unsigned long long)u(m, "pageFaults"));
    printf("  misses by kind:  stacheReadMisses %llu  homeReadMisses %llu  stacheWriteRO %llu  "
           "homeWriteRO %llu  stacheWriteInv %llu  homeWriteInv %llu\n",
           (unsigned long long)u(m, "stacheReadMisses"), (unsigned long long)u(m, "homeReadMisses"),
           (unsigned long long)u(m, "stacheWriteRO"), (unsigned long long)u(m, "homeWriteRO"),
           (unsigned long long)u(m, "stacheWriteInv"), (unsigned long long)u(m, "homeWriteInv"));
    printf("  invalidations:   invRO %llu  invRW %llu\n", (unsigned long long)u(m, "invRO"),
           (unsigned long long)u(m, "invRW"));
    printf("  misses by cause: cold %llu (first touch %llu)  invalidation %llu  upgrade %llu; "
           "blocked %.3f / %.3f / %.3f ms\n",
           (unsigned long long)u(c, "cold"), (unsigned long long)u(c, "cold_first_touch"),
           (unsigned long long)u(c, "invalidation"), (unsigned long long)u(c, "upgrade"),
           ms(u(c, "cold_wall")), ms(u(c, "invalidation_wall")), ms(u(c, "upgrade_wall")));
    json_object *cpn = get(c, "per_node");
    for (size_t n = 0; n < len(cpn); n++) {
        json_object *x = at(cpn, n);
        printf("    node %zu: cold %llu  invalidation %llu  upgrade %llu\n", n,
               (unsigned long long)u(x, "cold"), (unsigned long long)u(x, "invalidation"),
               (unsigned long long)u(x, "upgrade"));
    }
    printf("  blocks by dominant pattern: migratory %llu  producer_consumer %llu  group %llu  "
           "read_only %llu  none %llu\n",
           (unsigned long long)u(p, "migratory"), (unsigned long long)u(p, "producer_consumer"),
           (unsigned long long)u(p, "group"), (unsigned long long)u(p, "read_only"),
           (unsigned long long)u(p, "none"));
    printf("  false sharing: %llu transfers between writers of disjoint bytes (%.0f%% of %llu "
           "coherence misses), %llu true-sharing transfers, %llu block(s)\n",
           (unsigned long long)u(fs, "count"), 100.0 * d(fs, "share"),
           (unsigned long long)u(fs, "coherence_misses"),
           (unsigned long long)u(fs, "true_sharing_transfers"), (unsigned long long)u(fs, "blocks"));
    json_object *w = get(fs, "written");
    for (size_t i = 0; i < len(w); i++) {
        printf("    node %llu wrote bytes ", (unsigned long long)u(at(w, i), "node"));
        print_ranges(stdout, get(at(w, i), "ranges"));
        printf(" (offsets inside the block)\n");
    }
    json_object *tb = get(fs, "top_blocks");
    for (size_t i = 0; i < len(tb); i++) {
        json_object *b = at(tb, i);
        printf("    block %llu (offset %llu in the structure): %llu transfers;",
               (unsigned long long)u(b, "index"), (unsigned long long)u(b, "offset"),
               (unsigned long long)u(b, "transfers"));
        json_object *bw = get(b, "writers");
        for (size_t k = 0; k < len(bw); k++) {
            printf(" node %llu ", (unsigned long long)u(at(bw, k), "node"));
            print_ranges(stdout, get(at(bw, k), "ranges"));
        }
        printf("\n");
    }
    json_object *bl = get(s, "block_list");
    if (len(bl)) {
        /* hottest blocks: a selection by memory blocking time */
        size_t n = len(bl), shown = 0;
        char *used = calloc(n, 1);
        printf("  hottest blocks (memory blocking time):\n");
        while (used && shown < (size_t)top) {
            size_t best = n;
            for (size_t i = 0; i < n; i++)
                if (!used[i] && (best == n || u(at(bl, i), "memoryBlockTime") >
                                                  u(at(bl, best), "memoryBlockTime")))
                    best = i;
            if (best == n || !u(at(bl, best), "misses"))
                break;
            used[best] = 1;
            json_object *b = at(bl, best);
            printf("    block %-8llu offset %-10llu %9.3f ms %6llu misses  cold %llu inval %llu "
                   "upgrade %llu  %s%s\n",
                   (unsigned long long)u(b, "index"), (unsigned long long)u(b, "offset"),
                   ms(u(b, "memoryBlockTime")), (unsigned long long)u(b, "misses"),
                   (unsigned long long)u(b, "cold"), (unsigned long long)u(b, "invalidation"),
                   (unsigned long long)u(b, "upgrade"), s_(b, "pattern"),
                   u(b, "false_sharing") ? "  false sharing" : "");
            shown++;
        }
        free(used);
    } else if (u(s, "blocks") > u(root, "block_list_limit")) {
        printf("  (more than %llu blocks: no per-block list in the profile)\n",
               (unsigned long long)u(root, "block_list_limit"));
    }
    json_object *pairs = get(root, "pairs");
    int any = 0;
    for (size_t i = 0; i < len(pairs); i++) {
        json_object *x = at(pairs, i);
        if (strcmp(s_(x, "structure"), s_(s, "name")))
            continue;
        if (!any++)
            printf("  procedures touching it:\n");
        printf("    %-32s %9.3f ms %6llu misses (read %llu, write %llu, upgrade %llu)\n",
               s_(x, "procedure"), ms(u(x, "wall")), (unsigned long long)u(x, "misses"),
               (unsigned long long)u(x, "read_misses"), (unsigned long long)u(x, "write_misses"),
               (unsigned long long)u(x, "upgrades"));
    }
}

static int cmd_report(const char *file, const char *structure, int top)
{
    json_object *root = load(file);
    if (structure) {
        json_object *s = find_structure(root, structure);
        if (!s) {
            char why[512];
            snprintf(why, sizeof why, "no structure named \"%.400s\"", structure);
            bad_input(file, why);
        }
        report_structure(root, s, top);
        json_object_put(root);
        return 0;
    }
    json_object *st = get(root, "structures"), *nodes = get(root, "per_node");
    uint64_t mbt = 0;
    for (size_t n = 0; n < len(nodes); n++)
        mbt += u(at(nodes, n), "memoryBlockTime");
    printf("DSM profile %s: %llu nodes, %llu-byte blocks, %.3f s, memory blocking time %.3f ms "
           "(all nodes)\n",
           file, (unsigned long long)u(root, "nodes"), (unsigned long long)u(root, "block_size"),
           d(root, "wall_seconds"), ms(mbt));
    printf("\nBy structure (memory blocking time):\n");
    printf("  %-32s %10s %6s %8s %8s %8s %8s %-17s %s\n", "structure", "ms", "%", "misses", "cold",
           "inval", "upgrade", "pattern", "false sharing");
    for (size_t i = 0; i < len(st) && i < (size_t)top; i++) {
        json_object *s = at(st, i), *m = get(s, "metrics"), *c = get(s, "causes"),
                    *fs = get(s, "false_sharing");
        uint64_t t = u(m, "memoryBlockTime");
        printf("  %-32s %10.3f %6.1f %8llu %8llu %8llu %8llu %-17s %llu\n", s_(s, "name"), ms(t),
               mbt ? 100.0 * (double)t / (double)mbt : 0.0, (unsigned long long)misses_of(m),
               (unsigned long long)u(c, "cold"), (unsigned long long)u(c, "invalidation"),
               (unsigned long long)u(c, "upgrade"), s_(s, "dominant_pattern"),
               (unsigned long long)u(fs, "count"));
    }
    json_object *pr = get(root, "procedures");
    printf("\nBy procedure (time blocked in its misses):\n");
    printf("  %-32s %-24s %10s %8s %8s %8s %8s\n", "procedure", "file:line", "ms", "misses", "read",
           "write", "upgrade");
    for (size_t i = 0; i < len(pr) && i < (size_t)top; i++) {
        json_object *x = at(pr, i);
        char fl[256];
        snprintf(fl, sizeof fl, "%s:%llu", s_(x, "file"), (unsigned long long)u(x, "line"));
        printf("  %-32s %-24s %10.3f %8llu %8llu %8llu %8llu\n", s_(x, "name"), fl,
               ms(u(x, "wall")), (unsigned long long)u(x, "misses"),
               (unsigned long long)u(x, "read_misses"), (unsigned long long)u(x, "write_misses"),
               (unsigned long long)u(x, "upgrades"));
    }
    json_object *pa = get(root, "pairs");
    printf("\nBy (procedure, structure):\n");
    printf("  %-32s %-32s %10s %8s\n", "procedure", "structure", "ms", "misses");
    for (size_t i = 0; i < len(pa) && i < (size_t)top; i++) {
        json_object *x = at(pa, i);
        printf("  %-32s %-32s %10.3f %8llu\n", s_(x, "procedure"), s_(x, "structure"),
               ms(u(x, "wall")), (unsigned long long)u(x, "misses"));
    }
    printf("\nPer node:\n");
    printf("  %4s %12s %12s %12s %10s\n", "node", "blocking ms", "barrier ms", "lock wait ms",
           "barriers");
    for (size_t n = 0; n < len(nodes); n++) {
        json_object *x = at(nodes, n);
        printf("  %4zu %12.3f %12.3f %12.3f %10llu\n", n, ms(u(x, "memoryBlockTime")),
               ms(u(x, "barrier_wait")), ms(u(x, "lock_wait")),
               (unsigned long long)u(x, "barriers"));
    }
    json_object_put(root);
    return 0;
}

/* ---- csv ---- */

static void csv_str(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"')
            putchar('"');
        putchar(*s);
    }
    putchar('"');
}

static const char *views[] = { "structures", "procedures", "pairs", "nodes", "blocks",
                               "false_sharing", NULL };

static void csv_view(json_object *root, const char *view)
{
    json_object *st = get(root, "structures");
    if (!strcmp(view, "structures")) {
        printf("name,kind,bytes,blocks,dominant_pattern,memoryBlockTime,misses,stacheReadMisses,"
               "homeReadMisses,stacheWriteRO,homeWriteRO,stacheWriteInv,homeWriteInv,invRO,invRW,"
               "cold,cold_first_touch,invalidation,upgrade,migratory,producer_consumer,group,"
               "read_only,none,false_sharing,false_sharing_share\n");
        for (size_t i = 0; i < len(st); i++) {
            json_object *s = at(st, i), *m = get(s, "metrics"), *c = get(s, "causes"),
                        *p = get(s, "patterns"), *fs = get(s, "false_sharing");
            csv_str(s_(s, "name"));
            printf(",%s,%llu,%llu,%s,%llu,%llu", s_(s, "kind"), (unsigned long long)u(s, "bytes"),
                   (unsigned long long)u(s, "blocks"), s_(s, "dominant_pattern"),
                   (unsigned long long)u(m, "memoryBlockTime"), (unsigned long long)misses_of(m));
            static const char *mk[] = { "stacheReadMisses", "homeReadMisses", "stacheWriteRO",
                                        "homeWriteRO", "stacheWriteInv", "homeWriteInv",
                                        "invRO", "invRW" };
            for (size_t k = 0; k < sizeof mk / sizeof *mk; k++)
                printf(",%llu", (unsigned long long)u(m, mk[k]));
            static const char *ck[] = { "cold", "cold_first_touch", "invalidation", "upgrade" };
            for (size_t k = 0; k < sizeof ck / sizeof *ck; k++)
                printf(",%llu", (unsigned long long)u(c, ck[k]));
            static const char *pk[] = { "migratory", "producer_consumer", "group", "read_only",
                                        "none" };
            for (size_t k = 0; k < sizeof pk / sizeof *pk; k++)
                printf(",%llu", (unsigned long long)u(p, pk[k]));
            printf(",%llu,%.4f\n", (unsigned long long)u(fs, "count"), d(fs, "share"));
        }
    } else if (!strcmp(view, "procedures")) {
        printf("procedure,file,line,misses,read_misses,write_misses,upgrades,wall\n");
        json_object *pr = get(root, "procedures");
        for (size_t i = 0; i < len(pr); i++) {
            json_object *x = at(pr, i);
            csv_str(s_(x, "name"));
            putchar(',');
            csv_str(s_(x, "file"));
            printf(",%llu,%llu,%llu,%llu,%llu,%llu\n", (unsigned long long)u(x, "line"),
                   (unsigned long long)u(x, "misses"), (unsigned long long)u(x, "read_misses"),
                   (unsigned long long)u(x, "write_misses"), (unsigned long long)u(x, "upgrades"),
                   (unsigned long long)u(x, "wall"));
        }
    } else if (!strcmp(view, "pairs")) {
        printf("procedure,structure,misses,read_misses,write_misses,upgrades,wall\n");
        json_object *pa = get(root, "pairs");
        for (size_t i = 0; i < len(pa); i++) {
            json_object *x = at(pa, i);
            csv_str(s_(x, "procedure"));
            putchar(',');
            csv_str(s_(x, "structure"));
            printf(",%llu,%llu,%llu,%llu,%llu\n", (unsigned long long)u(x, "misses"),
                   (unsigned long long)u(x, "read_misses"), (unsigned long long)u(x, "write_misses"),
                   (unsigned long long)u(x, "upgrades"), (unsigned long long)u(x, "wall"));
        }
    } else if (!strcmp(view, "nodes")) {
        printf("node,memoryBlockTime,barriers,barrier_wait,lock_acquires,lock_wait\n");
        json_object *nodes = get(root, "per_node");
        for (size_t n = 0; n < len(nodes); n++) {
            json_object *x = at(nodes, n);
            printf("%zu,%llu,%llu,%llu,%llu,%llu\n", n, (unsigned long long)u(x, "memoryBlockTime"),
                   (unsigned long long)u(x, "barriers"), (unsigned long long)u(x, "barrier_wait"),
                   (unsigned long long)u(x, "lock_acquires"), (unsigned long long)u(x, "lock_wait"));
        }
    } else if (!strcmp(view, "blocks")) {
        printf("structure,index,offset,misses,memoryBlockTime,invalidations,cold,invalidation,"
               "upgrade,false_sharing,pattern\n");
        for (size_t i = 0; i < len(st); i++) {
            json_object *bl = get(at(st, i), "block_list");
            for (size_t k = 0; k < len(bl); k++) {
                json_object *b = at(bl, k);
                csv_str(s_(at(st, i), "name"));
                printf(",%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%s\n",
                       (unsigned long long)u(b, "index"), (unsigned long long)u(b, "offset"),
                       (unsigned long long)u(b, "misses"),
                       (unsigned long long)u(b, "memoryBlockTime"),
                       (unsigned long long)u(b, "invalidations"), (unsigned long long)u(b, "cold"),
                       (unsigned long long)u(b, "invalidation"), (unsigned long long)u(b, "upgrade"),
                       (unsigned long long)u(b, "false_sharing"), s_(b, "pattern"));
            }
        }
    } else { /* false_sharing: the written byte ranges per node */
        printf("structure,node,lo,hi\n");
        for (size_t i = 0; i < len(st); i++) {
            json_object *w = get(get(at(st, i), "false_sharing"), "written");
            for (size_t k = 0; k < len(w); k++) {
                json_object *r = get(at(w, k), "ranges");
                for (size_t q = 0; q < len(r); q++) {
                    csv_str(s_(at(st, i), "name"));
                    printf(",%llu,%llu,%llu\n", (unsigned long long)u(at(w, k), "node"),
                           (unsigned long long)json_object_get_uint64(at(at(r, q), 0)),
                           (unsigned long long)json_object_get_uint64(at(at(r, q), 1)));
                }
            }
        }
    }
}

static int cmd_csv(const char *file, const char *view)
{
    if (view) {
        int ok = 0;
        for (int i = 0; views[i]; i++)
            ok |= !strcmp(views[i], view);
        if (!ok) {
            fprintf(stderr, "%s: csv: unknown view '%s' (structures, procedures, pairs, nodes, "
                            "blocks, false_sharing)\n", prog, view);
            return 1;
        }
    }
    json_object *root = load(file);
    if (view) {
        csv_view(root, view);
    } else {
        for (int i = 0; views[i]; i++) {
            printf("%s# %s\n", i ? "\n" : "", views[i]);
            csv_view(root, views[i]);
        }
    }
    json_object_put(root);
    return 0;
}

/* ---- diff ---- */

static void diff_row(const char *name, json_object *a, json_object *b)
{
    json_object *ma = get(a, "metrics"), *mb = get(b, "metrics");
    json_object *ca = get(a, "causes"), *cb = get(b, "causes");
    uint64_t ta = u(ma, "memoryBlockTime"), tb = u(mb, "memoryBlockTime");
    char chg[32];
    if (a && b && ta)
        snprintf(chg, sizeof chg, "%+.1f%%", 100.0 * ((double)tb - (double)ta) / (double)ta);
    else
        snprintf(chg, sizeof chg, "%s", a && b ? "-" : a ? "gone" : "new");
    printf("  %-32s %10.3f %10.3f %8s %8llu %8llu %8llu %8llu %6llu %6llu\n", name, ms(ta), ms(tb),
           chg, (unsigned long long)misses_of(ma), (unsigned long long)misses_of(mb),
           (unsigned long long)(u(ca, "invalidation") + u(ca, "upgrade")),
           (unsigned long long)(u(cb, "invalidation") + u(cb, "upgrade")),
           (unsigned long long)u(get(a, "false_sharing"), "count"),
           (unsigned long long)u(get(b, "false_sharing"), "count"));
}

static int cmd_diff(const char *fa, const char *fb)
{
    json_object *a = load(fa), *b = load(fb);
    printf("Before: %s (%.3f s, %llu nodes)   After: %s (%.3f s, %llu nodes)\n", fa,
           d(a, "wall_seconds"), (unsigned long long)u(a, "nodes"), fb, d(b, "wall_seconds"),
           (unsigned long long)u(b, "nodes"));
    printf("  %-32s %10s %10s %8s %8s %8s %8s %8s %6s %6s\n", "structure", "before ms", "after ms",
           "change", "misses", "misses", "coher.", "coher.", "fs", "fs");
    printf("  %-32s %10s %10s %8s %8s %8s %8s %8s %6s %6s\n", "", "", "", "", "before", "after",
           "before", "after", "before", "after");
    json_object *sa = get(a, "structures"), *sb = get(b, "structures");
    for (size_t i = 0; i < len(sa); i++) {
        const char *n = s_(at(sa, i), "name");
        diff_row(n, at(sa, i), find_structure(b, n));
    }
    for (size_t i = 0; i < len(sb); i++) {
        const char *n = s_(at(sb, i), "name");
        if (!find_structure(a, n))
            diff_row(n, NULL, at(sb, i));
    }
    json_object_put(a);
    json_object_put(b);
    return 0;
}

static const char *structure, *view;
static int top = 10;

/* One parsed option: -1 to go on, or the exit status. */
static int option(int c)
{
    switch (c) {
    case 's': structure = optarg; return -1;
    case 'v': view = optarg; return -1;
    case 't': {
        char *end;
        long v = strtol(optarg, &end, 10);
        if (*end || v < 1 || v > 1000000) {
            fprintf(stderr, "%s: --top %s is not a number from 1 to 1000000\n", prog, optarg);
            return 1;
        }
        top = (int)v;
        return -1;
    }
    case 'h': usage(stdout); return 0;
    case 'V': printf("dsmprof (dsm) reads %s\n", SCHEMA); return 0;
    default: usage(stderr); return 1;
    }
}

int main(int argc, char **argv)
{
    /* html and advice parse their own options (profile/dsmprof_cmds.c) */
    if (argc >= 2 && !strcmp(argv[1], "html"))
        return dsmprof_cmd_html(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "advice"))
        return dsmprof_cmd_advice(argc - 1, argv + 1);
    /* simulated runs (dsm-sim/1): profile/dsmprof_sim.h */
    if (argc >= 2 && !strcmp(argv[1], "memspy"))
        return dsmprof_memspy(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "flashpoint"))
        return dsmprof_flashpoint(argc - 1, argv + 1);
    static const struct option opts[] = {
        { "structure", required_argument, NULL, 's' },
        { "top", required_argument, NULL, 't' },
        { "view", required_argument, NULL, 'v' },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    /* COMMAND FILE... with options before, between or after them */
    const char *pos[3];
    int npos = 0, c, rc;
    while (optind < argc) {
        if (argv[optind][0] == '-' && argv[optind][1]) {
            if ((c = getopt_long(argc, argv, "+h", opts, NULL)) == -1)
                break; /* "--" */
            if ((rc = option(c)) >= 0)
                return rc;
            continue;
        }
        if (npos == 3) {
            fprintf(stderr, "%s: too many arguments (see dsmprof --help)\n", prog);
            return 1;
        }
        pos[npos++] = argv[optind++];
    }
    while (optind < argc && npos < 3)
        pos[npos++] = argv[optind++];
    if (npos == 0) {
        usage(stderr);
        return 1;
    }
    const char *cmd = pos[0];
    if (!strcmp(cmd, "report") && npos == 2)
        return cmd_report(pos[1], structure, top);
    if (!strcmp(cmd, "csv") && npos == 2)
        return cmd_csv(pos[1], view);
    if (!strcmp(cmd, "diff") && npos == 3)
        return cmd_diff(pos[1], pos[2]);
    if (strcmp(cmd, "report") && strcmp(cmd, "csv") && strcmp(cmd, "diff"))
        fprintf(stderr, "%s: unknown command '%s' (report, csv, diff; see dsmprof --help)\n", prog,
                cmd);
    else
        fprintf(stderr, "%s: %s: wrong number of files (see dsmprof --help)\n", prog, cmd);
    return 1;
}
