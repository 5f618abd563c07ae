/* mn_misuse.c - deliberate misuse of the API, one kind per run (argv[1]);
 * tests/mn_errors.sh checks that each ends the whole job quickly with a
 * non-zero status and one clear line naming the node and the call. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsm.h"

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "before-init")) {
        dsm_barrier();
        return 0;
    }
    if (dsm_init(&argc, &argv))
        return 1;
    int me = dsm_node();
    if (!strcmp(mode, "mismatch-kind")) {
        if (me == 1)
            dsm_alloc(64, "x");
        else
            dsm_barrier();
    } else if (!strcmp(mode, "mismatch-size")) {
        dsm_alloc(me == 1 ? 128 : 64, "x");
    } else if (!strcmp(mode, "free-outside")) {
        static int local;
        if (me == 1)
            dsm_free(&local);
    } else if (!strcmp(mode, "free-bad")) {
        char *p = dsm_malloc(64, "p");
        if (me == 1)
            dsm_free(p + 8);
    } else if (!strcmp(mode, "lock-range")) {
        if (me == 1)
            dsm_lock(dsm_lock_count());
    } else if (!strcmp(mode, "unlock-unheld")) {
        if (me == 1)
            dsm_unlock(3);
    } else if (!strcmp(mode, "unallocated")) {
        char *p = dsm_alloc(16, "small");
        if (me == 1)
            p[dsm_block_size() * 4] = 1; /* past every allocation */
    } else if (!strcmp(mode, "no-finalize")) {
        dsm_barrier();
        if (me == 1)
            return 0; /* leaves without dsm_finalize */
    } else if (!strcmp(mode, "crash")) {
        dsm_barrier();
        if (me == 1)
            abort();
    } else if (strcmp(mode, "ok")) {
        fprintf(stderr, "mn_misuse: unknown mode '%s'\n", mode);
        return 2;
    }
    dsm_barrier();
    dsm_finalize();
    return 0;
}
