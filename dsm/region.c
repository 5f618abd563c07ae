/* region.c - maps a node's memory twice (see region.h).  A memfd keeps the
 * memory private to the node: other nodes see its data only in messages. */
#define _GNU_SOURCE 1 /* memfd_create, REG_ERR */
#include "region.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "access.h"
#include "proto.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

int dsm_region_map(dsm_region *r, uintptr_t addr, size_t size, size_t block_size, int node)
{
    memset(r, 0, sizeof *r);
    r->fd = -1;
    char name[64];
    snprintf(name, sizeof name, "dsm-node-%d", node);
    int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "dsm: node %d: dsm_init: memfd_create: %s\n", node, strerror(errno));
        return -1;
    }
    if (ftruncate(fd, (off_t)size) < 0) {
        fprintf(stderr, "dsm: node %d: dsm_init: cannot size the region to %zu bytes: %s\n", node,
                size, strerror(errno));
        close(fd);
        return -1;
    }
    int app_prot = dsm_blk_checked ? PROT_READ | PROT_WRITE : PROT_NONE;
    void *app = mmap((void *)addr, size, app_prot, MAP_SHARED | MAP_FIXED_NOREPLACE, fd, 0);
    if (app == MAP_FAILED || app != (void *)addr) {
        fprintf(stderr,
                "dsm: node %d: dsm_init: cannot map the shared region at %#lx (%zu bytes): %s; "
                "choose another DSM_REGION_ADDR\n",
                node, (unsigned long)addr, size, app == MAP_FAILED ? strerror(errno) : "address taken");
        if (app != MAP_FAILED)
            munmap(app, size);
        close(fd);
        return -1;
    }
    void *proto = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
    if (proto == MAP_FAILED) {
        fprintf(stderr, "dsm: node %d: dsm_init: cannot map the protocol view: %s\n", node,
                strerror(errno));
        munmap(app, size);
        close(fd);
        return -1;
    }
    r->app = app;
    r->proto = proto;
    r->size = size;
    r->block_size = block_size;
    r->block_shift = (unsigned)__builtin_ctzll(block_size);
    r->nblocks = (uint32_t)(size / block_size);
    r->fd = fd;
    if (dsm_blk_checked && dsm_blk_table_create(r)) {
        fprintf(stderr, "dsm: node %d: dsm_init: no memory for the block state table\n", node);
        dsm_region_unmap(r);
        return -1;
    }
    return 0;
}

void dsm_region_unmap(dsm_region *r)
{
    if (r->app)
        munmap(r->app, r->size);
    if (r->proto)
        munmap(r->proto, r->size);
    if (r->fd >= 0)
        close(r->fd);
    dsm_blk_table_destroy(r);
    free(r->committed);
    memset(r, 0, sizeof *r);
    r->fd = -1;
}

/* A node's copy of a block it never held is fresh memory, and the copy that
 * installs it would take a page fault per page: 12-18 us each on this
 * project's VM (a memcpy into fresh pages of a memfd), against 3.4 us a page
 * committed by MADV_POPULATE_WRITE, 1.6-1.8 us for a page already there
 * (doc/protocol.md, "Fresh pages").  So the first install of each block
 * commits it first; a block the node's program wrote first (its home) pays
 * one call that finds it present. */
void dsm_region_commit(dsm_region *r, uint32_t block)
{
    if (r->commit_unsupported || block >= r->nblocks)
        return;
    if (!r->committed) {
        r->committed = calloc(((size_t)r->nblocks + 63) / 64, sizeof *r->committed);
        if (!r->committed) {
            r->commit_unsupported = 1; /* the copy's faults do the same work */
            return;
        }
    }
    uint64_t bit = 1ull << (block & 63);
    if (r->committed[block >> 6] & bit)
        return;
    r->committed[block >> 6] |= bit;
    if (madvise(r->proto + ((size_t)block << r->block_shift), r->block_size, MADV_POPULATE_WRITE) &&
        (errno == EINVAL || errno == ENOSYS))
        r->commit_unsupported = 1; /* an older kernel: no such advice */
}

void dsm_region_note_writable(dsm_region *r, uint32_t first, uint32_t end)
{
    if (!r->writable_hi || first < r->writable_lo)
        r->writable_lo = first;
    if (end > r->writable_hi)
        r->writable_hi = end;
}

int dsm_region_protect(dsm_region *r, uint32_t block, int access)
{
    return dsm_region_protect_range(r, block, 1, access);
}

/* One mprotect for n contiguous blocks: on a VM a call that removes rights
 * pays a TLB shootdown the hypervisor traps (tens of us), once per call,
 * not per page. */
int dsm_region_protect_range(dsm_region *r, uint32_t first, uint32_t n, int access)
{
    if (access == PROTO_ACCESS_WRITE)
        dsm_region_note_writable(r, first, first + n);
    if (r->state) {
        for (uint32_t b = first; b < first + n; b++)
            dsm_blk_set(r, b, access);
        return 0;
    }
    int prot = access == PROTO_ACCESS_WRITE  ? PROT_READ | PROT_WRITE
               : access == PROTO_ACCESS_READ ? PROT_READ
                                             : PROT_NONE;
    if (mprotect(r->app + ((size_t)first << r->block_shift), (size_t)n << r->block_shift, prot))
        return -1;
    return r->window ? dsm_region_window_protect(r, first, n, prot) : 0;
}

int dsm_region_window_protect(dsm_region *r, uint32_t first, uint32_t n, int prot)
{
    if (!r->window)
        return 0;
    size_t s = (size_t)first << r->block_shift, e = s + ((size_t)n << r->block_shift);
    size_t ws = r->window_off, we = ws + r->window_len;
    if (e <= ws || s >= we)
        return 0;
    if (s < ws)
        s = ws;
    if (e > we)
        e = we;
    return mprotect(r->window + (s - ws), e - s, prot);
}
