/* pschema_defs.c - the schemas of the files dsmprof reads (pschema.h):
 * dsm-profile/2 (doc/profile-format.md) and dsm-sim/1 with its flashpoint/1
 * section (doc/sim-format.md).  Every field a renderer reads is here, with
 * the range the renderer may then rely on; the documents list the same
 * ranges.  Counts are integers; a number a renderer converts to an
 * unsigned 64-bit integer stays below 2^64 (1.8e19). */
#include "formats.h"
#include "pschema.h"

/* JSON integers are at most UINT64_MAX (json-c saturates), which this
 * double rounds up to: every count passes, no negative one does. */
#define U64 18446744073709551615.0
/* a double converted to uint64_t must be below 2^64 */
#define U64D 1.8e19
/* node numbers: protocol/proto.h's PROTO_MAX_NODES */
#define MAXNODES 65536
/* processors of a simulated machine, generously (SIM_MAX_PROCS is 1024) */
#define MAXPROCS 1048576
/* a bin or procedure id: -1 (none) or an int */
#define ID_MAX 2147483647.0
/* seconds: about 31 years */
#define SECONDS 1e9

#define REQ PS_REQUIRED
#define F(p, t, fl, lo, hi) { p, t, fl, lo, hi, NULL, NULL }
#define OBJ(p) F(p, PS_OBJECT, 0, 0, 0)
#define OBJ_REQ(p) F(p, PS_OBJECT, REQ, 0, 0)
#define ARR(p) F(p, PS_ARRAY, 0, 0, 0)
#define ARR_REQ(p) F(p, PS_ARRAY, REQ, 0, 0)
#define STR(p) F(p, PS_STRING, 0, 0, 0)
#define STR_REQ(p) F(p, PS_STRING, REQ, 0, 0)
#define BOOL(p) F(p, PS_BOOL, 0, 0, 0)
#define COUNT(p) F(p, PS_INT, PS_RANGE, 0, U64)
#define INT(p, lo, hi) F(p, PS_INT, PS_RANGE, lo, hi)
#define NUM(p, lo, hi) F(p, PS_NUMBER, PS_RANGE, lo, hi)
#define NUM_REQ(p, lo, hi) F(p, PS_NUMBER, PS_RANGE | REQ, lo, hi)
/* every member a count, but those with entries of their own */
#define COUNTS(p, except) { p, PS_INT, PS_RANGE, 0, U64, NULL, except }

/* a written byte range [lo, hi) */
#define RANGES(p) ARR(p), F(p "[]", PS_ARRAY, PS_RANGE, 2, 2), COUNT(p "[][]")

/* a timeslice (the writer's, or the older layouts dsmprof html reads) */
#define SLICE(p)                                                                            \
    OBJ(p), NUM(p ".start", 0, 1e12), COUNT(p ".misses"), COUNT(p ".memoryBlockTime"),      \
        COUNT(p ".barrier_wait"), COUNT(p ".read_misses"), COUNT(p ".write_misses"),        \
        COUNT(p ".upgrades"), COUNT(p ".cold"), COUNT(p ".invalidation"),                   \
        COUNT(p ".upgrade"), ARR(p ".per_node"), OBJ(p ".per_node[]"),                     \
        COUNT(p ".per_node[].misses"), COUNT(p ".per_node[].memoryBlockTime"),              \
        COUNT(p ".per_node[].barrier_wait"), COUNT(p ".per_node[].read_misses"),            \
        COUNT(p ".per_node[].write_misses"), COUNT(p ".per_node[].upgrades"),               \
        COUNT(p ".per_node[].cold"), COUNT(p ".per_node[].invalidation"),                   \
        COUNT(p ".per_node[].upgrade")

/* code-attributed misses: procedures and pairs */
#define MISSES(p)                                                                           \
    COUNT(p ".read_misses"), COUNT(p ".write_misses"), COUNT(p ".upgrades"),                \
        COUNT(p ".misses"), COUNT(p ".wall")

