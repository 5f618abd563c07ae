/* profile.h - the data-centric profile as plain data, and its writers.
 *
 * Node 0 builds a profile_input from what every node recorded
 * (aggregate.c): structures (named, by allocation site, or unnamed), their
 * Figure 3 counters, patterns, miss causes and false-sharing evidence,
 * procedures and (procedure, structure) pairs.  The writer here only turns
 * it into the dsm-profile/1 JSON file (doc/profile-format.md) and the short
 * summary printed at exit.  Layering: profile/ includes protocol/ headers,
 * never dsm/ ones, so the types here are all it is given. */
#ifndef DSM_PROFILE_H
#define DSM_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "counters.h"
#include "formats.h" /* PROFILE_SCHEMA */
#include "pfile.h"   /* profile_path_check, for a check of DSM_PROFILE at dsm_init */
#include "proto.h"
/* Written byte ranges kept per (node, block): more are merged, closest first
 * (merging can only make ranges overlap, so false sharing is never claimed
 * where there was none). */
#define PROFILE_MAX_RANGES 16
/* Structures of at most this many blocks list every block in the profile. */
#define PROFILE_BLOCKS_LIMIT 4096
/* Falsely shared blocks listed per structure (the most transferred first). */
#define PROFILE_FS_BLOCKS 8

typedef struct profile_range {
    uint32_t lo, hi; /* [lo, hi): byte offsets inside a block */
} profile_range;

typedef struct profile_ranges {
    uint32_t n;
    profile_range r[PROFILE_MAX_RANGES]; /* sorted, disjoint, not adjacent */
} profile_ranges;

/* Add [lo, hi) to a set (union). */
void profile_ranges_add(profile_ranges *s, uint32_t lo, uint32_t hi);
/* Do two sets share a byte? */
int profile_ranges_overlap(const profile_ranges *a, const profile_ranges *b);

/* Miss causes (doc/profile-format.md): every miss is exactly one of cold,
 * invalidation, upgrade; cold_first_touch counts the cold misses that were
 * the first touch of the block by any node (FlashPoint's warm bit clear). */
typedef struct profile_causes {
    uint64_t cold, cold_first_touch, invalidation, upgrade;
    uint64_t cold_wall, invalidation_wall, upgrade_wall; /* ns */
} profile_causes;

void profile_causes_add(profile_causes *dst, const profile_causes *src);

typedef struct profile_block {
    uint32_t index;                      /* block number in the region */
    uint64_t offset;                     /* block start - structure start (first range) */
    uint64_t misses, memory_block_time, invalidations;
    profile_causes causes;
    int dominant;                        /* proto_pattern */
    int32_t group_id;                    /* the home's group: a block number, -1 for none */
    uint32_t detections[PP_NPATTERNS];
    uint64_t fs_transfers;
} profile_block;

typedef struct profile_fs_block {
    uint32_t index;
    uint64_t offset;
    uint64_t transfers;                  /* false-sharing transfers of this block */
    profile_ranges *writers;             /* [nnodes]: bytes each node wrote (n == 0: none) */
} profile_fs_block;

typedef struct profile_structure {
    char *name;
    const char *kind;                    /* "named", "site" or "unnamed" */
    /* kind "site": the allocation site and the call path above it */
    char *site_function, *site_file;
    unsigned site_line;
    char **path;                         /* "function (file:line)", innermost first */
    size_t npath;
    uint64_t bytes, allocations;
    uint32_t nblocks;                    /* blocks attributed to it */
    uint64_t metrics[CM_NBLOCK_METRICS]; /* summed over nodes */
    uint64_t *per_node;                  /* [nnodes * CM_NBLOCK_METRICS] */
    uint32_t patterns[PP_NPATTERNS];     /* blocks per dominant pattern */
    profile_causes causes;
    profile_causes *causes_per_node;     /* [nnodes] */
    uint64_t fs_transfers, ts_transfers; /* writer-to-writer transfers: false / true sharing */
    profile_ranges *fs_written;          /* [nnodes]: union over its falsely shared blocks */
    profile_fs_block *fs_blocks;
    size_t nfs_blocks;
    profile_block *blocks;               /* NULL when nblocks > PROFILE_BLOCKS_LIMIT */
    size_t nblocks_listed;
} profile_structure;

/* Misses attributed to code: by the faulting instruction. */
typedef struct profile_misses {
    uint64_t read_misses, write_misses, upgrades, wall; /* wall: ns blocked in them */
} profile_misses;

typedef struct profile_procedure {
    char *name, *file;                   /* file:line of its instruction with most misses */
    unsigned line;
    profile_misses m;
} profile_procedure;

typedef struct profile_pair {
    size_t procedure, structure;         /* indices into the input's arrays */
    profile_misses m;
} profile_pair;

/* One node's counts in one timeslice of the job. */
typedef struct profile_slice {
    uint64_t misses, memory_block_time, barrier_wait; /* times: ns */
} profile_slice;

typedef struct profile_input {
    int nnodes;
    size_t block_size;
    int block_mode;                      /* 1: block mode (dsmcc --dsm's inline checks), 0: page mode */
    double wall_seconds;
    int counters_on, patterns_on, code_attribution;
    uint64_t epochs_dropped, twins_skipped; /* false-sharing evidence that could not be kept */
    uint64_t *node_metrics;              /* [nnodes * CM_NMETRICS]: per-node totals */
    profile_structure *structures;       /* sorted by memoryBlockTime, largest first */
    size_t nstructures;
    profile_procedure *procedures;       /* sorted by wall, largest first */
    size_t nprocedures;
    profile_pair *pairs;                 /* sorted by wall, largest first */
    size_t npairs;
    double slice_seconds;                /* the timeslices' interval */
    profile_slice *slices;               /* [nslices * nnodes]: slice i, node n at i * nnodes + n */
    size_t nslices;
} profile_input;

/* Write the dsm-profile/1 file, all or nothing, through pfile.h: a new
 * temporary file renamed over path; anything at path but a regular file is
 * refused.  Names that are not valid UTF-8 are repaired (U+FFFD), so the
 * file is valid JSON.  0, or -1 with a reason in err (without the path). */
int profile_write_json(const profile_input *in, const char *path, char *err, size_t errlen);

/* The exit summary: at most 15 lines, each starting with prefix. */
void profile_print_summary(const profile_input *in, const char *path, FILE *f);

/* Free everything the input owns (strings and arrays), not the input. */
void profile_input_free(profile_input *in);

/* The structure's dominant pattern: the pattern most of its blocks have,
 * "none" blocks left out unless all are none. */
int profile_structure_dominant(const profile_structure *s);

#endif
