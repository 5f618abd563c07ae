/* memspy.c - MemSpy's per (procedure, bin) statistics and the time-sampling
 * estimator (memspy.h).  Pure: no I/O, no clocks; the machine hands every
 * miss to memspy_record through sim_on_miss.
 *
 * Storage: `cells` is one array of MS_NMETRICS counters per (procedure,
 * bin) cell, row-major by procedure (index procedure + 1, bin + 1 so that
 * the ids -1 have a row and a column); `repl` is the square replacement
 * matrix by (evicted bin + 1, evicting bin + 1).  Both are regrown, copying
 * into the new shape, when a larger id shows up; ids are small and appear
 * early, so this happens a few times per run. */
#include "memspy.h"

#include <stdlib.h>
#include <string.h>

const char *const memspy_metric_names[MS_NMETRICS] = {
    [MS_READ_MISSES] = "read_misses",   [MS_WRITE_MISSES] = "write_misses",
    [MS_UPGRADES] = "upgrades",         [MS_STALL] = "stall_cycles",
    [MS_COLD] = "cold",                 [MS_REPLACEMENT] = "replacement",
    [MS_INVALIDATION] = "invalidation", [MS_UNKNOWN] = "unknown",
    [MS_TRUE_SHARING] = "true_sharing", [MS_FALSE_SHARING] = "false_sharing",
};

struct memspy {
    uint64_t *cells;    /* [prow][bcol][MS_NMETRICS] */
    int prows, bcols;   /* allocated rows (procedures + 1), columns (bins + 1) */
    int max_proc, max_bin;   /* largest ids seen (-1: none) */
    uint64_t *repl;     /* [rdim][rdim] */
    int rdim;
    uint64_t lost;
};

memspy *memspy_create(void)
{
    memspy *ms = calloc(1, sizeof *ms);
    if (ms) {
        ms->max_proc = -1;
        ms->max_bin = -1;
    }
    return ms;
}

void memspy_free(memspy *ms)
{
    if (!ms)
        return;
    free(ms->cells);
    free(ms->repl);
    free(ms);
}

static int grow_dim(int have, int need)
{
    int n = have ? have : 8;
    while (n < need)
        n *= 2;
    return n;
}

/* make room for procedure row `prow` and bin column `bcol` (0-based indices) */
static int ensure_cells(memspy *ms, int prow, int bcol)
{
    if (prow < ms->prows && bcol < ms->bcols)
        return 0;
    int nrows = prow < ms->prows ? ms->prows : grow_dim(ms->prows, prow + 1);
    int ncols = bcol < ms->bcols ? ms->bcols : grow_dim(ms->bcols, bcol + 1);
    uint64_t *n = calloc((size_t)nrows * (size_t)ncols * MS_NMETRICS, sizeof *n);
    if (!n)
        return -1;
    for (int r = 0; r < ms->prows; r++)
        memcpy(n + (size_t)r * (size_t)ncols * MS_NMETRICS,
               ms->cells + (size_t)r * (size_t)ms->bcols * MS_NMETRICS,
               (size_t)ms->bcols * MS_NMETRICS * sizeof *n);
    free(ms->cells);
    ms->cells = n;
    ms->prows = nrows;
    ms->bcols = ncols;
    return 0;
}

static int ensure_repl(memspy *ms, int idx)
{
    if (idx < ms->rdim)
        return 0;
    int nd = grow_dim(ms->rdim, idx + 1);
    uint64_t *n = calloc((size_t)nd * (size_t)nd, sizeof *n);
    if (!n)
        return -1;
    for (int r = 0; r < ms->rdim; r++)
        memcpy(n + (size_t)r * (size_t)nd, ms->repl + (size_t)r * (size_t)ms->rdim,
               (size_t)ms->rdim * sizeof *n);
    free(ms->repl);
    ms->repl = n;
    ms->rdim = nd;
    return 0;
}

static int norm_id(int id) { return id < -1 ? -1 : id; }

int memspy_record(memspy *ms, const sim_miss *miss)
{
    int proc = norm_id(miss->procedure), bin = norm_id(miss->bin);
    int evicting = norm_id(miss->evicted_by_bin);
    int is_repl = !miss->is_upgrade && miss->cause == SIM_CAUSE_REPLACEMENT;
    if (ensure_cells(ms, proc + 1, bin + 1) ||
        (is_repl && ensure_repl(ms, (bin > evicting ? bin : evicting) + 1))) {
        ms->lost++;
        return -1;
    }
    if (proc > ms->max_proc)
        ms->max_proc = proc;
    if (bin > ms->max_bin)
        ms->max_bin = bin;
    uint64_t *c = ms->cells + ((size_t)(proc + 1) * (size_t)ms->bcols + (size_t)(bin + 1)) *
                                  MS_NMETRICS;
    c[MS_STALL] += miss->latency;
    if (miss->is_upgrade || miss->cause == SIM_CAUSE_UPGRADE) {
        /* a store to a read-only copy moves no data: not a miss, no cause */
        c[MS_UPGRADES]++;
        return 0;
    }
    c[miss->is_write ? MS_WRITE_MISSES : MS_READ_MISSES]++;
    switch (miss->cause) {
    case SIM_CAUSE_COLD: c[MS_COLD]++; break;
    case SIM_CAUSE_REPLACEMENT:
        c[MS_REPLACEMENT]++;
        ms->repl[(size_t)(bin + 1) * (size_t)ms->rdim + (size_t)(evicting + 1)]++;
        break;
    case SIM_CAUSE_INVALIDATION:
        c[MS_INVALIDATION]++;
        c[miss->false_sharing ? MS_FALSE_SHARING : MS_TRUE_SHARING]++;
        break;
    default: c[MS_UNKNOWN]++; break; /* SIM_CAUSE_UNKNOWN, or a cause this file predates */
    }
    return 0;
}

