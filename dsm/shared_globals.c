/* shared_globals.c - DSM_SHARED globals (dsm.h): the program's dsm_shared
 * section becomes a second window on the shared region.
 *
 * The section stays where the linker put it (code reaches the globals by
 * their link-time addresses), page-aligned and page-padded by the linker
 * script dsm_shared.ld that `pkg-config --libs dsm` and dsmcc add.  At
 * dsm_init the section's blocks are the first blocks of the collective
 * arena (every node runs the same program, so every node reserves the same
 * ones before any dsm_alloc), homed round robin over the nodes; the
 * section's initial values go into the region's memory, and the section's
 * pages are then mapped over with the same memory (MAP_SHARED, the region's
 * memfd).  region.c mirrors every protection change on the window and
 * fault.c translates a fault there to the block behind it, so the globals
 * are coherent exactly like dsm_alloc'd memory.
 *
 * The section is found in the program's section headers (/proc/self/exe):
 * no symbol of the program needs to be exported.  Without the linker
 * script the section shares pages with other data; that is refused at
 * dsm_init with the fix, never shared silently.  Block mode (dsmcc --dsm)
 * checks accesses only inside the region itself, so there the section is
 * refused too. */
#define _GNU_SOURCE 1
#include <config.h>

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "error.h"
#include "tasks.h"

static uintptr_t sec_start, sec_end;
static int sec_looked;

static int exe_base(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    *(uintptr_t *)arg = info->dlpi_addr;
    return 1;
}

static int read_at(int fd, void *buf, size_t n, off_t off)
{
    return pread(fd, buf, n, off) == (ssize_t)n ? 0 : -1;
}

/* The dsm_shared section of the program, from its section headers. */
static void find_section(void)
{
    if (sec_looked)
        return;
    sec_looked = 1;
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    ElfW(Ehdr) eh;
    ElfW(Shdr) *sh = NULL;
    char *names = NULL;
    if (read_at(fd, &eh, sizeof eh, 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
        eh.e_shentsize != sizeof(ElfW(Shdr)) || !eh.e_shnum || eh.e_shstrndx >= eh.e_shnum)
        goto out;
    sh = calloc(eh.e_shnum, sizeof *sh);
    if (!sh || read_at(fd, sh, (size_t)eh.e_shnum * sizeof *sh, (off_t)eh.e_shoff))
        goto out;
    const ElfW(Shdr) *ns = &sh[eh.e_shstrndx];
    names = malloc(ns->sh_size + 1);
    if (!names || read_at(fd, names, ns->sh_size, (off_t)ns->sh_offset))
        goto out;
    names[ns->sh_size] = 0;
    uintptr_t base = 0;
    dl_iterate_phdr(exe_base, &base);
    for (int i = 0; i < eh.e_shnum; i++)
        if (sh[i].sh_name < ns->sh_size && !strcmp(names + sh[i].sh_name, "dsm_shared") &&
            (sh[i].sh_flags & SHF_ALLOC) && sh[i].sh_size) {
            sec_start = base + sh[i].sh_addr;
            sec_end = sec_start + sh[i].sh_size;
        }
out:
    free(sh);
    free(names);
    close(fd);
}

void dsm_shared_globals_range(uintptr_t *start, uintptr_t *end)
{
    find_section();
    *start = sec_start;
    *end = sec_end;
}

int dsm_shared_globals_setup(dsm_rt *rt)
{
    find_section();
    if (sec_start == sec_end)
        return 0;
    size_t len = sec_end - sec_start;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (sec_start % page || len % page) {
        fprintf(stderr, "dsm: node %d: dsm_init: the DSM_SHARED globals (%zu bytes at %#lx) "
                        "share pages with other data: link with the flags of `pkg-config "
                        "--libs dsm` (its linker script dsm_shared.ld) or with dsmcc\n",
                rt->self, len, (unsigned long)sec_start);
        return -1;
    }
    if (rt->region.state) {
        fprintf(stderr, "dsm: node %d: dsm_init: DSM_SHARED globals need page mode: block mode "
                        "(dsmcc --dsm) checks accesses only inside the region; use dsm_alloc "
                        "for this data\n",
                rt->self);
        return -1;
    }
    size_t bs = rt->region.block_size;
    size_t span = (len + bs - 1) / bs * bs;
    if (rt->coll_next != 0 || span > rt->coll_end - rt->coll_next) {
        fprintf(stderr, "dsm: node %d: dsm_init: no room for the %zu bytes of DSM_SHARED globals "
                        "in the collective arena (raise DSM_REGION_SIZE)\n",
                rt->self, len);
        return -1;
    }
    size_t off = rt->coll_next;
    rt->coll_next += span;
    uint32_t first = (uint32_t)(off / bs), nb = (uint32_t)(span / bs);
    for (uint32_t i = 0; i < nb; i++)
        proto_set_home(rt->eng, first + i, 1, (int)(i % (uint32_t)rt->nnodes));
    /* the initial values, the same on every node: valid at every home */
    memcpy(rt->region.proto + off, (const void *)sec_start, len);
    void *w = mmap((void *)sec_start, len, PROT_NONE, MAP_SHARED | MAP_FIXED, rt->region.fd,
                   (off_t)off);
    if (w == MAP_FAILED) {
        fprintf(stderr, "dsm: node %d: dsm_init: cannot map the DSM_SHARED globals onto the "
                        "region: %s\n",
                rt->self, strerror(errno));
        return -1;
    }
    rt->region.window = (char *)sec_start;
    rt->region.window_off = off;
    rt->region.window_len = len;
    if (rt->prof)
        dsm_prof_alloc(rt, off, len, "DSM_SHARED globals", 1);
    return 0;
}
