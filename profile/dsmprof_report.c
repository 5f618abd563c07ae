/* dsmprof_report.c - `dsmprof report`, `csv` and `diff`: text from a
 * dsm-profile/2 file (doc/profile-format.md), without the program:
 * MemSpy-like rankings (report), one CSV table per view (csv), and a
 * before/after comparison of two runs (diff).  The documents come from
 * dsmprof_load, so every field read here has its schema's type and range
 * (pschema_defs.c); a member a writer left out reads as 0 or "". */
#include "dsmprof.h"

#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pjson.h"

/* a name from the file, as the terminal may see it */
static const char *s_(json_object *o, const char *k) { return ptext_term(pj_str(o, k)); }

static double ms(uint64_t ns) { return (double)ns / 1e6; }

static uint64_t misses_of(json_object *m)
{
    return pj_u64(m, "stacheReadMisses") + pj_u64(m, "homeReadMisses") +
           pj_u64(m, "stacheWriteRO") + pj_u64(m, "homeWriteRO") + pj_u64(m, "stacheWriteInv") +
           pj_u64(m, "homeWriteInv");
}

static void print_ranges(FILE *f, json_object *ranges)
{
    for (size_t k = 0; k < pj_len(ranges); k++) {
        json_object *r = pj_at(ranges, k);
        fprintf(f, "%s[%llu,%llu)", k ? " " : "",
                (unsigned long long)json_object_get_uint64(pj_at(r, 0)),
                (unsigned long long)json_object_get_uint64(pj_at(r, 1)));
    }
}

/* ---- structures by name: a sorted index, so that diff stays n log n ---- */

typedef struct named {
    const char *name;
    json_object *o;
    size_t pos;
} named;

static int by_name(const void *a, const void *b)
{
    return strcmp(((const named *)a)->name, ((const named *)b)->name);
}

