/* runs.c - exact byte sets (runs.h): union by merging two sorted lists,
 * overlap by walking both. */
#include "runs.h"

#include <stdlib.h>
#include <string.h>

int profile_runs_add_all(profile_runs *s, const profile_range *r, size_t n)
{
    if (!n)
        return 0;
    size_t need = (size_t)s->n + n;
    if (need > UINT32_MAX)
        return -1;
    profile_range *m = malloc(need * sizeof *m);
    if (!m)
        return -1;
    size_t i = 0, j = 0, k = 0;
    while (i < s->n || j < n) {
        profile_range x;
        if (j >= n || (i < s->n && s->r[i].lo <= r[j].lo))
            x = s->r[i++];
        else
            x = r[j++];
        if (x.lo >= x.hi)
            continue;
        if (k && x.lo <= m[k - 1].hi) { /* overlapping or adjacent: one run */
            if (x.hi > m[k - 1].hi)
                m[k - 1].hi = x.hi;
        } else {
            m[k++] = x;
        }
    }
    free(s->r);
    s->r = m;
    s->n = (uint32_t)k;
    s->cap = (uint32_t)need;
    return 0;
}

int profile_runs_add(profile_runs *s, uint32_t lo, uint32_t hi)
{
    profile_range x = { lo, hi };
    return profile_runs_add_all(s, &x, 1);
}

int profile_runs_overlap(const profile_range *a, size_t na, const profile_range *b, size_t nb)
{
    size_t i = 0, j = 0;
    while (i < na && j < nb) {
        if (a[i].hi <= b[j].lo)
            i++;
        else if (b[j].hi <= a[i].lo)
            j++;
        else
            return 1;
    }
    return 0;
}

uint64_t profile_runs_bytes(const profile_range *r, size_t n)
{
    uint64_t b = 0;
    for (size_t i = 0; i < n; i++)
        b += r[i].hi - r[i].lo;
    return b;
}

void profile_runs_free(profile_runs *s)
{
    free(s->r);
    memset(s, 0, sizeof *s);
}
