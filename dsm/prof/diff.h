/* diff.h - the diff of a write epoch: the byte ranges of a block that
 * differ from its twin (the copy taken when write access was granted).
 * dsm/prof/prof.c logs them per write epoch; node 0 calls two consecutive epochs
 * at different nodes whose ranges do not overlap a false-sharing transfer. */
#ifndef DSM_PROF_DIFF_H
#define DSM_PROF_DIFF_H

#include <stddef.h>

#include "profile.h"

/* Ranges where cur differs from twin (n bytes) into out: sorted, disjoint,
 * not adjacent, at most PROFILE_MAX_RANGES (past that the smallest gaps are
 * closed: a range can only widen, so no false sharing is claimed where there
 * was none).  r is scratch space for rcap runs (rcap >= PROFILE_MAX_RANGES). */
void prof_diff(const unsigned char *twin, const unsigned char *cur, size_t n, profile_range *r,
               size_t rcap, profile_ranges *out);

/* Close the smallest gaps between the sorted, disjoint runs r[0..*n) until at
 * most keep (1 .. PROFILE_MAX_RANGES) remain. */
void prof_runs_reduce(profile_range *r, size_t *n, size_t keep);

#endif
