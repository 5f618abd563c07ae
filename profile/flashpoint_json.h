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
 *   scope           "section": the tables below count the misses issued
 *                   inside the program's measured section
 *                   (dsm_sim_section_begin/end, the paper's timed phase) and
 *                   the handlers run while it was open; "run": no section
 *                   was marked, they count the whole run
 *   totals          {metric: value, ..., upgrades, invalidations_sent} (the
 *                   tenth metric, invalidation_misses, counts misses whose
 *                   cause was an invalidation; invalidations_sent the INVs
 *                   the homes sent to serve the misses)
 *   run_totals      the same over the whole run
 *   cpu_ratio       (flash) processor cycles per 10 ns system cycle
 *   handlers        (flash) [{name, count, latency_cycles, occupancy_cycles,
 *                   queued_cycles}]: each MAGIC handler class that ran (in
 *                   the scope), sums in processor cycles: Table 4 and
 *                   Figures 6-7
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
