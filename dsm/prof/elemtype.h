/* elemtype.h - the element type of an allocation, from the DWARF of the
 * call that made it: `struct particle *part = dsm_malloc(...)` declares a
 * variable on the call's line whose type points to a structure, and that
 * structure (name, size, fields with their offsets and sizes) is what the
 * allocation holds.  The advisor names colliding fields with it
 * (doc/advice.md).  Only that case is found: an assignment to a variable
 * declared elsewhere, a `char *` or `void *` destination, or code without
 * debug information give no type.  ship.c calls it at dsm_finalize. */
#ifndef DSM_PROF_ELEMTYPE_H
#define DSM_PROF_ELEMTYPE_H

#include <stdint.h>

#include "records.h"
#include "symbols.h"

/* The structure a variable declared at the call returning to `ra` points
 * to, into *out (malloc'd strings and fields; profile_type_free releases
 * them).  1 when found, 0 when not. */
int prof_element_type(Dwfl *d, uintptr_t ra, profile_type *out);

#endif
