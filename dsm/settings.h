/* settings.h - the runtime's settings.  One table (settings_table.c) names
 * every DSM_* environment variable: its kind, range, default, the field of
 * dsm_config it fills, whether every node must agree on it, and one line of
 * documentation.  The library (dsm_init, the simulated machines) and dsmrun
 * load the settings through dsm_config_load; tests/settings_doc prints the
 * documentation's tables from the same table (tests/settings_doc.sh checks
 * them); dsm_init compares the settings that must agree across the nodes
 * (sync.c, COLL_INIT).  A bad value gives one line naming the variable, the
 * value and what is accepted. */
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
    unsigned spin_us;        /* DSM_SPIN_US: spin before blocking, microseconds, or
                                DSM_SET_AUTO_VALUE: chosen by the node (node.c) */
    unsigned hold_us;        /* DSM_HOLD_US: keep a fresh grant at least this long */
    int sigmask_always;      /* DSM_SIGMASK=auto|always (sig_gate.c) */
    int homes_cyclic;        /* DSM_HOMES=blocked|cyclic for dsm_alloc */
    int malloc_spread;       /* DSM_MALLOC_HOMES=caller|round-robin for dsm_malloc */
    int patterns;            /* DSM_PATTERNS=on|off: sharing-pattern detection */
    int adapt;               /* DSM_ADAPT=on|off: the adaptive protocol */
    unsigned prefetch;       /* DSM_PREFETCH: blocks a read miss fetches with DSM_ADAPT */
    int progress_move;       /* DSM_PROGRESS_MOVE=on|off: progress thread off a starved core */
    int job_sync;            /* DSM_JOB_SYNC=on|off: collectives and atomics in shared memory (jobsync.h) */
    int park_defer;          /* DSM_PARK_DEFER=on|off: send before protecting while parked (park.c) */
    int protect_batch;       /* DSM_PROTECT_BATCH=on|off: range mprotect calls (protect.c) */
    int counters;            /* DSM_COUNTERS=on|off: the Figure 3 counters (doc/metrics.md) */
    const char *stats_path;  /* DSM_STATS: node 0 writes the statistics there, or NULL */
    unsigned timeslice_ms;   /* DSM_TIMESLICE_MS: the profile's timeslice interval */
    const char *profile_path; /* DSM_PROFILE: node 0 writes the profile there; NULL when off */
    int profile_summary;     /* DSM_PROFILE_SUMMARY=on|off: the summary on stderr at exit */
    unsigned shm_slots;      /* DSM_SHM_SLOTS (dsmrun): 0 lets dsmrun choose by job size */
    int bind_mode;           /* DSM_BIND=auto|core|none (dsmrun): a share of the cores per node */
    const char *machine;     /* DSM_MACHINE: the simulated machine, or NULL */
    unsigned sim_procs;      /* DSM_SIM_PROCS: simulated processors */
    unsigned sim_quantum;    /* DSM_SIM_QUANTUM: references per scheduling quantum */
    size_t sim_stack;        /* DSM_SIM_STACK: stack of each simulated processor */
    const char *sim_profile; /* DSM_SIM_PROFILE: the simulation's statistics file; NULL when off */
    int stdin_mode;          /* DSM_STDIN=auto|copy|keep (stdin_copy.c) */
    int aslr_keep;           /* DSM_ASLR=off|keep (aslr.c) */
} dsm_config;

/* What a setting holds; it also says the C type of its dsm_config field. */
typedef enum dsm_setting_kind {
    DSM_SET_SIZE,     /* bytes, K/M/G/T suffix (size_t) */
    DSM_SET_ADDRESS,  /* a virtual address (uintptr_t) */
    DSM_SET_COUNT,    /* a number (unsigned) */
    DSM_SET_MICROS,   /* microseconds (unsigned) */
    DSM_SET_MILLIS,   /* milliseconds (unsigned) */
    DSM_SET_SWITCH,   /* on or off (int 1/0) */
    DSM_SET_WORDS,    /* one of the words (int: its index) */
    DSM_SET_PATH,     /* a file the run writes (const char *) */
    DSM_SET_TEXT,     /* free text read elsewhere (const char *) */
    DSM_SET_PERCENT,  /* a percentage, read elsewhere (profile/advice.c) */
    DSM_SET_INTERNAL, /* set by dsmrun for each node; not for users */
} dsm_setting_kind;