static const pschema_field profile_fields[] = {
    { "schema", PS_STRING, REQ, 0, 0, PROFILE_SCHEMA, NULL },
    F("nodes", PS_INT, PS_RANGE | REQ, 1, MAXNODES),
    COUNT("block_size"),
    STR("mode"), /* "page" or "block"; absent in files written before it */
    NUM_REQ("wall_seconds", 0, SECONDS),
    BOOL("counters"),
    BOOL("patterns_detection"),
    BOOL("code_attribution"),
    COUNT("block_list_limit"),
    OBJ("false_sharing_evidence_lost"),
    COUNTS("false_sharing_evidence_lost.*", NULL),

    ARR("per_node"),
    OBJ("per_node[]"),
    INT("per_node[].node", 0, MAXNODES - 1),
    COUNT("per_node[].barriers"),
    COUNT("per_node[].barrier_wait"),
    COUNT("per_node[].lock_acquires"),
    COUNT("per_node[].lock_wait"),
    COUNT("per_node[].memoryBlockTime"),
    OBJ("per_node[].metrics"),
    COUNTS("per_node[].metrics.*", NULL),

    ARR_REQ("structures"),
    OBJ("structures[]"),
    STR_REQ("structures[].name"),
    STR("structures[].kind"),
    OBJ("structures[].site"),
    STR("structures[].site.function"),
    STR("structures[].site.file"),
    COUNT("structures[].site.line"),
    ARR("structures[].site.path"),
    STR("structures[].site.path[]"),
    COUNT("structures[].bytes"),
    COUNT("structures[].allocations"),
    OBJ("structures[].element_type"),
    STR("structures[].element_type.name"),
    INT("structures[].element_type.size", 1, U64),
    ARR("structures[].element_type.fields"),
    OBJ("structures[].element_type.fields[]"),
    STR("structures[].element_type.fields[].name"),
    COUNT("structures[].element_type.fields[].offset"),
    COUNT("structures[].element_type.fields[].size"),
    COUNT("structures[].blocks"),
    STR("structures[].sharing_pattern"),
    OBJ("structures[].metrics"),
    ARR("structures[].metrics.per_node"),
    COUNTS("structures[].metrics.*", "per_node"),
    OBJ("structures[].metrics.per_node[]"),
    COUNTS("structures[].metrics.per_node[].*", NULL),
    OBJ("structures[].patterns"),
    COUNTS("structures[].patterns.*", NULL),
    OBJ("structures[].groups"),
    COUNT("structures[].groups.blocks"),
    ARR("structures[].groups.ids"),
    INT("structures[].groups.ids[]", -1, 4294967295.0),
    OBJ("structures[].causes"),
    ARR("structures[].causes.per_node"),
    COUNTS("structures[].causes.*", "per_node"),
    OBJ("structures[].causes.per_node[]"),
    COUNTS("structures[].causes.per_node[].*", NULL),
    OBJ("structures[].false_sharing"),
    COUNT("structures[].false_sharing.count"),
    COUNT("structures[].false_sharing.true_sharing_transfers"),
    COUNT("structures[].false_sharing.coherence_misses"),
    NUM("structures[].false_sharing.share", 0, 1),
    COUNT("structures[].false_sharing.blocks"),
    ARR("structures[].false_sharing.top_blocks"),
    OBJ("structures[].false_sharing.top_blocks[]"),
    COUNT("structures[].false_sharing.top_blocks[].index"),
    COUNT("structures[].false_sharing.top_blocks[].offset"),
    COUNT("structures[].false_sharing.top_blocks[].transfers"),
    ARR("structures[].false_sharing.top_blocks[].writers"),
    OBJ("structures[].false_sharing.top_blocks[].writers[]"),
    INT("structures[].false_sharing.top_blocks[].writers[].node", 0, MAXNODES - 1),
    RANGES("structures[].false_sharing.top_blocks[].writers[].ranges"),
    COUNT("structures[].false_sharing.top_blocks[].writers[].ranges_total"),
    COUNT("structures[].false_sharing.top_blocks[].writers[].bytes"),
    F("structures[].block_list", PS_ARRAY | PS_NULL, 0, 0, 0),
    OBJ("structures[].block_list[]"),
    COUNT("structures[].block_list[].index"),
    COUNT("structures[].block_list[].offset"),
    COUNT("structures[].block_list[].misses"),
    COUNT("structures[].block_list[].memoryBlockTime"),
    COUNT("structures[].block_list[].invalidations"),
    COUNT("structures[].block_list[].cold"),
    COUNT("structures[].block_list[].invalidation"),
    COUNT("structures[].block_list[].upgrade"),
    COUNT("structures[].block_list[].false_sharing"),
    STR("structures[].block_list[].pattern"),
    INT("structures[].block_list[].group_id", -1, 4294967295.0),
    BOOL("structures[].block_list[].in_group"),
    OBJ("structures[].block_list[].detections"),
    COUNTS("structures[].block_list[].detections.*", NULL),

    ARR("procedures"),
    OBJ("procedures[]"),
    STR("procedures[].name"),
    STR("procedures[].file"),
    COUNT("procedures[].line"),
    MISSES("procedures[]"),

    ARR("pairs"),
    OBJ("pairs[]"),
    STR("pairs[].procedure"),
    STR("pairs[].structure"),
    MISSES("pairs[]"),
    ARR("groups"),
    OBJ("groups[]"),
    INT("groups[].id", -1, 4294967295.0),
    COUNT("groups[].blocks"),
    COUNT("groups[].fetched_together"),
    COUNT("groups[].misses_saved"),
    COUNT("groups[].gain"),
    ARR("groups[].members"),
    OBJ("groups[].members[]"),
    STR("groups[].members[].structure"),
    COUNT("groups[].members[].offset"),
    COUNT("groups[].members[].first_block"),
    COUNT("groups[].members[].blocks"),
    COUNT("groups[].members_total"),
    COUNT("groups_total"),

    /* the writer's object; dsmprof html also reads a bare list of slices
     * and intervals in ms or ns.  An interval of 0: no node kept slices. */
    F("timeslices", PS_OBJECT | PS_ARRAY, 0, 0, 0),
    NUM("timeslices.interval_seconds", 0, SECONDS),
    NUM("timeslices.interval_ms", 0, SECONDS * 1e3),
    NUM("timeslices.interval_ns", 0, SECONDS * 1e9),
    ARR("timeslices.slices"),
    SLICE("timeslices.slices[]"),
    SLICE("timeslices[]"),
};

