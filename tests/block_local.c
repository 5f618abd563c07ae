/* block_local.c - a one-node job in block mode grants its misses locally
 * (dsm/access.c local_grant): built only as the checked twin tests/blk_local
 * (tests/block.mk) and run by tests/block_local.sh.  Writes and reads back a
 * 1 MiB allocation at two places far apart in the region (so the blocks
 * made writable are not one contiguous span), adds up a second allocation
 * with memcpy and memset (the chunked copies' slow path), and with "late"
 * ("late-first") stores to the last (first) block it made writable after
 * dsm_finalize, which must still be named. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dsm.h"

#define N (1u << 20)

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (dsm_init(&argc, &argv))
        return 1;
    unsigned char *a = dsm_alloc(N, "a");
    unsigned char *gap = dsm_alloc(8u * N, "gap"); /* never touched */
    unsigned char *b = dsm_alloc(N, "b");
    (void)gap;
    for (uint32_t i = 0; i < N; i++)
        a[i] = (unsigned char)(i * 7);
    memcpy(b, a, N / 2);
    memset(b + N / 2, 3, N / 2);
    unsigned long sum = 0, want = 0;
    for (uint32_t i = 0; i < N; i++) {
        sum += a[i] + b[i];
        want += (unsigned char)(i * 7) + (i < N / 2 ? (unsigned char)(i * 7) : 3);
    }
    if (sum != want) {
        fprintf(stderr, "block_local: sum %lu, expected %lu\n", sum, want);
        return 1;
    }
    printf("block_local: nodes %d sum %lu OK\n", dsm_nodes(), sum);
    fflush(stdout);
    dsm_finalize();
    if (!strcmp(mode, "late"))
        b[N - 1] = 1; /* the last block made writable */
    if (!strcmp(mode, "late-first"))
        a[0] = 1; /* the first */
    return 0;
}
