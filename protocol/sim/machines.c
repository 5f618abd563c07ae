/* machines.c - the registry of simulated machines and their parameters:
 * sim_params_for (a machine's defaults), sim_params_set (one key=value
 * override, generic keys here, machine-specific keys checked by the model's
 * set() and kept in sim_params.model_options), sim_params_check (the
 * validation sim_create relies on).  Pure. */
#include "sim/timing.h"

#include <stdio.h>
#include <string.h>

const sim_timing_ops *const sim_timing_models[] = {
    &sim_timing_uniform,
    &sim_timing_numa,
    &sim_timing_flash,
    &sim_timing_alewife,
    &sim_timing_origin,
    NULL,
};

const char *const sim_machine_names[] = {
    "uniform",
    "numa",
    "flash",
    "alewife",
    "origin",
    NULL,
};

const sim_timing_ops *sim_timing_find(const char *name)
{
    for (int i = 0; name && sim_timing_models[i]; i++)
        if (strcmp(sim_timing_models[i]->name, name) == 0)
            return sim_timing_models[i];
    return NULL;
}

static void list_machines(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; sim_machine_names[i] && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
                                 sim_machine_names[i]);
}

int sim_params_for(const char *machine, int nprocs, sim_params *out, char *err, size_t errlen)
{
    const sim_timing_ops *ops = sim_timing_find(machine);
    if (!ops) {
        char names[200];
        list_machines(names, sizeof names);
        snprintf(err, errlen, "unknown machine '%s' (machines: %s)", machine ? machine : "",
                 names);
        return -1;
    }
    if (nprocs < 1 || nprocs > SIM_MAX_PROCS) {
        snprintf(err, errlen, "machine '%s': %d processors, must be 1 .. %d", machine, nprocs,
                 SIM_MAX_PROCS);
        return -1;
    }
    memset(out, 0, sizeof *out);
    snprintf(out->machine, sizeof out->machine, "%s", ops->name);
    out->nprocs = nprocs;
    out->downgrade_on_read = 1; /* read_recall=keep: hardware keeps the owner a copy */
    ops->defaults(out);
    return 0;
}

static int is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

static int parse_flag(const char *key, const char *value, int *out, char *err, size_t errlen)
{
    if (!strcmp(value, "1") || !strcmp(value, "on") || !strcmp(value, "yes")) {
        *out = 1;
        return 0;
    }
    if (!strcmp(value, "0") || !strcmp(value, "off") || !strcmp(value, "no")) {
        *out = 0;
        return 0;
    }
    snprintf(err, errlen, "option '%s' takes 0/1 (on/off), got '%s'", key, value);
    return -1;
}

static const char *const fp_mode_names[SIM_FP_NMODES] = {"control", "dp", "noproc", "proc"};

