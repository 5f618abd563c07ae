/* aggregate.c - node 0 builds the data-centric profile from every node's
 * records (aggregate.h).  One function per step, in the order
 * profile_aggregate runs them:
 *   collect          the nodes' records into job-wide arrays, procedures by
 *                    name (file:line: the instruction with most misses)
 *   make_bins        one bin per name, per site + call path, "(unnamed)"
 *   map_blocks       block -> bin: allocations, then touched blocks
 *   block_metrics    counters, patterns and the listed blocks per bin
 *   add_causes       miss causes and the warm bit
 *   find_sharing     false- and true-sharing transfers between write epochs
 *                    (exact byte sets; a receiver's read of bytes written
 *                    since it last wrote makes a transfer true sharing)
 *   keep_fs_blocks   the most transferred falsely shared blocks per bin
 *   find_groups      blocks fetched together (Figure 2's groups) and the
 *                    gain of fetching each group in bulk
 *   attribute_code   procedures and (procedure, structure) pairs
 *   order_*          structures, procedures and pairs ranked
 *   merge_slices     the nodes' timeslices on one interval
 * Every allocation failure ends the build with "out of memory". */
#define _GNU_SOURCE 1 /* asprintf */
#include "aggregate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "growable.h"

/* block -> bin, in lazily allocated chunks of this many blocks */
#define BIN_SHIFT 12
#define BIN_CHUNK (1u << BIN_SHIFT)

typedef struct g_alloc {
    size_t off, len;
    int node;
    uint32_t seq;
    char *key;                 /* the bin's key: "N" name, or "S" path labels */
    char *name;                /* named: the name; site: label of the site frame */
    const profile_frame *site; /* kind "site": the allocation site (NULL: unknown) */
    char **path;               /* "function (file:line)", innermost first */
    size_t npath;
    const profile_type *type;  /* its element type (the records'), or NULL */
    int bin;
} g_alloc;

typedef struct g_cause {
    profile_rec_cause c;
    int node;
} g_cause;

typedef struct g_miss {
    int proc;
    uint32_t block;            /* then its bin, in attribute_code */
    profile_misses m;
} g_miss;

typedef struct fs_cand {
    uint32_t block;
    uint64_t transfers;
    profile_runs *writers;     /* [nnodes] */
} fs_cand;

typedef struct g_read {
    profile_rec_read r;
    int node;
} g_read;

typedef struct fs_list {
    fs_cand *v;
    size_t n, cap;
} fs_list;

typedef struct builder {
    const profile_job *job;
    const profile_stats *st;
    const profile_node_records *nodes;
    size_t bs;
    int nnodes;
    g_alloc *a;
    size_t na, capa, maxlen;
    g_cause *c;
    size_t nc, capc;
    profile_rec_epoch *e;
    size_t ne, cape;
    g_read *rd;
    size_t nrd, caprd;
    g_miss *m;
    size_t nm, capm;
    profile_input in;
    size_t capproc;
    uint64_t *proc_best;       /* misses of the file:line kept per procedure */
    size_t capbest;
    size_t nbins, unnamed;
    size_t *first_off;         /* [nbins]: where each structure starts */
    int32_t **bin_chunk;       /* block -> bin, lazily chunked; -1: none */
    uint32_t nchunks;
    int oom;                   /* a bin chunk could not be allocated */
} builder;

static char *dup_str(const char *s) { return strdup(s ? s : ""); }

/* qsort, also of an empty array that was never allocated */
static void sort(void *v, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n > 1)
        qsort(v, n, size, cmp);
}

/* ---- collect ---- */

static int proc_index(builder *b, const char *func)
{
    for (size_t i = 0; i < b->in.nprocedures; i++)
        if (!strcmp(b->in.procedures[i].name, func))
            return (int)i;
    size_t n = b->in.nprocedures;
    if (GROWABLE_RESERVE(b->in.procedures, b->capproc, n + 1) ||
        GROWABLE_RESERVE(b->proc_best, b->capbest, n + 1))
        return -1;
    profile_procedure *p = &b->in.procedures[n];
    memset(p, 0, sizeof *p);
    p->name = dup_str(func);
    p->file = dup_str("");
    if (!p->name || !p->file) {
        free(p->name);
        free(p->file);
        return -1;
    }
    b->proc_best[n] = 0;
    b->in.nprocedures++;
    return (int)n;
}

/* "function (file:line)", or "function" when the file is unknown. */
static char *frame_label(const profile_frame *f)
{
    char *r;
    const char *fn = f->function ? f->function : "", *file = f->file ? f->file : "";
    int n = *file ? asprintf(&r, "%s (%s:%u)", fn, file, (unsigned)f->line)
                  : asprintf(&r, "%s", fn);
    return n < 0 ? NULL : r;
}

static void g_alloc_free(g_alloc *a)
{
    free(a->key);
    free(a->name);
    for (size_t k = 0; k < a->npath; k++)
        free(a->path[k]);
    free(a->path);
}

/* An allocation with its bin key: by name, or by the labels of its path. */
static int collect_alloc(builder *b, const profile_rec_alloc *r, int node)
{
    g_alloc a;
    memset(&a, 0, sizeof a);
    a.off = (size_t)r->off;
    a.len = (size_t)r->len;
    a.seq = r->seq;
    a.node = node;
    a.type = r->type;
    if (r->name) {
        a.name = dup_str(r->name);
        if (!a.name || asprintf(&a.key, "N%s", a.name) < 0) {
            a.key = NULL;
            goto fail;
        }
    } else {
        a.path = calloc(r->npath ? r->npath : 1, sizeof *a.path);
        if (!a.path)
            goto fail;
        size_t klen = 2;
        for (uint32_t k = 0; k < r->npath; k++, a.npath++) {
            if (!(a.path[k] = frame_label(&r->path[k])))
                goto fail;
            klen += strlen(a.path[k]) + 3;
        }
        a.site = r->npath ? &r->path[0] : NULL;
        if (!(a.key = malloc(klen)))
            goto fail;
        strcpy(a.key, "S");
        for (size_t k = 0; k < a.npath; k++) {
            if (k)
                strcat(a.key, " < ");
            strcat(a.key, a.path[k]);
        }
        if (!(a.name = dup_str(a.npath ? a.path[0] : "(unknown site)")))
            goto fail;
    }
    if (GROWABLE_RESERVE(b->a, b->capa, b->na + 1))
        goto fail;
    if (a.len > b->maxlen)
        b->maxlen = a.len;
    b->a[b->na++] = a;
    return 0;
fail:
    g_alloc_free(&a);
    return -1;
}

