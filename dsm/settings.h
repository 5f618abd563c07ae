/* settings.h - the runtime's settings, read once from the environment and
 * checked, shared by the library and dsmrun so both agree on sizes.
 * A bad value gives a clear message naming the variable. */
#ifndef DSM_SETTINGS_H
#define DSM_SETTINGS_H

#include <stddef.h>
#include <stdint.h>

typedef struct dsm_config {
    size_t page_size;
    size_t block_size;       /* DSM_BLOCK_SIZE: power of two; page multiple in page mode */
    size_t region_size;      /* DSM_REGION_SIZE: bytes of shared address space */
    uintptr_t region_addr;   /* DSM_REGION_ADDR: same virtual address on every node */
    unsigned locks;          /* DSM_LOCKS: number of global locks */
    unsigned spin_us;        /* DSM_SPIN_US: spin before blocking, microseconds */
    unsigned hold_us;        /* DSM_HOLD_US: keep a fresh grant at least this long */
    int homes_cyclic;        /* DSM_HOMES=blocked|cyclic for dsm_alloc */
    int patterns;            /* DSM_PATTERNS=on|off: sharing-pattern detection */
    int counters;            /* DSM_COUNTERS=on|off: the Figure 3 counters (doc/metrics.md) */
    const char *stats_path;  /* DSM_STATS: node 0 writes the statistics there, or NULL */
    unsigned timeslice_ms;   /* DSM_TIMESLICE_MS: the profile's timeslice interval */
} dsm_config;

/* Fill cfg from the environment; 0, or -1 after printing which variable is
 * wrong (prefix names who complains, e.g. "dsmrun" or "dsm: node 3"). */
int dsm_config_load(dsm_config *cfg, const char *prefix);

/* Parse a size with optional K/M/G suffix; 0 or -1. */
int dsm_parse_size(const char *s, size_t *out);

#endif