const pschema pschema_profile = {
    PROFILE_SCHEMA, "a DSM profile", profile_fields,
    sizeof profile_fields / sizeof profile_fields[0],
};

/* MemSpy's metrics of a totals, by_bin, by_procedure or pairs entry */
#define METRICS(p)                                                                          \
    COUNT(p ".misses"), COUNT(p ".read_misses"), COUNT(p ".write_misses"),                  \
        COUNT(p ".upgrades"), COUNT(p ".stall_cycles"), COUNT(p ".cold"),                   \
        COUNT(p ".replacement"), COUNT(p ".invalidation"), COUNT(p ".unknown"),             \
        COUNT(p ".true_sharing"), COUNT(p ".false_sharing")

/* a value with its bound: a share (0..1) or a count estimate */
#define VALUE_BOUND(p, hi) OBJ(p), NUM(p ".value", 0, hi), NUM(p ".bound", 0, hi)

/* full-run estimates (sampling.estimates.totals and .by_bin[]) */
#define ESTIMATES(p)                                                                        \
    VALUE_BOUND(p ".misses", U64D), NUM(p ".read_misses", 0, U64D),                         \
        NUM(p ".write_misses", 0, U64D), NUM(p ".upgrades", 0, U64D),                       \
        NUM(p ".stall_cycles", 0, U64D), OBJ(p ".cause_shares"),                            \
        VALUE_BOUND(p ".cause_shares.cold", 1), VALUE_BOUND(p ".cause_shares.replacement", 1), \
        VALUE_BOUND(p ".cause_shares.invalidation", 1), NUM(p ".cause_shares.unknown", 0, 1)

/* FlashPoint's ten metrics and the two extra counts, all required where
 * dsmprof flashpoint reads them (totals of the section and of each bin) */