/* The node's instructions join the job's procedures (by name); each
 * procedure's file:line is that of its instruction with most misses. */
static int collect_code(builder *b, const profile_node_records *r)
{
    int *proc = malloc((r->nips ? r->nips : 1) * sizeof *proc);
    uint64_t *misses = calloc(r->nips ? r->nips : 1, sizeof *misses);
    int rc = -1;
    if (!proc || !misses)
        goto out;
    for (size_t i = 0; i < r->nips; i++)
        if ((proc[i] = proc_index(b, r->ips[i].function ? r->ips[i].function : "")) < 0)
            goto out;
    for (size_t i = 0; i < r->nmisses; i++) {
        const profile_rec_miss *x = &r->misses[i];
        g_miss m = { proc[x->ip], x->block, { x->reads, x->writes, x->upgrades, x->wall } };
        misses[x->ip] += (uint64_t)x->reads + x->writes + x->upgrades;
        if (GROWABLE_RESERVE(b->m, b->capm, b->nm + 1))
            goto out;
        b->m[b->nm++] = m;
    }
    for (size_t i = 0; i < r->nips; i++) {
        profile_procedure *p = &b->in.procedures[proc[i]];
        if (misses[i] > b->proc_best[proc[i]] || !*p->file) {
            char *file = dup_str(r->ips[i].file);
            if (!file)
                goto out;
            b->proc_best[proc[i]] = misses[i];
            free(p->file);
            p->file = file;
            p->line = r->ips[i].line;
        }
    }
    rc = 0;
out:
    free(proc);
    free(misses);
    return rc;
}

static int collect(builder *b)
{
    for (int n = 0; n < b->nnodes; n++) {
        const profile_node_records *r = &b->nodes[n];
        for (size_t i = 0; i < r->nallocs; i++)
            if (collect_alloc(b, &r->allocs[i], n))
                return -1;
        for (size_t i = 0; i < r->ncauses; i++) {
            if (GROWABLE_RESERVE(b->c, b->capc, b->nc + 1))
                return -1;
            b->c[b->nc++] = (g_cause){ r->causes[i], n };
        }
        for (size_t i = 0; i < r->nepochs; i++) {
            if (GROWABLE_RESERVE(b->e, b->cape, b->ne + 1))
                return -1;
            b->e[b->ne++] = r->epochs[i]; /* its runs stay the records' */
        }
        for (size_t i = 0; i < r->nreads; i++) {
            if (GROWABLE_RESERVE(b->rd, b->caprd, b->nrd + 1))
                return -1;
            b->rd[b->nrd++] = (g_read){ r->reads[i], n };
        }
        if (collect_code(b, r))
            return -1;
        b->in.epochs_dropped += r->epochs_dropped;
        b->in.twins_skipped += r->twins_skipped;
        b->in.reads_dropped += r->reads_dropped;
        if (!r->symbolized)
            b->in.code_attribution = 0;
    }
    b->in.node_metrics = calloc((size_t)b->nnodes * CM_NMETRICS, sizeof *b->in.node_metrics);
    if (!b->in.node_metrics)
        return -1;
    for (int n = 0; n < b->nnodes; n++)
        for (int m = 0; b->st->node[n] && m < CM_NMETRICS; m++)
            b->in.node_metrics[(size_t)n * CM_NMETRICS + m] = counters_total(b->st->node[n], m);
    return 0;
}

/* ---- bins ---- */

static int cmp_alloc_key(const void *x, const void *y)
{
    const g_alloc *a = *(g_alloc *const *)x, *b = *(g_alloc *const *)y;
    int c = strcmp(a->key, b->key);
    if (c)
        return c;
    return (a->off > b->off) - (a->off < b->off);
}

/* A structure's name, kind and site from the first allocation of its bin. */
static int name_structure(profile_structure *s, const g_alloc *a)
{
    if (a->key[0] == 'N') {
        s->kind = "named";
        return (s->name = dup_str(a->name)) ? 0 : -1;
    }
    s->kind = "site";
    s->site_function = dup_str(a->site ? a->site->function : NULL);
    s->site_file = dup_str(a->site ? a->site->file : NULL);
    s->site_line = a->site ? a->site->line : 0;
    s->path = calloc(a->npath ? a->npath : 1, sizeof *s->path);
    s->name = dup_str(a->name);
    if (!s->site_function || !s->site_file || !s->path || !s->name)
        return -1;
    for (; s->npath < a->npath; s->npath++)
        if (!(s->path[s->npath] = dup_str(a->path[s->npath])))
            return -1;
    return 0;
}

/* The same site reached by different paths: distinct names. */
static int distinct_names(profile_input *in, size_t nbins)
{
    for (size_t i = 0; i < nbins; i++) {
        int dup = 0;
        for (size_t j = 0; j < i; j++)
            if (!strcmp(in->structures[j].name, in->structures[i].name))
                dup++;
        if (dup) {
            char *n;
            if (asprintf(&n, "%s [path %d]", in->structures[i].name, dup + 1) < 0)
                return -1;
            free(in->structures[i].name);
            in->structures[i].name = n;
        }
    }
    return 0;
}

/* The allocations in key order, each with its bin (one per distinct key;
 * "(unnamed)" comes after them), or NULL. */
static g_alloc **number_bins(builder *b)
{
    g_alloc **byk = malloc((b->na ? b->na : 1) * sizeof *byk);
    if (!byk)
        return NULL;
    for (size_t i = 0; i < b->na; i++)
        byk[i] = &b->a[i];
    sort(byk, b->na, sizeof *byk, cmp_alloc_key);
    size_t nbins = 0;
    for (size_t i = 0; i < b->na; i++) {
        if (i && !strcmp(byk[i]->key, byk[i - 1]->key))
            byk[i]->bin = byk[i - 1]->bin;
        else
            byk[i]->bin = (int)nbins++;
    }
    b->nbins = nbins + 1;
    b->unnamed = nbins;
    return byk;
}

