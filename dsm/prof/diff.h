/* diff.h - the diff of a write epoch: the byte ranges of a block that
 * differ from its twin (the copy taken when write access was granted).
 * dsm/prof/prof.c logs them per write epoch, exactly (never merged across
 * a gap: node 0's false-sharing verdict compares them byte for byte). */
#ifndef DSM_PROF_DIFF_H
#define DSM_PROF_DIFF_H

#include <stddef.h>

#include "runs.h"

/* Most runs a diff of n bytes can have (every other byte changed). */
#define PROF_DIFF_MAX_RUNS(n) ((n) / 2 + 1)

/* Runs where cur differs from twin (n bytes) into r, which holds
 * PROF_DIFF_MAX_RUNS(n): sorted, disjoint, not adjacent, exact.  Returns
 * their number. */
size_t prof_diff(const unsigned char *twin, const unsigned char *cur, size_t n, profile_range *r);

#endif
