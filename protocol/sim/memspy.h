/* memspy.h - MemSpy's statistics over a simulated machine.
 *
 * A pure collector (no I/O, no clocks) fed with the sim_miss records a
 * machine reports through sim_on_miss (sim.h).  It keeps, as MemSpy does
 * (MemSpy, Ch. 4), one set of counters per (procedure,
 * data bin): read and write misses, upgrades, stall cycles, the cause of each
 * miss (4.2.7: cold, replacement, invalidation, unknown) and, for
 * invalidation misses, true versus false sharing; and per bin the causes of
 * replacement (4.2.8): which bin's fill evicted its lines.  Counters are
 * vectorized: one array indexed by (procedure, bin, metric), grown as new
 * procedure or bin ids appear, so an update is a few index computations.
 *
 * Time sampling (Ch. 6): when the machine only reports misses inside sample
 * windows, memspy_sampling_plan() says how many windows there were and which
 * share of the run they covered, and memspy_estimate_count() turns a sampled
 * count into a full-run estimate with the estimator and error bound of the
 * thesis' Eq. 6.1 (see memspy_eq61).
 *
 * Procedure -1 (unknown) and bin -1 (no bin) are kept too: they are stored
 * at index 0, procedure p and bin b at p + 1 and b + 1; the accessors take
 * the ids as the machine gives them (-1 included).
 *
 * The file writer (profile/simprof.c) attaches the collector to a machine
 * and renders its tables into the dsm-sim/1 file (doc/sim-format.md). */
#ifndef DSM_SIM_MEMSPY_H
#define DSM_SIM_MEMSPY_H

#include <stdint.h>
#include "sim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum memspy_metric {
    MS_READ_MISSES = 0,   /* data misses on a load */
    MS_WRITE_MISSES,      /* data misses on a store (not upgrades) */
    MS_UPGRADES,          /* stores to a read-only copy */
    MS_STALL,             /* cycles of latency of the misses and upgrades */
    MS_COLD,              /* causes of the data misses (upgrades excluded) */
    MS_REPLACEMENT,
    MS_INVALIDATION,
    MS_UNKNOWN,           /* the line left while statistics were off */
    MS_TRUE_SHARING,      /* invalidation misses split by sharing kind */
    MS_FALSE_SHARING,
    MS_NMETRICS
} memspy_metric;

/* the names used in the file and the reports, indexed by memspy_metric */
extern const char *const memspy_metric_names[MS_NMETRICS];

typedef struct memspy memspy;

memspy *memspy_create(void);
void memspy_free(memspy *ms);

/* Account one miss.  Returns 0, or -1 when memory ran out (the miss is then
 * not counted and memspy_lost() grows).  Ids below -1 count as -1. */
int memspy_record(memspy *ms, const sim_miss *miss);
/* The same, with the shape of a sim_miss_fn: pass it to sim_on_miss. */
void memspy_on_miss(void *ms, const sim_miss *miss);
uint64_t memspy_lost(const memspy *ms);

/* Ids seen so far: procedures 0 .. memspy_nprocedures()-1 (plus -1), bins
 * likewise.  A machine's bins can outnumber the ones that missed: callers
 * ask for any id, unseen ones read as 0. */
int memspy_nprocedures(const memspy *ms);
int memspy_nbins(const memspy *ms);

uint64_t memspy_get(const memspy *ms, int procedure, int bin, memspy_metric metric);
/* sums over all procedures (bin view), all bins (procedure view), all */
uint64_t memspy_bin_total(const memspy *ms, int bin, memspy_metric metric);
uint64_t memspy_procedure_total(const memspy *ms, int procedure, memspy_metric metric);
uint64_t memspy_total(const memspy *ms, memspy_metric metric);
/* data misses (read + write) of a cell, a bin, a procedure, everything */
uint64_t memspy_misses(const memspy *ms, int procedure, int bin);

/* Causes of replacement: replacement misses on lines of bin `evicted` whose
 * removal was a fill of bin `evicting` (-1: unknown or no bin). */
uint64_t memspy_replacements(const memspy *ms, int evicted, int evicting);

/* ---- time sampling (Ch. 6) ---- */

/* Eq. 6.1: the miss rate of a sample with Hk known hits, Mk known misses and
 * U unknown references, estimated with mu = 0.5 (the share of the unknown
 * references that are misses) and its bound for mu anywhere in [0, 1]:
 *     m' = (Mk + 0.5 U) / (Hk + Mk + U)  +-  0.5 U / (Hk + Mk + U)
 * rate and bound are 0 when the sample has no reference. */
typedef struct memspy_rate {
    double rate;
    double bound;
} memspy_rate;
memspy_rate memspy_eq61(uint64_t known_hits, uint64_t known_misses, uint64_t unknown);

/* The sampling of a run: the machine opens its statistics window for the
 * first `length` cycles of every `period` cycles of simulated time
 * ([k*period, k*period + length)), and the run lasted `end` cycles. */
typedef struct memspy_sampling {
    uint64_t period, length;   /* period 0: not sampled */
    uint64_t samples;          /* windows that opened before `end` */
    uint64_t sampled_cycles;   /* cycles of [0, end) inside a window */
    uint64_t total_cycles;     /* end */
    double ratio;              /* sampled_cycles / total_cycles (1 when not
                                  sampled): the thesis' sampling ratio,
                                  SamplesTaken x SampleLength / Total, in time */
} memspy_sampling;
void memspy_sampling_plan(uint64_t period, uint64_t length, uint64_t end, memspy_sampling *out);
/* The same with the windows placed as the machine placed them
 * (sample_offset=random: sim_window_offset). */
void memspy_sampling_plan_placed(uint64_t period, uint64_t length, int random, uint64_t end,
                                 memspy_sampling *out);

/* A full-run estimate of a count measured inside the samples: Eq. 6.1
 * scaled from the sampled references to the whole run.  With R sampled
 * references and a sampling ratio r, the run has about R / r references and
 * m' (R / r) = (Mk + 0.5 U) / r misses, bound 0.5 U / r.  `known` is Mk,
 * `unknown` the references whose outcome the sample could not determine. */
typedef struct memspy_count_estimate {
    double value;
    double bound;
} memspy_count_estimate;
memspy_count_estimate memspy_estimate_count(uint64_t known, uint64_t unknown, double ratio);

/* Share of the data misses of a set with cause `cause_count` among
 * `misses`, of which `unknown` have an unknown cause: each unknown cause
 * may or may not be this one, so Eq. 6.1's reasoning with mu in [0, 1]
 * gives the midpoint (cause + 0.5 unknown) / misses +- 0.5 unknown / misses. */
memspy_rate memspy_cause_share(uint64_t cause_count, uint64_t unknown, uint64_t misses);

#ifdef __cplusplus
}
#endif
#endif
