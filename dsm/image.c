/* image.c - the master's private state that a worker takes at dsm_create
 * (tasks.c): the program's writable data and bss, and its brk heap, at the
 * same addresses (aslr.c keeps the layout equal on every node).
 *
 * The data ranges come from the program's own program headers (its
 * writable PT_LOAD segments), less:
 *   - the RELRO pages, read-only once the loader relocated them;
 *   - the dsm_shared section (shared_globals.c: coherent, not shipped);
 *   - the targets of copy relocations: libc's variables that a program
 *     reaches directly (stdout, environ, optarg ...) live in the program's
 *     bss, but they are the node's own (environ points at this node's
 *     environment).
 * The heap is the master's brk heap from a fence to sbrk(0).  At
 * dsm_init_master the master takes every free piece of its main arena
 * below the fence (dsm_image_fence: the heap in use then, plus a margin),
 * so all it allocates afterwards lies above; a worker's own main-arena
 * objects (what it allocated before dsm_init_master, as node 0 did: libc's,
 * MPI's) lie below the fence and are never overwritten.  A worker extends
 * its brk to the master's end and takes the bytes; its runtime's
 * allocations are in thread arenas (tasks.c), and should its main arena
 * grow, glibc finds the brk moved and starts past the image.
 *
 * On the wire: one RT_TASK_IMAGE per block-size piece with data, and one
 * with no payload per run of zero pieces (arg1 = its length), so a large
 * bss or a heap of zeros costs few messages.
 *
 * A node that runs tasks already (as far as the master knows: their ends
 * have not reached it) gets only the pieces that changed on the master
 * since it was last sent the image (a hash per piece and node tells), so
 * a task started beside running ones sees what the master wrote and
 * allocated since (its argument, typically) while the running tasks keep
 * their own writes to the other pieces. */
#define _GNU_SOURCE 1
#include <config.h>

#include <elf.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "tasks.h"

#define MAX_RANGES 64
/* Room above the master's heap in use at dsm_init_master for what the
 * other nodes allocated before theirs beyond node 0 (rank-specific data of
 * MPI, the helper thread's TLS vector): their heaps must end below the
 * fence. */
#define FENCE_MARGIN ((uintptr_t)1 << 20)

typedef struct range {
    uintptr_t start, end;
} range;

static range ranges[MAX_RANGES];
static int nranges;
static pthread_once_t ranges_once = PTHREAD_ONCE_INIT;
static uintptr_t heap_lo, heap_hi; /* a worker: the heap being installed */

/* Remove [s, e) from the ranges. */
static void cut(uintptr_t s, uintptr_t e)
{
    if (s >= e)
        return;
    for (int i = 0; i < nranges; i++) {
        range r = ranges[i];
        if (e <= r.start || s >= r.end)
            continue;
        if (s > r.start && e < r.end) { /* a hole: split */
            if (nranges == MAX_RANGES)
                dsm_fatal("dsm_init_master", "the program's data has too many pieces");
            ranges[i].end = s;
            ranges[nranges++] = (range){ e, r.end };
            continue;
        }
        if (s <= r.start)
            ranges[i].start = e < r.end ? e : r.end;
        if (e >= r.end)
            ranges[i].end = s > r.start ? s : r.start;
    }
}

static uintptr_t dyn_ptr(uintptr_t v, uintptr_t base) { return v < base ? v + base : v; }

/* libc's variables copied into the program (R_X86_64_COPY and its likes):
 * their symbol sizes from the dynamic symbol table. */
static void cut_copy_relocs(const ElfW(Dyn) *dyn, uintptr_t base)
{
    uintptr_t rela = 0, symtab = 0;
    size_t relasz = 0, relaent = sizeof(ElfW(Rela)), syment = sizeof(ElfW(Sym));
    for (const ElfW(Dyn) *d = dyn; d->d_tag != DT_NULL; d++)
        switch (d->d_tag) {
        case DT_RELA: rela = dyn_ptr(d->d_un.d_ptr, base); break;
        case DT_RELASZ: relasz = d->d_un.d_val; break;
        case DT_RELAENT: relaent = d->d_un.d_val; break;
        case DT_SYMTAB: symtab = dyn_ptr(d->d_un.d_ptr, base); break;
        case DT_SYMENT: syment = d->d_un.d_val; break;
        }
    if (!rela || !symtab || !relaent)
        return;
#if defined(__x86_64__)
    const unsigned copy_type = R_X86_64_COPY;
#elif defined(__aarch64__)
    const unsigned copy_type = R_AARCH64_COPY;
#else
    const unsigned copy_type = 5; /* R_*_COPY on most targets */
#endif
    for (size_t off = 0; off + relaent <= relasz; off += relaent) {
        const ElfW(Rela) *r = (const ElfW(Rela) *)(rela + off);
        if (ELF64_R_TYPE(r->r_info) != copy_type)
            continue;
        const ElfW(Sym) *s = (const ElfW(Sym) *)(symtab + ELF64_R_SYM(r->r_info) * syment);
        uintptr_t at = base + r->r_offset;
        cut(at, at + (s->st_size ? s->st_size : sizeof(void *)));
    }
}

