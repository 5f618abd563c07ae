/* simprof_json.c - renders a simulated run's statistics as a dsm-sim/1
 * document (doc/sim-format.md) with json-c, and writes it.  Knows nothing of
 * the machine: profile/simprof.c gathers a simprof_run from it, the unit
 * tests build one by hand.
 *
 * Ids: procedure and bin -1 (unknown procedure, address in no bin) appear in
 * the tables as the names "(unknown)" and "(no bin)"; rows with nothing in
 * them are left out, so the tables stay as small as the run's activity. */
#include "simprof.h"

#include <errno.h>
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pfile.h"
#include "ptext.h"

/* every string of the document: names come from the program, and the file
 * must be valid UTF-8 whatever their bytes */
static json_object *jstr(const char *s) { return ptext_json_string(s); }

static void add(json_object *o, const char *k, json_object *v) { json_object_object_add(o, k, v); }
static void add_u64(json_object *o, const char *k, uint64_t v)
{
    add(o, k, json_object_new_uint64(v));
}
static void add_double(json_object *o, const char *k, double v)
{
    add(o, k, json_object_new_double(v));
}

static const char *procedure_name(const simprof_run *r, int id, char *buf, size_t n)
{
    if (id < 0)
        return "(unknown)";
    if (id < r->nprocedures && r->procedure_names && r->procedure_names[id])
        return r->procedure_names[id];
    snprintf(buf, n, "proc%d", id);
    return buf;
}

static const char *bin_name(const simprof_run *r, int id, char *buf, size_t n)
{
    if (id < 0)
        return "(no bin)";
    if (id < r->nbins && r->bin_names && r->bin_names[id])
        return r->bin_names[id];
    snprintf(buf, n, "bin%d", id);
    return buf;
}

/* the metrics of memspy.h plus their sum "misses", into o */
static void add_metrics(json_object *o, const uint64_t v[MS_NMETRICS])
{
    add_u64(o, "misses", v[MS_READ_MISSES] + v[MS_WRITE_MISSES]);
    for (int k = 0; k < MS_NMETRICS; k++)
        add_u64(o, memspy_metric_names[k], v[k]);
}

static int any(const uint64_t v[MS_NMETRICS])
{
    for (int k = 0; k < MS_NMETRICS; k++)
        if (v[k])
            return 1;
    return 0;
}

/* highest procedure and bin ids the tables need */
static int nprocs_seen(const simprof_run *r)
{
    int n = memspy_nprocedures(r->ms);
    return n > r->nprocedures ? n : r->nprocedures;
}
static int nbins_seen(const simprof_run *r)
{
    int n = memspy_nbins(r->ms);
    return n > r->nbins ? n : r->nbins;
}

