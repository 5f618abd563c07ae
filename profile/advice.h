/* advice.h - the advisor: Paradyn's Performance Consultant hypotheses
 * (Xu, Larus and Miller, "Shared-Memory Performance Profiling", section 5)
 * tested on a dsm-profile/2 file.
 *
 * Each hypothesis is a simple function of profile metrics and a threshold;
 * one that holds becomes a finding, and memory blocking is refined to the
 * structures and procedures responsible, as the paper's search refines
 * ExcessiveMemoryBlockingTime.  The hypotheses, their tests and the
 * threshold names are in doc/advice.md.  Input is the parsed JSON (json-c),
 * so the advisor needs nothing from the runtime. */
#ifndef DSM_ADVICE_H
#define DSM_ADVICE_H

#include <json.h>
#include <stddef.h>
#include <stdio.h>

typedef enum advice_kind {
    ADVICE_MEMORY_BLOCKING,   /* ExcessiveMemoryBlockingTime and its refinements */
    ADVICE_FALSE_SHARING,
    ADVICE_PRODUCER_CONSUMER,
    ADVICE_MIGRATORY,
    ADVICE_LOAD_IMBALANCE,
    ADVICE_READ_ONLY,         /* a read-only structure: replicate it */
    ADVICE_GROUP,             /* blocks fetched together: fetch them in bulk */
    ADVICE_NKINDS
} advice_kind;

/* All shares are fractions (0.10 is 10%); they are given and printed as
 * percentages.  Defaults in doc/advice.md and advice_thresholds_default. */
typedef struct advice_thresholds {
    double memory_blocking;   /* memory blocking time / (nodes x wall time) */
    double refine;            /* share of memory blocking time naming a structure / procedure */
    double min_share;         /* share of memory blocking time a structure needs before
                                 the pattern hypotheses look at it */
    double false_sharing;     /* false-sharing transfers / coherence misses of a structure */
    double producer_consumer; /* producer_consumer blocks / written-shared blocks */
    double migratory;         /* migratory blocks / written-shared blocks */
    double imbalance;         /* (max - min barrier wait over nodes) / wall time */
    double read_only;         /* read_only blocks / blocks with a sharing pattern */
    double group;             /* a group's bulk-fetch gain / memory blocking time */
} advice_thresholds;

/* Command-line and environment names of the thresholds, in the order of the
 * fields above: --threshold-NAME=PCT and DSM_ADVICE_UPPERNAME=PCT. */
#define ADVICE_NTHRESHOLDS 9
extern const char *const advice_threshold_names[ADVICE_NTHRESHOLDS];

void advice_thresholds_default(advice_thresholds *t);
/* Set one threshold by name ("memory-blocking", "false-sharing", ...) from a
 * percentage ("10", "10%", "2.5").  0, or -1 with a reason in err. */
int advice_threshold_set(advice_thresholds *t, const char *name, const char *value, char *err,
                         size_t errlen);
/* Apply the DSM_ADVICE_* variables that are set.  0, or -1 naming the
 * variable in err. */
int advice_thresholds_from_env(advice_thresholds *t, char *err, size_t errlen);

typedef struct advice_finding {
    advice_kind kind;
    int depth;          /* 0: a hypothesis that holds; 1: a refinement of the one before */
    char *hypothesis;   /* the Consultant-style name: "ExcessiveMemoryBlockingTime", ... */
    char *focus;        /* "whole program", "structure part", "procedure f", "nodes" */
    double value;       /* the tested share ... */
    double threshold;   /* ... and the threshold it exceeded */
    double seconds;     /* time at stake (all nodes): what the fix would save at most,
                           for ranking (doc/advice.md) */
    char *headline;     /* "memory blocking 34.0% of wall time > threshold 10%" */
    char *evidence;     /* further lines of numbers (may be empty), '\n'-separated */
    char *suggestion;   /* what to change (may be empty) */
} advice_finding;

/* Test every hypothesis on a profile validated against dsm-profile/2
 * (pschema_load or pschema_validate).  *out is a malloc'd array of *n findings (possibly
 * none), in the order they are printed: memory blocking with its
 * refinements, then per structure (largest memory blocking time first)
 * false sharing, migratory, producer-consumer, then load imbalance.
 * 0, or -1 with a reason in err (not a dsm-profile/2 object, out of memory). */
int advice_run(json_object *profile, const advice_thresholds *t, advice_finding **out, size_t *n,
               char *err, size_t errlen);
void advice_free(advice_finding *f, size_t n);

/* The findings as text, one numbered block each, thresholds first. */
void advice_print(FILE *f, const advice_finding *v, size_t n, const advice_thresholds *t);

/* The one line for the exit summary: the costliest finding with a
 * suggestion (the most time at stake; ties keep the first), else the first
 * finding.  Returns 1 and fills buf, or 0 when nothing was found. */
int advice_first_line(const advice_finding *v, size_t n, char *buf, size_t len);

/* The same straight from a profile, with the default thresholds and the
 * DSM_ADVICE_* variables: what the runtime's exit summary calls.  The
 * profile is validated first (pschema.h).  1 and a line in buf, 0 when no
 * hypothesis holds, -1 on a bad profile or variable (reason in buf). */
int advice_summary_line(json_object *profile, char *buf, size_t len);

#endif