static int find_ranges(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size, (void)arg;
    uintptr_t base = info->dlpi_addr;
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t relro_s = 0, relro_e = 0;
    const ElfW(Dyn) *dyn = NULL;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        if (p->p_type == PT_LOAD && (p->p_flags & PF_W) && nranges < MAX_RANGES)
            ranges[nranges++] = (range){ base + p->p_vaddr, base + p->p_vaddr + p->p_memsz };
        else if (p->p_type == PT_GNU_RELRO) {
            /* the loader protects whole pages from the start down */
            relro_s = (base + p->p_vaddr) & ~(uintptr_t)(page - 1);
            relro_e = (base + p->p_vaddr + p->p_memsz) & ~(uintptr_t)(page - 1);
        } else if (p->p_type == PT_DYNAMIC)
            dyn = (const ElfW(Dyn) *)(base + p->p_vaddr);
    }
    cut(relro_s, relro_e);
    if (dyn)
        cut_copy_relocs(dyn, base);
    return 1; /* the first object is the program */
}

static int by_start(const void *a, const void *b)
{
    uintptr_t x = ((const range *)a)->start, y = ((const range *)b)->start;
    return x < y ? -1 : x > y;
}

static void ranges_init(void)
{
    dl_iterate_phdr(find_ranges, NULL);
    uintptr_t s, e;
    dsm_shared_globals_range(&s, &e);
    cut(s, e);
    /* ascending, as the pieces' hashes are kept (below) */
    qsort(ranges, (size_t)nranges, sizeof *ranges, by_start);
}

static uintptr_t start_brk(void)
{
    /* field 47 of /proc/self/stat (Linux >= 3.5) */
    FILE *f = fopen("/proc/self/stat", "r");
    if (!f)
        return 0;
    char buf[2048];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')');
    if (!p)
        return 0;
    p++;
    int field = 2;
    char *save = NULL;
    for (char *t = strtok_r(p, " ", &save); t; t = strtok_r(NULL, " ", &save))
        if (++field == 47)
            return (uintptr_t)strtoull(t, NULL, 10);
    return 0;
}

/* The master: where the shipped heap starts (dsm_image_fence). */
static uintptr_t fence;

void dsm_image_heap(uintptr_t *start, uintptr_t *end)
{
    *end = (uintptr_t)sbrk(0);
    *start = fence && fence <= *end ? fence : *end;
}

/* Probes kept while the fence is built (freed at its end). */
static void keep_probe(void ***v, size_t *n, size_t *cap, void *p)
{
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 64;
        void **nv = realloc(*v, c * sizeof *nv);
        if (!nv) {
            free(p); /* a probe the fence cannot keep is only given back */
            return;
        }
        *v = nv;
        *cap = c;
    }
    (*v)[(*n)++] = p;
}

uintptr_t dsm_image_fence(uintptr_t below)
{
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t top = (uintptr_t)sbrk(0);
    uintptr_t w = (below > top ? below : top) + FENCE_MARGIN;
    w = (w + (uintptr_t)page - 1) & ~(uintptr_t)(page - 1);
    void **probes = NULL;
    size_t n = 0, cap = 0;
    /* every free piece of the main arena below w is taken (and kept: a few
     * hundred KiB at most), the largest first; a probe at or above w means
     * none is left of that size, and the top of the heap is past w */
    for (size_t s = (size_t)1 << 20; s >= 16; s /= 2)
        for (;;) {
            void *p = malloc(s);
            if (!p)
                break;
            if ((uintptr_t)p >= w) {
                keep_probe(&probes, &n, &cap, p);
                break;
            }
        }
    for (size_t i = 0; i < n; i++)
        free(probes[i]);
    free(probes);
    fence = w;
    return w;
}

static int all_zero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return 0;
    return 1;
}

/* What each node was last sent: the hash of every piece, in address order,
 * so that a node running tasks gets only the pieces that changed. */
typedef struct piece_hash {
    uintptr_t addr;
    uint64_t hash;
} piece_hash;

typedef struct sent_log {
    piece_hash *v;
    size_t n, cap;
    size_t cursor; /* the walk through the previous log */
} sent_log;

static sent_log *sent;  /* per node (dsm_image_send runs under tasks.c's create lock) */
static int nsent;

