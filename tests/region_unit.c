/* region_unit.c - Check: dsm_region_commit (dsm/region.c) commits a block's
 * pages of a node's region before its first install, and only that block:
 * page-cache residency of the protocol view (mincore) before and after,
 * for a one-page and a two-page block size; a second commit of the same
 * block and a block past the region change nothing.  Without the commit the
 * pages stay absent (the check that can fail). */
#define _GNU_SOURCE 1
#include <check.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../dsm/region.h"
#include "check_main.h"

#define NBLOCKS 16

/* a free address for the application view */
static uintptr_t free_addr(size_t size)
{
    void *p = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ck_assert_ptr_ne(p, MAP_FAILED);
    munmap(p, size);
    return (uintptr_t)p;
}

/* how many pages of block b are resident in the protocol view */
static int resident(const dsm_region *r, uint32_t b)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t pages = r->block_size / (size_t)page;
    unsigned char v[16];
    ck_assert_uint_le(pages, sizeof v);
    ck_assert_int_eq(mincore(r->proto + ((size_t)b << r->block_shift), r->block_size, v), 0);
    int n = 0;
    for (size_t i = 0; i < pages; i++)
        n += v[i] & 1;
    return n;
}

static void commit_once(size_t block_size)
{
    dsm_region r;
    size_t size = NBLOCKS * block_size;
    ck_assert_int_eq(dsm_region_map(&r, free_addr(size), size, block_size, 0), 0);
    int pages = (int)(block_size / (size_t)sysconf(_SC_PAGESIZE));
    for (uint32_t b = 0; b < NBLOCKS; b++)
        ck_assert_int_eq(resident(&r, b), 0);
    dsm_region_commit(&r, 5);
    if (r.commit_unsupported) {
        dsm_region_unmap(&r);
        return; /* an older kernel: nothing to check */
    }
    ck_assert_int_eq(resident(&r, 5), pages);
    ck_assert_int_eq(resident(&r, 4), 0);
    ck_assert_int_eq(resident(&r, 6), 0);
    dsm_region_commit(&r, 5);
    dsm_region_commit(&r, NBLOCKS + 3); /* past the region: ignored */
    ck_assert_int_eq(resident(&r, 5), pages);
    for (uint32_t b = 6; b < NBLOCKS; b++)
        ck_assert_int_eq(resident(&r, b), 0);
    /* a copy into the committed block finds its pages there */
    r.proto[(5u << r.block_shift) + 7] = 42;
    ck_assert_int_eq(resident(&r, 5), pages);
    dsm_region_unmap(&r);
}

START_TEST(commit_one_page_blocks) { commit_once((size_t)sysconf(_SC_PAGESIZE)); }
END_TEST

START_TEST(commit_two_page_blocks) { commit_once(2 * (size_t)sysconf(_SC_PAGESIZE)); }
END_TEST

Suite *unit_suite(void)
{
    Suite *s = suite_create("region");
    TCase *tc = tcase_create("commit");
    tcase_add_test(tc, commit_one_page_blocks);
    tcase_add_test(tc, commit_two_page_blocks);
    suite_add_tcase(s, tc);
    return s;
}