#define FP_METRICS(p, fl)                                                                   \
    F(p ".read_miss_local", PS_NUMBER, PS_RANGE | fl, 0, U64D),                             \
        F(p ".read_latency_local", PS_NUMBER, PS_RANGE | fl, 0, U64D),                      \
        F(p ".read_miss_remote", PS_NUMBER, PS_RANGE | fl, 0, U64D),                        \
        F(p ".read_latency_remote", PS_NUMBER, PS_RANGE | fl, 0, U64D),                     \
        F(p ".write_miss_local", PS_NUMBER, PS_RANGE | fl, 0, U64D),                        \
        F(p ".write_latency_local", PS_NUMBER, PS_RANGE | fl, 0, U64D),                     \
        F(p ".write_miss_remote", PS_NUMBER, PS_RANGE | fl, 0, U64D),                       \
        F(p ".write_latency_remote", PS_NUMBER, PS_RANGE | fl, 0, U64D),                    \
        F(p ".cold_misses", PS_NUMBER, PS_RANGE | fl, 0, U64D),                             \
        F(p ".invalidation_misses", PS_NUMBER, PS_RANGE | fl, 0, U64D),                     \
        NUM(p ".upgrades", 0, U64D), NUM(p ".invalidations", 0, U64D),                      \
        NUM(p ".invalidations_sent", 0, U64D)