static uint64_t piece_hash_of(const unsigned char *p, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    for (; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* Did the piece at addr change since the log (old) was taken? */
static int changed_since(sent_log *old, uintptr_t addr, uint64_t hash)
{
    while (old->cursor < old->n && old->v[old->cursor].addr < addr)
        old->cursor++;
    return old->cursor >= old->n || old->v[old->cursor].addr != addr ||
           old->v[old->cursor].hash != hash;
}

static void log_piece(sent_log *l, uintptr_t addr, uint64_t hash)
{
    if (l->n == l->cap) {
        size_t c = l->cap ? 2 * l->cap : 1024;
        piece_hash *v = realloc(l->v, c * sizeof *v);
        if (!v)
            dsm_fatal("dsm_create", "out of memory for the image's piece log");
        l->v = v;
        l->cap = c;
    }
    l->v[l->n++] = (piece_hash){ addr, hash };
}

static void send_zeros(dsm_rt *rt, int dst, uintptr_t at, size_t n)
{
    if (!n)
        return;
    dsm_msg_hdr h = { 0 };
    h.type = RT_TASK_IMAGE;
    h.arg[0] = at;
    h.arg[1] = n;
    dsm_rt_send(rt, dst, &h);
}

static void send_range(dsm_rt *rt, int dst, uintptr_t s, uintptr_t e, int full, sent_log *old,
                       sent_log *now)
{
    size_t piece = rt->region.block_size;
    uintptr_t zero_at = s;
    size_t zeros = 0;
    for (uintptr_t a = s; a < e; a += piece) {
        size_t n = e - a < piece ? e - a : piece;
        uint64_t hash = piece_hash_of((const unsigned char *)a, n);
        log_piece(now, a, hash);
        if (!full && !changed_since(old, a, hash)) {
            send_zeros(rt, dst, zero_at, zeros);
            zeros = 0;
            continue;
        }
        if (all_zero((const unsigned char *)a, n)) {
            if (!zeros)
                zero_at = a;
            zeros += n;
            continue;
        }
        send_zeros(rt, dst, zero_at, zeros);
        zeros = 0;
        dsm_msg_hdr h = { 0 };
        h.type = RT_TASK_IMAGE;
        h.arg[0] = a;
        dsm_rt_send_data(rt, dst, &h, (const void *)a, (uint32_t)n);
    }
    send_zeros(rt, dst, zero_at, zeros);
}

void dsm_image_send(dsm_rt *rt, int dst, int full, uintptr_t hs, uintptr_t he)
{
    pthread_once(&ranges_once, ranges_init);
    if (!sent) {
        sent = calloc((size_t)rt->nnodes, sizeof *sent);
        if (!sent)
            dsm_fatal("dsm_create", "out of memory for the image's piece logs");
        nsent = rt->nnodes;
    }
    sent_log old = sent[dst], now = { 0 };
    old.cursor = 0;
    for (int i = 0; i < nranges; i++)
        send_range(rt, dst, ranges[i].start, ranges[i].end, full, &old, &now);
    send_range(rt, dst, hs, he, full, &old, &now);
    free(old.v);
    sent[dst] = now;
}

int dsm_image_prepare(uintptr_t hs, uintptr_t he, char *why, size_t whylen)
{
    pthread_once(&ranges_once, ranges_init);
    uintptr_t mine = start_brk();
    uintptr_t cur = (uintptr_t)sbrk(0);
    /* this node's own heap (what it allocated before dsm_init_master) must
     * end below the master's fence: the image starts there */
    if (hs != he && (mine > hs || (cur > hs && cur != heap_hi))) {
        snprintf(why, whylen, "its own heap [%#lx, %#lx) reaches the master's image at %#lx "
                              "(address randomisation on? see DSM_ASLR in dsm(3); or more was "
                              "allocated before dsm_init_master here than on node 0)",
                 (unsigned long)mine, (unsigned long)cur, (unsigned long)hs);
        return -1;
    }
    if (he > cur && brk((void *)he)) {
        snprintf(why, whylen, "cannot extend the heap to %#lx: %s", (unsigned long)he,
                 strerror(errno));
        return -1;
    }
    heap_lo = hs;
    heap_hi = he;
    return 0;
}

int dsm_image_install(uintptr_t addr, const void *data, size_t len)
{
    uintptr_t end = addr + len;
    int ok = end >= addr && addr >= heap_lo && end <= heap_hi;
    for (int i = 0; !ok && i < nranges; i++)
        ok = end >= addr && addr >= ranges[i].start && end <= ranges[i].end;
    if (!ok)
        return -1;
    if (data)
        memcpy((void *)addr, data, len);
    else
        memset((void *)addr, 0, len);
    return 0;
}

/* For tasks.c's check that the runtime is not itself part of the image
 * (a program linked with the internal archive instead of libdsm.so). */
int dsm_image_holds(const void *p)
{
    pthread_once(&ranges_once, ranges_init);
    uintptr_t a = (uintptr_t)p;
    for (int i = 0; i < nranges; i++)
        if (a >= ranges[i].start && a < ranges[i].end)
            return 1;
    return 0;
}
