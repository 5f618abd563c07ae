/* flashpoint_json.h - the "flashpoint" section of a simulated FLASH run's
 * statistics file (dsm-sim/1, written by profile/simprof.c), rendered from
 * the FlashPoint collector (protocol/sim/flashpoint.h).  dsmprof flashpoint
 * (profile/dsmprof_flashpoint.c) reads it back.
 *
 * Section (schema "flashpoint/1"):
 *   mode            control | dp | noproc | proc (sim_params.fp_mode)
 *   machine, processors
 *   latency_unit    "processor cycles" (the FLASH model's cpu_ratio, default 2,
 *                   per 10 ns system cycle of the paper's tables)
 *   start_cycles, end_cycles, parallel_cycles
 *                   largest processor clock when the collector was attached
 *                   and when the section was written, and their difference:
 *                   the measured (parallel) section of Table 2 / Figure 5
 *   metrics         the ten Table 3 metric keys, in order
 *   totals          {metric: value, ..., upgrades, invalidation_misses}
 *   bins            [{bin, name, totals: {...}, procedures: [{procedure,
 *                   name, metric: value...}]}], bin -1 = "(unbinned)",
 *                   procedure -1 = "(unknown)"
 *   dropped         misses the collector could not record (out of memory)
 *   procedure_switches  (flash machine only) {count, stall_cycles,
 *                   queued_cycles, occupancy_cycles}: FP-Proc's procedure
 *                   commands, summed over processors (count 0 in the other
 *                   modes, which pay nothing for a switch) */
#ifndef DSM_FLASHPOINT_JSON_H
#define DSM_FLASHPOINT_JSON_H

#include <json.h>

#include "formats.h" /* FLASHPOINT_SCHEMA */
#include "sim/flashpoint.h"
#include "sim/sim.h"

/* A new JSON object (the caller owns it), or NULL when out of memory. */
struct json_object *flashpoint_to_json(const sim_flashpoint *fp, const sim_machine *m,
                                       const char *const *procedure_names, int nprocedures);

#endif