static int by_name_pos(const void *a, const void *b)
{
    const named *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* NULL when out of memory (after a line on stderr) */
static named *name_index(json_object *structures, size_t *n)
{
    *n = pj_len(structures);
    named *v = calloc(*n ? *n : 1, sizeof *v);
    if (!v) {
        fprintf(stderr, "dsmprof: out of memory\n");
        return NULL;
    }
    for (size_t i = 0; i < *n; i++)
        v[i] = (named){ pj_str(pj_at(structures, i), "name"), pj_at(structures, i), i };
    /* of equal names the first in the file wins, as a scan would */
    qsort(v, *n, sizeof *v, by_name_pos);
    for (size_t i = 1; i < *n; i++)
        if (!strcmp(v[i].name, v[i - 1].name))
            v[i].o = v[i - 1].o;
    return v;
}

static json_object *lookup(const named *v, size_t n, const char *name)
{
    named key = { name, NULL, 0 };
    named *hit = bsearch(&key, v, n, sizeof *v, by_name);
    return hit ? hit->o : NULL;
}

static json_object *find_structure(json_object *root, const char *name)
{
    json_object *st = pj_arr(root, "structures");
    for (size_t i = 0; i < pj_len(st); i++)
        if (!strcmp(pj_str(pj_at(st, i), "name"), name))
            return pj_at(st, i);
    return NULL;
}

/* ---- report ---- */

typedef struct hot {
    json_object *b;
    uint64_t t;
    size_t pos;
} hot;

static int hotter(const void *a, const void *b)
{
    const hot *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? 1 : -1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static void report_structure(json_object *root, json_object *s, int top)
{
    json_object *m = pj_get(s, "metrics"), *c = pj_get(s, "causes"), *p = pj_get(s, "patterns"),
                *fs = pj_get(s, "false_sharing");
    printf("Structure %s (%s): %llu bytes, %llu blocks, %llu allocation(s), sharing pattern %s\n",
           s_(s, "name"), s_(s, "kind"), (unsigned long long)pj_u64(s, "bytes"),
           (unsigned long long)pj_u64(s, "blocks"), (unsigned long long)pj_u64(s, "allocations"),
           s_(s, "sharing_pattern"));
    json_object *site = pj_get(s, "site");
    if (site) {
        printf("  allocated at %s (%s:%llu), call path:", s_(site, "function"), s_(site, "file"),
               (unsigned long long)pj_u64(site, "line"));
        json_object *path = pj_arr(site, "path");
        for (size_t i = 0; i < pj_len(path); i++)
            printf("%s %s", i ? " <" : "", ptext_term(json_object_get_string(pj_at(path, i))));
        printf("\n");
    }
    printf("  memory blocking time %.3f ms, page faults %llu\n", ms(pj_u64(m, "memoryBlockTime")),
           (unsigned long long)pj_u64(m, "pageFaults"));
    printf("  misses by kind:  stacheReadMisses %llu  homeReadMisses %llu  stacheWriteRO %llu  "
           "homeWriteRO %llu  stacheWriteInv %llu  homeWriteInv %llu\n",
           (unsigned long long)pj_u64(m, "stacheReadMisses"),
           (unsigned long long)pj_u64(m, "homeReadMisses"),
           (unsigned long long)pj_u64(m, "stacheWriteRO"),
           (unsigned long long)pj_u64(m, "homeWriteRO"),
           (unsigned long long)pj_u64(m, "stacheWriteInv"),
           (unsigned long long)pj_u64(m, "homeWriteInv"));
    printf("  invalidations:   invRO %llu  invRW %llu\n", (unsigned long long)pj_u64(m, "invRO"),
           (unsigned long long)pj_u64(m, "invRW"));
    printf("  misses by cause: cold %llu (first touch %llu)  invalidation %llu  upgrade %llu; "
           "blocked %.3f / %.3f / %.3f ms\n",
           (unsigned long long)pj_u64(c, "cold"), (unsigned long long)pj_u64(c, "cold_first_touch"),
           (unsigned long long)pj_u64(c, "invalidation"), (unsigned long long)pj_u64(c, "upgrade"),
           ms(pj_u64(c, "cold_wall")), ms(pj_u64(c, "invalidation_wall")),
           ms(pj_u64(c, "upgrade_wall")));
    json_object *cpn = pj_arr(c, "per_node");
    for (size_t n = 0; n < pj_len(cpn); n++) {
        json_object *x = pj_at(cpn, n);
        printf("    node %zu: cold %llu  invalidation %llu  upgrade %llu\n", n,
               (unsigned long long)pj_u64(x, "cold"), (unsigned long long)pj_u64(x, "invalidation"),
               (unsigned long long)pj_u64(x, "upgrade"));
    }
    printf("  blocks by sharing pattern: migratory %llu  producer_consumer %llu  read_only %llu  "
           "private %llu  write_shared %llu  none %llu\n",
           (unsigned long long)pj_u64(p, "migratory"),
           (unsigned long long)pj_u64(p, "producer_consumer"),
           (unsigned long long)pj_u64(p, "read_only"), (unsigned long long)pj_u64(p, "private"),
           (unsigned long long)pj_u64(p, "write_shared"), (unsigned long long)pj_u64(p, "none"));
    json_object *g = pj_get(s, "groups"), *gid = pj_arr(g, "ids");
    if (pj_u64(g, "blocks")) {
        printf("  blocks in groups (fetched together): %llu, in group(s)",
               (unsigned long long)pj_u64(g, "blocks"));
        for (size_t i = 0; i < pj_len(gid); i++)
            printf(" %lld", (long long)json_object_get_int64(pj_at(gid, i)));
        printf(" (dsmprof report shows what a bulk fetch would save)\n");
    }
    printf("  false sharing: %llu transfers between writers of disjoint bytes (%.0f%% of %llu "
           "coherence misses), %llu true-sharing transfers, %llu block(s)\n",
           (unsigned long long)pj_u64(fs, "count"), 100.0 * pj_double(fs, "share"),
           (unsigned long long)pj_u64(fs, "coherence_misses"),
           (unsigned long long)pj_u64(fs, "true_sharing_transfers"),
           (unsigned long long)pj_u64(fs, "blocks"));
    json_object *tb = pj_arr(fs, "top_blocks");
    for (size_t i = 0; i < pj_len(tb); i++) {
        json_object *b = pj_at(tb, i);
        printf("    block %llu (offset %llu in the structure): %llu transfers;",
               (unsigned long long)pj_u64(b, "index"), (unsigned long long)pj_u64(b, "offset"),
               (unsigned long long)pj_u64(b, "transfers"));
        json_object *bw = pj_arr(b, "writers");
        for (size_t k = 0; k < pj_len(bw); k++) {
            json_object *x = pj_at(bw, k);
            printf(" node %llu wrote bytes ", (unsigned long long)pj_u64(x, "node"));
            print_ranges(stdout, pj_arr(x, "ranges"));
            if (pj_u64(x, "ranges_total") > pj_len(pj_arr(x, "ranges")))
                printf(" (first %zu of %llu ranges)", pj_len(pj_arr(x, "ranges")),
                       (unsigned long long)pj_u64(x, "ranges_total"));
        }
        printf(" (offsets inside the block)\n");
    }
    json_object *bl = pj_arr(s, "block_list");
    size_t n = pj_len(bl);
    if (n) {
        /* hottest blocks by memory blocking time: sorted once, ties in file
         * order (a selection per row would be top x blocks) */
        hot *v = calloc(n, sizeof *v);
        printf("  hottest blocks (memory blocking time):\n");
        for (size_t i = 0; v && i < n; i++)
            v[i] = (hot){ pj_at(bl, i), pj_u64(pj_at(bl, i), "memoryBlockTime"), i };
        if (v)
            qsort(v, n, sizeof *v, hotter);
        for (size_t i = 0; v && i < n && i < (size_t)top; i++) {
            json_object *b = v[i].b;
            if (!pj_u64(b, "misses"))
                break;
            printf("    block %-8llu offset %-10llu %9.3f ms %6llu misses  cold %llu inval %llu "
                   "upgrade %llu  %s%s\n",
                   (unsigned long long)pj_u64(b, "index"), (unsigned long long)pj_u64(b, "offset"),
                   ms(v[i].t), (unsigned long long)pj_u64(b, "misses"),
                   (unsigned long long)pj_u64(b, "cold"),
                   (unsigned long long)pj_u64(b, "invalidation"),
                   (unsigned long long)pj_u64(b, "upgrade"), s_(b, "pattern"),
                   pj_u64(b, "false_sharing") ? "  false sharing" : "");
        }
        free(v);
    } else if (pj_u64(s, "blocks") > pj_u64(root, "block_list_limit")) {
        printf("  (more than %llu blocks: no per-block list in the profile)\n",
               (unsigned long long)pj_u64(root, "block_list_limit"));
    }
    json_object *pairs = pj_arr(root, "pairs");
    int any = 0;
    for (size_t i = 0; i < pj_len(pairs); i++) {
        json_object *x = pj_at(pairs, i);
        if (strcmp(pj_str(x, "structure"), pj_str(s, "name")))
            continue;
        if (!any++)
            printf("  procedures touching it:\n");
        printf("    %-32s %9.3f ms %6llu misses (read %llu, write %llu, upgrade %llu)\n",
               s_(x, "procedure"), ms(pj_u64(x, "wall")), (unsigned long long)pj_u64(x, "misses"),
               (unsigned long long)pj_u64(x, "read_misses"),
               (unsigned long long)pj_u64(x, "write_misses"),
               (unsigned long long)pj_u64(x, "upgrades"));
    }
}

/* The adaptive protocol's work (DSM_ADAPT; per_node metrics): what it did,
 * and what it saved: each read granted exclusive spares the upgrade its
 * write would have made, priced at this run's mean upgrade time; each copy
 * pushed to a consumer spares its read miss if it reads before the next
 * write (an upper bound), priced at the mean read miss; so is each copy a
 * group's bulk fetch sent along with a missed block. */
/* ": about X ms at this run's mean read miss of Y us" for n read misses
 * spared (nothing when the run had no read miss to price them with). */
static void print_read_misses_saved(uint64_t n, uint64_t rd, uint64_t rd_wall)
{
    if (rd)
        printf(": about %.3f ms at this run's mean read miss of %.2f us",
               ms((uint64_t)((double)n * (double)rd_wall / (double)rd)),
               (double)rd_wall / (double)rd / 1e3);
}

static void report_adaptation(json_object *nodes)
{
    uint64_t excl = 0, back = 0, down = 0, upg = 0, upg_wall = 0;
    uint64_t push = 0, pushed = 0, flush = 0, rd = 0, rd_wall = 0, bulk = 0, bulked = 0;
    for (size_t n = 0; n < pj_len(nodes); n++) {
        json_object *m = pj_get(pj_at(nodes, n), "metrics");
        excl += pj_u64(m, "adaptExclusiveReads");
        back += pj_u64(m, "adaptFallbacks");
        down += pj_u64(m, "adaptDowngrades");
        upg += pj_u64(m, "stacheWriteRO") + pj_u64(m, "homeWriteRO");
        upg_wall += pj_u64(m, "stacheWriteROWall") + pj_u64(m, "homeWriteROWall");
        push += pj_u64(m, "adaptPushes");
        pushed += pj_u64(m, "adaptPushedCopies");
        flush += pj_u64(m, "adaptFlushes");
        bulk += pj_u64(m, "adaptBulkFetches");
        bulked += pj_u64(m, "adaptBulkCopies");
        rd += pj_u64(m, "stacheReadMisses") + pj_u64(m, "homeReadMisses");
        rd_wall += pj_u64(m, "stacheReadMissWall") + pj_u64(m, "homeReadMissWall");
    }
    if (!excl && !back && !down && !push && !flush && !bulk)
        return;
    printf("Adaptive protocol: %llu reads of migratory blocks granted exclusive (upgrades saved",
           (unsigned long long)excl);
    if (upg)
        printf(": about %.3f ms at this run's mean upgrade of %.2f us",
               ms((uint64_t)((double)excl * (double)upg_wall / (double)upg)),
               (double)upg_wall / (double)upg / 1e3);
    printf("), %llu fell back to shared grants (the reader had not written), %llu reads of "
           "producer-consumer blocks left the producer a read copy\n",
           (unsigned long long)back, (unsigned long long)down);
    printf("  at releases: %llu producers' blocks pushed to their consumers (%llu copies, read "
           "misses saved at most",
           (unsigned long long)push, (unsigned long long)pushed);
    print_read_misses_saved(pushed, rd, rd_wall);
    printf("), %llu migratory blocks flushed home (their next reader served without a "
           "recall)\n", (unsigned long long)flush);
    printf("  bulk fetch: %llu read misses of grouped blocks brought %llu more blocks of their "
           "groups along (read misses saved at most",
           (unsigned long long)bulk, (unsigned long long)bulked);
    print_read_misses_saved(bulked, rd, rd_wall);
    printf(")\n");
}

static void report(const char *file, json_object *root, int top)
{
    json_object *st = pj_arr(root, "structures"), *nodes = pj_arr(root, "per_node");
    uint64_t mbt = 0;
    for (size_t n = 0; n < pj_len(nodes); n++)
        mbt += pj_u64(pj_at(nodes, n), "memoryBlockTime");
    /* the mode ("" in files written before it) */
    const char *mode = pj_str(root, "mode");
    printf("DSM profile %s: %llu nodes, %s%s%llu-byte blocks, %.3f s, memory blocking time %.3f ms "
           "(all nodes)\n",
           ptext_term(file), (unsigned long long)pj_u64(root, "nodes"), ptext_term(mode),
           *mode ? " mode, " : "", (unsigned long long)pj_u64(root, "block_size"),
           pj_double(root, "wall_seconds"), ms(mbt));
    report_adaptation(nodes);
    printf("\nBy structure (memory blocking time):\n");
    printf("  %-32s %10s %6s %8s %8s %8s %8s %-17s %s\n", "structure", "ms", "%", "misses", "cold",
           "inval", "upgrade", "pattern", "false sharing");
    for (size_t i = 0; i < pj_len(st) && i < (size_t)top; i++) {
        json_object *s = pj_at(st, i), *m = pj_get(s, "metrics"), *c = pj_get(s, "causes"),
                    *fs = pj_get(s, "false_sharing");
        uint64_t t = pj_u64(m, "memoryBlockTime");
        printf("  %-32s %10.3f %6.1f %8llu %8llu %8llu %8llu %-17s %llu\n", s_(s, "name"), ms(t),
               mbt ? 100.0 * (double)t / (double)mbt : 0.0, (unsigned long long)misses_of(m),
               (unsigned long long)pj_u64(c, "cold"), (unsigned long long)pj_u64(c, "invalidation"),
               (unsigned long long)pj_u64(c, "upgrade"), s_(s, "sharing_pattern"),
               (unsigned long long)pj_u64(fs, "count"));
    }
    json_object *gs = pj_arr(root, "groups");
    if (pj_len(gs)) {
        printf("\nGroups (blocks fetched together; a bulk fetch would save the misses of the "
               "blocks that followed):\n");
        printf("  %10s %7s %10s %12s  %s\n", "group", "blocks", "saved", "gain ms", "members");
    }
    for (size_t i = 0; i < pj_len(gs) && i < (size_t)top; i++) {
        json_object *g = pj_at(gs, i), *mem = pj_arr(g, "members");
        printf("  %10lld %7llu %10llu %12.3f ", (long long)json_object_get_int64(pj_get(g, "id")),
               (unsigned long long)pj_u64(g, "blocks"),
               (unsigned long long)pj_u64(g, "misses_saved"), ms(pj_u64(g, "gain")));
        for (size_t k = 0; k < pj_len(mem); k++) {
            json_object *x = pj_at(mem, k);
            printf(" %s%s+%llu (%llu block%s)", k ? "," : "", s_(x, "structure"),
                   (unsigned long long)pj_u64(x, "offset"), (unsigned long long)pj_u64(x, "blocks"),
                   pj_u64(x, "blocks") == 1 ? "" : "s");
        }
        if (pj_u64(g, "members_total") > pj_len(mem))
            printf(" ... (%llu runs)", (unsigned long long)pj_u64(g, "members_total"));
        printf("\n");
    }
    json_object *pr = pj_arr(root, "procedures");
    printf("\nBy procedure (time blocked in its misses):\n");
    printf("  %-32s %-24s %10s %8s %8s %8s %8s\n", "procedure", "file:line", "ms", "misses", "read",
           "write", "upgrade");
    for (size_t i = 0; i < pj_len(pr) && i < (size_t)top; i++) {
        json_object *x = pj_at(pr, i);
        char fl[256];
        snprintf(fl, sizeof fl, "%s:%llu", s_(x, "file"), (unsigned long long)pj_u64(x, "line"));
        printf("  %-32s %-24s %10.3f %8llu %8llu %8llu %8llu\n", s_(x, "name"), fl,
               ms(pj_u64(x, "wall")), (unsigned long long)pj_u64(x, "misses"),
               (unsigned long long)pj_u64(x, "read_misses"),
               (unsigned long long)pj_u64(x, "write_misses"),
               (unsigned long long)pj_u64(x, "upgrades"));
    }
    json_object *pa = pj_arr(root, "pairs");
    printf("\nBy (procedure, structure):\n");
    printf("  %-32s %-32s %10s %8s\n", "procedure", "structure", "ms", "misses");
    for (size_t i = 0; i < pj_len(pa) && i < (size_t)top; i++) {
        json_object *x = pj_at(pa, i);
        printf("  %-32s %-32s %10.3f %8llu\n", s_(x, "procedure"), s_(x, "structure"),
               ms(pj_u64(x, "wall")), (unsigned long long)pj_u64(x, "misses"));
    }
    printf("\nPer node:\n");
    printf("  %4s %12s %12s %12s %10s\n", "node", "blocking ms", "barrier ms", "lock wait ms",
           "barriers");
    for (size_t n = 0; n < pj_len(nodes); n++) {
        json_object *x = pj_at(nodes, n);
        printf("  %4zu %12.3f %12.3f %12.3f %10llu\n", n, ms(pj_u64(x, "memoryBlockTime")),
               ms(pj_u64(x, "barrier_wait")), ms(pj_u64(x, "lock_wait")),
               (unsigned long long)pj_u64(x, "barriers"));
    }
}

/* Options of report, csv and diff: -1 to go on, else the exit status (0
 * after --help).  *pos collects the files. */
static int options(int argc, char **argv, const struct option *opts, const char **pos, int want,
                   const char **structure, const char **view, int *top)
{
    const char *cmd = argv[0];
    int npos = 0, c;
    optind = 0; /* a full reset: dsmprof_run may run many command lines */
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 's': *structure = optarg; break;
        case 'v': *view = optarg; break;
        case 't':
            if (dsmprof_parse_top(cmd, optarg, top))
                return DSMPROF_USAGE;
            break;
        case 'h': dsmprof_command_help(stdout, cmd); return DSMPROF_OK;
        case ':':
            fprintf(stderr, "dsmprof %s: %s needs a value\n", cmd, ptext_term(argv[optind - 1]));
            return DSMPROF_USAGE;
        default:
            fprintf(stderr, "dsmprof %s: unknown option %s\n", cmd, ptext_term(argv[optind - 1]));
            dsmprof_usage(stderr, cmd);
            return DSMPROF_USAGE;
        }
    }
    for (; optind < argc; optind++) {
        if (npos == want) {
            fprintf(stderr, "dsmprof %s: too many files (see dsmprof %s --help)\n", cmd, cmd);
            return DSMPROF_USAGE;
        }
        pos[npos++] = argv[optind];
    }
    if (npos < want) {
        fprintf(stderr, "dsmprof %s: %s (see dsmprof %s --help)\n", cmd,
                want == 1 ? "no file given" : "two files needed, BEFORE and AFTER", cmd);
        return DSMPROF_USAGE;
    }
    return -1;
}

