/* runs.h - exact byte sets inside a block: the bytes a write epoch changed,
 * the bytes a node wrote in a falsely shared block, the bytes a read took.
 * A set is its runs [lo, hi): sorted, disjoint and not adjacent, as many as
 * it takes.  Nothing here ever closes a gap between runs, so two sets that
 * share no byte never appear to overlap: the false-sharing verdict
 * (aggregate.c) is exact.  Pure; used by the runtime's diff
 * (dsm/prof/diff.c), the records and the aggregation. */
#ifndef DSM_PROFILE_RUNS_H
#define DSM_PROFILE_RUNS_H

#include <stddef.h>
#include <stdint.h>

typedef struct profile_range {
    uint32_t lo, hi; /* [lo, hi): byte offsets inside a block */
} profile_range;

/* A growable set (all zero: empty). */
typedef struct profile_runs {
    uint32_t n, cap;
    profile_range *r;
} profile_runs;

/* Union with [lo, hi) / with the sorted, disjoint runs r[0..n).  0, or -1
 * when out of memory (the set is then unchanged). */
int profile_runs_add(profile_runs *s, uint32_t lo, uint32_t hi);
int profile_runs_add_all(profile_runs *s, const profile_range *r, size_t n);
/* Do two sorted, disjoint run lists share a byte? */
int profile_runs_overlap(const profile_range *a, size_t na, const profile_range *b, size_t nb);
/* Bytes in the set. */
uint64_t profile_runs_bytes(const profile_range *r, size_t n);
void profile_runs_free(profile_runs *s);

#endif