/* Room for each structure's per-node counters, causes and written bytes. */
static int per_node_arrays(builder *b)
{
    size_t nn = (size_t)b->nnodes;
    for (size_t i = 0; i < b->nbins; i++) {
        profile_structure *s = &b->in.structures[i];
        s->per_node = calloc(nn * CM_NBLOCK_METRICS, sizeof *s->per_node);
        s->causes_per_node = calloc(nn, sizeof *s->causes_per_node);
        if (!s->per_node || !s->causes_per_node)
            return -1;
    }
    return 0;
}

static int make_bins(builder *b)
{
    profile_input *in = &b->in;
    g_alloc **byk = number_bins(b);
    if (!byk || !(in->structures = calloc(b->nbins, sizeof *in->structures))) {
        free(byk);
        return -1;
    }
    in->nstructures = b->nbins;
    int rc = 0;
    for (size_t i = 0; i < b->na && !rc; i++) {
        profile_structure *s = &in->structures[byk[i]->bin];
        s->bytes += byk[i]->len;
        s->allocations++;
        if (!s->name)
            rc = name_structure(s, byk[i]);
        /* the element type of its first allocation that has one */
        if (!rc && !s->has_type && byk[i]->type) {
            rc = profile_type_copy(&s->type, byk[i]->type);
            s->has_type = !rc;
        }
    }
    free(byk);
    if (rc || distinct_names(in, b->unnamed))
        return -1;
    profile_structure *u = &in->structures[b->unnamed];
    u->kind = "unnamed";
    if (!(u->name = dup_str("(unnamed)")))
        return -1;
    return per_node_arrays(b);
}

/* ---- block -> bin ---- */