int sim_params_set(sim_params *p, const char *kv, char *err, size_t errlen)
{
    const sim_timing_ops *ops = sim_timing_find(p->machine);
    if (!ops) {
        snprintf(err, errlen, "unknown machine '%s'", p->machine);
        return -1;
    }
    const char *eq = kv ? strchr(kv, '=') : NULL;
    if (!eq || eq == kv) {
        snprintf(err, errlen, "machine option '%s' is not key=value", kv ? kv : "");
        return -1;
    }
    char key[64];
    size_t klen = (size_t)(eq - kv);
    if (klen >= sizeof key) {
        snprintf(err, errlen, "machine option key too long in '%s'", kv);
        return -1;
    }
    memcpy(key, kv, klen);
    key[klen] = 0;
    const char *value = eq + 1;
    uint64_t v;

    /* sizes: their relations (power of two, a line within a page, ...) are
     * sim_params_check's, once every option is in */
    struct {
        const char *name;
        uint32_t *field;
        uint32_t max;
    } u32[] = {
        {"line_size", &p->line_size, SIM_MAX_LINE_SIZE},
        {"cache_size", &p->cache_size, SIM_MAX_CACHE_SIZE},
        {"assoc", &p->assoc, SIM_MAX_ASSOC},
        {"page_size", &p->page_size, SIM_MAX_PAGE_SIZE},
    };
    for (size_t i = 0; i < sizeof u32 / sizeof u32[0]; i++)
        if (!strcmp(key, u32[i].name)) {
            if (sim_parse_bounded(key, value, 0, u32[i].max, &v, err, errlen))
                return -1;
            *u32[i].field = (uint32_t)v;
            return 0;
        }
    if (!strcmp(key, "hit_cycles"))
        return sim_parse_bounded(key, value, 0, SIM_MAX_COST_CYCLES, &p->hit_cycles, err, errlen);
    if (!strcmp(key, "sample_period"))
        return sim_parse_bounded(key, value, 0, SIM_MAX_SAMPLE_CYCLES, &p->sample_period, err,
                                 errlen);
    if (!strcmp(key, "sample_length"))
        return sim_parse_bounded(key, value, 0, SIM_MAX_SAMPLE_CYCLES, &p->sample_length, err,
                                 errlen);
    if (!strcmp(key, "replacement_hints"))
        return parse_flag(key, value, &p->replacement_hints, err, errlen);
    if (!strcmp(key, "excl_clean"))
        return parse_flag(key, value, &p->excl_clean, err, errlen);
    if (!strcmp(key, "sample_caches")) {
        if (strcmp(value, "stale") && strcmp(value, "warm")) {
            snprintf(err, errlen, "option 'sample_caches' takes stale or warm, got '%s'", value);
            return -1;
        }
        p->sample_warm = !strcmp(value, "warm");
        return 0;
    }
    if (!strcmp(key, "sample_gap")) {
        if (strcmp(value, "window") && strcmp(value, "hit")) {
            snprintf(err, errlen, "option 'sample_gap' takes window or hit, got '%s'", value);
            return -1;
        }
        p->sample_gap_hit = !strcmp(value, "hit");
        return 0;
    }
    if (!strcmp(key, "sample_unit")) {
        if (strcmp(value, "cycles") && strcmp(value, "refs")) {
            snprintf(err, errlen, "option 'sample_unit' takes cycles or refs, got '%s'", value);
            return -1;
        }
        p->sample_unit = !strcmp(value, "refs") ? SIM_UNIT_REFS : SIM_UNIT_CYCLES;
        return 0;
    }
    if (!strcmp(key, "reschedule")) {
        if (strcmp(value, "sync") && strcmp(value, "miss")) {
            snprintf(err, errlen, "option 'reschedule' takes sync or miss, got '%s'", value);
            return -1;
        }
        p->reschedule_sync = !strcmp(value, "sync");
        return 0;
    }
    if (!strcmp(key, "outstanding")) {
        uint64_t v;
        if (sim_parse_bounded(key, value, 1, SIM_MAX_OUTSTANDING, &v, err, errlen))
            return -1;
        p->outstanding = (uint32_t)v;
        return 0;
    }
    if (!strcmp(key, "load_use")) {
        uint64_t v;
        if (sim_parse_bounded(key, value, 0, SIM_MAX_LOAD_USE, &v, err, errlen))
            return -1;
        p->load_use = (uint32_t)v;
        return 0;
    }
    if (!strcmp(key, "sample_offset")) {
        if (strcmp(value, "start") && strcmp(value, "random")) {
            snprintf(err, errlen, "option 'sample_offset' takes start or random, got '%s'", value);
            return -1;
        }
        p->sample_random = !strcmp(value, "random");
        return 0;
    }
    if (!strcmp(key, "read_recall")) {
        if (strcmp(value, "keep") && strcmp(value, "drop")) {
            snprintf(err, errlen, "option 'read_recall' takes keep or drop, got '%s'", value);
            return -1;
        }
        p->downgrade_on_read = !strcmp(value, "keep");
        return 0;
    }
    if (!strcmp(key, "placement")) {
        static const char *const names[] = {"program", "first_touch", "round_robin"};
        for (int i = 0; i < 3; i++)
            if (!strcmp(value, names[i])) {
                p->placement = i;
                return 0;
            }
        snprintf(err, errlen,
                 "option 'placement': '%s' is not program, first_touch or round_robin", value);
        return -1;
    }
    if (!strcmp(key, "fp_mode")) {
        for (int i = 0; i < SIM_FP_NMODES; i++)
            if (!strcmp(value, fp_mode_names[i])) {
                p->fp_mode = i;
                return 0;
            }
        snprintf(err, errlen, "option 'fp_mode': '%s' is not control, dp, noproc or proc", value);
        return -1;
    }
    if (!strcmp(key, "nprocs")) {
        snprintf(err, errlen, "option 'nprocs': the number of processors is set with -n");
        return -1;
    }
    /* machine-specific: the model validates it, sim_create replays it */
    char merr[200];
    if (!ops->set || ops->set(NULL, key, value, merr, sizeof merr)) {
        if (ops->set)
            snprintf(err, errlen, "machine '%s': %s", p->machine, merr);
        else
            snprintf(err, errlen, "machine '%s' has no option '%s'", p->machine, key);
        return -1;
    }
    size_t used = strlen(p->model_options), need = strlen(kv) + (used ? 1 : 0);
    if (strchr(kv, ';') || used + need >= sizeof p->model_options) {
        snprintf(err, errlen, "machine option '%s': too many options or a ';' in it", kv);
        return -1;
    }
    snprintf(p->model_options + used, sizeof p->model_options - used, "%s%s", used ? ";" : "",
             kv);
    return 0;
}