static json_object *machine_json(const simprof_run *r)
{
    const sim_params *p = r->params;
    json_object *o = json_object_new_object();
    add(o, "name", jstr(p->machine));
    add(o, "processors", json_object_new_int(p->nprocs));
    add_u64(o, "line_size", p->line_size);
    add_u64(o, "cache_size", p->cache_size);
    add_u64(o, "assoc", p->assoc);
    add_u64(o, "page_size", p->page_size);
    add_u64(o, "hit_cycles", p->hit_cycles);
    add(o, "replacement_hints", json_object_new_boolean(p->replacement_hints));
    add(o, "excl_clean", json_object_new_boolean(p->excl_clean));
    static const char *const fp_modes[SIM_FP_NMODES] = { "control", "dp", "fp-noproc",
                                                          "fp-proc" };
    add(o, "fp_mode", jstr((unsigned)p->fp_mode < SIM_FP_NMODES
                                                  ? fp_modes[p->fp_mode] : "?"));
    add_u64(o, "sample_period", p->sample_period);
    add_u64(o, "sample_length", p->sample_length);
    add(o, "sample_offset", jstr(p->sample_random ? "random" : "start"));
    add(o, "read_recall", jstr(p->downgrade_on_read ? "keep" : "drop"));
    add_u64(o, "outstanding", p->outstanding); /* the processor's overlapped misses */
    add_u64(o, "load_use", p->load_use);
    add(o, "placement", jstr(p->placement == SIM_PLACE_FIRST_TOUCH   ? "first_touch"
                             : p->placement == SIM_PLACE_ROUND_ROBIN ? "round_robin"
                                                                    : "program"));
    /* the timing model's constants that were changed from its defaults
     * ("hop=6", "PILocalGet=9/11", ...), in the order given: the defaults
     * are the model's (doc/simulation.md), so these complete the machine */
    json_object *opts = json_object_new_object();
    char buf[sizeof p->model_options];
    snprintf(buf, sizeof buf, "%s", p->model_options);
    for (char *save = NULL, *kv = strtok_r(buf, ";", &save); kv; kv = strtok_r(NULL, ";", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq || eq == kv)
            continue;
        *eq = '\0';
        /* a key is a string of the file too */
        char *key = ptext_utf8_valid(kv) ? NULL : ptext_utf8_repair(kv);
        add(opts, key ? key : kv, jstr(eq + 1)); /* a repeated key: the last one wins */
        free(key);
    }
    add(o, "model_options", opts);
    /* the front end's settings that change results */
    if (r->quantum)
        add_u64(o, "quantum", r->quantum);
    if (r->homes)
        add(o, "homes", jstr(r->homes));
    return o;
}

/* The measured section: the program's marks (dsm_sim_section_begin/end),
 * else the whole run, from 0 to the last clock. */
static json_object *section_json(const simprof_run *r, uint64_t run_end)
{
    json_object *o = json_object_new_object();
    const sim_section *sec = r->section;
    if (sec && sec->begun && sec->ended && sec->end >= sec->begin) {
        add(o, "source", jstr("program"));
        add_u64(o, "begin_cycles", sec->begin);
        add_u64(o, "end_cycles", sec->end);
        add_u64(o, "cycles", sec->end - sec->begin);
        add_u64(o, "procedure_switches", sec->procedure_switches);
        add_u64(o, "procedure_switch_cycles", sec->procedure_switch_cycles);
    } else {
        add(o, "source", jstr("run"));
        add_u64(o, "begin_cycles", 0);
        add_u64(o, "end_cycles", run_end);
        add_u64(o, "cycles", run_end);
    }
    return o;
}

static uint64_t max_cycles(const simprof_run *r)
{
    uint64_t mx = 0;
    for (int i = 0; r->cycles && i < r->params->nprocs; i++)
        if (r->cycles[i] > mx)
            mx = r->cycles[i];
    return mx;
}

static json_object *cycles_json(const simprof_run *r)
{
    json_object *o = json_object_new_object(), *per = json_object_new_array();
    uint64_t total = 0;
    for (int i = 0; r->cycles && i < r->params->nprocs; i++) {
        json_object_array_add(per, json_object_new_uint64(r->cycles[i]));
        total += r->cycles[i];
    }
    add(o, "per_processor", per);
    add_u64(o, "max", max_cycles(r));
    add_u64(o, "total", total);
    return o;
}

static json_object *names_json(const simprof_run *r, int n, int bins)
{
    json_object *a = json_object_new_array();
    char buf[32];
    for (int i = 0; i < n; i++)
        json_object_array_add(a, jstr(bins ? bin_name(r, i, buf, sizeof buf)
                                                             : procedure_name(r, i, buf,
                                                                              sizeof buf)));
    return a;
}

static json_object *by_bin_json(const simprof_run *r)
{
    json_object *a = json_object_new_array();
    char buf[32];
    for (int b = -1; b < nbins_seen(r); b++) {
        uint64_t v[MS_NMETRICS];
        for (int k = 0; k < MS_NMETRICS; k++)
            v[k] = memspy_bin_total(r->ms, b, k);
        if (!any(v) && b < 0)
            continue;
        json_object *o = json_object_new_object();
        add(o, "bin", json_object_new_int(b));
        add(o, "name", jstr(bin_name(r, b, buf, sizeof buf)));
        add_metrics(o, v);
        json_object_array_add(a, o);
    }
    return a;
}

