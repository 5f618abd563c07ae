/* region.h - the shared region of one node: the node's own memory (a memfd,
 * never shared with other nodes) mapped twice: the application's view at the
 * same fixed address on every node, protected per block, and the protocol's
 * view, always writable, through which data is installed and sent. */
#ifndef DSM_REGION_H
#define DSM_REGION_H

#include <stddef.h>
#include <stdint.h>

typedef struct dsm_region {
    char *app;        /* application view (fixed address) */
    char *proto;      /* protocol view */
    size_t size;
    size_t block_size;
    unsigned block_shift;
    uint32_t nblocks;
    int fd;
    uint8_t *state;   /* block mode (access.h): the state table; NULL in page mode */
    /* DSM_SHARED globals (shared_globals.c): a second application view of
     * window_len bytes of the region from offset window_off, at window
     * (NULL: none); protections are mirrored on it */
    char *window;
    size_t window_off, window_len;
    /* blocks [writable_lo, writable_hi) hold every block ever made
     * writable (none while hi is 0): node.c forbid_stores walks only them */
    uint32_t writable_lo, writable_hi;
    /* blocks whose pages dsm_region_commit committed (a bit each; NULL until
     * the first), and 1 once the kernel refused (no MADV_POPULATE_WRITE) */
    uint64_t *committed;
    int commit_unsupported;
} dsm_region;

/* 0, or -1 after printing why (prefix names the node). */
/* In block mode (a checked program: dsm_blk_checked, access.h) the
 * application's view stays writable and access is kept in a state table
 * instead of page protections. */
int dsm_region_map(dsm_region *r, uintptr_t addr, size_t size, size_t block_size, int node);
void dsm_region_unmap(dsm_region *r);
/* Before the first copy into block's protocol view: commits its pages in one
 * call instead of a page fault per page of the copy (once per block; best
 * effort).  Called with the engine lock held. */
void dsm_region_commit(dsm_region *r, uint32_t block);
/* access: PROTO_ACCESS_NONE/READ/WRITE; 0 or -1 (errno from mprotect). */
int dsm_region_protect(dsm_region *r, uint32_t block, int access);
/* The same for the n blocks from first, in one call (page mode: one mprotect). */
int dsm_region_protect_range(dsm_region *r, uint32_t first, uint32_t n, int access);
/* Widens [writable_lo, writable_hi) to blocks [first, end); called with the
 * engine lock held (node.h eng_lock), as every protection change is. */
void dsm_region_note_writable(dsm_region *r, uint32_t first, uint32_t end);

/* The same protection on the window's part of blocks [first, first+n). */
int dsm_region_window_protect(dsm_region *r, uint32_t first, uint32_t n, int prot);

/* p in the window: the address of the same byte in the application view,
 * else NULL. */
static inline void *dsm_region_from_window(const dsm_region *r, const void *p)
{
    if (!r->window || (const char *)p < r->window || (const char *)p >= r->window + r->window_len)
        return NULL;
    return r->app + r->window_off + ((const char *)p - r->window);
}

static inline int dsm_region_contains(const dsm_region *r, const void *p)
{
    return (const char *)p >= r->app && (const char *)p < r->app + r->size;
}

static inline uint32_t dsm_region_block_of(const dsm_region *r, const void *p)
{
    return (uint32_t)(((const char *)p - r->app) >> r->block_shift);
}

#endif
