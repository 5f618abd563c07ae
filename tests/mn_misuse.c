/* mn_misuse.c - deliberate misuse of the API, one kind per run (argv[1]);
 * tests/mn_errors.sh checks that each ends the whole job quickly with a
 * non-zero status and one clear line naming the node and the call. */
#include <errno.h>
#include <stdint.h>
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
    } else if (!strcmp(mode, "mismatch-finalize")) {
        if (me == 1)
            dsm_barrier(); /* node 0 goes on to dsm_finalize */
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
    } else if (!strcmp(mode, "alloc-max")) { /* rounding SIZE_MAX up wraps to 0 bytes */
        char *p = dsm_alloc(SIZE_MAX, "huge");
        char *q = dsm_alloc(64, "next");
        fprintf(stderr, "mn_misuse: dsm_alloc(SIZE_MAX) returned %p, the next one %p\n",
                (void *)p, (void *)q);
    } else if (!strcmp(mode, "alloc-max-page")) {
        dsm_alloc(SIZE_MAX - 4095, "huge");
    } else if (!strcmp(mode, "alloc-region")) { /* argv[2]: DSM_REGION_SIZE in bytes */
        dsm_alloc(strtoull(argc > 2 ? argv[2] : "0", NULL, 0) + 1, "huge");
    } else if (!strcmp(mode, "malloc-huge")) {
        /* not a misuse: NULL and ENOMEM, the job goes on (the run ends 0) */
        size_t sizes[] = { SIZE_MAX, SIZE_MAX - 4095, SIZE_MAX - 15,
                           (size_t)strtoull(argc > 2 ? argv[2] : "0", NULL, 0) + 1 };
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            errno = 0;
            void *p = dsm_malloc(sizes[i], "huge");
            if (p || errno != ENOMEM) {
                fprintf(stderr, "mn_misuse: dsm_malloc(%zu) returned %p, errno %d\n", sizes[i],
                        p, errno);
                return 1;
            }
        }
        long *ok = dsm_malloc(64, "small"); /* and a sane size still works */
        if (!ok)
            return 1;
        *ok = 42;
        dsm_free(ok);
        printf("mn_misuse: malloc-huge: NULL and ENOMEM for every size\n");
    } else if (!strcmp(mode, "lock-twice")) {
        if (me == 1) {
            dsm_lock(3);
            dsm_lock(3);
        }
    } else if (!strcmp(mode, "finalize-locked")) {
        /* node 0 leaves holding lock 2 while node 1 waits for it */
        if (me == 0)
            dsm_lock(2);
        dsm_barrier();
        if (me == 1)
            dsm_lock(2);
        dsm_finalize();
        return 0;
    } else if (!strcmp(mode, "store-after-finalize")) { /* to a block the node could write */
        size_t bs = dsm_block_size();
        char *p = dsm_alloc(bs * 2, "x");
        p[(size_t)me * bs] = 1;
        dsm_barrier();
        dsm_finalize();
        if (me == 1)
            p[bs] = 2;
        return 0;
    } else if (!strcmp(mode, "store-after-finalize-absent")) { /* to a block it never had */
        size_t bs = dsm_block_size();
        char *p = dsm_alloc(bs * 2, "x");
        if (me == 0)
            p[bs] = 1;
        dsm_barrier();
        dsm_finalize();
        if (me == 1)
            p[bs] = 2;
        return 0;
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