static json_object *by_procedure_json(const simprof_run *r)
{
    json_object *a = json_object_new_array();
    char buf[32];
    for (int p = -1; p < nprocs_seen(r); p++) {
        uint64_t v[MS_NMETRICS];
        for (int k = 0; k < MS_NMETRICS; k++)
            v[k] = memspy_procedure_total(r->ms, p, k);
        if (!any(v))
            continue;
        json_object *o = json_object_new_object();
        add(o, "procedure", json_object_new_int(p));
        add(o, "name", jstr(procedure_name(r, p, buf, sizeof buf)));
        add_metrics(o, v);
        json_object_array_add(a, o);
    }
    return a;
}

static json_object *pairs_json(const simprof_run *r)
{
    json_object *a = json_object_new_array();
    char pb[32], bb[32];
    for (int p = -1; p < memspy_nprocedures(r->ms); p++)
        for (int b = -1; b < memspy_nbins(r->ms); b++) {
            uint64_t v[MS_NMETRICS];
            for (int k = 0; k < MS_NMETRICS; k++)
                v[k] = memspy_get(r->ms, p, b, k);
            if (!any(v))
                continue;
            json_object *o = json_object_new_object();
            add(o, "procedure", json_object_new_int(p));
            add(o, "procedure_name", jstr(procedure_name(r, p, pb, sizeof pb)));
            add(o, "bin", json_object_new_int(b));
            add(o, "bin_name", jstr(bin_name(r, b, bb, sizeof bb)));
            add_metrics(o, v);
            json_object_array_add(a, o);
        }
    return a;
}

/* per evicted bin: which bins' fills evicted its lines (MemSpy 4.2.8) */
static json_object *replacements_json(const simprof_run *r)
{
    json_object *a = json_object_new_array();
    char buf[32];
    int nb = memspy_nbins(r->ms);
    for (int b = -1; b < nb; b++) {
        uint64_t total = 0;
        for (int e = -1; e < nb; e++)
            total += memspy_replacements(r->ms, b, e);
        if (!total)
            continue;
        json_object *o = json_object_new_object(), *by = json_object_new_array();
        add(o, "bin", json_object_new_int(b));
        add(o, "name", jstr(bin_name(r, b, buf, sizeof buf)));
        add_u64(o, "total", total);
        add_u64(o, "self", memspy_replacements(r->ms, b, b));
        for (int e = -1; e < nb; e++) {
            uint64_t n = memspy_replacements(r->ms, b, e);
            if (!n)
                continue;
            json_object *x = json_object_new_object();
            add(x, "bin", json_object_new_int(e));
            add(x, "name", jstr(bin_name(r, e, buf, sizeof buf)));
            add_u64(x, "count", n);
            json_object_array_add(by, x);
        }
        add(o, "by", by);
        json_object_array_add(a, o);
    }
    return a;
}

static json_object *value_bound(double value, double bound)
{
    json_object *o = json_object_new_object();
    add_double(o, "value", value);
    add_double(o, "bound", bound);
    return o;
}

/* full-run estimates of a set of counters v (Eq. 6.1 scaled, memspy.h) */
/* Eq. 6.1's U: unknown_refs (references whose outcome is unknown but were
 * not misses) plus, with stale caches, the misses of unknown cause
 * (sampling_json) */