void memspy_on_miss(void *ms, const sim_miss *miss) { (void)memspy_record(ms, miss); }

uint64_t memspy_lost(const memspy *ms) { return ms->lost; }
int memspy_nprocedures(const memspy *ms) { return ms->max_proc + 1; }
int memspy_nbins(const memspy *ms) { return ms->max_bin + 1; }

uint64_t memspy_get(const memspy *ms, int procedure, int bin, memspy_metric metric)
{
    procedure = norm_id(procedure);
    bin = norm_id(bin);
    if ((unsigned)metric >= MS_NMETRICS || procedure + 1 >= ms->prows || bin + 1 >= ms->bcols)
        return 0;
    return ms->cells[((size_t)(procedure + 1) * (size_t)ms->bcols + (size_t)(bin + 1)) *
                         MS_NMETRICS + metric];
}

uint64_t memspy_bin_total(const memspy *ms, int bin, memspy_metric metric)
{
    uint64_t t = 0;
    for (int p = -1; p <= ms->max_proc; p++)
        t += memspy_get(ms, p, bin, metric);
    return t;
}

uint64_t memspy_procedure_total(const memspy *ms, int procedure, memspy_metric metric)
{
    uint64_t t = 0;
    for (int b = -1; b <= ms->max_bin; b++)
        t += memspy_get(ms, procedure, b, metric);
    return t;
}

uint64_t memspy_total(const memspy *ms, memspy_metric metric)
{
    uint64_t t = 0;
    for (int p = -1; p <= ms->max_proc; p++)
        t += memspy_procedure_total(ms, p, metric);
    return t;
}

uint64_t memspy_misses(const memspy *ms, int procedure, int bin)
{
    return memspy_get(ms, procedure, bin, MS_READ_MISSES) +
           memspy_get(ms, procedure, bin, MS_WRITE_MISSES);
}

uint64_t memspy_replacements(const memspy *ms, int evicted, int evicting)
{
    evicted = norm_id(evicted);
    evicting = norm_id(evicting);
    if (evicted + 1 >= ms->rdim || evicting + 1 >= ms->rdim)
        return 0;
    return ms->repl[(size_t)(evicted + 1) * (size_t)ms->rdim + (size_t)(evicting + 1)];
}

/* ---- time sampling ---- */

memspy_rate memspy_eq61(uint64_t known_hits, uint64_t known_misses, uint64_t unknown)
{
    /* Eq. 6.1 of MemSpy (section 6.2.2): with mu the share
     * of the U unknown references that are misses, m_s = (Mk + mu U) / (Hk +
     * Mk + U); mu = 0.5 gives the estimate, mu in [0, 1] the symmetric bound. */
    memspy_rate r = { 0.0, 0.0 };
    double refs = (double)known_hits + (double)known_misses + (double)unknown;
    if (refs > 0) {
        r.rate = ((double)known_misses + 0.5 * (double)unknown) / refs;
        r.bound = 0.5 * (double)unknown / refs;
    }
    return r;
}

void memspy_sampling_plan(uint64_t period, uint64_t length, uint64_t end, memspy_sampling *out)
{
    memspy_sampling_plan_placed(period, length, 0, end, out);
}

void memspy_sampling_plan_placed(uint64_t period, uint64_t length, int random, uint64_t end,
                                 memspy_sampling *out)
{
    memset(out, 0, sizeof *out);
    out->period = period;
    out->length = length;
    out->total_cycles = end;
    if (period == 0 || length >= period) {
        /* statistics always on: one sample that is the whole run */
        out->samples = end > 0;
        out->sampled_cycles = end;
        out->ratio = 1.0;
        return;
    }
    uint64_t whole = end / period, rest = end % period;
    /* the last, partial period: its window opens at `open` (the machine's
     * sim_window_offset) and may not have opened, or closed, by the end */
    uint64_t open = sim_window_offset(period, length, random, whole);
    out->samples = whole + (rest > open);
    out->sampled_cycles = whole * length +
                          (rest > open ? (rest - open < length ? rest - open : length) : 0);
    out->ratio = end ? (double)out->sampled_cycles / (double)end : 0.0;
}

memspy_count_estimate memspy_estimate_count(uint64_t known, uint64_t unknown, double ratio)
{
    /* Eq. 6.1 times the run's estimated references R / ratio (see memspy.h) */
    memspy_count_estimate e = { 0.0, 0.0 };
    if (ratio > 0) {
        e.value = ((double)known + 0.5 * (double)unknown) / ratio;
        e.bound = 0.5 * (double)unknown / ratio;
    }
    return e;
}

memspy_rate memspy_cause_share(uint64_t cause_count, uint64_t unknown, uint64_t misses)
{
    memspy_rate r = { 0.0, 0.0 };
    if (misses > 0) {
        r.rate = ((double)cause_count + 0.5 * (double)unknown) / (double)misses;
        r.bound = 0.5 * (double)unknown / (double)misses;
    }
    return r;
}
