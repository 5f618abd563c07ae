/* records.c - one node's profile records on the wire (records.h): the
 * writer every node uses at dsm_finalize and node 0's checked reader. */
#include "records.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "growable.h"

enum {
    R_ALLOC = 'A',
    R_CAUSE = 'C',
    R_EPOCH = 'E',
    R_READ = 'R',
    R_IP = 'F',
    R_MISS = 'P',
    R_LOST = 'D',
    R_SLICES = 'T',
};

/* ---- the writer ---- */

void profile_wbuf_append(profile_wbuf *w, const void *data, size_t len)
{
    if (w->failed)
        return;
    if (len > SIZE_MAX - w->len || GROWABLE_RESERVE(w->p, w->cap, w->len + len)) {
        w->failed = 1;
        return;
    }
    if (len)
        memcpy(w->p + w->len, data, len);
    w->len += len;
}

void profile_wbuf_free(profile_wbuf *w)
{
    free(w->p);
    memset(w, 0, sizeof *w);
}

static void put8(profile_wbuf *w, uint8_t v) { profile_wbuf_append(w, &v, 1); }
static void put32(profile_wbuf *w, uint32_t v) { profile_wbuf_append(w, &v, 4); }
static void put64(profile_wbuf *w, uint64_t v) { profile_wbuf_append(w, &v, 8); }

static void put_str(profile_wbuf *w, const char *s)
{
    uint32_t n = (uint32_t)strlen(s ? s : "");
    put32(w, n);
    profile_wbuf_append(w, s ? s : "", n);
}

void profile_type_free(profile_type *t)
{
    free(t->name);
    for (uint32_t i = 0; i < t->nfields; i++)
        free(t->fields[i].name);
    free(t->fields);
    memset(t, 0, sizeof *t);
}

int profile_type_copy(profile_type *dst, const profile_type *src)
{
    memset(dst, 0, sizeof *dst);
    dst->name = strdup(src->name ? src->name : "");
    dst->size = src->size;
    if (src->nfields && !(dst->fields = calloc(src->nfields, sizeof *dst->fields)))
        goto fail;
    if (!dst->name)
        goto fail;
    for (; dst->nfields < src->nfields; dst->nfields++) {
        const profile_field *f = &src->fields[dst->nfields];
        char *n = strdup(f->name ? f->name : "");
        if (!n)
            goto fail;
        dst->fields[dst->nfields] = (profile_field){ n, f->offset, f->size };
    }
    return 0;
fail:
    profile_type_free(dst);
    return -1;
}

static void put_type(profile_wbuf *w, const profile_type *t)
{
    put8(w, t != NULL);
    if (!t)
        return;
    put_str(w, t->name);
    put64(w, t->size);
    put32(w, t->nfields);
    for (uint32_t i = 0; i < t->nfields; i++) {
        put_str(w, t->fields[i].name);
        put64(w, t->fields[i].offset);
        put64(w, t->fields[i].size);
    }
}

void profile_put_alloc(profile_wbuf *w, const profile_rec_alloc *a)
{
    put8(w, R_ALLOC);
    put64(w, a->off);
    put64(w, a->len);
    put8(w, (uint8_t)a->collective);
    put32(w, a->seq);
    if (a->name) {
        put8(w, 0);
        put_str(w, a->name);
    } else {
        put8(w, 1);
        put32(w, a->npath);
        for (uint32_t k = 0; k < a->npath; k++) {
            put_str(w, a->path[k].function);
            put_str(w, a->path[k].file);
            put32(w, a->path[k].line);
        }
    }
    put_type(w, a->type);
}

void profile_put_cause(profile_wbuf *w, const profile_rec_cause *c)
{
    put8(w, R_CAUSE);
    put32(w, c->block);
    put32(w, c->cold);
    put32(w, c->inval);
    put32(w, c->upgrade);
    put64(w, c->first_ns);
    put64(w, c->cold_wall);
    put64(w, c->inval_wall);
    put64(w, c->upgrade_wall);
}