static json_object *estimates_json(const uint64_t v[MS_NMETRICS], uint64_t unknown_refs,
                                   double ratio, int stale)
{
    json_object *o = json_object_new_object();
    uint64_t misses = v[MS_READ_MISSES] + v[MS_WRITE_MISSES];
    uint64_t unknown_misses = stale ? v[MS_UNKNOWN] : 0;
    memspy_count_estimate e =
        memspy_estimate_count(misses - unknown_misses, unknown_refs + unknown_misses, ratio);
    add(o, "misses", value_bound(e.value, e.bound));
    static const memspy_metric scaled[] = { MS_READ_MISSES, MS_WRITE_MISSES, MS_UPGRADES,
                                            MS_STALL };
    for (size_t i = 0; i < sizeof scaled / sizeof scaled[0]; i++) {
        e = memspy_estimate_count(v[scaled[i]], 0, ratio);
        add_double(o, memspy_metric_names[scaled[i]], e.value);
    }
    /* causes: each unknown cause might be any of the three */
    json_object *shares = json_object_new_object();
    static const memspy_metric causes[] = { MS_COLD, MS_REPLACEMENT, MS_INVALIDATION };
    for (size_t i = 0; i < sizeof causes / sizeof causes[0]; i++) {
        memspy_rate s = memspy_cause_share(v[causes[i]], v[MS_UNKNOWN], misses);
        add(shares, memspy_metric_names[causes[i]], value_bound(s.rate, s.bound));
    }
    add_double(shares, "unknown", misses ? (double)v[MS_UNKNOWN] / (double)misses : 0.0);
    add(o, "cause_shares", shares);
    return o;
}

static json_object *sampling_json(const simprof_run *r)
{
    memspy_sampling sp;
    /* with sample_unit=refs the windows are counted in references: so are
     * the plan's "cycles" (and time_ratio is the references' share) */
    int in_refs = r->stale_caches && r->params->sample_unit != SIM_UNIT_CYCLES;
    memspy_sampling_plan_placed(r->params->sample_period, r->params->sample_length,
                                r->params->sample_random, in_refs ? r->references : max_cycles(r),
                                &sp);
    int on = r->params->sample_period > 0 && r->params->sample_length < r->params->sample_period;
    json_object *o = json_object_new_object();
    add(o, "enabled", json_object_new_boolean(on));
    add(o, "unit", jstr(in_refs ? "references" : "cycles"));
    add_u64(o, "period", sp.period);
    add_u64(o, "length", sp.length);
    add_u64(o, "samples", sp.samples);
    add_u64(o, "sampled_cycles", sp.sampled_cycles);
    add_u64(o, "total_cycles", sp.total_cycles);
    add_double(o, "time_ratio", sp.ratio);
    /* The thesis' sampling ratio is in references (SamplesTaken x
     * SampleLength / TotalReferences, section 6.2): the references made
     * inside the windows over all of them, when the machine counted them;
     * else the windows' share of the time stands in for it. */
    double sampled_refs = on && r->sampled_references ? (double)r->sampled_references
                                                      : (double)r->references * sp.ratio;
    double ratio = on && r->sampled_references && r->references
                       ? sampled_refs / (double)r->references
                       : sp.ratio;
    add_double(o, "ratio", ratio);
    /* Stale caches (sample_caches=stale, MemSpy's way): a window's miss whose
     * line's history lies in unsimulated references might have been a hit
     * in the full run, and its cause is unknown: those are Eq. 6.1's U.
     * Warm caches: every miss of a window is one of the full run. */
    int stale = on && r->stale_caches;
    uint64_t unknown_misses = stale ? memspy_total(r->ms, MS_UNKNOWN) : 0;
    uint64_t u = r->unknown_references + unknown_misses;
    uint64_t known_misses = memspy_total(r->ms, MS_READ_MISSES) +
                            memspy_total(r->ms, MS_WRITE_MISSES) - unknown_misses;
    double hk = sampled_refs - (double)known_misses - (double)u;
    uint64_t known_hits = hk > 0 ? (uint64_t)(hk + 0.5) : 0;
    memspy_rate m = memspy_eq61(known_hits, known_misses, u);
    add_u64(o, "sampled_references", known_hits + known_misses + u);
    add_u64(o, "known_hits", known_hits);
    add_u64(o, "known_misses", known_misses);
    add_u64(o, "unknown_references", u);
    add_u64(o, "unknown_causes", memspy_total(r->ms, MS_UNKNOWN));
    add(o, "miss_rate", value_bound(m.rate, m.bound));

    /* Full-run estimates scale by the windows' share of the time, not of
     * the references: the windows are a fixed share of each processor's
     * clock, while the references falling in them swing with the program's
     * phases (a miss-bound phase makes few references per cycle), and
     * Mk / ratio then errs twice.  MemSpy's samples were counted in
     * references, so its two ratios were one; with windows in cycles the
     * time share is the one the sampling fixes (doc/simulation.md: fft's
     * estimate was 15.6% off by references, 3.9% by time). */
    /* Stale caches: between windows the clock runs at hit speed, so the
     * windows' share of the time no longer is their share of the run: the
     * references' share is (MemSpy's ratio). */
    double scale = stale ? ratio : sp.ratio;
    json_object *est = json_object_new_object();
    add(est, "scaled_by", jstr(stale ? "ratio" : "time_ratio"));
    add(o, "caches", jstr(!on ? "simulated" : stale ? "stale" : "warm"));
    uint64_t v[MS_NMETRICS];
    for (int k = 0; k < MS_NMETRICS; k++)
        v[k] = memspy_total(r->ms, k);
    add(est, "totals", estimates_json(v, r->unknown_references, scale, stale));
    json_object *bins = json_object_new_array();
    char buf[32];
    for (int b = -1; b < memspy_nbins(r->ms); b++) {
        for (int k = 0; k < MS_NMETRICS; k++)
            v[k] = memspy_bin_total(r->ms, b, k);
        if (!any(v))
            continue;
        /* U is known for the run only, not per bin: bins carry no U */
        json_object *x = estimates_json(v, 0, scale, stale);
        add(x, "bin", json_object_new_int(b));
        add(x, "name", jstr(bin_name(r, b, buf, sizeof buf)));
        json_object_array_add(bins, x);
    }
    add(est, "by_bin", bins);
    add(o, "estimates", est);
    return o;
}

