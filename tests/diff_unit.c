/* diff_unit.c - the write-epoch diff (dsm/prof/diff.c) against a byte-by-byte
 * reference on random blocks: unchanged, sparse, dense, all-changed, runs
 * across chunk and word boundaries, odd sizes, and every other byte changed
 * (the most runs a block can have): the runs must be the reference's,
 * exactly, however many there are.  And the exact byte sets (runs.c):
 * union and overlap never join disjoint runs. */
#include "check_main.h"
#include <stdlib.h>
#include <string.h>

#include "prof/diff.h"

/* reference: every maximal run of differing bytes */
static size_t ref_runs(const unsigned char *a, const unsigned char *b, size_t n, profile_range *r)
{
    size_t nr = 0;
    for (size_t i = 0; i < n;) {
        if (a[i] == b[i]) {
            i++;
            continue;
        }
        size_t s = i;
        while (i < n && a[i] != b[i])
            i++;
        r[nr++] = (profile_range){ (uint32_t)s, (uint32_t)i };
    }
    return nr;
}

static profile_range scratch[PROF_DIFF_MAX_RUNS(65536)];

static void check_block(const unsigned char *a, const unsigned char *b, size_t n)
{
    static profile_range ref[1 << 16];
    size_t nref = ref_runs(a, b, n, ref);
    size_t nout = prof_diff(a, b, n, scratch);
    ck_assert_uint_le(nout, PROF_DIFF_MAX_RUNS(n));
    ck_assert_uint_eq(nout, nref);
    for (size_t k = 0; k < nref; k++) {
        ck_assert_uint_eq(scratch[k].lo, ref[k].lo);
        ck_assert_uint_eq(scratch[k].hi, ref[k].hi);
    }
}

START_TEST(patterns)
{
    size_t sizes[] = { 4096, 8192, 65536, 100, 63, 1 };
    srand(12345);
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        unsigned char *a = malloc(n), *b = malloc(n);
        for (int kind = 0; kind < 8; kind++) {
            for (size_t i = 0; i < n; i++)
                a[i] = (unsigned char)rand();
            memcpy(b, a, n);
            for (size_t i = 0; i < n; i++) {
                int change = 0;
                switch (kind) {
                case 0: change = 0; break;                           /* unchanged */
                case 1: change = rand() % 997 == 0; break;           /* sparse bytes */
                case 2: change = (i / 8) % 64 == 7; break;           /* one word per 512 B */
                case 3: change = rand() % 3 == 0; break;             /* dense */
                case 4: change = 1; break;                           /* all */
                case 5: change = i % 64 >= 60 || i % 64 < 4; break;  /* runs across chunks */
                case 6: change = i % 8 == 0; break;                  /* many runs */
                case 7: change = i % 2 == 0; break;                  /* the most runs */
                }
                if (change)
                    b[i] = (unsigned char)(a[i] + 1 + rand() % 255);
            }
            check_block(a, b, n);
        }
        free(a);
        free(b);
    }
}
END_TEST

/* 17 interleaved fields: the union of one node's runs stays 17 runs and
 * never meets the other node's (the old 16-range summary merged them). */
START_TEST(runs_stay_exact)
{
    profile_runs a = { 0 }, b = { 0 };
    for (uint32_t k = 0; k < 17; k++) {
        ck_assert_int_eq(profile_runs_add(&a, 16 * k, 16 * k + 8), 0);
        ck_assert_int_eq(profile_runs_add(&b, 16 * k + 8, 16 * k + 16), 0);
    }
    ck_assert_uint_eq(a.n, 17);
    ck_assert_uint_eq(b.n, 17);
    ck_assert(!profile_runs_overlap(a.r, a.n, b.r, b.n));
    ck_assert_uint_eq(profile_runs_bytes(a.r, a.n), 17 * 8);
    /* adjacent and overlapping runs join, in any order */
    ck_assert_int_eq(profile_runs_add(&a, 8, 16), 0);
    ck_assert_uint_eq(a.n, 16);
    ck_assert_uint_eq(a.r[0].lo, 0);
    ck_assert_uint_eq(a.r[0].hi, 24);
    ck_assert(profile_runs_overlap(a.r, a.n, b.r, b.n));
    profile_runs_free(&a);
    profile_runs_free(&b);
}
END_TEST

Suite *unit_suite(void)
{
    Suite *s = suite_create("prof_diff");
    TCase *tc = tcase_create("diff");
    tcase_add_test(tc, patterns);
    tcase_add_test(tc, runs_stay_exact);
    suite_add_tcase(s, tc);
    return s;
}
