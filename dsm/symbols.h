/* symbols.h - code addresses of this process to function, file and line,
 * with elfutils libdwfl (dladdr for a function name libdw does not know).
 * Used by the DSM's profile (dsm/prof/prof.c: call paths and instructions, at
 * dsm_finalize) and by the simulation front end (dsm/simfront/procs.c: procedure
 * names, allocation sites, the program's main).  Internal to libdsm. */
#ifndef DSM_SYMBOLS_H
#define DSM_SYMBOLS_H

#include <elfutils/libdwfl.h>
#include <stdint.h>

/* The process's modules as libdwfl sees them, reported once at the first
 * call and kept until exit (later calls return the same handle); NULL when
 * libdwfl cannot read the process (then every lookup gives no names). */
Dwfl *dsm_symbols_self(void);

/* Where the code at addr is.  Strings belong to libdwfl or the dynamic
 * loader (valid while the process runs); NULL when unknown. */
typedef struct dsm_code_location {
    const char *function; /* libdw's name, else dladdr's */
    const char *file;     /* the source file's base name */
    int line;             /* 0 when unknown */
} dsm_code_location;

/* addr is the code address itself: for a return address pass the address
 * of the call (ip - 1). */
void dsm_symbols_lookup(uintptr_t addr, dsm_code_location *out);

#endif
