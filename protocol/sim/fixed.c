/* fixed.c - the two fixed-latency timing models (timing.h):
 *
 *  uniform  MemSpy's baseline simulator (004_..., 5.1.1): a direct-mapped
 *           64 KB cache of 32 B lines per processor, 1-cycle hits, every
 *           miss (and upgrade) costs miss_cycles (50), no contention.
 *  numa     the App. A.1 simulator: the processor or memory that serves a
 *           miss decides its latency: local_cycles (34) when that is the
 *           requester's own node, else hop1_cycles (85) for one mesh hop plus
 *           hop_cycles (5) per further hop on the smallest near-square 2-D
 *           mesh.  A line held dirty by another processor is served by that
 *           processor's cache; otherwise by the home's memory.  Option
 *           write_buffer=1 gives writes write_cycles (1), App. A.1's infinite
 *           write buffer.
 *
 * Both invalidate on every write (the engine's directory protocol) and keep
 * no state beyond their constants.  Pure. */
#include "sim/timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fixed_model {
    int nprocs;
    int numa;
    sim_time miss_cycles;                       /* uniform */
    sim_time local_cycles, hop1_cycles, hop_cycles; /* numa */
    int write_buffer;
    sim_time write_cycles;
} fixed_model;

static void fixed_init(fixed_model *f, int numa, int nprocs)
{
    memset(f, 0, sizeof *f);
    f->numa = numa;
    f->nprocs = nprocs;
    f->miss_cycles = 50;
    f->local_cycles = 34;
    f->hop1_cycles = 85;
    f->hop_cycles = 5;
    f->write_cycles = 1;
}

static void uniform_defaults(sim_params *p)
{
    p->line_size = 32;
    p->cache_size = 64 * 1024;
    p->assoc = 1;
    p->page_size = 4096;
    p->hit_cycles = 1;
}

/* MemSpy 5.1.1's machine also schedules as MemSpy did: "rescheduling
 * threads at every synchronization point". */
static void uniform_machine_defaults(sim_params *p)
{
    uniform_defaults(p);
    p->reschedule_sync = 1;
    /* "each write reference to a line causes the simulator to invalidate
     * the line from all other caches": with no other cache holding it there
     * is nothing to do, so a store to a line only this processor holds is a
     * hit (exclusive clean), not a 50-cycle upgrade */
    p->excl_clean = 1;
}

static void *fixed_create(const sim_params *p, int numa, char *err, size_t errlen)
{
    fixed_model *f = malloc(sizeof *f);
    if (!f) {
        snprintf(err, errlen, "out of memory creating the %s timing model", p->machine);
        return NULL;
    }
    fixed_init(f, numa, p->nprocs);
    return f;
}

static void *uniform_create(const sim_params *p, char *err, size_t errlen)
{
    return fixed_create(p, 0, err, errlen);
}

static void *numa_create(const sim_params *p, char *err, size_t errlen)
{
    return fixed_create(p, 1, err, errlen);
}

static void fixed_destroy(void *model) { free(model); }

static int fixed_set(fixed_model *f, int numa, const char *key, const char *value, char *err,
                     size_t errlen)
{
    fixed_model scratch;
    if (!f) { /* only validating */
        fixed_init(&scratch, numa, 1);
        f = &scratch;
    }
    uint64_t v;
    sim_time *field = NULL;
    if (!numa && !strcmp(key, "miss_cycles"))
        field = &f->miss_cycles;
    else if (numa && !strcmp(key, "local_cycles"))
        field = &f->local_cycles;
    else if (numa && !strcmp(key, "hop1_cycles"))
        field = &f->hop1_cycles;
    else if (numa && !strcmp(key, "hop_cycles"))
        field = &f->hop_cycles;
    else if (numa && !strcmp(key, "write_cycles"))
        field = &f->write_cycles;
    else if (numa && !strcmp(key, "write_buffer")) {
        if (sim_parse_bounded(key, value, 0, 1, &v, err, errlen))
            return -1;
        f->write_buffer = (int)v;
        return 0;
    }
    if (!field) {
        snprintf(err, errlen, "unknown option '%s' (%s)", key,
                 numa ? "numa options: local_cycles, hop1_cycles, hop_cycles, write_buffer, "
                        "write_cycles"
                      : "uniform options: miss_cycles");
        return -1;
    }
    if (sim_parse_bounded(key, value, 0, SIM_MAX_COST_CYCLES, &v, err, errlen))
        return -1;
    *field = v;
    return 0;
}

static int uniform_set(void *m, const char *key, const char *value, char *err, size_t errlen)
{
    return fixed_set(m, 0, key, value, err, errlen);
}

static int numa_set(void *m, const char *key, const char *value, char *err, size_t errlen)
{
    return fixed_set(m, 1, key, value, err, errlen);
}

static sim_time uniform_latency(void *model, int proc, int home, int owner, int is_write,
                                int is_upgrade, uint32_t invalidations)
{
    (void)proc, (void)home, (void)owner, (void)is_write, (void)is_upgrade, (void)invalidations;
    return ((fixed_model *)model)->miss_cycles;
}

static sim_time numa_latency(void *model, int proc, int home, int owner, int is_write,
                             int is_upgrade, uint32_t invalidations)
{
    (void)is_upgrade, (void)invalidations;
    fixed_model *f = model;
    if (is_write && f->write_buffer)
        return f->write_cycles;
    int server = (owner >= 0 && owner != proc) ? owner : home;
    if (server == proc)
        return f->local_cycles;
    int hops = sim_mesh_hops(f->nprocs, proc, server);
    return f->hop1_cycles + (sim_time)(hops - 1) * f->hop_cycles;
}

const sim_timing_ops sim_timing_uniform = {
    .name = "uniform",
    .description = "MemSpy's uniform machine: direct-mapped 64 KB caches, 32 B lines, "
                   "1-cycle hits, 50-cycle misses",
    .defaults = uniform_machine_defaults,
    .create = uniform_create,
    .destroy = fixed_destroy,
    .set = uniform_set,
    .fixed_latency = 1,
    .miss_latency = uniform_latency,
};

const sim_timing_ops sim_timing_numa = {
    .name = "numa",
    .description = "MemSpy's App. A.1 NUMA machine: 34-cycle local misses, 85 cycles for "
                   "one mesh hop plus 5 per further hop",
    .defaults = uniform_defaults,
    .create = numa_create,
    .destroy = fixed_destroy,
    .set = numa_set,
    .fixed_latency = 1,
    .miss_latency = numa_latency,
};
