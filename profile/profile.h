/* profile.h - the data-centric profile as plain data, and its writers.
 *
 * Node 0 builds a profile_input from what every node recorded
 * (aggregate.c): structures (named, by allocation site, or unnamed), their
 * Figure 3 counters, patterns, miss causes and false-sharing evidence,
 * procedures and (procedure, structure) pairs.  The writer here only turns
 * it into the dsm-profile/2 JSON file (doc/profile-format.md) and the short
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
#include "runs.h" /* exact byte sets: written and read bytes inside a block */
/* Structures of at most this many blocks list every block in the profile. */
#define PROFILE_BLOCKS_LIMIT 4096
/* Falsely shared blocks listed per structure (the most transferred first). */
#define PROFILE_FS_BLOCKS 8
/* Runs of a byte set written into the file per node (the rest counted). */
#define PROFILE_RANGES_LISTED 256
/* Groups listed (the largest gain first), runs of blocks listed per group,
 * and group ids listed per structure. */
#define PROFILE_GROUPS_LISTED 64
#define PROFILE_GROUP_RUNS 16
#define PROFILE_STRUCT_GROUPS 8

/* A field of an element type: its name, offset and size in bytes. */
typedef struct profile_field {
    char *name;
    uint64_t offset, size;
} profile_field;

/* The structure an allocation holds, from DWARF (dsm/prof/elemtype.c); records.c
 * has the functions. */
typedef struct profile_type {
    char *name;
    uint64_t size;
    profile_field *fields;
    uint32_t nfields;
} profile_type;

/* Free what a type owns (not the type itself); it is left empty. */
void profile_type_free(profile_type *t);
/* A deep copy; 0, or -1 when out of memory (*dst then empty). */
int profile_type_copy(profile_type *dst, const profile_type *src);

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
    int pattern;                         /* its sharing pattern (proto_sharing_pattern) */
    int32_t group_id;                    /* the home's group: a block number, -1 for none */
    int in_group;                        /* its group has more than this block */
    uint32_t detections[PP_NPATTERNS];
    uint64_t fs_transfers;
} profile_block;

typedef struct profile_fs_block {
    uint32_t index;
    uint64_t offset;
    uint64_t transfers;                  /* false-sharing transfers of this block */
    profile_runs *writers;               /* [nnodes]: bytes each node wrote (n == 0: none) */
} profile_fs_block;

/* Blocks that travel together (Figure 2's group: a co-access pattern, apart
 * from the sharing patterns): a bulk fetch of the group would save the
 * misses of the blocks that followed their guess. */
typedef struct profile_group_run {
    size_t structure;                    /* index into the input's structures */
    uint64_t offset;                     /* of its first block from the structure's start */
    uint32_t first_block, blocks;        /* consecutive blocks of that structure */
} profile_group_run;

typedef struct profile_group {
    int32_t id;                          /* the block number naming it */
    uint32_t blocks;                     /* its blocks */
    uint64_t fetched_together;           /* requests that followed their guess: misses saved */
    uint64_t gain;                       /* ns: misses saved x their blocks' mean miss time */
    profile_group_run *runs;             /* up to PROFILE_GROUP_RUNS, in block order */
    size_t nruns, nruns_total;
} profile_group;

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
    uint32_t patterns[PP_NPATTERNS];     /* blocks per sharing pattern */
    uint64_t pattern_misses[PP_NPATTERNS]; /* misses of the blocks of each sharing pattern */
    uint32_t group_blocks;               /* its blocks in a group of two or more */
    int32_t group_ids[PROFILE_STRUCT_GROUPS]; /* the groups they are in (the first ones) */
    size_t ngroup_ids;
    profile_causes causes;
    profile_causes *causes_per_node;     /* [nnodes] */
    uint64_t fs_transfers, ts_transfers; /* writer-to-writer transfers: false / true sharing */
    profile_fs_block *fs_blocks;
    size_t nfs_blocks;
    profile_block *blocks;               /* NULL when nblocks > PROFILE_BLOCKS_LIMIT */
    size_t nblocks_listed;
    int has_type;                        /* its element type is known (DWARF of the call) */
    profile_type type;
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
    uint64_t epochs_dropped, twins_skipped, reads_dropped; /* false-sharing evidence lost */
    uint64_t *node_metrics;              /* [nnodes * CM_NMETRICS]: per-node totals */
    profile_structure *structures;       /* sorted by memoryBlockTime, largest first */
    size_t nstructures;
    profile_procedure *procedures;       /* sorted by wall, largest first */
    size_t nprocedures;
    profile_pair *pairs;                 /* sorted by wall, largest first */
    size_t npairs;
    profile_group *groups;               /* by gain, largest first (PROFILE_GROUPS_LISTED) */
    size_t ngroups, ngroups_total;
    double slice_seconds;                /* the timeslices' interval */
    profile_slice *slices;               /* [nslices * nnodes]: slice i, node n at i * nnodes + n */
    size_t nslices;
} profile_input;

/* Write the dsm-profile/2 file, all or nothing, through pfile.h: a new
 * temporary file renamed over path; anything at path but a regular file is
 * refused.  Names that are not valid UTF-8 are repaired (U+FFFD), so the
 * file is valid JSON.  0, or -1 with a reason in err (without the path). */
int profile_write_json(const profile_input *in, const char *path, char *err, size_t errlen);

/* The exit summary: at most 15 lines, each starting with prefix. */
void profile_print_summary(const profile_input *in, const char *path, FILE *f);

/* Free everything the input owns (strings and arrays), not the input. */
void profile_input_free(profile_input *in);

/* The structure's sharing pattern: the one most of its blocks have, "none"
 * blocks left out unless all are none. */
int profile_structure_dominant(const profile_structure *s);
/* A structure's share of false sharing: false-sharing transfers over its
 * coherence misses, or over all its writer-to-writer transfers when these
 * are more (a transfer may arrive by a cold miss): at most 1. */
double profile_fs_share(uint64_t fs, uint64_t ts, uint64_t coherence_misses);

#endif
