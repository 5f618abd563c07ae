/* dsmprof_sim.c - `dsmprof memspy FILE`: MemSpy's displays (Martonosi,
 * "Analyzing and Tuning Memory Performance in Sequential and Parallel
 * Programs", Stanford PhD thesis, 1994, App. B)
 * rendered as text from a dsm-sim/1 file (doc/sim-format.md), never from the
 * program:
 *   overall statistics (B.1/B.2): references, misses, miss rate, stall,
 *     read/write split and causes of the whole run;
 *   the full stall time breakdown (B.2): (procedure, bin) pairs, bins and
 *     procedures, each ranked by memory stall cycles;
 *   causes of misses per bin (B.4.2) with true/false sharing of the
 *     invalidation misses;
 *   causes of replacement per bin (B.5): which bins evicted it, and the
 *     share it evicted itself (self-interference);
 *   time sampling (Ch. 6): samples, their length, the sampling ratio and the
 *     full-run estimates with their Eq. 6.1 bounds, unknown causes;
 *   --bin NAME: the detailed display of one bin (B.3-B.5).
 * The file comes from dsmprof_load, checked against dsm-sim/1's schema
 * (pschema_defs.c); a member a writer left out reads as 0 (pjson.h). */
#include "dsmprof.h"

#include <errno.h>
#include <getopt.h>
#include <json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pjson.h"

/* a name from the file, as the terminal may see it */
static const char *str(json_object *o, const char *k) { return ptext_term(pj_str(o, k)); }

static const char *const cause_keys[] = { "cold", "replacement", "invalidation", "unknown" };
#define NCAUSES 4

static double pct(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; }

/* rows of a table sorted by one key, descending; ties keep file order */
typedef struct row {
    json_object *o;
    uint64_t key;
    size_t pos;
} row;

