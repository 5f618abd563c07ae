/* abi_collide.c - a user's program that happens to define functions with
 * the names of the runtime's internals.  The library exports only the API
 * of dsm.h (and the compiler hooks), so these must never replace its own:
 * if one is called, the runtime used the program's function.  Also checks
 * that dsm.h's version macros, dsm_version() and the package agree.
 * Run by tests/abi.sh. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsm.h"

static void interposed(const char *name)
{
    fprintf(stderr, "abi_collide: the runtime called the program's %s\n", name);
    exit(1);
}

/* Names the runtime uses internally on a one-node dsm_init/dsm_finalize. */
void *counters_create(void) { interposed("counters_create"); return NULL; }
void *proto_engine_create(void) { interposed("proto_engine_create"); return NULL; }
int dsm_config_load(void) { interposed("dsm_config_load"); return -1; }
int dsm_rt_start(void) { interposed("dsm_rt_start"); return -1; }
int dsm_region_map(void) { interposed("dsm_region_map"); return -1; }
int dsm_stats_init(void) { interposed("dsm_stats_init"); return -1; }
int dsm_prof_init(void) { interposed("dsm_prof_init"); return -1; }
void profile_write_json(void) { interposed("profile_write_json"); }
void advice_run(void) { interposed("advice_run"); }

int main(int argc, char **argv)
{
    setenv("DSM_PROFILE", "off", 1);
    if (strcmp(DSM_VERSION, PACKAGE_VERSION)) {
        fprintf(stderr, "abi_collide: dsm.h says %s, the package is %s\n", DSM_VERSION,
                PACKAGE_VERSION);
        return 1;
    }
    if (strcmp(dsm_version(), DSM_VERSION)) {
        fprintf(stderr, "abi_collide: dsm_version() is %s, dsm.h says %s\n", dsm_version(),
                DSM_VERSION);
        return 1;
    }
    char v[32];
    snprintf(v, sizeof v, "%d.%d.%d", DSM_VERSION_MAJOR, DSM_VERSION_MINOR, DSM_VERSION_PATCH);
    if (strcmp(v, DSM_VERSION) ||
        DSM_VERSION_NUMBER != DSM_VERSION_MAJOR * 10000 + DSM_VERSION_MINOR * 100 + DSM_VERSION_PATCH) {
        fprintf(stderr, "abi_collide: version macros disagree (%s vs %s)\n", v, DSM_VERSION);
        return 1;
    }
    if (dsm_init(&argc, &argv)) {
        fprintf(stderr, "abi_collide: dsm_init failed\n");
        return 1;
    }
    int *x = dsm_alloc(sizeof *x, "x");
    *x = 42;
    dsm_barrier();
    int ok = *x == 42;
    dsm_finalize();
    if (!ok)
        return 1;
    printf("abi_collide: OK (library %s)\n", dsm_version());
    return 0;
}