static int cmp_alloc_off(const void *x, const void *y)
{
    const g_alloc *a = x, *b = y;
    if (a->off != b->off)
        return (a->off > b->off) - (a->off < b->off);
    if (a->node != b->node)
        return a->node - b->node;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

/* The bin of the allocation covering most of block (later allocations of a
 * reused range win ties), or -1.  The allocations are sorted by offset. */
static int bin_by_overlap(const builder *b, uint32_t block)
{
    size_t lo = (size_t)block * b->bs, hi = lo + b->bs;
    /* last allocation starting before hi */
    size_t l = 0, h = b->na;
    while (l < h) {
        size_t mid = (l + h) / 2;
        if (b->a[mid].off < hi)
            l = mid + 1;
        else
            h = mid;
    }
    int best = -1;
    size_t best_ov = 0;
    for (size_t i = l; i-- > 0;) {
        const g_alloc *a = &b->a[i];
        if (a->off + b->maxlen <= lo)
            break;
        size_t s = a->off > lo ? a->off : lo, e = a->off + a->len < hi ? a->off + a->len : hi;
        if (e > s && e - s >= best_ov) {
            if (e - s > best_ov || best < 0)
                best = a->bin;
            best_ov = e - s;
        }
    }
    return best;
}

/* The bin slot of block, allocating its chunk; NULL past the region (or
 * out of memory: b->oom). */
static int32_t *bin_slot(builder *b, uint32_t block)
{
    uint32_t ci = block >> BIN_SHIFT;
    if (ci >= b->nchunks)
        return NULL;
    if (!b->bin_chunk[ci]) {
        b->bin_chunk[ci] = malloc(BIN_CHUNK * sizeof(int32_t));
        if (!b->bin_chunk[ci]) {
            b->oom = 1;
            return NULL;
        }
        for (uint32_t k = 0; k < BIN_CHUNK; k++)
            b->bin_chunk[ci][k] = -1;
    }
    return &b->bin_chunk[ci][block & (BIN_CHUNK - 1)];
}

static int bin_of(const builder *b, uint32_t block)
{
    uint32_t ci = block >> BIN_SHIFT;
    if (ci >= b->nchunks || !b->bin_chunk[ci])
        return -1;
    return b->bin_chunk[ci][block & (BIN_CHUNK - 1)];
}

/* A touched block outside every allocation joins "(unnamed)". */
static void bin_touch(builder *b, uint32_t block)
{
    if (bin_of(b, block) >= 0)
        return;
    int32_t *s = bin_slot(b, block);
    if (s)
        *s = (int32_t)b->unnamed;
}

/* Did any node count anything in the chunk of block? */
static int any_touched_chunk(const builder *b, uint32_t block)
{
    for (int n = 0; n < b->nnodes; n++)
        if (b->st->node[n] && counters_chunk_used(b->st->node[n], block))
            return 1;
    return 0;
}

/* Blocks with a page fault, a miss, an epoch or an attributed miss, in no
 * allocation. */
static void bin_touched_blocks(builder *b)
{
    const profile_stats *st = b->st;
    for (uint32_t k = 0; k < st->nblocks; k++) {
        if (!any_touched_chunk(b, k)) {
            k |= COUNTERS_CHUNK - 1;
            continue;
        }
        for (int n = 0; n < b->nnodes; n++)
            if (st->node[n] && counters_get(st->node[n], CM_PAGE_FAULTS, k)) {
                bin_touch(b, k);
                break;
            }
    }
    for (size_t i = 0; i < b->nc; i++)
        bin_touch(b, b->c[i].c.block);
    for (size_t i = 0; i < b->ne; i++)
        bin_touch(b, b->e[i].block);
    for (size_t i = 0; i < b->nm; i++)
        if (b->m[i].block != PROFILE_NO_BLOCK)
            bin_touch(b, b->m[i].block);
}

static int map_blocks(builder *b)
{
    uint32_t nblocks = b->st->nblocks;
    sort(b->a, b->na, sizeof *b->a, cmp_alloc_off);
    b->nchunks = (nblocks + BIN_CHUNK - 1) / BIN_CHUNK;
    b->bin_chunk = calloc(b->nchunks ? b->nchunks : 1, sizeof *b->bin_chunk);
    b->first_off = malloc(b->nbins * sizeof *b->first_off);
    if (!b->bin_chunk || !b->first_off)
        return -1;
    for (size_t i = 0; i < b->nbins; i++)
        b->first_off[i] = SIZE_MAX;
    for (size_t i = 0; i < b->na; i++) {
        const g_alloc *a = &b->a[i];
        if (a->off < b->first_off[a->bin])
            b->first_off[a->bin] = a->off;
        uint32_t b0 = (uint32_t)(a->off / b->bs);
        uint32_t b1 = (uint32_t)((a->off + (a->len ? a->len : 1) - 1) / b->bs);
        for (uint32_t k = b0; k <= b1 && k < nblocks; k++) {
            int32_t *s = bin_slot(b, k);
            if (s && *s < 0)
                *s = bin_by_overlap(b, k);
        }
    }
    bin_touched_blocks(b);
    return b->oom ? -1 : 0;
}

/* ---- per block: counters and patterns ---- */

static int cmp_pat(const void *x, const void *y)
{
    uint32_t a = ((const profile_pattern *)x)->block, b = ((const profile_pattern *)y)->block;
    return (a > b) - (a < b);
}

static const profile_pattern *pattern_of(const profile_pattern *pat, size_t npat, uint32_t block)
{
    size_t lo = 0, hi = npat;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (pat[mid].block < block)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < npat && pat[lo].block == block ? &pat[lo] : NULL;
}

static uint64_t block_misses(const uint64_t *v)
{
    return v[CM_STACHE_READ_MISSES] + v[CM_HOME_READ_MISSES] + v[CM_STACHE_WRITE_RO] +
           v[CM_HOME_WRITE_RO] + v[CM_STACHE_WRITE_INV] + v[CM_HOME_WRITE_INV];
}

/* Blocks per bin, where "(unnamed)" starts, and room for the listed blocks. */
static int count_blocks(builder *b)
{
    profile_input *in = &b->in;
    size_t uo = SIZE_MAX; /* "(unnamed)" starts at its first block */
    for (uint32_t ci = 0; ci < b->nchunks; ci++) {
        if (!b->bin_chunk[ci])
            continue;
        for (uint32_t k = 0; k < BIN_CHUNK; k++) {
            int x = b->bin_chunk[ci][k];
            if (x < 0)
                continue;
            in->structures[x].nblocks++;
            if ((size_t)x == b->unnamed && uo == SIZE_MAX)
                uo = (size_t)(ci * BIN_CHUNK + k) * b->bs;
        }
    }
    b->first_off[b->unnamed] = uo == SIZE_MAX ? 0 : uo;
    for (size_t i = 0; i < b->nbins; i++) {
        profile_structure *s = &in->structures[i];
        if (s->nblocks <= PROFILE_BLOCKS_LIMIT &&
            !(s->blocks = calloc(s->nblocks ? s->nblocks : 1, sizeof *s->blocks)))
            return -1;
    }
    in->structures[b->unnamed].bytes = (uint64_t)in->structures[b->unnamed].nblocks * b->bs;
    return 0;
}

/* One block of bin x: its counters summed over nodes, its dominant pattern,
 * and its entry when the structure lists its blocks. */
static void add_block(builder *b, int x, uint32_t blk, const profile_pattern *pat, size_t npat)
{
    const profile_stats *st = b->st;
    profile_structure *s = &b->in.structures[x];
    uint64_t v[CM_NBLOCK_METRICS];
    memset(v, 0, sizeof v);
    for (int n = 0; n < b->nnodes; n++) {
        const counters *c = st->node[n];
        if (!c || !counters_chunk_used(c, blk))
            continue;
        for (int m = 0; m < CM_NBLOCK_METRICS; m++) {
            uint64_t y = counters_get(c, m, blk);
            v[m] += y;
            s->per_node[(size_t)n * CM_NBLOCK_METRICS + m] += y;
        }
    }
    for (int m = 0; m < CM_NBLOCK_METRICS; m++)
        s->metrics[m] += v[m];
    const profile_pattern *pr = pattern_of(pat, npat, blk);
    int dom = pr ? (int)proto_sharing_pattern(&pr->p) : PP_NONE;
    s->patterns[dom]++;
    s->pattern_misses[dom] += block_misses(v);
    if (!s->blocks)
        return;
    profile_block *pb = &s->blocks[s->nblocks_listed++];
    pb->index = blk;
    size_t bo = (size_t)blk * b->bs;
    pb->offset = bo >= b->first_off[x] ? bo - b->first_off[x] : 0;
    pb->misses = block_misses(v);
    pb->memory_block_time = v[CM_MEMORY_BLOCK_TIME];
    pb->invalidations = v[CM_INV_RO] + v[CM_INV_RW];
    pb->pattern = dom;
    pb->group_id = pr ? pr->p.group_id : -1;
    if (pr)
        memcpy(pb->detections, pr->p.detections, sizeof pb->detections);
}

static int block_metrics(builder *b)
{
    const profile_stats *st = b->st;
    profile_pattern *pat = malloc((st->npat ? st->npat : 1) * sizeof *pat);
    if (!pat)
        return -1;
    if (st->npat)
        memcpy(pat, st->pat, st->npat * sizeof *pat);
    sort(pat, st->npat, sizeof *pat, cmp_pat);
    int rc = count_blocks(b);
    for (uint32_t ci = 0; !rc && ci < b->nchunks; ci++) {
        if (!b->bin_chunk[ci])
            continue;
        for (uint32_t k = 0; k < BIN_CHUNK; k++)
            if (b->bin_chunk[ci][k] >= 0)
                add_block(b, b->bin_chunk[ci][k], ci * BIN_CHUNK + k, pat, st->npat);
    }
    free(pat);
    return rc;
}

/* ---- miss causes ---- */

static int cmp_cause(const void *x, const void *y)
{
    const profile_rec_cause *a = &((const g_cause *)x)->c, *b = &((const g_cause *)y)->c;
    if (a->block != b->block)
        return (a->block > b->block) - (a->block < b->block);
    return (a->first_ns > b->first_ns) - (a->first_ns < b->first_ns);
}

/* The listed block of index blk (listed blocks are in block order), or NULL. */
static profile_block *listed_block(profile_structure *s, uint32_t blk)
{
    if (!s->blocks)
        return NULL;
    size_t lo = 0, hi = s->nblocks_listed;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->blocks[mid].index < blk)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->nblocks_listed && s->blocks[lo].index == blk ? &s->blocks[lo] : NULL;
}