int sim_params_check(const sim_params *p, char *err, size_t errlen)
{
    if (!sim_timing_find(p->machine)) {
        char names[200];
        list_machines(names, sizeof names);
        snprintf(err, errlen, "unknown machine '%s' (machines: %s)", p->machine, names);
        return -1;
    }
    return sim_params_check_shape(p, err, errlen);
}

/* A time or size field against its documented maximum (sim.h). */
static int check_max(const char *key, uint64_t v, uint64_t max, char *err, size_t errlen)
{
    if (v <= max)
        return 0;
    snprintf(err, errlen, "%s %llu: out of range, at most %llu", key, (unsigned long long)v,
             (unsigned long long)max);
    return -1;
}

int sim_params_check_shape(const sim_params *p, char *err, size_t errlen)
{
    if (p->nprocs < 1 || p->nprocs > SIM_MAX_PROCS) {
        snprintf(err, errlen, "%d processors: must be 1 .. %d", p->nprocs, SIM_MAX_PROCS);
        return -1;
    }
    if (!is_pow2(p->line_size) || p->line_size < 4 || p->line_size > SIM_MAX_LINE_SIZE) {
        snprintf(err, errlen, "line_size %u: must be a power of two from 4 to %u", p->line_size,
                 SIM_MAX_LINE_SIZE);
        return -1;
    }
    if (check_max("cache_size", p->cache_size, SIM_MAX_CACHE_SIZE, err, errlen) ||
        check_max("assoc", p->assoc, SIM_MAX_ASSOC, err, errlen) ||
        check_max("page_size", p->page_size, SIM_MAX_PAGE_SIZE, err, errlen) ||
        check_max("hit_cycles", p->hit_cycles, SIM_MAX_COST_CYCLES, err, errlen) ||
        check_max("sample_period", p->sample_period, SIM_MAX_SAMPLE_CYCLES, err, errlen) ||
        check_max("sample_length", p->sample_length, SIM_MAX_SAMPLE_CYCLES, err, errlen))
        return -1;
    if (p->assoc < 1) {
        snprintf(err, errlen, "assoc %u: must be at least 1", p->assoc);
        return -1;
    }
    if (p->cache_size < p->line_size) {
        snprintf(err, errlen, "cache_size %u: smaller than one line (line_size %u)",
                 p->cache_size, p->line_size);
        return -1;
    }
    uint32_t lines = p->cache_size / p->line_size;
    if (p->cache_size % p->line_size || lines % p->assoc || !is_pow2(lines / p->assoc)) {
        snprintf(err, errlen,
                 "cache_size %u with line_size %u and assoc %u: the number of sets "
                 "(cache_size / line_size / assoc) must be a whole power of two",
                 p->cache_size, p->line_size, p->assoc);
        return -1;
    }
    if (!is_pow2(p->page_size) || p->page_size < p->line_size) {
        snprintf(err, errlen, "page_size %u: must be a power of two, at least line_size %u",
                 p->page_size, p->line_size);
        return -1;
    }
    if (p->sample_period && (p->sample_length == 0 || p->sample_length > p->sample_period)) {
        snprintf(err, errlen,
                 "sample_length %llu: must be 1 .. sample_period (%llu) when sampling",
                 (unsigned long long)p->sample_length, (unsigned long long)p->sample_period);
        return -1;
    }
    if (p->placement < SIM_PLACE_PROGRAM || p->placement > SIM_PLACE_ROUND_ROBIN) {
        snprintf(err, errlen, "placement %d out of range", p->placement);
        return -1;
    }
    if (p->fp_mode < 0 || p->fp_mode >= SIM_FP_NMODES) {
        snprintf(err, errlen, "fp_mode %d out of range", p->fp_mode);
        return -1;
    }
    return 0;
}
