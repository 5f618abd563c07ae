/* origin_json.h - the "origin" section of a simulated Origin 2000 run's
 * statistics file (dsm-sim/1, written by profile/simprof.c), rendered from
 * the model's counters (protocol/sim/origin.h): what the Origin's ccNUMA
 * profiler collects from the R10000, Hub and router counters.  dsmprof
 * origin (profile/dsmprof_origin.c) and the HTML page read it back.
 *
 * Section (schema "origin/1"); times in ns of simulated time, utilisations
 * as fractions 0..1:
 *   cpu_mhz, node_count, router_count, elapsed_ns
 *   threads   [{proc, node, misses, local, local_ratio, hops: [n per hop
 *             count 0..7, the last "or more"], transactions: {unowned,
 *             invalidate, clean_exclusive, dirty_exclusive},
 *             invalidates_by_sharers: {"1", "2", "3", "4-7", "8+"},
 *             mean_latency_ns, tlb_misses (of the misses' references),
 *             preempted_ns (taken by preempt_us's system activity)}]
 *   nodes     [{node, memory: {idle, blocked, busy, refresh, utilisation,
 *             mb_per_s}, bus_utilisation, ni_out_utilisation,
 *             ni_in_utilisation}]
 *   links     [{link, from, to ("node N", "router N", "metarouter N"),
 *             utilisation, packets, contention: {waited_packets, wait_ns,
 *             share (waited / packets)}}], links that carried packets only
 *   hub_samples    {period_ns, times_ns: [start of each sample],
 *             memory_utilisation: [[per sample] per node], bus_utilisation,
 *             ni_utilisation, mb_per_s (the same shape)}
 *   router_samples {period_ns, times_ns, links: [link ids, as in links],
 *             utilisation: [[per sample] per link], contention_ns} */
#ifndef DSM_ORIGIN_JSON_H
#define DSM_ORIGIN_JSON_H

#include <json.h>

#include "formats.h" /* ORIGIN_SCHEMA */
#include "sim/sim.h"

/* A new JSON object (the caller owns it), or NULL when out of memory. */
struct json_object *origin_to_json(const void *model);

#endif