/* Every node's causes of every block; the warm bit: the earliest cold miss
 * of a block in the job is its first touch. */
static void add_causes(builder *b)
{
    sort(b->c, b->nc, sizeof *b->c, cmp_cause);
    uint32_t last_block = PROFILE_NO_BLOCK;
    for (size_t i = 0; i < b->nc; i++) {
        const profile_rec_cause *c = &b->c[i].c;
        int x = bin_of(b, c->block);
        if (x < 0)
            continue;
        profile_causes pc = { c->cold, 0, c->inval, c->upgrade, c->cold_wall, c->inval_wall,
                              c->upgrade_wall };
        if (c->cold && c->block != last_block) {
            pc.cold_first_touch = 1;
            last_block = c->block;
        }
        profile_structure *s = &b->in.structures[x];
        profile_causes_add(&s->causes, &pc);
        profile_causes_add(&s->causes_per_node[b->c[i].node], &pc);
        profile_block *pb = listed_block(s, c->block);
        if (pb)
            profile_causes_add(&pb->causes, &pc);
    }
}

/* ---- false sharing ---- */

static int cmp_epoch(const void *x, const void *y)
{
    const profile_rec_epoch *a = x, *b = y;
    if (a->block != b->block)
        return (a->block > b->block) - (a->block < b->block);
    return (a->t0 > b->t0) - (a->t0 < b->t0);
}

static int cmp_read(const void *x, const void *y)
{
    const profile_rec_read *a = &((const g_read *)x)->r, *b = &((const g_read *)y)->r;
    if (a->block != b->block)
        return (a->block > b->block) - (a->block < b->block);
    return (a->t > b->t) - (a->t < b->t);
}

/* A false-sharing transfer between two epochs: the bytes each wrote, on
 * the block (exact). */
static int record_fs(builder *b, profile_structure *s, fs_cand *fc, const profile_rec_epoch *prev,
                     const profile_rec_epoch *e)
{
    s->fs_transfers++;
    fc->transfers++;
    if (!fc->writers && !(fc->writers = calloc((size_t)b->nnodes, sizeof *fc->writers)))
        return -1;
    if (profile_runs_add_all(&fc->writers[prev->node], prev->w, prev->nw) ||
        profile_runs_add_all(&fc->writers[e->node], e->w, e->nw))
        return -1;
    return 0;
}

/* Epochs looked back at for the bytes a receiver had not seen. */
#define FRESH_LOOKBACK 64

/* The bytes other nodes wrote since node `node`'s previous epoch of the
 * block (at most FRESH_LOOKBACK epochs back), epochs e[0..k) in time order:
 * what the receiver of a transfer may not have seen yet. */
static int fresh_bytes(const profile_rec_epoch *e, size_t k, int node, profile_runs *out)
{
    out->n = 0;
    for (size_t j = k, seen = 0; j-- > 0 && seen < FRESH_LOOKBACK; seen++) {
        if (e[j].node == node)
            break;
        if (profile_runs_add_all(out, e[j].w, e[j].nw))
            return -1;
    }
    return 0;
}

/* Did node read, in a miss that completed in (t0, t1], a byte of fresh?
 * rd[0..n) are the block's reads in time order. */
static int read_fresh(const g_read *rd, size_t n, int node, uint64_t t0, uint64_t t1,
                      const profile_runs *fresh)
{
    for (size_t i = 0; i < n && rd[i].r.t <= t1; i++) {
        if (rd[i].node != node || rd[i].r.t <= t0)
            continue;
        profile_range x = { rd[i].r.lo, rd[i].r.hi };
        if (profile_runs_overlap(&x, 1, fresh->r, fresh->n))
            return 1;
    }
    return 0;
}

/* The epochs e[0..n) of one block, in time order, and its reads rd[0..nrd):
 * consecutive epochs of different nodes are a transfer.  It is true
 * sharing when their written bytes overlap, or when the receiver read, in
 * a miss after the previous epoch ended and before its own ended, a byte
 * other nodes wrote since it last wrote (communication: padding would not
 * save the miss); otherwise false sharing. */
static int block_sharing(builder *b, const profile_rec_epoch *e, size_t n, const g_read *rd,
                         size_t nrd, fs_list *cand)
{
    uint32_t blk = e[0].block;
    int x = bin_of(b, blk);
    if (x < 0)
        return 0;
    profile_structure *s = &b->in.structures[x];
    fs_cand fc = { blk, 0, NULL };
    profile_runs fresh = { 0, 0, NULL };
    const profile_rec_epoch *prev = NULL;
    int rc = 0;
    for (size_t k = 0; k < n && !rc; k++) {
        if (!e[k].nw)
            continue; /* wrote nothing that changed: no evidence either way */
        if (prev && prev->node != e[k].node) {
            int same_bytes = profile_runs_overlap(prev->w, prev->nw, e[k].w, e[k].nw);
            int used = 0;
            if (!same_bytes) {
                if (fresh_bytes(e, k, e[k].node, &fresh)) {
                    rc = -1;
                    break;
                }
                used = read_fresh(rd, nrd, e[k].node, prev->t1, e[k].t1, &fresh);
            }
            if (same_bytes || used)
                s->ts_transfers++;
            else
                rc = record_fs(b, s, &fc, prev, &e[k]);
        }
        prev = &e[k];
    }
    profile_runs_free(&fresh);
    if (!rc && fc.transfers) {
        fs_list *l = &cand[x];
        if (GROWABLE_RESERVE(l->v, l->cap, l->n + 1))
            rc = -1;
        else {
            l->v[l->n++] = fc;
            fc.writers = NULL;
            profile_block *pb = listed_block(s, blk);
            if (pb)
                pb->fs_transfers = fc.transfers;
        }
    }
    if (fc.writers) {
        for (int k = 0; k < b->nnodes; k++)
            profile_runs_free(&fc.writers[k]);
        free(fc.writers);
    }
    return rc;
}

