/* simprof.h - statistics of a simulated run and the dsm-sim/1 file.
 *
 * The front end (dsm/simfront/) calls, around a simulated run:
 *   s = simprof_attach(m);           after sim_create: the MemSpy collector
 *                                    (protocol/sim/memspy.h) and, on the
 *                                    "flash" machine, FlashPoint's
 *                                    (protocol/sim/flashpoint.h)
 *   ... the run ...
 *   simprof_write(s, path, program, procedure_names, nprocedures,
 *                 host_seconds, err, sizeof err);     one JSON file
 *   simprof_free(s);                 before sim_destroy
 * The file's schema, "dsm-sim/1", is documented in doc/sim-format.md; every
 * rendering (dsmprof memspy, dsmprof flashpoint) reads only the file.
 *
 * The second half of this header is the machine-independent layer the
 * writer is built on: a simprof_run gathers what the file holds, and
 * simprof_run_to_json renders it (profile/simprof_json.c); unit tests use it
 * without a machine. */
#ifndef DSM_SIMPROF_H
#define DSM_SIMPROF_H

#include <stddef.h>
#include <stdint.h>
#include "formats.h" /* SIM_SCHEMA */
#include "sim/memspy.h"
#include "sim/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

struct json_object;

typedef struct simprof simprof;

/* NULL when memory ran out or a collector could not be attached. */
simprof *simprof_attach(sim_machine *m);
/* Write the statistics gathered so far to `path` (replaced atomically).
 * procedure_names[i] names procedure id i (NULL entries print as "proc<i>").
 * Returns 0, or -1 with a message in err. */
int simprof_write(simprof *s, const char *path, const char *program,
                  const char *const *procedure_names, int nprocedures, double host_seconds,
                  char *err, size_t errlen);
void simprof_free(simprof *s);
/* The front end's settings that change a run's results, for the file's
 * machine section: the scheduling quantum and dsm_alloc's home policy
 * ("blocked" or "cyclic"; the string must outlive simprof_write). */
void simprof_set_front_end(simprof *s, uint32_t quantum, const char *homes);
/* the MemSpy collector, for a front end that prints a summary */
const memspy *simprof_memspy(const simprof *s);

/* ---- the machine-independent layer ---- */

typedef struct simprof_run {
    const char *program;               /* NULL: "" */
    double host_seconds;
    const sim_params *params;
    const sim_time *cycles;            /* params->nprocs simulated clocks */
    uint64_t references;               /* all references of the run */
    /* references made while the statistics window was open (time
     * sampling); 0 when the machine does not say: references x the time
     * share of the windows stands in for it */
    uint64_t sampled_references;
    /* references whose hit or miss the sampled statistics could not tell
     * (Eq. 6.1's U); 0 on machines that keep caches and coherence running
     * while statistics are off, as ours do */
    uint64_t unknown_references;
    int stale_caches;                  /* time sampling did not simulate the references
                                          between windows (sim_sampling_stale) */
    const char *const *procedure_names;
    int nprocedures;
    const char *const *bin_names;
    int nbins;
    const memspy *ms;
    struct json_object *flashpoint;    /* section rendered by FlashPoint, or NULL;
                                          simprof_run_to_json takes it over */
    struct json_object *origin;        /* section rendered by origin_json.c, or NULL;
                                          taken over likewise */
    /* the measured section the program marked (dsm_sim_section_begin/end),
     * or NULL / not begun and ended: the whole run stands for it */
    const sim_section *section;
    /* the front end's settings that change results (0: not given) */
    uint32_t quantum;                  /* references between scheduling decisions */
    const char *homes;                 /* dsm_alloc's home policy: "blocked", "cyclic" */
} simprof_run;

/* The dsm-sim/1 document, or NULL when memory ran out. */
struct json_object *simprof_run_to_json(const simprof_run *run);
/* Write a document to path, all or nothing (pfile.h: a temporary file
 * renamed over path; anything at path but a regular file is refused).
 * 0, or -1 with "PATH: reason" in err. */
int simprof_write_json(struct json_object *root, const char *path, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
