/* growable_unit.c - the growable array (protocol/growable.h): growth from
 * empty, doubling, a jump straight to a large need, contents kept across
 * growth, and the failures that must leave the array as it was: a need
 * whose byte size overflows size_t, a doubling that would overflow, and a
 * size no allocator can give. */
#include "check_main.h"
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "growable.h"

/* Sizes the compiler cannot see through: a constant absurd size is a
 * compile-time warning (-Walloc-size-larger-than), and -Werror is on. */
static volatile size_t size_max = SIZE_MAX;

START_TEST(grows_by_doubling)
{
    int *v = NULL;
    size_t cap = 0;
    ck_assert_int_eq(GROWABLE_RESERVE(v, cap, 0), 0); /* nothing needed: nothing allocated */
    ck_assert_ptr_null(v);
    ck_assert_uint_eq(cap, 0);
    ck_assert_int_eq(GROWABLE_RESERVE(v, cap, 1), 0);
    ck_assert_ptr_nonnull(v);
    ck_assert_uint_eq(cap, GROWABLE_FIRST);
    size_t n = 0, grew = 0, last = cap;
    for (int i = 0; i < 1000; i++) {
        ck_assert_int_eq(GROWABLE_RESERVE(v, cap, n + 1), 0);
        if (cap != last) {
            ck_assert_uint_eq(cap, 2 * last);
            last = cap;
            grew++;
        }
        v[n++] = i;
    }
    ck_assert_uint_eq(cap, 1024);
    ck_assert_uint_eq(grew, 7); /* 8 -> 1024 */
    for (int i = 0; i < 1000; i++)
        ck_assert_int_eq(v[i], i);
    ck_assert_int_eq(GROWABLE_RESERVE(v, cap, 1000), 0); /* enough already: unchanged */
    ck_assert_uint_eq(cap, 1024);
    ck_assert_int_eq(GROWABLE_RESERVE(v, cap, 5000), 0); /* past a doubling: jumps */
    ck_assert_uint_eq(cap, 8192);
    for (int i = 0; i < 1000; i++)
        ck_assert_int_eq(v[i], i);
    free(v);
}
END_TEST

START_TEST(overflow_refused)
{
    double *v = NULL;
    size_t cap = 0;
    ck_assert_int_eq(GROWABLE_RESERVE(v, cap, 4), 0);
    v[3] = 1.5;
    double *before = v;
    /* need * 8 bytes overflows size_t: refused, not wrapped to a small size */
    errno = 0;
    ck_assert_int_eq(GROWABLE_RESERVE(v, cap, size_max / 8 + 1), -1);
    ck_assert_int_eq(errno, ENOMEM);
    ck_assert_ptr_eq(v, before);
    ck_assert_uint_eq(cap, GROWABLE_FIRST);
    ck_assert(v[3] == 1.5);
    ck_assert_int_eq(GROWABLE_RESERVE(v, cap, size_max), -1);
    ck_assert_ptr_eq(v, before);
    free(v);
}
END_TEST

START_TEST(doubling_capped)
{
    /* a capacity past half of what fits: the next growth is capped at the
     * largest that fits instead of doubling into an overflow, and (no
     * allocator gives that much) fails leaving everything as it was */
    struct big {
        char b[1 << 20];
    } *v = NULL;
    size_t max = size_max / sizeof *v;
    size_t cap = max / 2 + 1; /* pretend: nothing is allocated yet */
    errno = 0;
    ck_assert_int_eq(GROWABLE_RESERVE(v, cap, max / 2 + 2), -1);
    ck_assert_int_eq(errno, ENOMEM);
    ck_assert_ptr_null(v);
    ck_assert_uint_eq(cap, max / 2 + 1);
}
END_TEST

START_TEST(out_of_memory)
{
    /* fits in size_t, but no machine has it */
    unsigned char *v = NULL;
    size_t cap = 0;
    ck_assert_int_eq(GROWABLE_RESERVE(v, cap, 16), 0);
    unsigned char *before = v;
    v[15] = 7;
    errno = 0;
    ck_assert_int_eq(GROWABLE_RESERVE(v, cap, size_max / 2), -1);
    ck_assert_int_eq(errno, ENOMEM);
    ck_assert_ptr_eq(v, before);
    ck_assert_uint_eq(cap, 16);
    ck_assert_uint_eq(v[15], 7);
    free(v);
}
END_TEST

Suite *unit_suite(void)
{
    Suite *s = suite_create("growable");
    TCase *tc = tcase_create("reserve");
    tcase_add_test(tc, grows_by_doubling);
    tcase_add_test(tc, overflow_refused);
    tcase_add_test(tc, doubling_capped);
    tcase_add_test(tc, out_of_memory);
    suite_add_tcase(s, tc);
    return s;
}
