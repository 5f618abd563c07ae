/* flashpoint_json.c - renders the FlashPoint collector as the "flashpoint"
 * section of a dsm-sim/1 file (layout in flashpoint_json.h).  Every bin the
 * machine knows is listed, also without misses, so that a run and its
 * control list the same bins and dsmprof flashpoint can match them by name. */
#include "flashpoint_json.h"

#include <stdio.h>

#include "ptext.h"

#include "sim/flash.h"
#include "sim/timing.h"

static const char *fp_mode_name(int mode)
{
    switch (mode) {
    case SIM_FP_CONTROL: return "control";
    case SIM_FP_DP: return "dp";
    case SIM_FP_NOPROC: return "noproc";
    case SIM_FP_PROC: return "proc";
    default: return "unknown";
    }
}

/* json_object_object_add that tolerates a NULL value (out of memory): the
 * caller notices through the final check of the section. */
static int put(json_object *o, const char *key, json_object *v)
{
    if (!v)
        return -1;
    json_object_object_add(o, key, v);
    return 0;
}

static json_object *record_json(const sim_fp_record *rec)
{
    json_object *o = json_object_new_object();
    if (!o)
        return NULL;
    int bad = 0;
    for (int k = 0; k < FPM_NMETRICS; k++)
        bad |= put(o, sim_flashpoint_metric_key(k), json_object_new_uint64(rec->v[k]));
    bad |= put(o, "upgrades", json_object_new_uint64(rec->upgrades));
    bad |= put(o, "invalidations_sent", json_object_new_uint64(rec->invalidations_sent));
    if (bad) {
        json_object_put(o);
        return NULL;
    }
    return o;
}

static const char *procedure_name(int p, const char *const *names, int n, char *buf,
                                  size_t len)
{
    if (p < 0)
        return "(unknown)";
    if (names && p < n && names[p])
        return names[p];
    snprintf(buf, len, "procedure#%d", p);
    return buf;
}

static const char *bin_name(const sim_machine *m, int b, char *buf, size_t len)
{
    if (b < 0)
        return "(unbinned)";
    const char *name = m && b < sim_nbins(m) ? sim_bin_name(m, b) : NULL;
    if (name)
        return name;
    snprintf(buf, len, "bin#%d", b);
    return buf;
}

static int max_int(int a, int b) { return a > b ? a : b; }

static json_object *bin_json(const sim_flashpoint *fp, const sim_machine *m, int b,
                             const char *const *procedure_names, int nprocedures)
{
    char buf[48];
    json_object *o = json_object_new_object();
    if (!o)
        return NULL;
    int bad = put(o, "bin", json_object_new_int(b));
    /* names come from the program: valid UTF-8 whatever their bytes */
    bad |= put(o, "name", ptext_json_string(bin_name(m, b, buf, sizeof buf)));
    sim_fp_record total;
    sim_flashpoint_bin_total(fp, b, &total);
    bad |= put(o, "totals", record_json(&total));
    json_object *procs = json_object_new_array();
    bad |= put(o, "procedures", procs);
    int np = max_int(sim_flashpoint_nprocedures(fp), 0);
    for (int p = -1; procs && p < np; p++) {
        const sim_fp_record *rec = sim_flashpoint_get(fp, p, b);
        if (!rec)
            continue;
        json_object *r = record_json(rec);
        if (!r) {
            bad = -1;
            continue;
        }
        bad |= put(r, "procedure", json_object_new_int(p));
        bad |= put(r, "name", ptext_json_string(
                                  procedure_name(p, procedure_names, nprocedures, buf, sizeof buf)));
        json_object_array_add(procs, r);
    }
    if (bad) {
        json_object_put(o);
        return NULL;
    }
    return o;
}

/* Table 4 and Figures 6-7: each handler class that ran, its count and its
 * latency, occupancy and queuing sums (processor cycles), in the measured
 * section when the program marked one (section = 1), else the whole run. */
static json_object *handlers_json(const sim_machine *m, int section)
{
    json_object *arr = json_object_new_array();
    if (!arr)
        return NULL;
    const void *model = sim_timing_model(m);
    for (int cls = 0; cls < FH_NCLASSES; cls++) {
        sim_flash_handler_stat s;
        if ((section ? sim_flash_section_stats_of(model, cls, &s)
                     : sim_flash_stats_of(model, cls, &s)) ||
            !s.count)
            continue;
        json_object *h = json_object_new_object();
        if (!h) {
            json_object_put(arr);
            return NULL;
        }
        int bad = put(h, "name", json_object_new_string(sim_flash_handler_name(cls)));
        bad |= put(h, "count", json_object_new_uint64(s.count));
        bad |= put(h, "latency_cycles", json_object_new_uint64(s.latency));
        bad |= put(h, "occupancy_cycles", json_object_new_uint64(s.occupancy));
        bad |= put(h, "queued_cycles", json_object_new_uint64(s.queued));
        json_object_array_add(arr, h);
        if (bad) {
            json_object_put(arr);
            return NULL;
        }
    }
    return arr;
}

