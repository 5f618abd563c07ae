/* diff_unit.c - the write-epoch diff (dsm/prof/diff.c) against a byte-by-byte
 * reference on random blocks: unchanged, sparse, dense, all-changed, runs
 * across chunk and word boundaries, odd sizes, and more runs than the
 * profile keeps (the reduced ranges must cover every changed byte). */
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

static profile_range scratch[4096];

static void check_block(const unsigned char *a, const unsigned char *b, size_t n)
{
    static profile_range ref[1 << 16];
    size_t nref = ref_runs(a, b, n, ref);
    profile_ranges out;
    prof_diff(a, b, n, scratch, sizeof scratch / sizeof scratch[0], &out);
    ck_assert_uint_le(out.n, PROFILE_MAX_RANGES);
    if (nref <= PROFILE_MAX_RANGES) {
        ck_assert_uint_eq(out.n, nref);
        for (size_t k = 0; k < nref; k++) {
            ck_assert_uint_eq(out.r[k].lo, ref[k].lo);
            ck_assert_uint_eq(out.r[k].hi, ref[k].hi);
        }
        return;
    }
    /* reduced: sorted, disjoint, every changed byte covered, ends exact */
    ck_assert_uint_eq(out.n, PROFILE_MAX_RANGES);
    ck_assert_uint_eq(out.r[0].lo, ref[0].lo);
    ck_assert_uint_eq(out.r[out.n - 1].hi, ref[nref - 1].hi);
    for (size_t k = 1; k < out.n; k++)
        ck_assert_uint_lt(out.r[k - 1].hi, out.r[k].lo);
    size_t k = 0;
    for (size_t i = 0; i < nref; i++) {
        while (k < out.n && out.r[k].hi < ref[i].hi)
            k++;
        ck_assert_uint_lt(k, out.n);
        ck_assert_uint_le(out.r[k].lo, ref[i].lo);
    }
}

START_TEST(patterns)
{
    size_t sizes[] = { 4096, 8192, 65536, 100, 63, 1 };
    srand(12345);
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        unsigned char *a = malloc(n), *b = malloc(n);
        for (int kind = 0; kind < 7; kind++) {
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
                case 6: change = i % 8 == 0; break;                  /* many runs: reduced */
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

START_TEST(reduce_keeps_widest_gaps)
{
    profile_range r[5] = { { 0, 1 }, { 3, 4 }, { 20, 21 }, { 22, 23 }, { 40, 41 } };
    size_t n = 5;
    prof_runs_reduce(r, &n, 3);
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(r[0].lo, 0);
    ck_assert_uint_eq(r[0].hi, 4);
    ck_assert_uint_eq(r[1].lo, 20);
    ck_assert_uint_eq(r[1].hi, 23);
    ck_assert_uint_eq(r[2].lo, 40);
}
END_TEST

Suite *unit_suite(void)
{
    Suite *s = suite_create("prof_diff");
    TCase *tc = tcase_create("diff");
    tcase_add_test(tc, patterns);
    tcase_add_test(tc, reduce_keeps_widest_gaps);
    suite_add_tcase(s, tc);
    return s;
}
