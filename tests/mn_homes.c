/* mn_homes.c - where dsm_malloc memory is homed (DSM_MALLOC_HOMES) and what
 * a dsm_malloc that does not fit says.
 *
 *   mn_homes caller        node 0 allocates 4 * nodes blocks: every block
 *                          is homed at node 0 (the default policy)
 *   mn_homes round-robin   the same, run with DSM_MALLOC_HOMES=round-robin:
 *                          consecutive blocks have consecutive homes and
 *                          every node is home of nodes-th of them; the
 *                          other nodes read and write the data
 *   mn_homes full          node 0 allocates 1 MiB pieces until dsm_malloc
 *                          returns NULL (the arena is small: run with a
 *                          small DSM_REGION_SIZE); the line on stderr is
 *                          checked by the caller
 * Prints "mn_homes: MODE: OK" on node 0. */
#include <dsm.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv)) {
        perror("mn_homes: dsm_init");
        return 1;
    }
    const char *mode = argc > 1 ? argv[1] : "caller";
    int me = dsm_node(), n = dsm_nodes(), bad = 0;
    size_t bs = dsm_block_size();
    char **where = dsm_alloc(sizeof *where, "where");
    if (!strcmp(mode, "full")) {
        if (me == 0) {
            size_t got = 0;
            while (dsm_malloc(1 << 20, "piece"))
                got++;
            if (errno != ENOMEM)
                bad = 1;
            printf("mn_homes: full: %zu MiB before NULL%s\n", got, bad ? "" : ": OK");
        }
        dsm_barrier();
        dsm_finalize();
        return bad;
    }
    int spread = !strcmp(mode, "round-robin");
    size_t blocks = 4 * (size_t)n;
    if (me == 0) {
        char *p = dsm_malloc(blocks * bs + bs, "data");
        *where = p + bs - ((size_t)p % bs); /* block-aligned */
        memset(*where, 1, blocks * bs);
    }
    dsm_barrier();
    char *d = *where;
    int first = dsm_home_of(d);
    int *count = calloc((size_t)n, sizeof *count);
    for (size_t b = 0; b < blocks; b++) {
        int h = dsm_home_of(d + b * bs);
        count[h]++;
        int want = spread ? (first + (int)b) % n : 0;
        if (h != want) {
            fprintf(stderr, "mn_homes: node %d: %s: block %zu homed at node %d, expected %d\n", me,
                    mode, b, h, want);
            bad = 1;
        }
        d[b * bs + 1 + (size_t)me] += 1; /* every node writes every block */
    }
    dsm_barrier();
    for (size_t b = 0; b < blocks && me == 0; b++)
        for (int k = 0; k < n; k++)
            if (d[b * bs + 1 + (size_t)k] != 2) {
                fprintf(stderr, "mn_homes: block %zu byte %d is %d, expected 2\n", b, k,
                        d[b * bs + 1 + (size_t)k]);
                bad = 1;
            }
    if (me == 0 && !bad)
        printf("mn_homes: %s: %zu blocks homed at %d nodes as asked: OK\n", mode, blocks,
               spread ? n : 1);
    free(count);
    dsm_barrier();
    dsm_finalize();
    return bad;
}
