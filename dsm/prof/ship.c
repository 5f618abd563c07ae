/* ship.c - the profile at dsm_finalize (prof.h): every node symbolizes its
 * own code addresses with elfutils libdwfl (addresses differ between
 * processes: PIE and ASLR) and serializes what prof.c recorded in the
 * format of profile/records.h; dsm/stats.c's gather carries the bytes to
 * node 0, which decodes each node's records, hands them with the gathered
 * counters and patterns to profile/aggregate.c, writes the file through
 * profile/profile_write.c and prints the exit summary.  Node 0's part here
 * is only that adapter: the aggregation itself is pure code in profile/. */
#define _GNU_SOURCE 1
#include <json.h>

#include "advice.h"
#include "prof_state.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aggregate.h"
#include "elemtype.h"
#include "error.h"
#include "futex.h"
#include "node.h"
#include "stats.h"
#include "symbols.h"

/* ---- symbolization (every node, for its own addresses) ---- */

static char *xstrdup(const char *s)
{
    char *r = strdup(s ? s : "");
    if (!r)
        dsm_fatal("dsm_finalize", "out of memory writing the profile");
    return r;
}

/* is_return: a return address (look up the call, one byte before).
 * The lookup itself is dsm/symbols.c's, shared with the simulator. */
static profile_frame symbolize(uintptr_t ip, int is_return)
{
    profile_frame s = { NULL, NULL, 0 };
    char buf[64];
    if (!ip) {
        s.function = xstrdup("(unknown)");
        s.file = xstrdup("");
        return s;
    }
    dsm_code_location loc;
    dsm_symbols_lookup(ip - (is_return ? 1 : 0), &loc);
    const char *fn = loc.function;
    if (!fn) {
        snprintf(buf, sizeof buf, "0x%lx", (unsigned long)ip);
        fn = buf;
    }
    s.function = xstrdup(fn);
    s.file = xstrdup(loc.file ? loc.file : "");
    s.line = (uint32_t)loc.line;
    return s;
}

static void frame_free(profile_frame *s)
{
    free(s->function);
    free(s->file);
}

/* ---- serialization (every node) ---- */

static int cmp_ip(const void *x, const void *y)
{
    uintptr_t a = *(const uintptr_t *)x, b = *(const uintptr_t *)y;
    return (a > b) - (a < b);
}

/* Is the runtime linked into the program itself (no libdsm.so)? */
static int runtime_in_program(void)
{
    Dl_info di;
    char exe[4096], lib[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0 || !dladdr((void *)&dsm_prof_alloc, &di) || !di.dli_fname)
        return 0;
    exe[n] = '\0';
    if (!realpath(di.dli_fname, lib))
        return 0;
    return !strcmp(exe, lib);
}

/* The module holding the runtime's own code: [lo, hi) when found. */
typedef struct self_module {
    int found, static_link;
    Dwarf_Addr lo, hi;
} self_module;

/* The first frame of an allocation's call path that is the program's: the
 * runtime's own frames (dsm_alloc and below) are skipped, those in
 * libdsm's module or, when the runtime is linked into the program, those
 * named dsm_* (and backtrace itself, and a sanitizer's wrapper of it). */
static int first_program_frame(const prof_alloc *a, const self_module *m)
{
    int f = 0;
    while (f < a->nframes) {
        Dwarf_Addr x = (Dwarf_Addr)(uintptr_t)a->frames[f];
        int ours = !m->static_link && m->found && x >= m->lo && x < m->hi;
        if (!ours) {
            profile_frame s = symbolize((uintptr_t)a->frames[f], 1);
            int named_dsm = !strncmp(s.function, "dsm_", 4) || !strcmp(s.function, "backtrace") ||
                            !strncmp(s.function, "__interceptor_", 14);
            frame_free(&s);
            if (!named_dsm)
                break;
        }
        f++;
    }
    return f;
}

/* Allocations: node 0 ships the collective ones too (same everywhere). */
static void put_allocs(dsm_rt *rt, profile_wbuf *w, const self_module *m)
{
    dsm_prof *p = rt->prof;
    pthread_mutex_lock(&p->reg_lock);
    for (size_t i = 0; i < p->nallocs; i++) {
        const prof_alloc *a = &p->allocs[i];
        if (a->collective && rt->self != 0)
            continue;
        profile_frame path[PATH_FRAMES];
        profile_type type;
        profile_rec_alloc r = { a->off, a->len, a->collective, (uint32_t)i, a->name, path, 0, NULL };
        int f = first_program_frame(a, m);
        if (!a->name) {
            int nf = a->nframes - f < PATH_FRAMES ? a->nframes - f : PATH_FRAMES;
            for (int k = 0; k < nf; k++)
                path[r.npath++] = symbolize((uintptr_t)a->frames[f + k], 1);
        }
        if (f < a->nframes && prof_element_type(dsm_symbols_self(), (uintptr_t)a->frames[f], &type))
            r.type = &type;
        profile_put_alloc(w, &r);
        for (uint32_t k = 0; k < r.npath; k++)
            frame_free(&path[k]);
        if (r.type)
            profile_type_free(&type);
    }
    pthread_mutex_unlock(&p->reg_lock);
}