void profile_put_epoch(profile_wbuf *w, const profile_rec_epoch *e)
{
    put8(w, R_EPOCH);
    put32(w, e->block);
    put32(w, (uint32_t)e->node);
    put64(w, e->t0);
    put64(w, e->t1);
    put32(w, e->nw);
    for (uint32_t r = 0; r < e->nw; r++) {
        put32(w, e->w[r].lo);
        put32(w, e->w[r].hi);
    }
}

void profile_put_read(profile_wbuf *w, const profile_rec_read *r)
{
    put8(w, R_READ);
    put32(w, r->block);
    put32(w, r->lo);
    put32(w, r->hi);
    put64(w, r->t);
}

void profile_put_ip(profile_wbuf *w, uint32_t id, const profile_frame *f)
{
    put8(w, R_IP);
    put32(w, id);
    put_str(w, f->function);
    put_str(w, f->file);
    put32(w, f->line);
}

void profile_put_miss(profile_wbuf *w, const profile_rec_miss *m)
{
    put8(w, R_MISS);
    put32(w, m->ip);
    put32(w, m->block);
    put32(w, m->reads);
    put32(w, m->writes);
    put32(w, m->upgrades);
    put64(w, m->wall);
}

void profile_put_slices(profile_wbuf *w, uint64_t slice_ns, const profile_rec_slice *s, size_t n)
{
    put8(w, R_SLICES);
    put64(w, slice_ns);
    put32(w, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        put64(w, s[i].misses);
        put64(w, s[i].wall);
        put64(w, s[i].barrier);
    }
}

void profile_put_lost(profile_wbuf *w, uint64_t epochs_dropped, uint64_t twins_skipped,
                      uint64_t reads_dropped, int symbolized)
{
    put8(w, R_LOST);
    put64(w, epochs_dropped);
    put64(w, twins_skipped);
    put64(w, reads_dropped);
    put8(w, symbolized != 0);
}

/* ---- the reader ---- */

/* The bytes being read.  The first error sticks: later reads give zeros
 * and empty strings, so a record is read whole and checked once. */
typedef struct rd {
    const unsigned char *p;
    size_t len, at;
    const char *bad; /* the first error, NULL while none */
    char tag_msg[40];
} rd;

static void rd_fail(rd *r, const char *why)
{
    if (!r->bad)
        r->bad = why;
}

static size_t rd_left(const rd *r) { return r->bad ? 0 : r->len - r->at; }

static void rd_bytes(rd *r, void *x, size_t n)
{
    if (rd_left(r) < n) {
        rd_fail(r, "truncated profile data");
        memset(x, 0, n);
        return;
    }
    memcpy(x, r->p + r->at, n);
    r->at += n;
}

static uint8_t get8(rd *r) { uint8_t v; rd_bytes(r, &v, 1); return v; }
static uint32_t get32(rd *r) { uint32_t v; rd_bytes(r, &v, 4); return v; }
static uint64_t get64(rd *r) { uint64_t v; rd_bytes(r, &v, 8); return v; }

/* A string (malloc'd), or NULL after an error. */
static char *get_str(rd *r)
{
    uint32_t n = get32(r);
    if (rd_left(r) < n) {
        rd_fail(r, "truncated profile data");
        return NULL;
    }
    char *s = malloc((size_t)n + 1);
    if (!s) {
        rd_fail(r, "out of memory");
        return NULL;
    }
    memcpy(s, r->p + r->at, n);
    s[n] = '\0';
    r->at += n;
    return s;
}

static void frame_free(profile_frame *f)
{
    free(f->function);
    free(f->file);
}

static void get_frame(rd *r, profile_frame *f)
{
    f->function = get_str(r);
    f->file = get_str(r);
    f->line = get32(r);
}

static void alloc_free(profile_rec_alloc *a)
{
    free(a->name);
    for (uint32_t k = 0; k < a->npath; k++)
        frame_free(&a->path[k]);
    free(a->path);
    if (a->type) {
        profile_type_free(a->type);
        free(a->type);
    }
}