int dsmprof_report(int argc, char **argv)
{
    static const struct option opts[] = {
        { "structure", required_argument, NULL, 's' },
        { "top", required_argument, NULL, 't' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *file, *structure = NULL, *view = NULL;
    int top = 10;
    int rc = options(argc, argv, opts, &file, 1, &structure, &view, &top);
    if (rc >= 0)
        return rc;
    json_object *root = dsmprof_load(file, &pschema_profile, NULL);
    if (!root)
        return DSMPROF_BAD_INPUT;
    rc = DSMPROF_OK;
    if (structure) {
        json_object *s = find_structure(root, structure);
        if (s) {
            report_structure(root, s, top);
        } else {
            fprintf(stderr, "dsmprof: %s: no structure named \"%s\"\n", ptext_term(file),
                    ptext_term(structure));
            rc = DSMPROF_BAD_INPUT;
        }
    } else {
        report(file, root, top);
    }
    json_object_put(root);
    return rc;
}

/* ---- csv ---- */

static void csv_str(const char *s)
{
    s = ptext_term(s);
    putchar('"');
    for (; *s; s++) {
        if (*s == '"')
            putchar('"');
        putchar(*s);
    }
    putchar('"');
}

static const char *const views[] = { "structures", "procedures", "pairs", "nodes", "blocks",
                                     "false_sharing", "groups", NULL };

/* The miss counts a procedure row and a (procedure, structure) row share,
 * ending the CSV line. */
static void csv_miss_counts(json_object *x)
{
    static const char *const keys[] = { "misses", "read_misses", "write_misses", "upgrades",
                                        "wall" };
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
        printf(",%llu", (unsigned long long)pj_u64(x, keys[k]));
    putchar('\n');
}

static void csv_view(json_object *root, const char *view)
{
    json_object *st = pj_arr(root, "structures");
    if (!strcmp(view, "structures")) {
        printf("name,kind,bytes,blocks,sharing_pattern,memoryBlockTime,misses,stacheReadMisses,"
               "homeReadMisses,stacheWriteRO,homeWriteRO,stacheWriteInv,homeWriteInv,invRO,invRW,"
               "cold,cold_first_touch,invalidation,upgrade,migratory,producer_consumer,read_only,"
               "private,write_shared,none,group_blocks,false_sharing,false_sharing_share\n");
        for (size_t i = 0; i < pj_len(st); i++) {
            json_object *s = pj_at(st, i), *m = pj_get(s, "metrics"), *c = pj_get(s, "causes"),
                        *p = pj_get(s, "patterns"), *fs = pj_get(s, "false_sharing");
            csv_str(pj_str(s, "name"));
            printf(",%s,%llu,%llu,%s,%llu,%llu", s_(s, "kind"), (unsigned long long)pj_u64(s, "bytes"),
                   (unsigned long long)pj_u64(s, "blocks"), s_(s, "sharing_pattern"),
                   (unsigned long long)pj_u64(m, "memoryBlockTime"),
                   (unsigned long long)misses_of(m));
            static const char *const mk[] = { "stacheReadMisses", "homeReadMisses", "stacheWriteRO",
                                              "homeWriteRO", "stacheWriteInv", "homeWriteInv",
                                              "invRO", "invRW" };
            for (size_t k = 0; k < sizeof mk / sizeof *mk; k++)
                printf(",%llu", (unsigned long long)pj_u64(m, mk[k]));
            static const char *const ck[] = { "cold", "cold_first_touch", "invalidation",
                                              "upgrade" };
            for (size_t k = 0; k < sizeof ck / sizeof *ck; k++)
                printf(",%llu", (unsigned long long)pj_u64(c, ck[k]));
            static const char *const pk[] = { "migratory", "producer_consumer", "read_only",
                                              "private", "write_shared", "none" };
            for (size_t k = 0; k < sizeof pk / sizeof *pk; k++)
                printf(",%llu", (unsigned long long)pj_u64(p, pk[k]));
            printf(",%llu", (unsigned long long)pj_u64(pj_get(s, "groups"), "blocks"));
            printf(",%llu,%.4f\n", (unsigned long long)pj_u64(fs, "count"), pj_double(fs, "share"));
        }
    } else if (!strcmp(view, "procedures")) {
        printf("procedure,file,line,misses,read_misses,write_misses,upgrades,wall\n");
        json_object *pr = pj_arr(root, "procedures");
        for (size_t i = 0; i < pj_len(pr); i++) {
            json_object *x = pj_at(pr, i);
            csv_str(pj_str(x, "name"));
            putchar(',');
            csv_str(pj_str(x, "file"));
            printf(",%llu", (unsigned long long)pj_u64(x, "line"));
            csv_miss_counts(x);
        }
    } else if (!strcmp(view, "pairs")) {
        printf("procedure,structure,misses,read_misses,write_misses,upgrades,wall\n");
        json_object *pa = pj_arr(root, "pairs");
        for (size_t i = 0; i < pj_len(pa); i++) {
            json_object *x = pj_at(pa, i);
            csv_str(pj_str(x, "procedure"));
            putchar(',');
            csv_str(pj_str(x, "structure"));
            csv_miss_counts(x);
        }
    } else if (!strcmp(view, "nodes")) {
        printf("node,memoryBlockTime,barriers,barrier_wait,lock_acquires,lock_wait\n");
        json_object *nodes = pj_arr(root, "per_node");
        for (size_t n = 0; n < pj_len(nodes); n++) {
            json_object *x = pj_at(nodes, n);
            printf("%zu,%llu,%llu,%llu,%llu,%llu\n", n,
                   (unsigned long long)pj_u64(x, "memoryBlockTime"),
                   (unsigned long long)pj_u64(x, "barriers"),
                   (unsigned long long)pj_u64(x, "barrier_wait"),
                   (unsigned long long)pj_u64(x, "lock_acquires"),
                   (unsigned long long)pj_u64(x, "lock_wait"));
        }
    } else if (!strcmp(view, "blocks")) {
        printf("structure,index,offset,misses,memoryBlockTime,invalidations,cold,invalidation,"
               "upgrade,false_sharing,pattern,group_id,in_group\n");
        for (size_t i = 0; i < pj_len(st); i++) {
            json_object *bl = pj_arr(pj_at(st, i), "block_list");
            for (size_t k = 0; k < pj_len(bl); k++) {
                json_object *b = pj_at(bl, k);
                csv_str(pj_str(pj_at(st, i), "name"));
                printf(",%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%s,%lld,%d\n",
                       (unsigned long long)pj_u64(b, "index"), (unsigned long long)pj_u64(b, "offset"),
                       (unsigned long long)pj_u64(b, "misses"),
                       (unsigned long long)pj_u64(b, "memoryBlockTime"),
                       (unsigned long long)pj_u64(b, "invalidations"),
                       (unsigned long long)pj_u64(b, "cold"),
                       (unsigned long long)pj_u64(b, "invalidation"),
                       (unsigned long long)pj_u64(b, "upgrade"),
                       (unsigned long long)pj_u64(b, "false_sharing"), s_(b, "pattern"),
                       (long long)json_object_get_int64(pj_get(b, "group_id")),
                       json_object_get_boolean(pj_get(b, "in_group")));
            }
        }
    } else if (!strcmp(view, "groups")) {
        printf("group,blocks,fetched_together,misses_saved,gain,structure,offset,first_block,"
               "run_blocks\n");
        json_object *gs = pj_arr(root, "groups");
        for (size_t i = 0; i < pj_len(gs); i++) {
            json_object *g = pj_at(gs, i), *mem = pj_arr(g, "members");
            for (size_t k = 0; k < pj_len(mem); k++) {
                json_object *x = pj_at(mem, k);
                printf("%lld,%llu,%llu,%llu,%llu,", (long long)json_object_get_int64(pj_get(g, "id")),
                       (unsigned long long)pj_u64(g, "blocks"),
                       (unsigned long long)pj_u64(g, "fetched_together"),
                       (unsigned long long)pj_u64(g, "misses_saved"),
                       (unsigned long long)pj_u64(g, "gain"));
                csv_str(pj_str(x, "structure"));
                printf(",%llu,%llu,%llu\n", (unsigned long long)pj_u64(x, "offset"),
                       (unsigned long long)pj_u64(x, "first_block"),
                       (unsigned long long)pj_u64(x, "blocks"));
            }
        }
    } else { /* false_sharing: the bytes each node wrote in each listed falsely shared block */
        printf("structure,block,offset,node,lo,hi\n");
        for (size_t i = 0; i < pj_len(st); i++) {
            json_object *tb = pj_arr(pj_get(pj_at(st, i), "false_sharing"), "top_blocks");
            for (size_t t = 0; t < pj_len(tb); t++) {
                json_object *w = pj_arr(pj_at(tb, t), "writers");
                for (size_t k = 0; k < pj_len(w); k++) {
                    json_object *r = pj_arr(pj_at(w, k), "ranges");
                    for (size_t q = 0; q < pj_len(r); q++) {
                        csv_str(pj_str(pj_at(st, i), "name"));
                        printf(",%llu,%llu,%llu,%llu,%llu\n",
                               (unsigned long long)pj_u64(pj_at(tb, t), "index"),
                               (unsigned long long)pj_u64(pj_at(tb, t), "offset"),
                               (unsigned long long)pj_u64(pj_at(w, k), "node"),
                               (unsigned long long)json_object_get_uint64(pj_at(pj_at(r, q), 0)),
                               (unsigned long long)json_object_get_uint64(pj_at(pj_at(r, q), 1)));
                    }
                }
            }
        }
    }
}

int dsmprof_csv(int argc, char **argv)
{
    static const struct option opts[] = {
        { "view", required_argument, NULL, 'v' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *file, *structure = NULL, *view = NULL;
    int top = 10;
    int rc = options(argc, argv, opts, &file, 1, &structure, &view, &top);
    if (rc >= 0)
        return rc;
    if (view) {
        int ok = 0;
        for (int i = 0; views[i]; i++)
            ok |= !strcmp(views[i], view);
        if (!ok) {
            fprintf(stderr, "dsmprof csv: unknown view '%s' (structures, procedures, pairs, nodes, "
                            "blocks, false_sharing, groups)\n", ptext_term(view));
            return DSMPROF_USAGE;
        }
    }
    json_object *root = dsmprof_load(file, &pschema_profile, NULL);
    if (!root)
        return DSMPROF_BAD_INPUT;
    if (view) {
        csv_view(root, view);
    } else {
        for (int i = 0; views[i]; i++) {
            printf("%s# %s\n", i ? "\n" : "", views[i]);
            csv_view(root, views[i]);
        }
    }
    json_object_put(root);
    return DSMPROF_OK;
}

/* ---- diff ---- */

static void diff_row(json_object *a, json_object *b)
{
    json_object *ma = pj_get(a, "metrics"), *mb = pj_get(b, "metrics");
    json_object *ca = pj_get(a, "causes"), *cb = pj_get(b, "causes");
    uint64_t ta = pj_u64(ma, "memoryBlockTime"), tb = pj_u64(mb, "memoryBlockTime");
    char chg[32];
    if (a && b && ta)
        snprintf(chg, sizeof chg, "%+.1f%%", 100.0 * ((double)tb - (double)ta) / (double)ta);
    else
        snprintf(chg, sizeof chg, "%s", a && b ? "-" : a ? "gone" : "new");
    printf("  %-32s %10.3f %10.3f %8s %8llu %8llu %8llu %8llu %6llu %6llu\n",
           s_(a ? a : b, "name"), ms(ta), ms(tb), chg, (unsigned long long)misses_of(ma),
           (unsigned long long)misses_of(mb),
           (unsigned long long)(pj_u64(ca, "invalidation") + pj_u64(ca, "upgrade")),
           (unsigned long long)(pj_u64(cb, "invalidation") + pj_u64(cb, "upgrade")),
           (unsigned long long)pj_u64(pj_get(a, "false_sharing"), "count"),
           (unsigned long long)pj_u64(pj_get(b, "false_sharing"), "count"));
}

int dsmprof_diff(int argc, char **argv)
{
    static const struct option opts[] = {
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *files[2], *structure = NULL, *view = NULL;
    int top = 10;
    int rc = options(argc, argv, opts, files, 2, &structure, &view, &top);
    if (rc >= 0)
        return rc;
    json_object *a = dsmprof_load(files[0], &pschema_profile, NULL), *b = NULL;
    if (!a || !(b = dsmprof_load(files[1], &pschema_profile, NULL))) {
        json_object_put(a);
        return DSMPROF_BAD_INPUT;
    }
    json_object *sa = pj_arr(a, "structures"), *sb = pj_arr(b, "structures");
    size_t na, nb;
    named *ia = name_index(sa, &na), *ib = name_index(sb, &nb);
    rc = DSMPROF_OK;
    if (ia && ib) {
        printf("Before: %s (%.3f s, %llu nodes)   After: %s (%.3f s, %llu nodes)\n",
               ptext_term(files[0]), pj_double(a, "wall_seconds"),
               (unsigned long long)pj_u64(a, "nodes"), ptext_term(files[1]),
               pj_double(b, "wall_seconds"), (unsigned long long)pj_u64(b, "nodes"));
        printf("  %-32s %10s %10s %8s %8s %8s %8s %8s %6s %6s\n", "structure", "before ms",
               "after ms", "change", "misses", "misses", "coher.", "coher.", "fs", "fs");
        printf("  %-32s %10s %10s %8s %8s %8s %8s %8s %6s %6s\n", "", "", "", "", "before",
               "after", "before", "after", "before", "after");
        for (size_t i = 0; i < pj_len(sa); i++)
            diff_row(pj_at(sa, i), lookup(ib, nb, pj_str(pj_at(sa, i), "name")));
        for (size_t i = 0; i < pj_len(sb); i++)
            if (!lookup(ia, na, pj_str(pj_at(sb, i), "name")))
                diff_row(NULL, pj_at(sb, i));
    } else {
        rc = DSMPROF_BAD_INPUT;
    }
    free(ia);
    free(ib);
    json_object_put(a);
    json_object_put(b);
    return rc;
}