/* Miss causes per block and the write epochs, times in ns (eng_lock held). */
static void put_blocks(dsm_rt *rt, profile_wbuf *w, double f)
{
    dsm_prof *p = rt->prof;
    for (uint32_t ci = 0; ci < p->nchunks; ci++) {
        if (!p->chunk[ci])
            continue;
        for (uint32_t k = 0; k < PB_CHUNK; k++) {
            pblk *b = &p->chunk[ci][k];
            uint32_t block = ci * PB_CHUNK + k;
            if (b->twin)
                prof_end_epoch(rt, block, b); /* the last write epoch: its ranges count too */
            if (!(b->cold | b->inval | b->upgrade))
                continue;
            profile_rec_cause c = { block,
                                    b->cold,
                                    b->inval,
                                    b->upgrade,
                                    dsm_ticks_to_ns(b->first_tick, f),
                                    (uint64_t)((double)b->cold_wall * f),
                                    (uint64_t)((double)b->inval_wall * f),
                                    (uint64_t)((double)b->upgrade_wall * f) };
            profile_put_cause(w, &c);
        }
    }
    for (size_t i = 0; i < p->nep; i++) {
        /* epochs of different nodes are ordered by time: ship nanoseconds */
        const prof_epoch *x = &p->ep[i];
        profile_rec_epoch e = { x->block, x->node, dsm_ticks_to_ns(x->t0, f),
                                dsm_ticks_to_ns(x->t1, f), x->n, p->pool + x->first };
        profile_put_epoch(w, &e);
    }
    for (size_t i = 0; i < p->nrd; i++) {
        profile_rec_read r = p->rd[i];
        r.t = dsm_ticks_to_ns(r.t, f);
        profile_put_read(w, &r);
    }
}

/* The faulting instructions in the table, unsorted (eng_lock held). */
static uintptr_t *snapshot_ips(const dsm_prof *p, size_t *nips)
{
    uintptr_t *ips = NULL;
    *nips = 0;
    if (p->ipn) {
        ips = malloc(p->ipn * sizeof *ips);
        if (!ips)
            dsm_fatal("dsm_finalize", "out of memory for the profile data");
        for (size_t i = 0; i < p->ipcap; i++)
            if (p->ipt[i].used)
                ips[(*nips)++] = p->ipt[i].ip;
    }
    return ips;
}

/* The instructions, symbolized once each (outside eng_lock), then the
 * (instruction, block) counts. */
static void put_code(const dsm_prof *p, profile_wbuf *w, double f, uintptr_t *ips, size_t nips)
{
    /* distinct instructions, by a sort */
    qsort(ips, nips, sizeof *ips, cmp_ip);
    size_t nd = 0;
    for (size_t i = 0; i < nips; i++)
        if (!nd || ips[nd - 1] != ips[i])
            ips[nd++] = ips[i];
    for (size_t i = 0; i < nd; i++) {
        profile_frame s = symbolize(ips[i], 0);
        profile_put_ip(w, (uint32_t)i, &s);
        frame_free(&s);
    }
    for (size_t i = 0; i < p->ipcap; i++) {
        const ip_ent *e = &p->ipt[i];
        if (!e->used)
            continue;
        size_t lo = 0, hi = nd;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (ips[mid] < e->ip)
                lo = mid + 1;
            else
                hi = mid;
        }
        profile_rec_miss m = { (uint32_t)lo, e->block, e->reads, e->writes, e->upgrades,
                               (uint64_t)((double)e->wall * f) };
        profile_put_miss(w, &m);
    }
}

static void put_slices(dsm_rt *rt, profile_wbuf *w, double f)
{
    dsm_prof *p = rt->prof;
    pthread_mutex_lock(&rt->eng_lock);
    profile_rec_slice *s = malloc((p->nts ? p->nts : 1) * sizeof *s);
    if (!s)
        dsm_fatal("dsm_finalize", "out of memory for the profile data");
    for (size_t i = 0; i < p->nts; i++)
        s[i] = (profile_rec_slice){ p->ts[i].misses, (uint64_t)((double)p->ts[i].wall * f),
                                    p->ts[i].barrier };
    profile_put_slices(w, p->ts_iv, s, p->nts);
    pthread_mutex_unlock(&rt->eng_lock);
    free(s);
}