/* An element type, when the record has one: its fields lie inside it. */
static void read_type(rd *r, profile_rec_alloc *a)
{
    if (!get8(r))
        return;
    profile_type *t = calloc(1, sizeof *t);
    if (!t) {
        rd_fail(r, "out of memory");
        return;
    }
    a->type = t;
    t->name = get_str(r);
    t->size = get64(r);
    uint32_t n = get32(r);
    /* a field is at least 20 bytes: no allocation beyond what arrived */
    if (n > rd_left(r) / 20)
        rd_fail(r, "truncated profile data");
    else if (n && !(t->fields = calloc(n, sizeof *t->fields)))
        rd_fail(r, "out of memory");
    for (uint32_t i = 0; i < n && !r->bad; i++, t->nfields++) {
        profile_field *f = &t->fields[i];
        f->name = get_str(r);
        f->offset = get64(r);
        f->size = get64(r);
        if (f->offset > t->size || f->size > t->size - f->offset)
            rd_fail(r, "bad profile data");
    }
    if (!t->size)
        rd_fail(r, "bad profile data");
}

/* Push x (of the array's element type) onto v[n], capacity cap. */
#define PUSH(r, v, n, cap, x)                                                                  \
    do {                                                                                       \
        if (GROWABLE_RESERVE(v, cap, (n) + 1))                                                 \
            rd_fail(r, "out of memory");                                                       \
        else                                                                                   \
            (v)[(n)++] = (x);                                                                  \
    } while (0)

typedef struct caps {
    size_t allocs, causes, epochs, reads, ips, misses;
} caps;

static void read_alloc(rd *r, profile_node_records *o, caps *c)
{
    profile_rec_alloc a;
    memset(&a, 0, sizeof a);
    a.off = get64(r);
    a.len = get64(r);
    a.collective = get8(r) != 0;
    a.seq = get32(r);
    if (a.off + a.len < a.off)
        rd_fail(r, "bad profile data");
    if (get8(r) == 0) {
        a.name = get_str(r);
    } else {
        uint32_t nf = get32(r);
        /* a frame is at least 12 bytes: no allocation beyond what arrived */
        if (nf > rd_left(r) / 12)
            rd_fail(r, "truncated profile data");
        else if (nf && !(a.path = calloc(nf, sizeof *a.path)))
            rd_fail(r, "out of memory");
        else
            a.npath = nf;
        for (uint32_t k = 0; k < a.npath; k++)
            get_frame(r, &a.path[k]);
    }
    if (!r->bad)
        read_type(r, &a);
    if (!r->bad)
        PUSH(r, o->allocs, o->nallocs, c->allocs, a);
    if (r->bad)
        alloc_free(&a);
}

static void read_cause(rd *r, profile_node_records *o, caps *c)
{
    profile_rec_cause x;
    x.block = get32(r);
    x.cold = get32(r);
    x.inval = get32(r);
    x.upgrade = get32(r);
    x.first_ns = get64(r);
    x.cold_wall = get64(r);
    x.inval_wall = get64(r);
    x.upgrade_wall = get64(r);
    if (!r->bad)
        PUSH(r, o->causes, o->ncauses, c->causes, x);
}

static void read_epoch(rd *r, profile_node_records *o, caps *c, int nnodes)
{
    profile_rec_epoch e;
    memset(&e, 0, sizeof e);
    e.block = get32(r);
    e.node = (int32_t)get32(r);
    if (e.node < 0 || e.node >= nnodes)
        rd_fail(r, "bad profile data");
    e.t0 = get64(r);
    e.t1 = get64(r);
    uint32_t n = get32(r);
    /* a run is 8 bytes: no allocation beyond what arrived */
    if (n > rd_left(r) / 8)
        rd_fail(r, "truncated profile data");
    else if (n && !(e.w = malloc(n * sizeof *e.w)))
        rd_fail(r, "out of memory");
    for (uint32_t k = 0; k < n && !r->bad; k++) {
        uint32_t lo = get32(r), hi = get32(r);
        /* exact runs: sorted, disjoint, not adjacent, none empty */
        if (lo >= hi || (k && lo <= e.w[k - 1].hi))
            rd_fail(r, "bad profile data");
        e.w[k] = (profile_range){ lo, hi };
    }
    e.nw = r->bad ? 0 : n;
    if (!r->bad)
        PUSH(r, o->epochs, o->nepochs, c->epochs, e);
    if (r->bad)
        free(e.w);
}

