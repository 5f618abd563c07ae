/* aggregate.h - node 0's aggregation of the data-centric profile: from every
 * node's decoded records (records.h) and the job's gathered counters and
 * pattern records to the profile_input that profile_write.c writes.
 *
 * It attributes blocks to data structures (one bin per name, one per
 * allocation site and call path, "(unnamed)" for touched blocks outside
 * every allocation), sums their counters and patterns, decides the warm
 * bit (the earliest cold miss of a block in the job), counts false- and
 * true-sharing transfers (consecutive write epochs of a block at different
 * nodes whose written ranges do not / do overlap), attributes misses to
 * procedures and (procedure, structure) pairs, ranks everything and merges
 * the nodes' timeslices.  Pure: no I/O, no clocks, no globals; the runtime
 * (dsm/prof/) fills the inputs, so profile/ never includes dsm/. */
#ifndef DSM_PROFILE_AGGREGATE_H
#define DSM_PROFILE_AGGREGATE_H

#include <stddef.h>
#include <stdint.h>

#include "counters.h"
#include "profile.h"
#include "proto.h"
#include "records.h"

/* One home's pattern record of a block. */
typedef struct profile_pattern {
    uint32_t block;
    proto_block_patterns p;
} profile_pattern;

/* What the aggregation reads from the job's statistics. */
typedef struct profile_stats {
    uint32_t nblocks;            /* blocks of the shared region */
    int counters_on, patterns_on;
    const counters *const *node; /* [nnodes]: each node's counters (NULL: none) */
    const profile_pattern *pat;  /* the homes' pattern records, any order */
    size_t npat;
} profile_stats;

/* The job. */
typedef struct profile_job {
    int nnodes;
    size_t block_size;
    double wall_seconds;         /* the run's wall time, for the file */
    uint64_t end_ns;             /* job time at its end: the timeslices reach it */
} profile_job;

/* Build the profile from nodes[0 .. job->nnodes) into *out (which the
 * caller frees with profile_input_free).  0, or -1 with the reason in err
 * and *out empty. */
int profile_aggregate(const profile_job *job, const profile_stats *st,
                      const profile_node_records *nodes, profile_input *out, char *err,
                      size_t errlen);

#endif
