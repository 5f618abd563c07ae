/* simprof.c - attaches the statistics collectors to a simulated machine and
 * writes the dsm-sim/1 file at the end of the run (simprof.h).  Compiled
 * into libdsm: the simulation front end (dsm/simfront/) calls it at
 * dsm_finalize.  The rendering itself is profile/simprof_json.c.
 *
 * FlashPoint's collector (protocol/sim/flashpoint.h) is attached on the
 * "flash" machine only; its section is rendered by profile/flashpoint_json.c.
 * On the "origin" machine the model keeps the profiler's counters itself;
 * profile/origin_json.c renders them. */
#include "simprof.h"

#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flashpoint_json.h"
#include "origin_json.h"
#include "sim/flashpoint.h"
#include "sim/timing.h"

struct simprof {
    sim_machine *m;
    memspy *ms;
    void *flashpoint;   /* sim_flashpoint *, when attached */
    uint32_t quantum;   /* the front end's settings (simprof_set_front_end) */
    const char *homes;
};

/* ---- FlashPoint, on the flash machine ---- */

static void *flashpoint_attach(sim_machine *m)
{
    return strcmp(sim_get_params(m)->machine, "flash") ? NULL : sim_flashpoint_attach(m);
}

static void flashpoint_free(void *fp)
{
    sim_flashpoint_free(fp);
}

static json_object *flashpoint_json(const simprof *s, const char *const *procedure_names,
                                    int nprocedures)
{
    return s->flashpoint
               ? flashpoint_to_json(s->flashpoint, s->m, procedure_names, nprocedures)
               : NULL;
}

/* ---- the interface ---- */

simprof *simprof_attach(sim_machine *m)
{
    simprof *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->m = m;
    if (!(s->ms = memspy_create()) || sim_on_miss(m, memspy_on_miss, s->ms)) {
        memspy_free(s->ms);
        free(s);
        return NULL;
    }
    s->flashpoint = flashpoint_attach(m);
    return s;
}

void simprof_free(simprof *s)
{
    if (!s)
        return;
    flashpoint_free(s->flashpoint);
    memspy_free(s->ms);
    free(s);
}

const memspy *simprof_memspy(const simprof *s) { return s->ms; }

void simprof_set_front_end(simprof *s, uint32_t quantum, const char *homes)
{
    s->quantum = quantum;
    s->homes = homes;
}

int simprof_write(simprof *s, const char *path, const char *program,
                  const char *const *procedure_names, int nprocedures, double host_seconds,
                  char *err, size_t errlen)
{
    const sim_params *p = sim_get_params(s->m);
    int nbins = sim_nbins(s->m);
    sim_time *cycles = calloc((size_t)(p->nprocs > 0 ? p->nprocs : 1), sizeof *cycles);
    const char **bin_names = calloc((size_t)(nbins > 0 ? nbins : 1), sizeof *bin_names);
    if (!cycles || !bin_names) {
        free(cycles);
        free(bin_names);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < p->nprocs; i++)
        cycles[i] = sim_clock(s->m, i);
    for (int b = 0; b < nbins; b++)
        bin_names[b] = sim_bin_name(s->m, b);
    sim_section section;
    sim_section_get(s->m, &section);
    simprof_run run = {
        .program = program,
        .host_seconds = host_seconds,
        .params = p,
        .cycles = cycles,
        .references = sim_references(s->m),
        .sampled_references = sim_references_sampled(s->m),
        /* with warm caches every sampled reference's outcome is known (only
         * causes can be unknown); with stale ones a window's first hits on
         * lines held from before are not (sim_unknown_hits) */
        .unknown_references = sim_unknown_hits(s->m),
        .stale_caches = sim_sampling_stale(s->m),
        .procedure_names = procedure_names,
        .nprocedures = nprocedures,
        .bin_names = bin_names,
        .nbins = nbins,
        .ms = s->ms,
        .flashpoint = flashpoint_json(s, procedure_names, nprocedures),
        /* the Origin's profiler: its counters live in the machine's model */
        .origin = strcmp(p->machine, "origin") ? NULL : origin_to_json(sim_timing_model(s->m)),
        .section = &section,
        .quantum = s->quantum,
        .homes = s->homes,
    };
    json_object *root = simprof_run_to_json(&run);
    int rc;
    if (!root) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    } else {
        rc = simprof_write_json(root, path, err, errlen);
        json_object_put(root);
    }
    free(cycles);
    free(bin_names);
    return rc;
}