static void read_read(rd *r, profile_node_records *o, caps *c)
{
    profile_rec_read x;
    x.block = get32(r);
    x.lo = get32(r);
    x.hi = get32(r);
    x.t = get64(r);
    if (x.lo >= x.hi)
        rd_fail(r, "bad profile data");
    if (!r->bad)
        PUSH(r, o->reads, o->nreads, c->reads, x);
}

static void read_ip(rd *r, profile_node_records *o, caps *c)
{
    uint32_t id = get32(r);
    profile_frame f;
    get_frame(r, &f);
    if (id != o->nips)
        rd_fail(r, "bad profile data"); /* numbered from 0, in order */
    if (!r->bad)
        PUSH(r, o->ips, o->nips, c->ips, f);
    if (r->bad)
        frame_free(&f);
}

static void read_miss(rd *r, profile_node_records *o, caps *c)
{
    profile_rec_miss m;
    m.ip = get32(r);
    if (m.ip >= o->nips)
        rd_fail(r, "bad profile data");
    m.block = get32(r);
    m.reads = get32(r);
    m.writes = get32(r);
    m.upgrades = get32(r);
    m.wall = get64(r);
    if (!r->bad)
        PUSH(r, o->misses, o->nmisses, c->misses, m);
}

static void read_slices(rd *r, profile_node_records *o)
{
    uint64_t iv = get64(r);
    uint32_t n = get32(r);
    /* the slices must end within the clock: the aggregation indexes by them */
    if (!iv || n > PROFILE_SLICES_MAX || (n && iv > UINT64_MAX / n) || o->slice_ns)
        rd_fail(r, "bad profile data");
    if (r->bad)
        return;
    o->slices = calloc(n ? n : 1, sizeof *o->slices);
    if (!o->slices) {
        rd_fail(r, "out of memory");
        return;
    }
    o->slice_ns = iv;
    o->nslices = n;
    for (size_t i = 0; i < n; i++) {
        o->slices[i].misses = get64(r);
        o->slices[i].wall = get64(r);
        o->slices[i].barrier = get64(r);
    }
}

int profile_records_parse(const void *data, size_t len, int nnodes, profile_node_records *out,
                          char *err, size_t errlen)
{
    rd r = { data, len, 0, NULL, "" };
    caps c = { 0 };
    memset(out, 0, sizeof *out);
    out->symbolized = 1;
    while (!r.bad && r.at < r.len) {
        uint8_t tag = get8(&r);
        switch (tag) {
        case R_ALLOC: read_alloc(&r, out, &c); break;
        case R_CAUSE: read_cause(&r, out, &c); break;
        case R_EPOCH: read_epoch(&r, out, &c, nnodes); break;
        case R_READ: read_read(&r, out, &c); break;
        case R_IP: read_ip(&r, out, &c); break;
        case R_MISS: read_miss(&r, out, &c); break;
        case R_SLICES: read_slices(&r, out); break;
        case R_LOST:
            out->epochs_dropped += get64(&r);
            out->twins_skipped += get64(&r);
            out->reads_dropped += get64(&r);
            if (!get8(&r))
                out->symbolized = 0;
            break;
        default:
            snprintf(r.tag_msg, sizeof r.tag_msg, "bad profile record %u", tag);
            rd_fail(&r, r.tag_msg);
        }
    }
    if (!r.bad)
        return 0;
    snprintf(err, errlen, "%s", r.bad);
    profile_node_records_free(out);
    return -1;
}

void profile_node_records_free(profile_node_records *r)
{
    for (size_t i = 0; i < r->nallocs; i++)
        alloc_free(&r->allocs[i]);
    free(r->allocs);
    free(r->causes);
    for (size_t i = 0; i < r->nepochs; i++)
        free(r->epochs[i].w);
    free(r->epochs);
    free(r->reads);
    for (size_t i = 0; i < r->nips; i++)
        frame_free(&r->ips[i]);
    free(r->ips);
    free(r->misses);
    free(r->slices);
    memset(r, 0, sizeof *r);
}