static void free_writers(profile_runs *w, int nnodes)
{
    for (int k = 0; w && k < nnodes; k++)
        profile_runs_free(&w[k]);
    free(w);
}

static int cmp_fs_cand(const void *x, const void *y)
{
    const fs_cand *a = x, *b = y;
    if (a->transfers != b->transfers)
        return a->transfers < b->transfers ? 1 : -1;
    return (a->block > b->block) - (a->block < b->block);
}

/* A structure lists its PROFILE_FS_BLOCKS most transferred falsely shared
 * blocks; the candidates' memory is taken or freed. */
static int keep_fs_blocks(builder *b, size_t x, fs_list *l)
{
    profile_structure *s = &b->in.structures[x];
    sort(l->v, l->n, sizeof *l->v, cmp_fs_cand);
    size_t keep = l->n < PROFILE_FS_BLOCKS ? l->n : PROFILE_FS_BLOCKS;
    if (keep && !(s->fs_blocks = calloc(keep, sizeof *s->fs_blocks)))
        return -1;
    for (size_t q = 0; q < keep; q++) {
        profile_fs_block *fb = &s->fs_blocks[q];
        fb->index = l->v[q].block;
        size_t bo = (size_t)fb->index * b->bs;
        fb->offset = bo >= b->first_off[x] ? bo - b->first_off[x] : 0;
        fb->transfers = l->v[q].transfers;
        fb->writers = l->v[q].writers;
        l->v[q].writers = NULL;
    }
    s->nfs_blocks = keep;
    return 0;
}

static int find_sharing(builder *b)
{
    sort(b->e, b->ne, sizeof *b->e, cmp_epoch);
    fs_list *cand = calloc(b->nbins, sizeof *cand);
    if (!cand)
        return -1;
    int rc = 0;
    sort(b->rd, b->nrd, sizeof *b->rd, cmp_read);
    size_t r0 = 0;
    for (size_t i = 0, j; !rc && i < b->ne; i = j) {
        uint32_t blk = b->e[i].block;
        for (j = i; j < b->ne && b->e[j].block == blk; j++)
            ;
        while (r0 < b->nrd && b->rd[r0].r.block < blk)
            r0++;
        size_t r1 = r0;
        while (r1 < b->nrd && b->rd[r1].r.block == blk)
            r1++;
        rc = block_sharing(b, &b->e[i], j - i, b->rd + r0, r1 - r0, cand);
        r0 = r1;
    }
    for (size_t x = 0; x < b->nbins; x++) {
        if (!rc)
            rc = keep_fs_blocks(b, x, &cand[x]);
        for (size_t q = 0; q < cand[x].n; q++)
            free_writers(cand[x].v[q].writers, b->nnodes);
        free(cand[x].v);
    }
    free(cand);
    return rc;
}

/* ---- groups: blocks fetched together ---- */

typedef struct g_member {
    int32_t group;
    uint32_t block;
    uint32_t together;         /* requests that followed its guess */
} g_member;

static int cmp_member(const void *x, const void *y)
{
    const g_member *a = x, *b = y;
    if (a->group != b->group)
        return (a->group > b->group) - (a->group < b->group);
    return (a->block > b->block) - (a->block < b->block);
}

static int cmp_group(const void *x, const void *y)
{
    const profile_group *a = x, *b = y;
    if (a->gain != b->gain)
        return a->gain < b->gain ? 1 : -1;
    if (a->fetched_together != b->fetched_together)
        return a->fetched_together < b->fetched_together ? 1 : -1;
    return (a->id > b->id) - (a->id < b->id);
}

/* The mean time of a miss on block over every node (0: none). */
static uint64_t block_miss_time(const builder *b, uint32_t blk)
{
    uint64_t v[CM_NBLOCK_METRICS] = { 0 };
    for (int n = 0; n < b->nnodes; n++) {
        const counters *c = b->st->node[n];
        if (!c || !counters_chunk_used(c, blk))
            continue;
        for (int m = 0; m < CM_NBLOCK_METRICS; m++)
            v[m] += counters_get(c, m, blk);
    }
    uint64_t nm = block_misses(v);
    return nm ? v[CM_MEMORY_BLOCK_TIME] / nm : 0;
}

/* One group from its members m[0..n) (block order): its runs of
 * consecutive blocks of one structure, what a bulk fetch would save, and
 * its marks on its structures and listed blocks. */
static int make_group(builder *b, const g_member *m, size_t n, profile_group *g)
{
    memset(g, 0, sizeof *g);
    g->id = m[0].group;
    g->blocks = (uint32_t)n;
    size_t cap = 0;
    int last_x = -1, listed = 0;
    uint32_t next_block = 0;
    for (size_t i = 0; i < n; i++) {
        g->fetched_together += m[i].together;
        g->gain += (uint64_t)m[i].together * block_miss_time(b, m[i].block);
        int x = bin_of(b, m[i].block);
        if (x < 0)
            continue;
        profile_structure *s = &b->in.structures[x];
        s->group_blocks++;
        int known = 0;
        for (size_t k = 0; k < s->ngroup_ids; k++)
            known |= s->group_ids[k] == g->id;
        if (!known && s->ngroup_ids < PROFILE_STRUCT_GROUPS)
            s->group_ids[s->ngroup_ids++] = g->id;
        profile_block *pb = listed_block(s, m[i].block);
        if (pb)
            pb->in_group = 1;
        if (x == last_x && m[i].block == next_block) { /* the run goes on */
            if (listed)
                g->runs[g->nruns - 1].blocks++;
            next_block++;
            continue;
        }
        g->nruns_total++;
        last_x = x;
        next_block = m[i].block + 1;
        listed = g->nruns < PROFILE_GROUP_RUNS;
        if (!listed)
            continue;
        if (GROWABLE_RESERVE(g->runs, cap, g->nruns + 1))
            return -1;
        size_t bo = (size_t)m[i].block * b->bs;
        g->runs[g->nruns++] = (profile_group_run){
            (size_t)x, bo >= b->first_off[x] ? bo - b->first_off[x] : 0, m[i].block, 1 };
    }
    return 0;
}

