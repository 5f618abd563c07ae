/* dsmprof_flashpoint.c - `dsmprof flashpoint RUN.json CONTROL.json`: the
 * tables of the FlashPoint paper (Martonosi, Ofelt and Heinrich,
 * "Integrating Performance Monitoring and Communication in Parallel
 * Computers") for a simulated FLASH run against its control run, from the
 * "flashpoint" sections of two dsm-sim/1 files (profile/flashpoint_json.h),
 * read through dsmprof_load (so every number below passed the schema):
 *   Table 1  accuracy: read and write miss counts (total, local, remote),
 *            then per bin its misses and its share of all misses
 *   Table 2  overhead: the measured (parallel) section's simulated time,
 *            and the average miss latencies
 *   Table 3  per-bin statistics: for the top bins, each of the ten metrics
 *            as the bin's share of that metric over all bins
 * Errors ("run" is RUN minus CONTROL): relative for counts and times, in
 * percentage points for shares (a share of 0.4% moving to 0.6% is not a 50%
 * error for a reader looking for bottlenecks).
 *
 * --check=MISS,SHARE,TIME makes it a test oracle: exit 3 unless every total
 * miss count (read, write, all) is within MISS% of the control, every bin's
 * share of each count metric within SHARE points, and the run's parallel
 * time at most TIME% above the control's.  Exit status otherwise as the
 * other dsmprof commands: 0, 1 on bad usage, 2 on bad input. */
#include <getopt.h>
#include <json.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsmprof.h"

#define NMETRICS 10

/* Table 3's metrics, as flashpoint_json.c names them, with their titles;
 * is_count: a count (checked by --check), not a latency sum. */
static const struct {
    const char *key, *title;
    int is_count;
} metrics[NMETRICS] = {
    {"read_miss_local", "Read Miss Local", 1},
    {"read_latency_local", "Read Latency Local", 0},
    {"read_miss_remote", "Read Miss Remote", 1},
    {"read_latency_remote", "Read Latency Remote", 0},
    {"write_miss_local", "Write Miss Local", 1},
    {"write_latency_local", "Write Latency Local", 0},
    {"write_miss_remote", "Write Miss Remote", 1},
    {"write_latency_remote", "Write Latency Remote", 0},
    {"cold_misses", "Cold Misses", 1},
    {"invalidation_misses", "Invalidation Misses", 1},
};
enum { RML, RLL, RMR, RLR, WML, WLL, WMR, WLR, COLD, INVS };

typedef struct fp_bin {
    char *name;
    double v[NMETRICS];
} fp_bin;

/* One MAGIC handler class's sums (processor cycles), for Table 4. */
typedef struct fp_handler {
    char name[32];
    double count, latency, occupancy;
} fp_handler;

typedef struct fp_run {
    const char *path;
    char scope[16];                  /* "section", "run"; "" in older files */
    double cpu_ratio;                /* processor cycles per system cycle; 0: unknown */
    fp_handler *handlers;
    int nhandlers;
    char program[256];
    char mode[16];
    int processors;
    /* Table 2's parallel section and its procedure commands: the measured
     * section when both files have one (choose_section), else the run's */
    double parallel_cycles;
    double switches, switch_stall;   /* FP-Proc's procedure commands; -1: not in the file */
    double run_cycles;               /* from the start to dsm_finalize */
    int marked;                      /* the program marked its measured section */
    double section_cycles, section_switches, section_switch_stall;
    double run_switches, run_switch_stall;
    double total[NMETRICS];
    fp_bin *bins;
    int nbins;
    const fp_bin **by_name; /* the bins sorted by name, for find_bin */
} fp_run;

static void free_run(fp_run *r)
{
    for (int i = 0; i < r->nbins; i++)
        free(r->bins[i].name);
    free(r->bins);
    free(r->by_name);
    free(r->handlers);
}

static int bad_input(const char *path, const char *what)
{
    fprintf(stderr, "dsmprof: %s: %s\n", ptext_term(path), what);
    return DSMPROF_BAD_INPUT;
}

/* by name; of equal names the first in the file (bins are one array) */
static int bin_order(const void *a, const void *b)
{
    const fp_bin *x = *(const fp_bin *const *)a, *y = *(const fp_bin *const *)b;
    int c = strcmp(x->name, y->name);
    return c ? c : x < y ? -1 : x > y;
}