void *dsm_prof_serialize(dsm_rt *rt, size_t *len)
{
    dsm_prof *p = rt->prof;
    profile_wbuf w = { 0 };
    Dwfl *d = dsm_symbols_self();
    self_module m = { 0, runtime_in_program(), 0, 0 };
    Dwfl_Module *mod = d ? dwfl_addrmodule(d, (Dwarf_Addr)(uintptr_t)&dsm_prof_alloc) : NULL;
    if (mod) {
        m.found = 1;
        dwfl_module_info(mod, NULL, &m.lo, &m.hi, NULL, NULL, NULL, NULL);
    }
    put_allocs(rt, &w, &m);
    double f = dsm_ticks_ns_factor(); /* walls were taken in ticks */
    size_t nips;
    pthread_mutex_lock(&rt->eng_lock);
    put_blocks(rt, &w, f);
    uintptr_t *ips = snapshot_ips(p, &nips);
    pthread_mutex_unlock(&rt->eng_lock);
    put_code(p, &w, f, ips, nips);
    free(ips);
    put_slices(rt, &w, f);
    /* the symbols session stays open: dsm/symbols.c keeps it */
    profile_put_lost(&w, p->ep_dropped, p->twins_skipped, p->reads_dropped, d != NULL);
    if (w.failed)
        dsm_fatal("dsm_finalize", "out of memory for the profile data");
    *len = w.len;
    return w.p;
}

/* ---- node 0 ---- */

void dsm_prof_receive(dsm_rt *rt, int src, const void *data, size_t len)
{
    dsm_prof *p = rt->prof;
    if (!p)
        dsm_fatal("dsm_finalize", "profile data from node %d, but DSM_PROFILE=off at node 0 "
                                  "(set it the same way on every node)", src);
    if (!p->rx && !(p->rx = calloc((size_t)rt->nnodes, sizeof *p->rx)))
        dsm_fatal("dsm_finalize", "out of memory gathering the profile");
    profile_wbuf_append(&p->rx[src], data, len);
    if (p->rx[src].failed)
        dsm_fatal("dsm_finalize", "out of memory for the profile data");
}

/* Every node's records, decoded (the gathered bytes are freed). */
static profile_node_records *decode_nodes(dsm_rt *rt)
{
    dsm_prof *p = rt->prof;
    profile_node_records *r = calloc((size_t)rt->nnodes, sizeof *r);
    if (!r)
        dsm_fatal("dsm_finalize", "out of memory building the profile");
    for (int n = 0; n < rt->nnodes; n++) {
        char err[128];
        if (!p->rx || !p->rx[n].len)
            dsm_fatal("dsm_finalize", "no profile data arrived from node %d", n);
        if (profile_records_parse(p->rx[n].p, p->rx[n].len, rt->nnodes, &r[n], err, sizeof err))
            dsm_fatal("dsm_finalize", "%s from node %d", err, n);
        profile_wbuf_free(&p->rx[n]);
    }
    return r;
}

/* The exit summary, and the first finding of the bottleneck search, read
 * from the file itself so that it reads exactly as dsmprof advice would. */
static void print_summary(const dsm_rt *rt, const profile_input *in, const char *path,
                          int written)
{
    if (!rt->cfg.profile_summary) /* DSM_PROFILE_SUMMARY=off */
        return;
    profile_print_summary(in, written ? path : NULL, stderr);
    json_object *prof = written ? json_object_from_file(path) : NULL;
    char line[1024];
    if (prof && advice_summary_line(prof, line, sizeof line) > 0)
        fprintf(stderr, "dsm profile: advice: %s\n", line);
    json_object_put(prof);
}

void dsm_prof_finish(dsm_rt *rt, const dsm_stats_table *t)
{
    dsm_prof *p = rt->prof;
    profile_job job = { rt->nnodes, rt->region.block_size,
                        (double)(dsm_now_ns() - rt->clock_base_ns) / 1e9, 0 };
    profile_node_records *nodes = decode_nodes(rt);
    profile_pattern *pat = malloc((t->npat ? t->npat : 1) * sizeof *pat);
    if (!pat)
        dsm_fatal("dsm_finalize", "out of memory building the profile");
    for (size_t i = 0; i < t->npat; i++)
        pat[i] = (profile_pattern){ t->pat[i].block, t->pat[i].p };
    profile_stats st = { t->nblocks, t->counters_on, t->patterns_on,
                         (const counters *const *)t->node, pat, t->npat };
    uint64_t now = dsm_now_ns();
    job.end_ns = now > rt->clock_base_ns ? now - rt->clock_base_ns : 0;
    profile_input in;
    char err[256];
    if (profile_aggregate(&job, &st, nodes, &in, err, sizeof err))
        dsm_fatal("dsm_finalize", "%s", err);
    in.block_mode = rt->region.state != NULL; /* the state table: block mode (access.c) */
    for (int n = 0; n < rt->nnodes; n++)
        profile_node_records_free(&nodes[n]);
    free(nodes);
    free(pat);
    int bad = profile_write_json(&in, p->path, err, sizeof err);
    if (bad)
        fprintf(stderr, "dsm: node 0: dsm_finalize: cannot write the profile DSM_PROFILE=%s: %s\n",
                p->path, err);
    print_summary(rt, &in, p->path, !bad);
    profile_input_free(&in);
}