/* Figure 2's groups as sets of blocks: the blocks whose home last put them
 * under one group id, two or more of them, at least one fetched right
 * after its guess.  Listed by the time a bulk fetch would save. */
static int find_groups(builder *b)
{
    const profile_stats *st = b->st;
    g_member *m = malloc((st->npat ? st->npat : 1) * sizeof *m);
    if (!m)
        return -1;
    size_t nm = 0;
    for (size_t i = 0; i < st->npat; i++)
        if (st->pat[i].p.group_id >= 0)
            m[nm++] = (g_member){ st->pat[i].p.group_id, st->pat[i].block,
                                  st->pat[i].p.detections[PP_GROUP] };
    sort(m, nm, sizeof *m, cmp_member);
    profile_input *in = &b->in;
    size_t cap = 0;
    int rc = 0;
    for (size_t i = 0, j; !rc && i < nm; i = j) {
        uint64_t together = 0;
        for (j = i; j < nm && m[j].group == m[i].group; j++)
            together += m[j].together;
        if (j - i < 2 || !together)
            continue;
        if (GROWABLE_RESERVE(in->groups, cap, in->ngroups + 1)) {
            rc = -1;
            break;
        }
        rc = make_group(b, &m[i], j - i, &in->groups[in->ngroups]);
        in->ngroups++;
    }
    free(m);
    if (rc)
        return -1;
    sort(in->groups, in->ngroups, sizeof *in->groups, cmp_group);
    in->ngroups_total = in->ngroups;
    while (in->ngroups > PROFILE_GROUPS_LISTED)
        free(in->groups[--in->ngroups].runs);
    return 0;
}

/* ---- procedures and (procedure, structure) pairs ---- */

static int cmp_pair_key(const void *x, const void *y)
{
    const g_miss *a = x, *b = y;
    if (a->proc != b->proc)
        return a->proc - b->proc;
    return (a->block > b->block) - (a->block < b->block);
}

static void misses_add(profile_misses *d, const profile_misses *s)
{
    d->read_misses += s->read_misses;
    d->write_misses += s->write_misses;
    d->upgrades += s->upgrades;
    d->wall += s->wall;
}

static int attribute_code(builder *b)
{
    profile_input *in = &b->in;
    for (size_t i = 0; i < b->nm; i++)
        misses_add(&in->procedures[b->m[i].proc].m, &b->m[i].m);
    /* block -> bin, so pairs group by (procedure, bin); no bin is NO_BLOCK too */
    for (size_t i = 0; i < b->nm; i++)
        if (b->m[i].block != PROFILE_NO_BLOCK)
            b->m[i].block = (uint32_t)bin_of(b, b->m[i].block);
    sort(b->m, b->nm, sizeof *b->m, cmp_pair_key);
    size_t cap = 0;
    for (size_t i = 0; i < b->nm; i++) {
        const g_miss *m = &b->m[i];
        if (m->block == PROFILE_NO_BLOCK)
            continue;
        profile_pair *last = in->npairs ? &in->pairs[in->npairs - 1] : NULL;
        if (last && last->procedure == (size_t)m->proc && last->structure == m->block) {
            misses_add(&last->m, &m->m);
            continue;
        }
        if (GROWABLE_RESERVE(in->pairs, cap, in->npairs + 1))
            return -1;
        in->pairs[in->npairs++] = (profile_pair){ (size_t)m->proc, m->block, m->m };
    }
    return 0;
}

/* ---- orders ---- */

static int cmp_structure(const void *x, const void *y)
{
    const profile_structure *a = *(const profile_structure *const *)x,
                            *b = *(const profile_structure *const *)y;
    uint64_t ta = a->metrics[CM_MEMORY_BLOCK_TIME], tb = b->metrics[CM_MEMORY_BLOCK_TIME];
    if (ta != tb)
        return ta < tb ? 1 : -1;
    uint64_t ma = block_misses(a->metrics), mb = block_misses(b->metrics);
    if (ma != mb)
        return ma < mb ? 1 : -1;
    return strcmp(a->name, b->name);
}

/* By wall time, then by misses, largest first. */
static int cmp_misses(const profile_misses *a, const profile_misses *b)
{
    if (a->wall != b->wall)
        return a->wall < b->wall ? 1 : -1;
    uint64_t ma = a->read_misses + a->write_misses + a->upgrades,
             mb = b->read_misses + b->write_misses + b->upgrades;
    return (ma < mb) - (ma > mb);
}

static int cmp_pair(const void *x, const void *y)
{
    return cmp_misses(&((const profile_pair *)x)->m, &((const profile_pair *)y)->m);
}

typedef struct proc_at {
    profile_procedure p;
    size_t old;                /* its index before the sort */
} proc_at;

static int cmp_proc_at(const void *x, const void *y)
{
    return cmp_misses(&((const proc_at *)x)->p.m, &((const proc_at *)y)->p.m);
}

/* Drop "(unnamed)" (at index u) when nothing fell in it. */
static void drop_structure(profile_input *in, size_t u)
{
    profile_structure gone = in->structures[u];
    memmove(&in->structures[u], &in->structures[u + 1],
            (in->nstructures - u - 1) * sizeof *in->structures);
    in->nstructures--;
    for (size_t i = 0; i < in->npairs; i++)
        if (in->pairs[i].structure > u)
            in->pairs[i].structure--;
    for (size_t i = 0; i < in->ngroups; i++)
        for (size_t k = 0; k < in->groups[i].nruns; k++)
            if (in->groups[i].runs[k].structure > u)
                in->groups[i].runs[k].structure--;
    for (size_t k = 0; k < gone.nfs_blocks; k++)
        free_writers(gone.fs_blocks[k].writers, in->nnodes);
    free(gone.name);
    profile_type_free(&gone.type);
    free(gone.per_node);
    free(gone.causes_per_node);
    free(gone.fs_blocks);
    free(gone.blocks);
}