json_object *simprof_run_to_json(const simprof_run *r)
{
    json_object *root = json_object_new_object();
    if (!root) {
        json_object_put(r->flashpoint);
        json_object_put(r->origin);
        return NULL;
    }
    add(root, "schema", jstr(SIM_SCHEMA));
    add(root, "program", jstr(r->program ? r->program : ""));
    add_double(root, "host_seconds", r->host_seconds);
    add(root, "machine", machine_json(r));
    add(root, "processors", json_object_new_int(r->params->nprocs));
    add(root, "cycles", cycles_json(r));
    add(root, "section", section_json(r, max_cycles(r)));
    add_u64(root, "references", r->references);
    add(root, "procedures", names_json(r, nprocs_seen(r), 0));
    add(root, "bins", names_json(r, nbins_seen(r), 1));
    uint64_t v[MS_NMETRICS];
    for (int k = 0; k < MS_NMETRICS; k++)
        v[k] = memspy_total(r->ms, k);
    json_object *totals = json_object_new_object();
    add_metrics(totals, v);
    add_u64(totals, "lost", memspy_lost(r->ms));
    add(root, "totals", totals);
    add(root, "by_bin", by_bin_json(r));
    add(root, "by_procedure", by_procedure_json(r));
    add(root, "pairs", pairs_json(r));
    add(root, "replacements", replacements_json(r));
    add(root, "sampling", sampling_json(r));
    if (r->flashpoint)
        add(root, "flashpoint", r->flashpoint);
    if (r->origin)
        add(root, "origin", r->origin);
    return root;
}

int simprof_write_json(json_object *root, const char *path, char *err, size_t errlen)
{
    size_t len = 0;
    const char *text = json_object_to_json_string_length(
        root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
    char why[512];
    pfile w;
    int rc = -1;
    if (!text)
        snprintf(why, sizeof why, "out of memory");
    else if (pfile_open(&w, path, why, sizeof why) == 0) {
        fwrite(text, 1, len, w.f);
        fputc('\n', w.f);
        /* a failed write shows in the stream's error flag, which the
         * commit checks */
        rc = pfile_commit(&w, why, sizeof why);
    }
    if (rc)
        snprintf(err, errlen, "%s: %s", path, why);
    return rc;
}