static int bin_by_name(const void *key, const void *elt)
{
    return strcmp((const char *)key, (*(const fp_bin *const *)elt)->name);
}

static int get_number(json_object *o, const char *key, double *out)
{
    json_object *v;
    if (!json_object_object_get_ex(o, key, &v) ||
        (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double)))
        return -1;
    *out = json_object_get_double(v);
    return 0;
}

static int get_metrics(json_object *o, double v[NMETRICS], const char **missing)
{
    for (int k = 0; k < NMETRICS; k++)
        if (get_number(o, metrics[k].key, &v[k])) {
            *missing = metrics[k].key;
            return -1;
        }
    return 0;
}

/* Read one file's "flashpoint" section into r; 0, or 2 after an error line. */
static int load_run(const char *path, fp_run *r)
{
    static const pschema_need need[] = {
        { "flashpoint", "no \"flashpoint\" section: not the statistics of a simulated FLASH run "
                        "(dsmrun --machine=flash writes one)" },
        { NULL, NULL },
    };
    memset(r, 0, sizeof *r);
    r->path = ptext_term(path); /* for messages and headings only */
    json_object *root = dsmprof_load(path, &pschema_sim, need);
    if (!root)
        return DSMPROF_BAD_INPUT;
    int rc = DSMPROF_BAD_INPUT;
    json_object *fp, *v;
    json_object_object_get_ex(root, "flashpoint", &fp);
    if (json_object_object_get_ex(root, "program", &v))
        snprintf(r->program, sizeof r->program, "%s", ptext_term(json_object_get_string(v)));
    /* the schema made these present and in range */
    double d = 0;
    json_object_object_get_ex(fp, "mode", &v);
    snprintf(r->mode, sizeof r->mode, "%s", ptext_term(json_object_get_string(v)));
    get_number(fp, "processors", &d);
    get_number(fp, "parallel_cycles", &r->parallel_cycles);
    r->processors = (int)d;
    r->run_cycles = r->parallel_cycles;
    /* the measured section (dsm-sim/1 "section", source "program"); files
     * written before it, or by programs that do not mark one, have none */
    json_object *sec;
    if (json_object_object_get_ex(root, "section", &sec) &&
        json_object_object_get_ex(sec, "source", &v) &&
        !strcmp(json_object_get_string(v), "program")) {
        if (get_number(sec, "cycles", &r->section_cycles) ||
            get_number(sec, "procedure_switches", &r->section_switches) ||
            get_number(sec, "procedure_switch_cycles", &r->section_switch_stall)) {
            bad_input(path, "section lacks cycles, procedure_switches or procedure_switch_cycles");
            goto out;
        }
        r->marked = 1;
    }
    json_object *sw;
    r->switches = r->switch_stall = -1;
    if (json_object_object_get_ex(fp, "procedure_switches", &sw)) {
        get_number(sw, "count", &r->switches);
        get_number(sw, "stall_cycles", &r->switch_stall);
    }
    if (json_object_object_get_ex(fp, "scope", &v))
        snprintf(r->scope, sizeof r->scope, "%s", ptext_term(json_object_get_string(v)));
    get_number(fp, "cpu_ratio", &r->cpu_ratio);
    json_object *hs;
    if (json_object_object_get_ex(fp, "handlers", &hs)) {
        size_t nh = json_object_array_length(hs);
        r->handlers = calloc(nh ? nh : 1, sizeof *r->handlers);
        if (!r->handlers) {
            bad_input(path, "out of memory");
            goto out;
        }
        for (size_t i = 0; i < nh; i++) {
            json_object *h = json_object_array_get_idx(hs, i), *name;
            fp_handler *fh = &r->handlers[r->nhandlers++];
            json_object_object_get_ex(h, "name", &name);
            snprintf(fh->name, sizeof fh->name, "%s", ptext_term(json_object_get_string(name)));
            get_number(h, "count", &fh->count);
            get_number(h, "latency_cycles", &fh->latency);
            get_number(h, "occupancy_cycles", &fh->occupancy);
        }
    }
    const char *missing = NULL;
    json_object *totals, *bins;
    json_object_object_get_ex(fp, "totals", &totals);
    get_metrics(totals, r->total, &missing);
    json_object_object_get_ex(fp, "bins", &bins);
    size_t n = json_object_array_length(bins);
    r->bins = calloc(n ? n : 1, sizeof *r->bins);
    r->by_name = calloc(n ? n : 1, sizeof *r->by_name);
    if (!r->bins || !r->by_name) {
        bad_input(path, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        json_object *b = json_object_array_get_idx(bins, i), *name, *bt;
        json_object_object_get_ex(b, "name", &name);
        json_object_object_get_ex(b, "totals", &bt);
        get_metrics(bt, r->bins[i].v, &missing);
        if (!(r->bins[i].name = strdup(json_object_get_string(name)))) {
            bad_input(path, "out of memory");
            goto out;
        }
        r->by_name[r->nbins++] = &r->bins[i];
    }
    qsort(r->by_name, (size_t)r->nbins, sizeof *r->by_name, bin_order);
    rc = 0;
out:
    json_object_put(root);
    return rc;
}

static double total_misses(const double v[NMETRICS])
{
    return v[RML] + v[RMR] + v[WML] + v[WMR];
}

static double rel_error(double run, double control)
{
    if (control == 0)
        return run == 0 ? 0 : INFINITY;
    return 100.0 * (run - control) / control;
}

static double share(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0; }

static const fp_bin *find_bin(const fp_run *r, const char *name)
{
    const fp_bin *const *hit = bsearch(name, r->by_name, (size_t)r->nbins, sizeof *r->by_name,
                                       bin_by_name);
    /* the first of equal names, as the run's own order has it */
    while (hit && hit > r->by_name && !strcmp(hit[-1]->name, name))
        hit--;
    return hit ? *hit : NULL;
}

static const double zero_metrics[NMETRICS];

static const double *bin_values(const fp_run *r, const char *name)
{
    const fp_bin *b = find_bin(r, name);
    return b ? b->v : zero_metrics;
}

static void print_error(FILE *f, double e)
{
    if (isinf(e))
        fprintf(f, "%9s", "new");
    else
        fprintf(f, "%8.1f%%", e);
}

static void table1(FILE *f, const fp_run *run, const fp_run *ctl)
{
    fprintf(f, "Table 1: Cache miss counts, %s run against the control\n", run->mode);
    fprintf(f, "  misses counted: %s\n",
            !strcmp(run->scope, "section") && !strcmp(ctl->scope, "section")
                ? "in the programs' measured sections"
            : !strcmp(run->scope, "run") && !strcmp(ctl->scope, "run")
                ? "in the whole runs (no measured section marked)"
                : "as each file counts them (the scopes differ or are not stated)");
    fprintf(f, "  %-22s %14s %14s %9s\n", "", "control", run->mode, "error");
    static const struct {
        const char *label;
        int a, b;
    } rows[] = {
        {"Read misses total", RML, RMR}, {"  local", RML, -1}, {"  remote", RMR, -1},
        {"Write misses total", WML, WMR}, {"  local", WML, -1}, {"  remote", WMR, -1},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        double c = ctl->total[rows[i].a] + (rows[i].b >= 0 ? ctl->total[rows[i].b] : 0);
        double r = run->total[rows[i].a] + (rows[i].b >= 0 ? run->total[rows[i].b] : 0);
        fprintf(f, "  %-22s %14.0f %14.0f ", rows[i].label, c, r);
        print_error(f, rel_error(r, c));
        fputc('\n', f);
    }
    double c = total_misses(ctl->total), r = total_misses(run->total);
    fprintf(f, "  %-22s %14.0f %14.0f ", "All misses", c, r);
    print_error(f, rel_error(r, c));
    fputs("\n\n", f);

    fprintf(f, "  Per bin: misses and share of all misses (error of the share in points)\n");
    fprintf(f, "  %-24s %12s %7s %12s %7s %8s\n", "bin", "control", "share", run->mode, "share",
            "error");
    for (int i = 0; i < ctl->nbins; i++) {
        const double *rv = bin_values(run, ctl->bins[i].name);
        double cm = total_misses(ctl->bins[i].v), rm = total_misses(rv);
        if (cm == 0 && rm == 0)
            continue;
        double cs = share(cm, c), rs = share(rm, r);
        fprintf(f, "  %-24.24s %12.0f %6.1f%% %12.0f %6.1f%% %+7.1f\n", ptext_term(ctl->bins[i].name), cm, cs,
                rm, rs, rs - cs);
    }
    for (int i = 0; i < run->nbins; i++)
        if (!find_bin(ctl, run->bins[i].name) && total_misses(run->bins[i].v) > 0)
            fprintf(f, "  %-24.24s %12s %7s %12.0f %6.1f%%   (not in the control)\n",
                    ptext_term(run->bins[i].name), "-", "-", total_misses(run->bins[i].v),
                    share(total_misses(run->bins[i].v), r));
    fputc('\n', f);
}

/* Latencies in processor cycles, or divided by this (--system-cycles) */
static double latency_unit = 1;

static void latency_row(FILE *f, const char *label, double csum, double cn, double rsum,
                        double rn)
{
    double c = cn > 0 ? csum / cn / latency_unit : 0, r = rn > 0 ? rsum / rn / latency_unit : 0;
    fprintf(f, "  %-28s %14.1f %14.1f ", label, c, r);
    print_error(f, rel_error(r, c));
    fputc('\n', f);
}

/* Table 2 compares like with like: the measured sections when both runs
 * marked one (the program's dsm_sim_section_begin/end, as SPLASH-2 times
 * its parallel phase), else both whole runs.  Returns 1 for sections. */
static int choose_section(fp_run *run, fp_run *ctl)
{
    if (!run->marked || !ctl->marked)
        return 0;
    fp_run *both[2] = { run, ctl };
    for (int i = 0; i < 2; i++) {
        fp_run *r = both[i];
        r->parallel_cycles = r->section_cycles;
        /* commands are only charged by the FLASH model's proc mode; a file
         * with no procedure_switches in its flashpoint section had none */
        r->run_switches = r->switches;
        r->run_switch_stall = r->switch_stall;
        if (r->switches >= 0) {
            r->switches = r->section_switches;
            r->switch_stall = r->section_switch_stall;
        }
    }
    return 1;
}

static void table2(FILE *f, const fp_run *run, const fp_run *ctl, int sections)
{
    const double *c = ctl->total, *r = run->total;
    fprintf(f, "Table 2: Overhead and miss latencies (times in processor cycles, latencies in %s)\n",
            latency_unit > 1 ? "10 ns system cycles" : "processor cycles");
    fprintf(f, "  parallel section: %s\n",
            sections ? "the programs' measured sections (dsm_sim_section_begin to _end)"
            : run->marked || ctl->marked
                ? "the whole runs (only one of the files has a measured section)"
                : "the whole runs (no measured section in the files)");
    fprintf(f, "  %-28s %14s %14s %9s\n", "", "control", run->mode, "overhead");
    fprintf(f, "  %-28s %14.0f %14.0f ", "Parallel section time", ctl->parallel_cycles,
            run->parallel_cycles);
    print_error(f, rel_error(run->parallel_cycles, ctl->parallel_cycles));
    fputc('\n', f);
    if (sections) {
        fprintf(f, "  %-28s %14.0f %14.0f ", "Whole run time", ctl->run_cycles, run->run_cycles);
        print_error(f, rel_error(run->run_cycles, ctl->run_cycles));
        fputc('\n', f);
    }
    if (run->switches >= 0 || ctl->switches >= 0) {
        /* FP-Proc's procedure commands: the stall is summed over processors */
        fprintf(f, "  %-28s %14.0f %14.0f\n", "Procedure commands",
                ctl->switches > 0 ? ctl->switches : 0, run->switches > 0 ? run->switches : 0);
        fprintf(f, "  %-28s %14.0f %14.0f\n", "  stall, all processors",
                ctl->switch_stall > 0 ? ctl->switch_stall : 0,
                run->switch_stall > 0 ? run->switch_stall : 0);
    }
    if (sections && (run->run_switches >= 0 || ctl->run_switches >= 0))
        fprintf(f, "  %-28s %14.0f %14.0f\n", "Whole run commands",
                ctl->run_switches > 0 ? ctl->run_switches : 0,
                run->run_switches > 0 ? run->run_switches : 0);
    latency_row(f, "Read latency average", c[RLL] + c[RLR], c[RML] + c[RMR], r[RLL] + r[RLR],
                r[RML] + r[RMR]);
    latency_row(f, "  local", c[RLL], c[RML], r[RLL], r[RML]);
    latency_row(f, "  remote", c[RLR], c[RMR], r[RLR], r[RMR]);
    latency_row(f, "Write latency average", c[WLL] + c[WLR], c[WML] + c[WMR], r[WLL] + r[WLR],
                r[WML] + r[WMR]);
    latency_row(f, "  local", c[WLL], c[WML], r[WLL], r[WML]);
    latency_row(f, "  remote", c[WLR], c[WMR], r[WLR], r[WMR]);
    fputc('\n', f);
}

static const fp_run *sort_run;
static int by_control_misses(const void *a, const void *b)
{
    double ma = total_misses(sort_run->bins[*(const int *)a].v);
    double mb = total_misses(sort_run->bins[*(const int *)b].v);
    return ma < mb ? 1 : ma > mb ? -1 : *(const int *)a - *(const int *)b;
}

static void table3(FILE *f, const fp_run *run, const fp_run *ctl, int top)
{
    int *order = malloc((size_t)(ctl->nbins ? ctl->nbins : 1) * sizeof *order);
    if (!order)
        return;
    for (int i = 0; i < ctl->nbins; i++)
        order[i] = i;
    sort_run = ctl;
    qsort(order, (size_t)ctl->nbins, sizeof *order, by_control_misses);
    fprintf(f, "Table 3: Per-data-structure statistics (share of each metric over all bins)\n");
    for (int k = 0; k < ctl->nbins && k < top; k++) {
        const fp_bin *b = &ctl->bins[order[k]];
        if (total_misses(b->v) == 0)
            break;
        const double *rv = bin_values(run, b->name);
        fprintf(f, "  Rank %d data bin: %s\n", k + 1, ptext_term(b->name));
        fprintf(f, "    %-22s %9s %9s %9s\n", "metric", "control", run->mode, "error");
        for (int m = 0; m < NMETRICS; m++) {
            double cs = share(b->v[m], ctl->total[m]), rs = share(rv[m], run->total[m]);
            fprintf(f, "    %-22s %8.1f%% %8.1f%% %+8.1f\n", metrics[m].title, cs, rs, rs - cs);
        }
    }
    free(order);
}

static const fp_handler *find_handler(const fp_run *r, const char *name)
{
    for (int i = 0; i < r->nhandlers; i++)
        if (!strcmp(r->handlers[i].name, name))
            return &r->handlers[i];
    return NULL;
}

static void handler_avgs(const fp_handler *h, double ratio, double *lat, double *occ)
{
    *lat = h && h->count > 0 ? h->latency / h->count / ratio : 0;
    *occ = h && h->count > 0 ? h->occupancy / h->count / ratio : 0;
}

/* Table 4 (and Figures 6-7): the average latency / occupancy of each
 * handler class in 10 ns system cycles, control against the run, as the
 * model measured them (they depend on the handler's work and the
 * directory state: an output, not a constant). */
static void table4(FILE *f, const fp_run *run, const fp_run *ctl)
{
    if (!run->nhandlers && !ctl->nhandlers)
        return;
    double rr = run->cpu_ratio > 0 ? run->cpu_ratio : 1, cr = ctl->cpu_ratio > 0 ? ctl->cpu_ratio : 1;
    fprintf(f, "\nTable 4: Handler latency/occupancy (10 ns system cycles), %s\n",
            !strcmp(run->scope, "section") ? "in the measured section" : "over the run");
    fprintf(f, "  %-20s %10s %13s %10s %13s %15s\n", "handler", "control n", "control L/O",
            "run n", run->mode, "overhead L/O");
    for (int pass = 0; pass < 2; pass++) {
        const fp_run *a = pass ? run : ctl;
        for (int i = 0; i < a->nhandlers; i++) {
            const char *name = a->handlers[i].name;
            if (pass && find_handler(ctl, name))
                continue; /* printed with the control's */
            const fp_handler *c = find_handler(ctl, name), *r = find_handler(run, name);
            double cl, co, rl, ro;
            handler_avgs(c, cr, &cl, &co);
            handler_avgs(r, rr, &rl, &ro);
            char cbuf[32], rbuf[32];
            snprintf(cbuf, sizeof cbuf, "%.1f/%.1f", cl, co);
            snprintf(rbuf, sizeof rbuf, "%.1f/%.1f", rl, ro);
            fprintf(f, "  %-20s %10.0f %13s %10.0f %13s ", name, c ? c->count : 0, cbuf,
                    r ? r->count : 0, rbuf);
            double el = rel_error(rl, cl), eo = rel_error(ro, co);
            if (isinf(el) || isinf(eo))
                fprintf(f, "%15s\n", "new");
            else
                fprintf(f, "%6.0f%%/%6.0f%%\n", el, eo);
        }
    }
}

#define SHARE_MIN_EVENTS 100

/* Shares below this many points are not checked relatively: a share of
 * 0.4% moving to 0.6% is a 50% relative error no reader would act on (the
 * paper's Table 3 shows the two top bins, whose shares are 27-66%). */
#define RELATIVE_MIN_SHARE 5.0

/* The paper's Table 3 check: for the top bins by control misses (those
 * Table 3 shows), every metric's share within rel_pct percent of the
 * control's share (relative, as the paper's error column); 0 when within. */
static int check_relative(const fp_run *run, const fp_run *ctl, int top, double rel_pct)
{
    int *order = malloc((size_t)(ctl->nbins ? ctl->nbins : 1) * sizeof *order);
    if (!order)
        return 1;
    for (int i = 0; i < ctl->nbins; i++)
        order[i] = i;
    sort_run = ctl;
    qsort(order, (size_t)ctl->nbins, sizeof *order, by_control_misses);
    /* the count each metric's share is made of: a latency's share is
     * checked when its misses are numerous enough, as the count's */
    static const int count_of[NMETRICS] = {RML, RML, RMR, RMR, WML, WML, WMR, WMR, COLD, INVS};
    double worst = 0;
    const char *worst_bin = "none", *worst_metric = "none";
    double worst_c = 0, worst_r = 0;
    for (int k = 0; k < ctl->nbins && k < top; k++) {
        const fp_bin *b = &ctl->bins[order[k]];
        if (total_misses(b->v) == 0)
            break;
        const double *rv = bin_values(run, b->name);
        for (int m = 0; m < NMETRICS; m++) {
            if (ctl->total[count_of[m]] < SHARE_MIN_EVENTS)
                continue;
            double cs = share(b->v[m], ctl->total[m]), rs = share(rv[m], run->total[m]);
            if (cs < RELATIVE_MIN_SHARE && rs < RELATIVE_MIN_SHARE)
                continue;
            double e = rel_error(rs, cs);
            if (fabs(e) > fabs(worst)) {
                worst = e;
                worst_bin = b->name;
                worst_metric = metrics[m].key;
                worst_c = cs;
                worst_r = rs;
            }
        }
    }
    free(order);
    if (fabs(worst) > rel_pct) {
        printf("CHECK FAILED: bin %s's share of %s is %.1f%% against %.1f%% in the control: "
               "%+.1f%% relative (limit %.1f%%)\n",
               ptext_term(worst_bin), worst_metric, worst_r, worst_c, worst, rel_pct);
        return 1;
    }
    printf("CHECK PASSED: top %d bins' shares within %.1f%% relative (worst %+.1f%%, %s %s)\n",
           top, rel_pct, worst, ptext_term(worst_bin), worst_metric);
    return 0;
}

/* --check: the worst deviations against the limits; 0 when within. */
static int check(const fp_run *run, const fp_run *ctl, double miss_pct, double share_pts,
                 double time_pct)
{
    int failed = 0;
    const double *c = ctl->total, *r = run->total;
    struct {
        const char *what;
        double c, r;
    } totals[] = {
        {"read misses", c[RML] + c[RMR], r[RML] + r[RMR]},
        {"write misses", c[WML] + c[WMR], r[WML] + r[WMR]},
        {"all misses", total_misses(c), total_misses(r)},
    };
    for (size_t i = 0; i < sizeof totals / sizeof totals[0]; i++) {
        double e = rel_error(totals[i].r, totals[i].c);
        if (fabs(e) > miss_pct) {
            printf("CHECK FAILED: %s %.0f against %.0f in the control: %.1f%% (limit %.1f%%)\n",
                   totals[i].what, totals[i].r, totals[i].c, e, miss_pct);
            failed = 1;
        }
    }
    double worst = 0;
    const char *worst_bin = "none differs", *worst_metric = "any count";
    /* A share of a handful of events moves by tens of points when one event
     * moves: metrics with fewer than SHARE_MIN_EVENTS in the control are
     * too small to compare (named below, not checked). */
    int few = 0;
    for (int m = 0; m < NMETRICS; m++)
        if (metrics[m].is_count && c[m] > 0 && c[m] < SHARE_MIN_EVENTS) {
            printf("%s %s (%.0f events in the control)", few++ ? "," : "  not share-checked, too few events:",
                   metrics[m].key, c[m]);
        }
    if (few)
        printf("\n");
    for (int i = 0; i < ctl->nbins; i++) {
        const double *rv = bin_values(run, ctl->bins[i].name);
        for (int m = -1; m < NMETRICS; m++) {
            if (m >= 0 && (!metrics[m].is_count || c[m] < SHARE_MIN_EVENTS))
                continue;
            double cs = m < 0 ? share(total_misses(ctl->bins[i].v), total_misses(c))
                              : share(ctl->bins[i].v[m], c[m]);
            double rs = m < 0 ? share(total_misses(rv), total_misses(r)) : share(rv[m], r[m]);
            if (fabs(rs - cs) > fabs(worst)) {
                worst = rs - cs;
                worst_bin = ctl->bins[i].name;
                worst_metric = m < 0 ? "misses" : metrics[m].key;
            }
        }
    }
    for (int i = 0; i < run->nbins; i++)
        if (!find_bin(ctl, run->bins[i].name)) {
            double rs = share(total_misses(run->bins[i].v), total_misses(r));
            if (fabs(rs) > fabs(worst)) {
                worst = rs;
                worst_bin = run->bins[i].name;
                worst_metric = "misses";
            }
        }
    if (fabs(worst) > share_pts) {
        printf("CHECK FAILED: bin %s's share of %s differs by %+.1f points (limit %.1f)\n",
               ptext_term(worst_bin), worst_metric, worst, share_pts);
        failed = 1;
    }
    double overhead = rel_error(run->parallel_cycles, ctl->parallel_cycles);
    if (overhead > time_pct) {
        printf("CHECK FAILED: parallel time %.0f against %.0f in the control: %+.1f%% "
               "(limit %.1f%%)\n",
               run->parallel_cycles, ctl->parallel_cycles, overhead, time_pct);
        failed = 1;
    }
    if (!failed)
        printf("CHECK PASSED: misses within %.1f%% (%+.1f%%), shares within %.1f points "
               "(worst %+.1f, %s %s), parallel time %+.1f%% (limit %.1f%%)\n",
               miss_pct, rel_error(total_misses(r), total_misses(c)), share_pts, worst,
               ptext_term(worst_bin), worst_metric, overhead, time_pct);
    return failed;
}

static void usage(FILE *f)
{
    dsmprof_usage(f, "flashpoint");
    fprintf(f,
            "FlashPoint's Tables 1-3 (Martonosi, Ofelt and Heinrich, \"Integrating Performance\n"
            "Monitoring and Communication in Parallel Computers\") for a simulated FLASH run\n"
            "(dsmrun --machine=flash,fp_mode=noproc|proc|dp) against its control run\n"
            "(--machine=flash,fp_mode=control) of the same program on as many processors.\n"
            "  --top N       bins shown in Table 3, by control misses (default 5)\n"
            "  --check=M,S,T[,R]  exit 3 unless total misses are within M%%, every bin's\n"
            "                share of each count within S points, parallel time at most T%%\n"
            "                above the control's, and (with R) every metric's share of the\n"
            "                top bins (--top) within R%% of the control's share, relative as\n"
            "                the paper's Table 3 (shares under 5 points on both sides skipped)\n"
            "  --system-cycles  Table 2's latencies in 10 ns system cycles (the paper's unit)\n"
            "Table 4 gives each MAGIC handler class's average latency/occupancy.\n");
}

int dsmprof_flashpoint(int argc, char **argv)
{
    static const struct option opts[] = {
        {"top", required_argument, NULL, 't'},
        {"check", required_argument, NULL, 'c'},
        {"system-cycles", no_argument, NULL, 's'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int top = 5, checking = 0, system_cycles = 0;
    double miss_pct = 0, share_pts = 0, time_pct = 0, rel_pct = -1;
    optind = 0; /* a full reset: dsmprof_run may run many command lines */
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 't':
            if (dsmprof_parse_top("flashpoint", optarg, &top))
                return DSMPROF_USAGE;
            break;
        case 'c': {
            char extra;
            int n = sscanf(optarg, "%lf,%lf,%lf,%lf%c", &miss_pct, &share_pts, &time_pct,
                           &rel_pct, &extra);
            if ((n != 3 && n != 4) ||
                !(miss_pct >= 0 && share_pts >= 0 && isfinite(miss_pct) && isfinite(share_pts) &&
                  isfinite(time_pct)) || (n == 4 && !(rel_pct >= 0 && isfinite(rel_pct)))) {
                fprintf(stderr,
                        "dsmprof flashpoint: --check=%s: expected MISS_PCT,SHARE_POINTS,TIME_PCT"
                        "[,RELATIVE_PCT] (e.g. 3,7,10 or 3,7,10,7)\n",
                        ptext_term(optarg));
                return DSMPROF_USAGE;
            }
            checking = 1;
            break;
        }
        case 's': system_cycles = 1; break;
        case 'h': usage(stdout); return DSMPROF_OK;
        case ':':
            fprintf(stderr, "dsmprof flashpoint: %s needs a value\n", ptext_term(argv[optind - 1]));
            return DSMPROF_USAGE;
        default:
            fprintf(stderr, "dsmprof flashpoint: unknown option %s\n", ptext_term(argv[optind - 1]));
            usage(stderr);
            return DSMPROF_USAGE;
        }
    }
    if (argc - optind != 2) {
        fprintf(stderr, "dsmprof flashpoint: expected two files, RUN.json and CONTROL.json\n");
        usage(stderr);
        return DSMPROF_USAGE;
    }
    fp_run run, ctl;
    if (load_run(argv[optind], &run)) {
        free_run(&run);
        return 2;
    }
    if (load_run(argv[optind + 1], &ctl)) {
        free_run(&run);
        free_run(&ctl);
        return 2;
    }
    int rc = 0;
    if (strcmp(ctl.mode, "control") && strcmp(ctl.mode, "dp")) {
        fprintf(stderr,
                "dsmprof flashpoint: %s: fp_mode is %s; the control run must be fp_mode=control "
                "(or dp): swap the arguments?\n",
                ctl.path, ctl.mode);
        rc = 2;
    } else if (strcmp(run.program, ctl.program)) {
        fprintf(stderr, "dsmprof flashpoint: %s is a run of '%s' but %s of '%s'\n", run.path,
                run.program, ctl.path, ctl.program);
        rc = 2;
    } else if (run.processors != ctl.processors) {
        fprintf(stderr, "dsmprof flashpoint: %s ran on %d processors but %s on %d\n", run.path,
                run.processors, ctl.path, ctl.processors);
        rc = 2;
    }
    if (!rc) {
        /* Table 2 and --check's time limit use the same parallel section */
        int sections = choose_section(&run, &ctl);
        /* Table 2 in the paper's unit: both runs must say their ratio */
        latency_unit = 1;
        if (system_cycles) {
            if (run.cpu_ratio <= 0 || run.cpu_ratio != ctl.cpu_ratio) {
                fprintf(stderr, "dsmprof flashpoint: --system-cycles: the files do not give one "
                                "cpu_ratio (written before it was recorded?)\n");
                free_run(&run);
                free_run(&ctl);
                return 2;
            }
            latency_unit = run.cpu_ratio;
        }
        printf("FlashPoint: %s (%s, %d processors) against %s (%s)\n\n", run.path, run.mode,
               run.processors, ctl.path, ctl.mode);
        table1(stdout, &run, &ctl);
        table2(stdout, &run, &ctl, sections);
        table3(stdout, &run, &ctl, top);
        table4(stdout, &run, &ctl);
        if (checking) {
            fputc('\n', stdout);
            if (check(&run, &ctl, miss_pct, share_pts, time_pct))
                rc = 3;
            if (rel_pct >= 0 && check_relative(&run, &ctl, top, rel_pct))
                rc = 3;
        }
    }
    free_run(&run);
    free_run(&ctl);
    return rc;
}