json_object *flashpoint_to_json(const sim_flashpoint *whole, const sim_machine *m,
                                const char *const *procedure_names, int nprocedures)
{
    if (!whole)
        return NULL;
    /* Tables 1-4 are of the measured section when the program marked one
     * (the paper's timed parallel phase: not the set-up, not the checks) */
    sim_section sec = {0};
    if (m)
        sim_section_get(m, &sec);
    sim_flashpoint *empty = NULL;
    const sim_flashpoint *fp = whole;
    if (sec.begun) {
        fp = sim_flashpoint_section(whole);
        if (!fp && !(fp = empty = sim_flashpoint_new()))
            return NULL;
    }
    json_object *o = json_object_new_object();
    if (!o) {
        sim_flashpoint_free(empty);
        return NULL;
    }
    if (!o)
        return NULL;
    const sim_params *p = m ? sim_get_params(m) : NULL;
    sim_time start = sim_flashpoint_start(fp), end = start;
    for (int i = 0; p && i < p->nprocs; i++)
        if (sim_clock(m, i) > end)
            end = sim_clock(m, i);
    int bad = put(o, "schema", json_object_new_string(FLASHPOINT_SCHEMA));
    bad |= put(o, "mode", json_object_new_string(fp_mode_name(p ? p->fp_mode : SIM_FP_CONTROL)));
    bad |= put(o, "machine", ptext_json_string(p ? p->machine : ""));
    bad |= put(o, "processors", json_object_new_int(p ? p->nprocs : 0));
    bad |= put(o, "latency_unit", json_object_new_string("processor cycles"));
    bad |= put(o, "start_cycles", json_object_new_uint64(start));
    bad |= put(o, "end_cycles", json_object_new_uint64(end));
    bad |= put(o, "parallel_cycles", json_object_new_uint64(end - start));
    bad |= put(o, "dropped", json_object_new_uint64(sim_flashpoint_dropped(whole)));
    bad |= put(o, "scope", json_object_new_string(sec.begun ? "section" : "run"));
    sim_fp_record run_total;
    sim_flashpoint_total(whole, &run_total);
    bad |= put(o, "run_totals", record_json(&run_total));
    int flash = m && sim_timing_ops_of(m) == &sim_timing_flash;
    if (flash) {
        bad |= put(o, "cpu_ratio", json_object_new_uint64(sim_flash_cpu_ratio(sim_timing_model(m))));
        bad |= put(o, "handlers", handlers_json(m, sec.begun));
    }
    /* FP-Proc's cost lives in the procedure commands, not in the misses:
     * say how many there were and what they stalled (FLASH model only) */
    sim_flash_handler_stat sw;
    if (flash &&
        sim_flash_stats_of(sim_timing_model(m), FH_PI_PROCEDURE_SWITCH, &sw) == 0) {
        json_object *pj = json_object_new_object();
        bad |= put(o, "procedure_switches", pj);
        if (pj) {
            bad |= put(pj, "count", json_object_new_uint64(sw.count));
            bad |= put(pj, "stall_cycles", json_object_new_uint64(sw.latency));
            bad |= put(pj, "queued_cycles", json_object_new_uint64(sw.queued));
            bad |= put(pj, "occupancy_cycles", json_object_new_uint64(sw.occupancy));
        }
    }
    json_object *metrics = json_object_new_array();
    bad |= put(o, "metrics", metrics);
    for (int k = 0; metrics && k < FPM_NMETRICS; k++)
        json_object_array_add(metrics, json_object_new_string(sim_flashpoint_metric_key(k)));
    sim_fp_record total;
    sim_flashpoint_total(fp, &total);
    bad |= put(o, "totals", record_json(&total));
    json_object *bins = json_object_new_array();
    bad |= put(o, "bins", bins);
    int nbins = max_int(sim_flashpoint_nbins(fp), m ? sim_nbins(m) : 0);
    for (int b = -1; bins && b < nbins; b++) {
        if (b < 0 && !sim_flashpoint_get(fp, -1, -1)) {
            sim_fp_record unbinned;
            sim_flashpoint_bin_total(fp, -1, &unbinned);
            if (!unbinned.v[FPM_READ_MISS_LOCAL] && !unbinned.v[FPM_READ_MISS_REMOTE] &&
                !unbinned.v[FPM_WRITE_MISS_LOCAL] && !unbinned.v[FPM_WRITE_MISS_REMOTE])
                continue;
        }
        json_object *bj = bin_json(fp, m, b, procedure_names, nprocedures);
        if (!bj) {
            bad = -1;
            break;
        }
        json_object_array_add(bins, bj);
    }
    sim_flashpoint_free(empty);
    if (bad) {
        json_object_put(o);
        return NULL;
    }
    return o;
}