/* Flags of a setting. */
enum {
    DSM_SET_AGREE = 1 << 0,      /* must be the same on every node (checked at dsm_init) */
    DSM_SET_POW2 = 1 << 1,       /* a power of two */
    DSM_SET_PAGE_MODE = 1 << 2,  /* default the page size; below it only in block mode (dsmcc --dsm: dsm_init checks) */
    DSM_SET_MIN_BLOCK = 1 << 3,  /* at least one block (min is ignored) */
    DSM_SET_ALIGN_BLOCK = 1 << 4, /* a multiple of the block size */
    DSM_SET_OFF = 1 << 5,        /* a path: the word "off" turns it off */
    DSM_SET_NOLOAD = 1 << 6,     /* checked where it is read, not by dsm_config_load */
    DSM_SET_NODE0 = 1 << 7,      /* only node 0 uses the value (its file) */
    DSM_SET_AUTO = 1 << 8,       /* a number: the word "auto" too (DSM_SET_AUTO_VALUE) */
};

/* Who reads a setting: the groups of the documentation's tables. */
typedef enum dsm_setting_group {
    DSM_GROUP_RUNTIME,  /* the library, on every node */
    DSM_GROUP_OUTPUT,   /* statistics, profile, advice */
    DSM_GROUP_LAUNCH,   /* dsmrun and the transports */
    DSM_GROUP_SIM,      /* simulated machines (dsmrun --machine) */
    DSM_GROUP_INTERNAL, /* set by dsmrun for each node */
    DSM_NGROUPS
} dsm_setting_group;

#define DSM_SET_NOFIELD ((size_t)-1)
/* What "auto" stores in the field of a DSM_SET_AUTO number. */
#define DSM_SET_AUTO_VALUE 0xffffffffu

typedef struct dsm_setting {
    const char *name;        /* DSM_LOCKS */
    dsm_setting_kind kind;
    unsigned flags;
    uint64_t min, max;       /* accepted range (numbers, sizes, addresses) */
    const char *words;       /* DSM_SET_WORDS: "blocked|cyclic" */
    const char *dflt;        /* the default as a user would write it, parsed by the
                              * loader; NULL: no value (or a computed one: dflt_doc) */
    const char *dflt_doc;    /* the default in the documentation when dflt is NULL */
    const char *accepts_doc; /* what DSM_SET_TEXT accepts, for the documentation */
    size_t field;            /* offsetof(dsm_config, ...), or DSM_SET_NOFIELD */
    dsm_setting_group group;
    const char *doc;         /* one line; `code` is set in bold in the man page */
} dsm_setting;

/* The table (settings_table.c), in the order the loader reads it: a
 * setting's range may depend on one above it (the block size).  At most
 * DSM_SETTINGS_MAX rows (the comparison at dsm_init keeps one value per
 * row; tests/settings_unit checks it). */
extern const dsm_setting dsm_settings[];
extern const size_t dsm_nsettings;
#define DSM_SETTINGS_MAX 64

/* The entry named name, or NULL. */
const dsm_setting *dsm_setting_find(const char *name);

/* The raw value of a setting of the table (NULL when unset or empty); for
 * the parts that read a setting themselves (transports).  A name missing
 * from the table is a bug: it reads as unset, with a line on stderr. */
const char *dsm_setting_raw(const char *name);

/* Fill cfg from the environment; 0, or -1 after printing which variable is
 * wrong (prefix names who complains, e.g. "dsmrun" or "dsm: node 3"). */
int dsm_config_load(dsm_config *cfg, const char *prefix);

/* Can the files the run writes at node 0 be written (DSM_STATS,
 * DSM_PROFILE; DSM_SIM_PROFILE when sim is set)?  Checked where node 0
 * runs, before the run rather than after it; the files are not created.
 * 0, or -1 after a line naming the variable. */
int dsm_config_check_paths(const dsm_config *cfg, int sim, const char *prefix);

/* What the setting accepts, as the error messages and the documentation say
 * it ("a number from 1 to 1048576"); with cfg the computed bounds are
 * filled in (the page size), without it they are named; markup sets the
 * words in `code` (markdown). */
void dsm_setting_accepts(const dsm_setting *s, const dsm_config *cfg, int markup, char *buf,
                         size_t n);

/* ---- the settings that must agree on every node ---- */

/* A setting's value as compared across nodes (0 for a setting that need
 * not agree). */
uint64_t dsm_setting_agree_value(const dsm_setting *s, const dsm_config *cfg);

/* A fingerprint of every must-agree value: equal on two nodes when their
 * settings agree. */
uint64_t dsm_config_digest(const dsm_config *cfg);

/* The settings of cfg that differ from another node's values (theirs[i] is
 * the agree value of dsm_settings[i]; have[i] says it was received), as one
 * line: "DSM_LOCKS is 64 here but 1024 on node 0 (...)".  Returns how many
 * differ. */
int dsm_config_differences(const dsm_config *cfg, const uint64_t *theirs,
                           const unsigned char *have, int other_node, char *buf, size_t n);

/* Parse a size with optional K/M/G/T suffix; 0 or -1. */
int dsm_parse_size(const char *s, size_t *out);

#endif