static const pschema_field sim_fields[] = {
    { "schema", PS_STRING, REQ, 0, 0, SIM_SCHEMA, NULL },
    STR("program"),
    NUM("host_seconds", 0, SECONDS),
    OBJ("machine"),
    STR("machine.name"),
    INT("machine.processors", 0, MAXPROCS),
    COUNT("machine.line_size"),
    COUNT("machine.cache_size"),
    COUNT("machine.assoc"),
    COUNT("machine.page_size"),
    COUNT("machine.hit_cycles"),
    BOOL("machine.replacement_hints"),
    BOOL("machine.excl_clean"),
    STR("machine.fp_mode"),
    COUNT("machine.sample_period"),
    COUNT("machine.sample_length"),
    STR("machine.sample_offset"),
    STR("machine.read_recall"),
    COUNT("machine.outstanding"),
    COUNT("machine.load_use"),
    STR("machine.placement"),
    OBJ("machine.model_options"),
    { "machine.model_options.*", PS_STRING, 0, 0, 0, NULL, NULL },
    COUNT("machine.quantum"),
    STR("machine.homes"),
    INT("processors", 0, MAXPROCS),
    OBJ("cycles"),
    ARR("cycles.per_processor"),
    COUNT("cycles.per_processor[]"),
    COUNT("cycles.max"),
    COUNT("cycles.total"),
    OBJ("section"),
    STR("section.source"),
    NUM("section.begin_cycles", 0, U64D),
    NUM("section.end_cycles", 0, U64D),
    NUM("section.cycles", 0, U64D),
    NUM("section.procedure_switches", 0, U64D),
    NUM("section.procedure_switch_cycles", 0, U64D),
    COUNT("references"),
    ARR("procedures"),
    STR("procedures[]"),
    ARR("bins"),
    STR("bins[]"),
    OBJ("totals"),
    METRICS("totals"),
    COUNT("totals.lost"),
    ARR("by_bin"),
    OBJ("by_bin[]"),
    INT("by_bin[].bin", -1, ID_MAX),
    STR("by_bin[].name"),
    METRICS("by_bin[]"),
    ARR("by_procedure"),
    OBJ("by_procedure[]"),
    INT("by_procedure[].procedure", -1, ID_MAX),
    STR("by_procedure[].name"),
    METRICS("by_procedure[]"),
    ARR("pairs"),
    OBJ("pairs[]"),
    INT("pairs[].procedure", -1, ID_MAX),
    STR("pairs[].procedure_name"),
    INT("pairs[].bin", -1, ID_MAX),
    STR("pairs[].bin_name"),
    METRICS("pairs[]"),
    ARR("replacements"),
    OBJ("replacements[]"),
    INT("replacements[].bin", -1, ID_MAX),
    STR("replacements[].name"),
    COUNT("replacements[].total"),
    COUNT("replacements[].self"),
    ARR("replacements[].by"),
    OBJ("replacements[].by[]"),
    INT("replacements[].by[].bin", -1, ID_MAX),
    STR("replacements[].by[].name"),
    COUNT("replacements[].by[].count"),
    OBJ("sampling"),
    BOOL("sampling.enabled"),
    STR("sampling.unit"),
    COUNT("sampling.period"),
    COUNT("sampling.length"),
    COUNT("sampling.samples"),
    COUNT("sampling.sampled_cycles"),
    COUNT("sampling.total_cycles"),
    NUM("sampling.time_ratio", 0, 1),
    NUM("sampling.ratio", 0, 1),
    COUNT("sampling.sampled_references"),
    COUNT("sampling.known_hits"),
    COUNT("sampling.known_misses"),
    COUNT("sampling.unknown_references"),
    STR("sampling.caches"),
    COUNT("sampling.unknown_causes"),
    VALUE_BOUND("sampling.miss_rate", 1),
    OBJ("sampling.estimates"),
    STR("sampling.estimates.scaled_by"),
    OBJ("sampling.estimates.totals"),
    ESTIMATES("sampling.estimates.totals"),
    ARR("sampling.estimates.by_bin"),
    OBJ("sampling.estimates.by_bin[]"),
    INT("sampling.estimates.by_bin[].bin", -1, ID_MAX),
    STR("sampling.estimates.by_bin[].name"),
    ESTIMATES("sampling.estimates.by_bin[]"),

    /* FlashPoint's section (flashpoint_json.h) */
    OBJ("flashpoint"),
    { "flashpoint.schema", PS_STRING, REQ, 0, 0, FLASHPOINT_SCHEMA, NULL },
    STR_REQ("flashpoint.mode"),
    STR("flashpoint.machine"),
    NUM_REQ("flashpoint.processors", 0, MAXPROCS),
    STR("flashpoint.latency_unit"),
    NUM("flashpoint.start_cycles", 0, U64D),
    NUM("flashpoint.end_cycles", 0, U64D),
    NUM_REQ("flashpoint.parallel_cycles", 0, U64D),
    NUM("flashpoint.dropped", 0, U64D),
    STR("flashpoint.scope"),
    OBJ("flashpoint.run_totals"),
    FP_METRICS("flashpoint.run_totals", 0),
    NUM("flashpoint.cpu_ratio", 1, 64),
    ARR("flashpoint.handlers"),
    OBJ("flashpoint.handlers[]"),
    STR_REQ("flashpoint.handlers[].name"),
    NUM_REQ("flashpoint.handlers[].count", 0, U64D),
    NUM_REQ("flashpoint.handlers[].latency_cycles", 0, U64D),
    NUM_REQ("flashpoint.handlers[].occupancy_cycles", 0, U64D),
    NUM("flashpoint.handlers[].queued_cycles", 0, U64D),
    OBJ("flashpoint.procedure_switches"),
    NUM_REQ("flashpoint.procedure_switches.count", 0, U64D),
    NUM_REQ("flashpoint.procedure_switches.stall_cycles", 0, U64D),
    NUM("flashpoint.procedure_switches.queued_cycles", 0, U64D),
    NUM("flashpoint.procedure_switches.occupancy_cycles", 0, U64D),
    ARR("flashpoint.metrics"),
    STR("flashpoint.metrics[]"),
    OBJ_REQ("flashpoint.totals"),
    FP_METRICS("flashpoint.totals", REQ),
    ARR_REQ("flashpoint.bins"),
    OBJ("flashpoint.bins[]"),
    INT("flashpoint.bins[].bin", -1, ID_MAX),
    STR_REQ("flashpoint.bins[].name"),
    OBJ_REQ("flashpoint.bins[].totals"),
    FP_METRICS("flashpoint.bins[].totals", REQ),
    ARR("flashpoint.bins[].procedures"),
    OBJ("flashpoint.bins[].procedures[]"),
    INT("flashpoint.bins[].procedures[].procedure", -1, ID_MAX),
    STR("flashpoint.bins[].procedures[].name"),
    FP_METRICS("flashpoint.bins[].procedures[]", 0),

    /* the Origin 2000 profiler's section (origin_json.h) */
    OBJ("origin"),
    { "origin.schema", PS_STRING, REQ, 0, 0, ORIGIN_SCHEMA, NULL },
    NUM_REQ("origin.cpu_mhz", 1, 1e6),
    NUM_REQ("origin.node_count", 1, MAXPROCS),
    NUM_REQ("origin.router_count", 1, MAXPROCS),
    NUM_REQ("origin.elapsed_ns", 0, U64D),
    ARR_REQ("origin.threads"),
    OBJ("origin.threads[]"),
    NUM_REQ("origin.threads[].proc", 0, MAXPROCS),
    NUM_REQ("origin.threads[].node", 0, MAXPROCS),
    NUM_REQ("origin.threads[].misses", 0, U64D),
    NUM_REQ("origin.threads[].local", 0, U64D),
    NUM_REQ("origin.threads[].local_ratio", 0, 1),
    ARR_REQ("origin.threads[].hops"),
    NUM("origin.threads[].hops[]", 0, U64D),
    OBJ_REQ("origin.threads[].transactions"),
    NUM_REQ("origin.threads[].transactions.unowned", 0, U64D),
    NUM_REQ("origin.threads[].transactions.invalidate", 0, U64D),
    NUM_REQ("origin.threads[].transactions.clean_exclusive", 0, U64D),
    NUM_REQ("origin.threads[].transactions.dirty_exclusive", 0, U64D),
    OBJ_REQ("origin.threads[].invalidates_by_sharers"),
    NUM("origin.threads[].mean_latency_ns", 0, U64D),
    NUM("origin.threads[].tlb_misses", 0, U64D),
    NUM("origin.threads[].preempted_ns", 0, U64D),
    ARR_REQ("origin.nodes"),
    OBJ("origin.nodes[]"),
    NUM_REQ("origin.nodes[].node", 0, MAXPROCS),
    OBJ_REQ("origin.nodes[].memory"),
    NUM_REQ("origin.nodes[].memory.utilisation", 0, 1),
    NUM("origin.nodes[].memory.idle", 0, 1),
    NUM("origin.nodes[].memory.blocked", 0, 1),
    NUM("origin.nodes[].memory.busy", 0, 1),
    NUM("origin.nodes[].memory.refresh", 0, 1),
    NUM("origin.nodes[].memory.mb_per_s", 0, U64D),
    NUM_REQ("origin.nodes[].bus_utilisation", 0, 1),
    NUM_REQ("origin.nodes[].ni_out_utilisation", 0, 1),
    NUM_REQ("origin.nodes[].ni_in_utilisation", 0, 1),
    ARR_REQ("origin.links"),
    OBJ("origin.links[]"),
    NUM_REQ("origin.links[].link", 0, U64D),
    STR_REQ("origin.links[].from"),
    STR_REQ("origin.links[].to"),
    NUM_REQ("origin.links[].utilisation", 0, 1),
    NUM_REQ("origin.links[].packets", 0, U64D),
    OBJ("origin.links[].contention"),
    OBJ_REQ("origin.hub_samples"),
    NUM_REQ("origin.hub_samples.period_ns", 0, U64D),
    ARR_REQ("origin.hub_samples.times_ns"),
    ARR_REQ("origin.hub_samples.memory_utilisation"),
    ARR_REQ("origin.hub_samples.bus_utilisation"),
    ARR_REQ("origin.hub_samples.ni_utilisation"),
    ARR_REQ("origin.hub_samples.mb_per_s"),
    OBJ_REQ("origin.router_samples"),
    NUM_REQ("origin.router_samples.period_ns", 0, U64D),
    ARR_REQ("origin.router_samples.times_ns"),
    ARR_REQ("origin.router_samples.links"),
    ARR_REQ("origin.router_samples.utilisation"),
    ARR_REQ("origin.router_samples.contention_ns"),
};

const pschema pschema_sim = {
    SIM_SCHEMA, "the statistics of a simulated run", sim_fields,
    sizeof sim_fields / sizeof sim_fields[0],
};