static int by_key_desc(const void *a, const void *b)
{
    const row *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? 1 : -1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static row *sorted(json_object *arr, const char *key, size_t *n)
{
    *n = pj_len(arr);
    row *r = calloc(*n ? *n : 1, sizeof *r);
    if (!r) {
        /* the table is left out: the report goes on without it */
        fprintf(stderr, "dsmprof: out of memory\n");
        *n = 0;
        return NULL;
    }
    for (size_t i = 0; i < *n; i++)
        r[i] = (row){ pj_at(arr, i), pj_u64(pj_at(arr, i), key), i };
    qsort(r, *n, sizeof *r, by_key_desc);
    return r;
}

static void print_causes(FILE *f, json_object *o)
{
    uint64_t misses = pj_u64(o, "misses");
    for (int c = 0; c < NCAUSES; c++)
        fprintf(f, " %5.1f%%", pct((double)pj_u64(o, cause_keys[c]), (double)misses));
}

static const char *cause_header = "  cold%  repl%   inv%  unkn%";

static void overall(FILE *f, json_object *root)
{
    json_object *m = pj_get(root, "machine"), *t = pj_get(root, "totals");
    json_object *cyc = pj_get(root, "cycles");
    uint64_t refs = pj_u64(root, "references"), misses = pj_u64(t, "misses");
    fprintf(f, "MemSpy statistics of %s on the %s machine, %d processors\n",
            *str(root, "program") ? str(root, "program") : "(unnamed program)",
            str(m, "name"), (int)pj_u64(root, "processors"));
    fprintf(f, "  cache %llu B, %llu-way, %llu B lines; hit %llu cycles\n",
            (unsigned long long)pj_u64(m, "cache_size"), (unsigned long long)pj_u64(m, "assoc"),
            (unsigned long long)pj_u64(m, "line_size"),
            (unsigned long long)pj_u64(m, "hit_cycles"));
    fprintf(f, "  simulated cycles %llu (longest processor), references %llu, host %.2f s\n",
            (unsigned long long)pj_u64(cyc, "max"), (unsigned long long)refs,
            pj_double(root, "host_seconds"));
    json_object *smp = pj_get(root, "sampling");
    int sampled = smp && json_object_get_boolean(pj_get(smp, "enabled"));
    fprintf(f, "\nOverall%s\n", sampled ? " (inside the samples)" : "");
    fprintf(f, "  misses %llu (read %llu, write %llu), upgrades %llu", (unsigned long long)misses,
            (unsigned long long)pj_u64(t, "read_misses"),
            (unsigned long long)pj_u64(t, "write_misses"),
            (unsigned long long)pj_u64(t, "upgrades"));
    if (!sampled && refs)
        fprintf(f, ", miss rate %.2f%%", pct((double)misses, (double)refs));
    fprintf(f, "\n  memory stall %llu cycles\n", (unsigned long long)pj_u64(t, "stall_cycles"));
    fprintf(f, "  causes: cold %.1f%%, replacement %.1f%%, invalidation %.1f%% (true %llu, "
               "false %llu), unknown %.1f%%\n",
            pct((double)pj_u64(t, "cold"), (double)misses),
            pct((double)pj_u64(t, "replacement"), (double)misses),
            pct((double)pj_u64(t, "invalidation"), (double)misses),
            (unsigned long long)pj_u64(t, "true_sharing"),
            (unsigned long long)pj_u64(t, "false_sharing"),
            pct((double)pj_u64(t, "unknown"), (double)misses));
    if (pj_u64(t, "lost"))
        fprintf(f, "  warning: %llu misses were not counted (out of memory)\n",
                (unsigned long long)pj_u64(t, "lost"));
}

/* a ranked table: label(s) then stall share, misses, read/write, causes */
static void ranking(FILE *f, json_object *root, const char *title, const char *table, int top,
                    int pair)
{
    json_object *t = pj_get(root, "totals");
    double stall = (double)pj_u64(t, "stall_cycles");
    size_t n;
    row *r = sorted(pj_arr(root, table), "stall_cycles", &n);
    fprintf(f, "\n%s (by memory stall time)\n", title);
    fprintf(f, "  %-34s %7s %10s %10s %10s%s\n", pair ? "procedure / bin" : "name", "stall%",
            "misses", "reads", "writes", cause_header);
    int shown = 0;
    for (size_t i = 0; i < n && shown < top; i++) {
        json_object *o = r[i].o;
        if (!pj_u64(o, "stall_cycles") && !pj_u64(o, "misses") && !pj_u64(o, "upgrades"))
            continue;
        char label[256];
        if (pair)
            snprintf(label, sizeof label, "%s / %s", str(o, "procedure_name"),
                     str(o, "bin_name"));
        else
            snprintf(label, sizeof label, "%s", str(o, "name"));
        fprintf(f, "  %-34.34s %6.1f%% %10llu %10llu %10llu", label,
                pct((double)pj_u64(o, "stall_cycles"), stall),
                (unsigned long long)pj_u64(o, "misses"),
                (unsigned long long)pj_u64(o, "read_misses"),
                (unsigned long long)pj_u64(o, "write_misses"));
        print_causes(f, o);
        fputc('\n', f);
        shown++;
    }
    if (!shown)
        fprintf(f, "  (no misses)\n");
    free(r);
}

static void sharing(FILE *f, json_object *root, int top)
{
    size_t n;
    row *r = sorted(pj_arr(root, "by_bin"), "invalidation", &n);
    fprintf(f, "\nTrue and false sharing of the invalidation misses\n");
    fprintf(f, "  %-34s %12s %10s %10s %7s\n", "bin", "invalidation", "true", "false", "false%");
    int shown = 0;
    for (size_t i = 0; i < n && shown < top; i++) {
        json_object *o = r[i].o;
        uint64_t inv = pj_u64(o, "invalidation");
        if (!inv)
            continue;
        fprintf(f, "  %-34.34s %12llu %10llu %10llu %6.1f%%\n", str(o, "name"),
                (unsigned long long)inv, (unsigned long long)pj_u64(o, "true_sharing"),
                (unsigned long long)pj_u64(o, "false_sharing"),
                pct((double)pj_u64(o, "false_sharing"), (double)inv));
        shown++;
    }
    if (!shown)
        fprintf(f, "  (no invalidation misses)\n");
    free(r);
}

static void replacement_of(FILE *f, json_object *x, int top)
{
    uint64_t total = pj_u64(x, "total");
    fprintf(f, "  %s: %llu replacement misses, %.1f%% self-caused\n", str(x, "name"),
            (unsigned long long)total, pct((double)pj_u64(x, "self"), (double)total));
    size_t n;
    row *r = sorted(pj_arr(x, "by"), "count", &n);
    for (size_t i = 0; i < n && (int)i < top; i++)
        fprintf(f, "      evicted by %-30.30s %10llu %6.1f%%\n", str(r[i].o, "name"),
                (unsigned long long)r[i].key, pct((double)r[i].key, (double)total));
    free(r);
}

static void replacements(FILE *f, json_object *root, int top)
{
    size_t n;
    row *r = sorted(pj_arr(root, "replacements"), "total", &n);
    fprintf(f, "\nCauses of replacement (which bins evicted each bin's lines)\n");
    for (size_t i = 0; i < n && (int)i < top; i++)
        replacement_of(f, r[i].o, top);
    if (!n)
        fprintf(f, "  (no replacement misses)\n");
    free(r);
}

static void value_bound(FILE *f, json_object *vb, int percent)
{
    double v = pj_double(vb, "value"), b = pj_double(vb, "bound");
    if (percent)
        fprintf(f, "%.2f%% +- %.2f%%", 100.0 * v, 100.0 * b);
    else
        fprintf(f, "%.0f +- %.0f", v, b);
}

static void sampling(FILE *f, json_object *root, int top)
{
    json_object *s = pj_get(root, "sampling");
    if (!s || !json_object_get_boolean(pj_get(s, "enabled")))
        return;
    fprintf(f, "\nTime sampling (Ch. 6)\n");
    const char *caches = json_object_get_string(pj_get(s, "caches"));
    const char *unit = json_object_get_string(pj_get(s, "unit"));
    unit = unit && !strcmp(unit, "references") ? "references" : "cycles"; /* older files: cycles */
    fprintf(f, "  %llu samples of %llu %s every %llu %s; sampling ratio %.3f of the "
               "references (%llu of %llu %s); caches %s between samples\n",
            (unsigned long long)pj_u64(s, "samples"), (unsigned long long)pj_u64(s, "length"),
            unit, (unsigned long long)pj_u64(s, "period"), unit, pj_double(s, "ratio"),
            (unsigned long long)pj_u64(s, "sampled_cycles"),
            (unsigned long long)pj_u64(s, "total_cycles"), unit,
            caches && !strcmp(caches, "stale") ? "not simulated (stale)"
                                               : "simulated (warm)");
    fprintf(f, "  inside the samples: %llu known hits, %llu known misses, %llu unknown "
               "references, %llu misses of unknown cause\n",
            (unsigned long long)pj_u64(s, "known_hits"),
            (unsigned long long)pj_u64(s, "known_misses"),
            (unsigned long long)pj_u64(s, "unknown_references"),
            (unsigned long long)pj_u64(s, "unknown_causes"));
    fprintf(f, "  miss rate (Eq. 6.1) ");
    value_bound(f, pj_get(s, "miss_rate"), 1);
    json_object *est = pj_get(s, "estimates"), *tot = pj_get(est, "totals");
    fprintf(f, "\n  full run estimate: misses ");
    value_bound(f, pj_get(tot, "misses"), 0);
    fprintf(f, ", stall %.0f cycles\n", pj_double(tot, "stall_cycles"));
    fprintf(f, "  %-30s %22s %14s  %s\n", "bin", "misses (estimate)", "stall", "causes (share +- "
                                                                             "bound)");
    json_object *bins = pj_arr(est, "by_bin");
    size_t n = pj_len(bins);
    row *r = calloc(n ? n : 1, sizeof *r);
    if (!r)
        return;
    for (size_t i = 0; i < n; i++)
        r[i] = (row){ pj_at(bins, i), (uint64_t)pj_double(pj_at(bins, i), "stall_cycles"), i };
    qsort(r, n, sizeof *r, by_key_desc);
    for (size_t i = 0; i < n && (int)i < top; i++) {
        json_object *o = r[i].o, *sh = pj_get(o, "cause_shares");
        char mb[64];
        json_object *m = pj_get(o, "misses");
        snprintf(mb, sizeof mb, "%.0f +- %.0f", pj_double(m, "value"), pj_double(m, "bound"));
        fprintf(f, "  %-30.30s %22s %14.0f ", str(o, "name"), mb, pj_double(o, "stall_cycles"));
        for (int c = 0; c < 3; c++) {
            fprintf(f, " %s ", cause_keys[c]);
            value_bound(f, pj_get(sh, cause_keys[c]), 1);
        }
        fprintf(f, " unknown %.1f%%\n", 100.0 * pj_double(sh, "unknown"));
    }
    free(r);
}

/* --bin NAME: the detailed display of one bin */
static int bin_detail(FILE *f, json_object *root, const char *file, const char *name, int top)
{
    json_object *bins = pj_arr(root, "by_bin"), *b = NULL;
    for (size_t i = 0; i < pj_len(bins) && !b; i++)
        if (!strcmp(pj_str(pj_at(bins, i), "name"), name))
            b = pj_at(bins, i);
    if (!b) {
        fprintf(stderr, "dsmprof: %s: no bin named '%s' (dsmprof memspy %s lists them)\n",
                ptext_term(file), ptext_term(name), ptext_term(file));
        return 2;
    }
    json_object *t = pj_get(root, "totals");
    uint64_t misses = pj_u64(b, "misses");
    fprintf(f, "Bin %s\n", ptext_term(name));
    fprintf(f, "  memory stall %llu cycles (%.1f%% of all), misses %llu (%.1f%% of all), "
               "upgrades %llu\n",
            (unsigned long long)pj_u64(b, "stall_cycles"),
            pct((double)pj_u64(b, "stall_cycles"), (double)pj_u64(t, "stall_cycles")),
            (unsigned long long)misses, pct((double)misses, (double)pj_u64(t, "misses")),
            (unsigned long long)pj_u64(b, "upgrades"));
    fprintf(f, "  read misses %llu (%.1f%%), write misses %llu (%.1f%%)\n",
            (unsigned long long)pj_u64(b, "read_misses"),
            pct((double)pj_u64(b, "read_misses"), (double)misses),
            (unsigned long long)pj_u64(b, "write_misses"),
            pct((double)pj_u64(b, "write_misses"), (double)misses));
    fprintf(f, "  causes of misses:");
    for (int c = 0; c < NCAUSES; c++)
        fprintf(f, " %s %llu (%.1f%%)%s", cause_keys[c], (unsigned long long)pj_u64(b, cause_keys[c]),
                pct((double)pj_u64(b, cause_keys[c]), (double)misses), c < NCAUSES - 1 ? "," : "\n");
    fprintf(f, "  invalidation misses: true sharing %llu, false sharing %llu\n",
            (unsigned long long)pj_u64(b, "true_sharing"),
            (unsigned long long)pj_u64(b, "false_sharing"));
    /* procedures touching it (B.3 the other way round) */
    size_t n;
    row *r = sorted(pj_arr(root, "pairs"), "stall_cycles", &n);
    fprintf(f, "  by procedure:\n");
    int shown = 0;
    for (size_t i = 0; i < n && shown < top; i++)
        if (!strcmp(pj_str(r[i].o, "bin_name"), name)) {
            fprintf(f, "      %-30.30s stall %10llu  misses %8llu ", str(r[i].o, "procedure_name"),
                    (unsigned long long)r[i].key, (unsigned long long)pj_u64(r[i].o, "misses"));
            print_causes(f, r[i].o);
            fputc('\n', f);
            shown++;
        }
    free(r);
    json_object *rep = pj_arr(root, "replacements");
    for (size_t i = 0; i < pj_len(rep); i++)
        if (!strcmp(pj_str(pj_at(rep, i), "name"), name)) {
            fprintf(f, "Causes of replacement\n");
            replacement_of(f, pj_at(rep, i), top);
        }
    return 0;
}

static void memspy_usage(FILE *f)
{
    dsmprof_usage(f, "memspy");
    fprintf(f, "MemSpy's displays of a simulated run's statistics (a " SIM_SCHEMA " file, written by\n"
               "dsmrun --machine=...; doc/sim-format.md): overall statistics; (procedure, bin)\n"
               "pairs, bins and procedures ranked by memory stall time with their causes of\n"
               "misses; true and false sharing; causes of replacement per bin; time sampling\n"
               "estimates with their bounds.\n"
               "  --bin NAME  the detailed display of one bin\n"
               "  --top N     rows per ranking (default 10)\n");
}

int dsmprof_memspy(int argc, char **argv)
{
    static const struct option opts[] = {
        { "bin", required_argument, NULL, 'b' },
        { "top", required_argument, NULL, 't' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    static const pschema_need need[] = {
        { "totals", "no \"totals\": not MemSpy's statistics (dsmrun --machine writes them)" },
        { "by_bin", "no \"by_bin\": not MemSpy's statistics (dsmrun --machine writes them)" },
        { "pairs", "no \"pairs\": not MemSpy's statistics (dsmrun --machine writes them)" },
        { NULL, NULL },
    };
    const char *bin = NULL, *file = NULL;
    int top = 10, c;
    optind = 0; /* a full reset: dsmprof_run may run many command lines */
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 'b': bin = optarg; break;
        case 't':
            if (dsmprof_parse_top("memspy", optarg, &top))
                return DSMPROF_USAGE;
            break;
        case 'h': memspy_usage(stdout); return DSMPROF_OK;
        case ':':
            fprintf(stderr, "dsmprof memspy: %s needs a value\n", ptext_term(argv[optind - 1]));
            return DSMPROF_USAGE;
        default:
            fprintf(stderr, "dsmprof memspy: unknown option %s\n", ptext_term(argv[optind - 1]));
            memspy_usage(stderr);
            return DSMPROF_USAGE;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "dsmprof memspy: %s (see dsmprof memspy --help)\n",
                optind >= argc ? "no file given" : "one file only");
        return DSMPROF_USAGE;
    }
    file = argv[optind];
    json_object *root = dsmprof_load(file, &pschema_sim, need);
    if (!root)
        return DSMPROF_BAD_INPUT;
    int rc = DSMPROF_OK;
    if (bin)
        rc = bin_detail(stdout, root, file, bin, top);
    else {
        overall(stdout, root);
        ranking(stdout, root, "Procedure-data pairs", "pairs", top, 1);
        ranking(stdout, root, "Data bins", "by_bin", top, 0);
        ranking(stdout, root, "Procedures", "by_procedure", top, 0);
        sharing(stdout, root, top);
        replacements(stdout, root, top);
        sampling(stdout, root, top);
    }
    json_object_put(root);
    return rc;
}