/* Structures by memory blocking time (then misses, then name). */
static int order_structures(builder *b)
{
    profile_input *in = &b->in;
    size_t n = b->nbins;
    const profile_structure **by = malloc(n * sizeof *by);
    size_t *inv = malloc(n * sizeof *inv);
    profile_structure *sorted = malloc(n * sizeof *sorted);
    if (!by || !inv || !sorted) {
        free(by);
        free(inv);
        free(sorted);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        by[i] = &in->structures[i];
    sort(by, n, sizeof *by, cmp_structure);
    for (size_t i = 0; i < n; i++) {
        size_t old = (size_t)(by[i] - in->structures);
        sorted[i] = *by[i];
        inv[old] = i;
    }
    free(in->structures);
    in->structures = sorted;
    for (size_t i = 0; i < in->npairs; i++)
        in->pairs[i].structure = inv[in->pairs[i].structure];
    for (size_t i = 0; i < in->ngroups; i++)
        for (size_t k = 0; k < in->groups[i].nruns; k++)
            in->groups[i].runs[k].structure = inv[in->groups[i].runs[k].structure];
    if (!in->structures[inv[b->unnamed]].nblocks) {
        drop_structure(in, inv[b->unnamed]);
        b->unnamed = SIZE_MAX;
    }
    free(by);
    free(inv);
    return 0;
}

/* Procedures and pairs by wall time (then misses). */
static int order_code(builder *b)
{
    profile_input *in = &b->in;
    size_t n = in->nprocedures;
    proc_at *ps = malloc((n ? n : 1) * sizeof *ps);
    size_t *inv = malloc((n ? n : 1) * sizeof *inv);
    if (!ps || !inv) {
        free(ps);
        free(inv);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        ps[i] = (proc_at){ in->procedures[i], i };
    sort(ps, n, sizeof *ps, cmp_proc_at);
    for (size_t i = 0; i < n; i++) {
        in->procedures[i] = ps[i].p;
        inv[ps[i].old] = i;
    }
    for (size_t i = 0; i < in->npairs; i++)
        in->pairs[i].procedure = inv[in->pairs[i].procedure];
    free(ps);
    free(inv);
    sort(in->pairs, in->npairs, sizeof *in->pairs, cmp_pair);
    return 0;
}

/* ---- timeslices ---- */

static uint64_t ceil_div(uint64_t x, uint64_t d) { return x / d + (x % d != 0); }

/* The nodes' timeslices on the coarsest interval any node ended with (each
 * is the base interval times a power of two, so slices merge exactly), up to
 * the end of the job. */
static int merge_slices(builder *b)
{
    uint64_t iv = 0;
    int nn = b->nnodes;
    for (int n = 0; n < nn; n++)
        if (b->nodes[n].slice_ns > iv)
            iv = b->nodes[n].slice_ns;
    if (!iv)
        return 0;
    size_t ns = (size_t)ceil_div(b->job->end_ns, iv);
    for (int n = 0; n < nn; n++) {
        const profile_node_records *r = &b->nodes[n];
        /* nslices * slice_ns fits (records.c checks): slice i lands below k */
        size_t k = r->slice_ns ? (size_t)ceil_div(r->nslices * r->slice_ns, iv) : 0;
        if (k > ns)
            ns = k;
    }
    b->in.slice_seconds = (double)iv / 1e9;
    b->in.nslices = ns;
    b->in.slices = calloc((ns ? ns : 1) * (size_t)nn, sizeof *b->in.slices);
    if (!b->in.slices)
        return -1;
    for (int n = 0; n < nn; n++) {
        const profile_node_records *r = &b->nodes[n];
        for (size_t i = 0; r->slice_ns && i < r->nslices; i++) {
            profile_slice *d =
                &b->in.slices[(size_t)(i * r->slice_ns / iv) * (size_t)nn + (size_t)n];
            d->misses += r->slices[i].misses;
            d->memory_block_time += r->slices[i].wall;
            d->barrier_wait += r->slices[i].barrier;
        }
    }
    return 0;
}

/* ---- the build ---- */

static void builder_free(builder *b)
{
    for (size_t i = 0; i < b->na; i++)
        g_alloc_free(&b->a[i]);
    free(b->a);
    free(b->c);
    free(b->e);
    free(b->rd);
    free(b->m);
    free(b->proc_best);
    free(b->first_off);
    for (uint32_t i = 0; b->bin_chunk && i < b->nchunks; i++)
        free(b->bin_chunk[i]);
    free(b->bin_chunk);
}

int profile_aggregate(const profile_job *job, const profile_stats *st,
                      const profile_node_records *nodes, profile_input *out, char *err,
                      size_t errlen)
{
    builder b;
    memset(&b, 0, sizeof b);
    b.job = job;
    b.st = st;
    b.nodes = nodes;
    b.bs = job->block_size;
    b.nnodes = job->nnodes;
    b.in.nnodes = job->nnodes;
    b.in.block_size = job->block_size;
    b.in.wall_seconds = job->wall_seconds;
    b.in.counters_on = st->counters_on;
    b.in.patterns_on = st->patterns_on;
    b.in.code_attribution = 1;
    memset(out, 0, sizeof *out);
    if (job->nnodes < 1 || !job->block_size) {
        snprintf(err, errlen, "bad job: %d nodes, blocks of %zu bytes", job->nnodes,
                 job->block_size);
        return -1;
    }
    int rc = collect(&b);
    if (!rc)
        rc = make_bins(&b);
    if (!rc)
        rc = map_blocks(&b);
    if (!rc)
        rc = block_metrics(&b);
    if (!rc) {
        add_causes(&b);
        rc = find_sharing(&b);
    }
    if (!rc)
        rc = find_groups(&b);
    if (!rc)
        rc = attribute_code(&b);
    if (!rc)
        rc = order_structures(&b);
    if (!rc)
        rc = order_code(&b);
    if (!rc)
        rc = merge_slices(&b);
    builder_free(&b);
    if (rc) {
        profile_input_free(&b.in);
        snprintf(err, errlen, "out of memory building the profile");
        return -1;
    }
    *out = b.in;
    return 0;
}
