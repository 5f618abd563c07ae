/* growable.h - the tree's one growable array: room for `need` elements in
 * a realloc'd array whose capacity doubles, with the size arithmetic
 * checked (a capacity whose byte size would overflow size_t fails instead
 * of wrapping to a small allocation that is then written past).
 *
 * In protocol/, the bottom layer, so that every layer may include it; pure
 * (realloc only: no I/O, no clocks, no locks).  Header-only: the check that
 * makes the call rare (n == cap) stays at the caller, inlined.
 *
 *     if (GROWABLE_RESERVE(v, cap, n + 1))
 *         return -1;            // v and cap unchanged, still valid
 *     v[n++] = x;
 */
#ifndef PROTO_GROWABLE_H
#define PROTO_GROWABLE_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The capacity a growing array starts at (elements). */
#define GROWABLE_FIRST 8

/* *pp (any object pointer, passed by address) points to an array of *cap
 * elements of elem bytes.  Make it hold at least need: 0, or -1 (errno
 * ENOMEM: out of memory, or need * elem does not fit in size_t) with *pp
 * and *cap unchanged.  The capacity doubles from GROWABLE_FIRST (or jumps
 * to need), capped at the largest that fits in size_t.  The pointer is
 * moved with memcpy so that any T ** may be passed without type punning. */
static inline int growable_reserve(void *pp, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t max = elem ? SIZE_MAX / elem : 0;
    if (need > max) {
        errno = ENOMEM;
        return -1;
    }
    size_t c = *cap > GROWABLE_FIRST ? *cap : GROWABLE_FIRST;
    while (c < need)
        c = c > max / 2 ? max : c * 2;
    if (c > max)
        c = max;
    void *p;
    memcpy(&p, pp, sizeof p);
    void *v = realloc(p, c * elem);
    if (!v) {
        errno = ENOMEM;
        return -1;
    }
    memcpy(pp, &v, sizeof v);
    *cap = c;
    return 0;
}

/* The same for a typed array v (an lvalue of type T *) and its size_t
 * capacity cap (an lvalue): element size from the type. */
#define GROWABLE_RESERVE(v, cap, need) growable_reserve(&(v), &(cap), (need), sizeof *(v))

#endif
