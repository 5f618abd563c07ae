/* diff.c - the diff of a write epoch (diff.h): fast on the
 * common case, an unchanged or sparsely written block, because the profile
 * runs it once per write epoch of every block. */
#include "diff.h"

#include <stdint.h>
#include <string.h>

/* The first offset >= i, in steps of 64 bytes, whose 64-byte chunk differs
 * between a and b, or the last chunk boundary before n.  Vector XOR/OR (SSE2,
 * the x86-64 baseline): an unchanged 4 KiB block is compared in ~60 ns. */
typedef unsigned long long prof_v2 __attribute__((vector_size(16), aligned(1)));
static size_t skip_equal_chunks(const unsigned char *a, const unsigned char *b, size_t i, size_t n)
{
    for (; i + 64 <= n; i += 64) {
        prof_v2 d = { 0, 0 };
        for (int k = 0; k < 64; k += 16) {
            prof_v2 x, y;
            memcpy(&x, a + i + k, 16);
            memcpy(&y, b + i + k, 16);
            d |= x ^ y;
        }
        if (d[0] | d[1])
            break;
    }
    return i;
}

/* Does the word have a zero byte? */
static inline int word_has_zero_byte(uint64_t d)
{
    return ((d - 0x0101010101010101ULL) & ~d & 0x8080808080808080ULL) != 0;
}

/* Byte ranges where cur differs from twin, into r (exact).  Unchanged
 * 64-byte chunks are skipped whole, words that are all equal or all
 * different are taken whole: this diff runs once per write epoch, and
 * comparing a word at a time was most of the profile's cost per miss. */
size_t prof_diff(const unsigned char *twin, const unsigned char *cur, size_t n, profile_range *r)
{
    size_t nr = 0, run = SIZE_MAX; /* start of the open run, or SIZE_MAX */
#define CLOSE_RUN(at)                                                   \
    do {                                                                \
        if (run != SIZE_MAX) {                                          \
            r[nr++] = (profile_range){ (uint32_t)run, (uint32_t)(at) }; \
            run = SIZE_MAX;                                             \
        }                                                               \
    } while (0)
    size_t i = 0;
    while (i < n) {
        size_t j = skip_equal_chunks(twin, cur, i, n);
        if (j > i) {
            CLOSE_RUN(i);
            i = j;
            if (i >= n)
                break;
        }
        size_t end = i + 64 <= n ? i + 64 : n;
        while (i < end) {
            if (i + 8 <= end) {
                uint64_t x, y;
                memcpy(&x, twin + i, 8);
                memcpy(&y, cur + i, 8);
                uint64_t d = x ^ y;
                if (!d) {
                    CLOSE_RUN(i);
                    i += 8;
                    continue;
                }
                if (!word_has_zero_byte(d)) {
                    if (run == SIZE_MAX)
                        run = i;
                    i += 8;
                    continue;
                }
            }
            size_t e = i + 8 <= end ? i + 8 : end;
            for (; i < e; i++) {
                if (twin[i] != cur[i]) {
                    if (run == SIZE_MAX)
                        run = i;
                } else {
                    CLOSE_RUN(i);
                }
            }
        }
    }
    CLOSE_RUN(n);
#undef CLOSE_RUN
    return nr;
}

