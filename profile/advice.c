/* advice.c - the advisor (advice.h, doc/advice.md): Performance Consultant
 * hypotheses over a dsm-profile/2 file.
 *
 * Every hypothesis is "metric share > threshold", so a finding can always
 * print the number that triggered it next to the threshold: the user sees
 * how far past the line a problem is and which knob moves the line.  The
 * input keys are those of profile/profile_write.c (doc/profile-format.md);
 * everything is read through pjson.h so a missing key weakens a finding
 * instead of crashing the advisor.  Names enter the findings through nm():
 * the findings are printed on terminals (dsmprof advice, the exit summary),
 * so a name's control bytes are spelled \xNN (ptext.h). */
#include "advice.h"
#include "growable.h"
#include "pjson.h"
#include "ptext.h"
#include "pschema.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *const advice_threshold_names[ADVICE_NTHRESHOLDS] = {
    "memory-blocking", "refine",    "structure-min", "false-sharing",
    "producer-consumer", "migratory", "imbalance", "read-only", "group",
};

static double *threshold_field(advice_thresholds *t, int i)
{
    double *f[ADVICE_NTHRESHOLDS] = {
        &t->memory_blocking, &t->refine,    &t->min_share, &t->false_sharing,
        &t->producer_consumer, &t->migratory, &t->imbalance, &t->read_only, &t->group,
    };
    return i >= 0 && i < ADVICE_NTHRESHOLDS ? f[i] : NULL;
}

void advice_thresholds_default(advice_thresholds *t)
{
    /* The paper gives no numbers; these flag what its case study found
     * (40% in coherence misses, 20% at barriers) with a wide margin and stay
     * quiet on a well-tuned run (doc/advice.md). */
    t->memory_blocking = 0.10;
    t->refine = 0.10;
    t->min_share = 0.01;
    t->false_sharing = 0.10;
    t->producer_consumer = 0.50;
    t->migratory = 0.50;
    t->imbalance = 0.10;
    t->read_only = 0.50;
    t->group = 0.05;
}

static int parse_pct(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno)
        return -1;
    if (*end == '%')
        end++;
    if (*end || !isfinite(v) || v < 0 || v > 100)
        return -1;
    *out = v / 100.0;
    return 0;
}

int advice_threshold_set(advice_thresholds *t, const char *name, const char *value, char *err,
                         size_t errlen)
{
    for (int i = 0; i < ADVICE_NTHRESHOLDS; i++) {
        if (strcmp(name, advice_threshold_names[i]))
            continue;
        if (!value || parse_pct(value, threshold_field(t, i))) {
            snprintf(err, errlen, "threshold %s: \"%s\" is not a percentage between 0 and 100", name,
                     value ? value : "");
            return -1;
        }
        return 0;
    }
    snprintf(err, errlen, "unknown threshold \"%s\"", name);
    return -1;
}

int advice_thresholds_from_env(advice_thresholds *t, char *err, size_t errlen)
{
    for (int i = 0; i < ADVICE_NTHRESHOLDS; i++) {
        char var[64] = "DSM_ADVICE_";
        size_t k = strlen(var);
        for (const char *p = advice_threshold_names[i]; *p && k + 1 < sizeof var; p++)
            var[k++] = *p == '-' ? '_' : (char)toupper((unsigned char)*p);
        var[k] = '\0';
        const char *v = getenv(var);
        if (!v || !*v)
            continue;
        if (parse_pct(v, threshold_field(t, i))) {
            snprintf(err, errlen, "%s=%s is not a percentage between 0 and 100", var, v);
            return -1;
        }
    }
    return 0;
}

/* ---- small text buffer: findings are built from a variable number of lines ---- */

typedef struct sbuf {
    char *s;
    size_t n, cap;
    int oom;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...)
{
    if (b->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->oom = 1;
            return;
        }
        if (b->s && b->n + (size_t)k < b->cap) {
            b->n += (size_t)k;
            return;
        }
        if (GROWABLE_RESERVE(b->s, b->cap, b->n + (size_t)k + 1)) {
            b->oom = 1;
            return;
        }
    }
}

/* Take the text (never NULL unless out of memory) and reset the buffer. */
static char *sb_take(sbuf *b)
{
    char *s = b->oom ? NULL : b->s ? b->s : strdup("");
    if (b->oom)
        free(b->s);
    memset(b, 0, sizeof *b);
    return s;
}

/* A threshold as the user typed it: 10%, 2.5%. */
static const char *pct(double v, char *buf, size_t len)
{
    snprintf(buf, len, "%.4g%%", v * 100.0);
    return buf;
}

static double ms(double ns) { return ns / 1e6; }

/* ---- the findings list ---- */

typedef struct flist {
    advice_finding *v;
    size_t n, cap;
    int oom;
} flist;

/* Push a finding; headline, evidence and suggestion are taken from the buffers. */
static void push(flist *l, advice_kind kind, int depth, const char *hyp, const char *focus,
                 double value, double threshold, double seconds, sbuf *head, sbuf *ev, sbuf *sug)
{
    advice_finding f = { kind,      depth,     strdup(hyp), strdup(focus), value, threshold,
                         seconds,   sb_take(head), sb_take(ev), sb_take(sug) };
    if (!f.hypothesis || !f.focus || !f.headline || !f.evidence || !f.suggestion)
        l->oom = 1;
    if (!l->oom && l->n == l->cap && GROWABLE_RESERVE(l->v, l->cap, l->n + 1))
        l->oom = 1;
    if (l->oom) {
        advice_free(&f, 1);
        return;
    }
    l->v[l->n++] = f;
}

void advice_free(advice_finding *v, size_t n)
{
    if (!v)
        return;
    for (size_t i = 0; i < n; i++) {
        free(v[i].hypothesis);
        free(v[i].focus);
        free(v[i].headline);
        free(v[i].evidence);
        free(v[i].suggestion);
    }
}

/* ---- reading the profile ---- */

static const char *nm(const char *s) { return ptext_term(s); }

static uint64_t structure_mbt(json_object *s) { return pj_u64(pj_get(s, "metrics"), "memoryBlockTime"); }

/* The node whose share of x is largest, from a per_node array of objects. */
static int worst_node(json_object *per_node, const char *key, uint64_t *value)
{
    int best = -1;
    uint64_t bv = 0;
    for (size_t i = 0; i < pj_len(per_node); i++) {
        uint64_t v = pj_u64(pj_at(per_node, i), key);
        if (best < 0 || v > bv) {
            best = (int)i;
            bv = v;
        }
    }
    if (value)
        *value = bv;
    return best;
}

/* Byte ranges [[lo,hi],...] as "[0,24) [48,72)", at most max of them. */
static void ranges_text(sbuf *b, json_object *ranges, size_t max)
{
    size_t n = pj_len(ranges);
    for (size_t i = 0; i < n && i < max; i++) {
        json_object *r = pj_at(ranges, i);
        sb_printf(b, "%s[%llu,%llu)", i ? " " : "",
                  (unsigned long long)json_object_get_uint64(pj_at(r, 0)),
                  (unsigned long long)json_object_get_uint64(pj_at(r, 1)));
    }
    if (n > max)
        sb_printf(b, " ... (%zu ranges)", n);
    if (!n)
        sb_printf(b, "nothing recorded");
}

typedef struct wrange {
    int node;
    uint64_t lo, hi;
} wrange;

static int wrange_cmp(const void *a, const void *b)
{
    const wrange *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo ? 1 : x->node - y->node;
}

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The largest period p (2 .. max) such that at least 80% of the offsets
 * e[0..n) fall on one residue modulo p, and that residue (*phase); 0 when
 * fewer than two offsets.  Approximate on purpose: a diff sees changed
 * bytes, so a field whose first bytes did not change starts a little late
 * and must not break the element size (an exact gcd would). */
static uint64_t period_of(const uint64_t *e, size_t n, uint64_t max, uint64_t *phase)
{
    if (n < 2)
        return 0;
    uint64_t *res = malloc(n * sizeof *res);
    if (!res)
        return 0;
    uint64_t found = 0;
    for (uint64_t p = max; p >= 2 && !found; p--) {
        for (size_t i = 0; i < n; i++)
            res[i] = e[i] % p;
        qsort(res, n, sizeof *res, u64_cmp);
        size_t best = 0;
        for (size_t i = 0, j; i < n; i = j) {
            for (j = i; j < n && res[j] == res[i]; j++)
                ;
            if (j - i > best) {
                best = j - i;
                *phase = res[i];
            }
        }
        if (best * 5 >= n * 4)
            found = p;
    }
    free(res);
    return found;
}

/* The layout of the writes in a falsely shared block, from the runs r[0..nr)
 * (sorted) of writers 0..maxnode.  An entry is where a node's run follows
 * another node's: elements (or fields) of different owners meet there.  The
 * element is the period of all entries; but when every node has one and
 * the same stride of its own, longer than that period, and the nodes sit at
 * offsets of it that are not evenly spread, they write different fields of
 * one element of that stride (*fields).  Elements dealt round robin have
 * evenly spread offsets, and the period of all entries is the element.
 * first[n]: node n's offset inside the element.  0: no two entries (each
 * node writes one run: per-node parts). */
static uint64_t element_size(const wrange *r, size_t nr, int maxnode, uint64_t block_size,
                             uint64_t *first, int *fields)
{
    uint64_t *all = malloc((nr ? nr : 1) * sizeof *all), *mine = malloc((nr ? nr : 1) * sizeof *mine);
    uint64_t max = block_size / 2 > 2 ? block_size / 2 : 2;
    *fields = 0;
    if (!all || !mine) {
        free(all);
        free(mine);
        return 0;
    }
    size_t na = 0;
    int repeats = 0; /* a node enters twice: the block has elements, not parts */
    for (size_t i = 0; i < nr; i++)
        if (!i || r[i - 1].node != r[i].node) {
            for (size_t k = 0; k < i && !repeats; k++)
                repeats = r[k].node == r[i].node;
            all[na++] = r[i].lo;
        }
    uint64_t phase = 0, elem = repeats ? period_of(all, na, max, &phase) : 0;
    uint64_t stride = 0;
    int nwriters = 0, same = 1;
    for (int n = 0; n <= maxnode && elem; n++) {
        size_t nm = 0;
        for (size_t i = 0; i < nr; i++)
            if (r[i].node == n && (!i || r[i - 1].node != n))
                mine[nm++] = r[i].lo;
        if (!nm)
            continue;
        nwriters++;
        uint64_t ph = mine[0], s = period_of(mine, nm, max, &ph);
        first[n] = ph;
        if (!s || (stride && s != stride))
            same = 0;
        stride = s;
    }
    if (elem && same && nwriters > 1 && stride > elem && stride % elem == 0) {
        /* the nodes' offsets inside their stride: evenly spread (round
         * robin) or not (fields) */
        uint64_t *off = malloc((size_t)nwriters * sizeof *off);
        size_t k = 0;
        for (int n = 0; off && n <= maxnode; n++)
            if (first[n] != UINT64_MAX)
                off[k++] = first[n] % stride;
        if (off) {
            qsort(off, k, sizeof *off, u64_cmp);
            uint64_t gap = stride / (uint64_t)nwriters;
            int even = stride % (uint64_t)nwriters == 0;
            for (size_t q = 1; q < k && even; q++)
                even = off[q] - off[q - 1] == gap;
            if (!even) {
                *fields = 1;
                elem = stride;
            }
        }
        free(off);
    }
    for (int n = 0; elem && n <= maxnode; n++)
        if (first[n] != UINT64_MAX)
            first[n] %= elem;
    free(all);
    free(mine);
    return elem;
}

/* The field of the element type covering byte `at` of an element, or NULL. */
static const char *field_at(json_object *fl, uint64_t at)
{
    for (size_t i = 0; i < pj_len(fl); i++) {
        json_object *f = pj_at(fl, i);
        uint64_t o = pj_u64(f, "offset"), z = pj_u64(f, "size");
        if (at >= o && at < o + (z ? z : 1))
            return pj_str(f, "name");
    }
    return NULL;
}

/* When the structure's element type is known (DWARF of its allocation:
 * doc/profile-format.md), the fields each writer's bytes fall in, by name:
 * a byte's offset in the structure modulo the type's size. */
static void named_fields(json_object *s, const wrange *r, size_t nr, int maxnode, uint64_t boff,
                         sbuf *ev, sbuf *sug)
{
    json_object *et = pj_get(s, "element_type"), *fl = pj_arr(et, "fields");
    uint64_t size = pj_u64(et, "size");
    if (!et || !size || !pj_len(fl))
        return;
    const char *tname = nm(pj_str(et, "name"));
    sb_printf(ev, "\nfields of struct %s (%llu bytes) written:", tname, (unsigned long long)size);
    sb_printf(sug, "; the colliding fields of struct %s:", tname);
    int shown_nodes = 0;
    for (int n = 0; n <= maxnode && shown_nodes < 8; n++) {
        const char *seen[4];
        size_t ns = 0;
        for (size_t i = 0; i < nr && ns < 4; i++) {
            if (r[i].node != n)
                continue;
            for (uint64_t b = r[i].lo; b < r[i].hi && ns < 4; b++) {
                const char *f = field_at(fl, (boff + b) % size);
                int dup = !f;
                for (size_t k = 0; k < ns && !dup; k++)
                    dup = !strcmp(seen[k], f);
                if (!dup)
                    seen[ns++] = f;
            }
        }
        if (!ns)
            continue;
        sb_printf(ev, "%s node %d:", shown_nodes ? ";" : "", n);
        sb_printf(sug, "%s", shown_nodes ? "," : "");
        for (size_t k = 0; k < ns; k++) {
            sb_printf(ev, "%s%s", k ? ", " : " ", nm(seen[k]));
            sb_printf(sug, "%s%s", k ? "/" : " ", nm(seen[k]));
        }
        sb_printf(sug, " (node %d)", n);
        shown_nodes++;
    }
}

/* The false-sharing evidence and the padding that would separate the
 * writers, from the most transferred falsely shared block.  When each node
 * writes one run, the nodes own parts (per-node slots, or slices whose
 * boundary falls inside a block); otherwise the element size comes from
 * each node's own stride (element_size) and the fields each node writes
 * are its offsets inside the element. */
static void false_sharing_text(json_object *s, uint64_t block_size, sbuf *ev, sbuf *sug)
{
    json_object *fs = pj_get(s, "false_sharing");
    const char *name = nm(pj_str(s, "name"));
    sb_printf(ev, "%llu false-sharing transfers (writers of disjoint bytes, the receiver reading "
                  "nothing the others wrote), %llu true-sharing transfers, %llu coherence misses, "
                  "in %llu blocks",
              (unsigned long long)pj_u64(fs, "count"),
              (unsigned long long)pj_u64(fs, "true_sharing_transfers"),
              (unsigned long long)pj_u64(fs, "coherence_misses"),
              (unsigned long long)pj_u64(fs, "blocks"));
    json_object *top = pj_at(pj_arr(fs, "top_blocks"), 0);
    json_object *writers = pj_arr(top, "writers");
    if (!top || pj_len(writers) < 2) {
        sb_printf(sug, "different nodes write disjoint bytes of the same blocks of %s: pad and "
                       "align what each node writes to the block size (%llu bytes)",
                  name, (unsigned long long)block_size);
        return;
    }
    uint64_t boff = pj_u64(top, "offset");
    sb_printf(ev, "\nblock %llu (structure offset %llu, %llu false-sharing transfers), byte offsets "
                  "inside the block:",
              (unsigned long long)pj_u64(top, "index"), (unsigned long long)boff,
              (unsigned long long)pj_u64(top, "transfers"));
    size_t nr = 0;
    int maxnode = 0;
    for (size_t i = 0; i < pj_len(writers); i++) {
        nr += pj_len(pj_arr(pj_at(writers, i), "ranges"));
        if ((int)pj_u64(pj_at(writers, i), "node") > maxnode)
            maxnode = (int)pj_u64(pj_at(writers, i), "node");
    }
    wrange *r = calloc(nr ? nr : 1, sizeof *r);
    uint64_t *first = malloc(((size_t)maxnode + 1) * sizeof *first);
    if (!r || !first) {
        free(r);
        free(first);
        ev->oom = 1;
        return;
    }
    for (int n = 0; n <= maxnode; n++)
        first[n] = UINT64_MAX;
    nr = 0;
    for (size_t i = 0; i < pj_len(writers); i++) {
        json_object *w = pj_at(writers, i);
        int node = (int)pj_u64(w, "node");
        json_object *rs = pj_arr(w, "ranges");
        sb_printf(ev, "\n  node %d writes bytes ", node);
        ranges_text(ev, rs, 6);
        for (size_t k = 0; k < pj_len(rs); k++) {
            json_object *x = pj_at(rs, k);
            r[nr++] = (wrange){ node, json_object_get_uint64(pj_at(x, 0)),
                                json_object_get_uint64(pj_at(x, 1)) };
        }
    }
    qsort(r, nr, sizeof *r, wrange_cmp);
    int fields = 0;
    uint64_t elem = element_size(r, nr, maxnode, block_size, first, &fields);
    if (!elem) {
        /* each node one run: its own part of the block */
        uint64_t boundary = nr > 1 ? r[1].lo : 0, len = r[0].hi - r[0].lo;
        /* slots: equal parts at equal distances that leave part of the
         * block to nobody; parts that tile the block are slices of a
         * larger per-node range */
        int slots = !(r[0].lo == 0 && r[nr - 1].hi >= block_size);
        for (size_t i = 1; i < nr; i++)
            if (r[i].hi - r[i].lo != len || r[i].lo - r[i - 1].lo != r[1].lo - r[0].lo)
                slots = 0;
        if (slots && nr > 1) {
            sb_printf(ev, "\neach node writes its own %llu-byte slot, %llu bytes apart",
                      (unsigned long long)len, (unsigned long long)(r[1].lo - r[0].lo));
            sb_printf(sug, "give each node's slot of %s a block of its own: pad each slot to "
                           "%llu bytes (the block size) and align the array to a block",
                      name, (unsigned long long)block_size);
        } else {
            sb_printf(ev, "\neach node writes its own contiguous part; the parts meet at byte %llu "
                          "of the block (structure offset %llu)",
                      (unsigned long long)boundary, (unsigned long long)(boff + boundary));
            sb_printf(sug, "align per-node ranges to the block size: start each node's part of %s "
                           "at a multiple of %llu bytes (pad each part to a multiple of %llu bytes)",
                      name, (unsigned long long)block_size, (unsigned long long)block_size);
        }
    } else {
        if (fields) {
            sb_printf(ev, "\nthe nodes write different fields of the same %llu-byte elements "
                          "(each node's stride):",
                      (unsigned long long)elem);
            size_t shown = 0;
            for (int n = 0; n <= maxnode && shown < 8; n++) {
                if (first[n] == UINT64_MAX)
                    continue;
                for (size_t i = 0; i < nr; i++)
                    if (r[i].node == n && r[i].lo % elem == first[n]) {
                        sb_printf(ev, "%s node %d at +%llu (%llu bytes)", shown ? "," : "", n,
                                  (unsigned long long)first[n],
                                  (unsigned long long)(r[i].hi - r[i].lo));
                        break;
                    }
                shown++;
            }
            sb_printf(sug, "the fields of one %llu-byte element of %s are written by different "
                           "nodes: split the element so each node's fields are in a structure of "
                           "their own, padded and aligned to %llu bytes (the block size)",
                      (unsigned long long)elem, name, (unsigned long long)block_size);
        } else {
            sb_printf(ev, "\nthe writers interleave: neighbouring %llu-byte elements belong to "
                          "different nodes (each node's stride)",
                      (unsigned long long)elem);
            sb_printf(sug, "pad each %llu-byte element of %s to %llu bytes (the block size) and "
                           "align the array to a block, or give each node a contiguous, "
                           "block-aligned run of elements",
                      (unsigned long long)elem, name, (unsigned long long)block_size);
        }
    }
    named_fields(s, r, nr, maxnode, boff, ev, sug);
    free(r);
    free(first);
}

/* ---- the hypotheses ---- */

/* What every hypothesis reads, taken from the profile once, and where the
 * findings go.  h, e, s: the headline, evidence and suggestion of the
 * finding being built (push takes them). */
typedef struct advice_ctx {
    const advice_thresholds *t;
    flist l;
    sbuf h, e, s;
    int nodes;
    double wall;
    double job_ns;            /* wall time summed over nodes */
    uint64_t block_size;
    json_object *per_node, *structures, *procedures, *pairs, *groups;
    uint64_t mbt;             /* memory blocking time of all nodes */
    uint64_t cold, coh;       /* ... in cold and in coherence misses (by structure) */
} advice_ctx;

/* One structure, as its pattern hypotheses see it. */
typedef struct structure_view {
    json_object *st;
    const char *name;
    char focus[300];
    uint64_t mbt;
    uint64_t coh_ns;          /* its time in coherence misses (invalidation, upgrade) */
    double fs_share;          /* false-sharing transfers: its share of them (<= 1) */
    int false_sharing;        /* FalseSharing holds for it (migration may be its effect) */
} structure_view;

static void advice_ctx_init(advice_ctx *c, json_object *p, const advice_thresholds *t)
{
    memset(c, 0, sizeof *c);
    c->t = t;
    c->nodes = json_object_get_int(pj_get(p, "nodes"));
    c->wall = pj_double(p, "wall_seconds");
    c->job_ns = (double)c->nodes * c->wall * 1e9;
    c->block_size = pj_u64(p, "block_size");
    c->per_node = pj_arr(p, "per_node");
    c->structures = pj_arr(p, "structures");
    c->procedures = pj_arr(p, "procedures");
    c->pairs = pj_arr(p, "pairs");
    c->groups = pj_arr(p, "groups");
    for (size_t i = 0; i < pj_len(c->per_node); i++)
        c->mbt += pj_u64(pj_at(c->per_node, i), "memoryBlockTime");
    for (size_t i = 0; i < pj_len(c->structures); i++) {
        json_object *causes = pj_get(pj_at(c->structures, i), "causes");
        c->cold += pj_u64(causes, "cold_wall");
        c->coh += pj_u64(causes, "invalidation_wall") + pj_u64(causes, "upgrade_wall");
    }
    if (!pj_len(c->per_node)) /* an older file: the structures' sum is the best we have */
        for (size_t i = 0; i < pj_len(c->structures); i++)
            c->mbt += structure_mbt(pj_at(c->structures, i));
}

/* Refinement of memory blocking: the structures that hold more than the
 * refine share of it. */
static void refine_to_structures(advice_ctx *c)
{
    const advice_thresholds *t = c->t;
    char t1[32];
    uint64_t wv;
    for (size_t i = 0; i < pj_len(c->structures) && c->mbt; i++) {
        json_object *st = pj_at(c->structures, i);
        uint64_t v = structure_mbt(st);
        double sh = (double)v / (double)c->mbt;
        if (!(sh > t->refine))
            continue;
        const char *raw = pj_str(st, "name"), *name = nm(raw);
        sb_printf(&c->h, "structure %s: %.1f%% of memory blocking time > threshold %s", name,
                  100.0 * sh, pct(t->refine, t1, sizeof t1));
        sb_printf(&c->e, "%.1f ms; sharing pattern %s", ms((double)v),
                  *pj_str(st, "sharing_pattern") ? nm(pj_str(st, "sharing_pattern")) : "none");
        /* the procedure that blocks most on it, from the (procedure, structure) pairs */
        for (size_t k = 0; k < pj_len(c->pairs); k++) {
            json_object *pr = pj_at(c->pairs, k);
            if (strcmp(pj_str(pr, "structure"), raw) || !pj_u64(pr, "wall"))
                continue;
            sb_printf(&c->e, "; most of it in %s (%.1f ms)", nm(pj_str(pr, "procedure")),
                      ms((double)pj_u64(pr, "wall")));
            break;
        }
        json_object *pn = pj_arr(pj_get(st, "metrics"), "per_node");
        int n0 = worst_node(pn, "memoryBlockTime", &wv);
        if (n0 >= 0 && c->nodes > 1)
            sb_printf(&c->e, "; node %d blocks most on it (%.1f ms)", n0, ms((double)wv));
        char focus[300];
        snprintf(focus, sizeof focus, "structure %s", name);
        push(&c->l, ADVICE_MEMORY_BLOCKING, 1, "ExcessiveMemoryBlockingTime", focus, sh, t->refine,
             (double)v / 1e9, &c->h, &c->e, &c->s);
    }
}

/* Refinement of memory blocking: the procedures that hold more than the
 * refine share of it. */
static void refine_to_procedures(advice_ctx *c)
{
    const advice_thresholds *t = c->t;
    char t1[32];
    /* Procedure times are measured around each fault by the code that
     * took it and may not add up to the nodes' memoryBlockTime (threads,
     * joins): never claim more than the whole. */
    uint64_t pmbt = c->mbt;
    {
        uint64_t sum = 0;
        for (size_t i = 0; i < pj_len(c->procedures); i++)
            sum += pj_u64(pj_at(c->procedures, i), "wall");
        if (sum > pmbt)
            pmbt = sum;
    }
    for (size_t i = 0; i < pj_len(c->procedures) && pmbt; i++) {
        json_object *pr = pj_at(c->procedures, i);
        uint64_t v = pj_u64(pr, "wall");
        double sh = (double)v / (double)pmbt;
        if (!(sh > t->refine))
            continue;
        const char *file = nm(pj_str(pr, "file"));
        sb_printf(&c->h, "procedure %s: %.1f%% of memory blocking time > threshold %s",
                  nm(pj_str(pr, "name")), 100.0 * sh, pct(t->refine, t1, sizeof t1));
        sb_printf(&c->e, "%.1f ms in %llu misses", ms((double)v),
                  (unsigned long long)pj_u64(pr, "misses"));
        if (*file)
            sb_printf(&c->e, "; most at %s:%llu", file, (unsigned long long)pj_u64(pr, "line"));
        char focus[300];
        snprintf(focus, sizeof focus, "procedure %s", nm(pj_str(pr, "name")));
        push(&c->l, ADVICE_MEMORY_BLOCKING, 1, "ExcessiveMemoryBlockingTime", focus, sh, t->refine,
             (double)v / 1e9, &c->h, &c->e, &c->s);
    }
}

/* (1) ExcessiveMemoryBlockingTime, refined to structures and procedures */
static void find_memory_blocking(advice_ctx *c)
{
    const advice_thresholds *t = c->t;
    char t1[32];
    double share = c->job_ns > 0 ? (double)c->mbt / c->job_ns : 0.0;
    if (!(c->job_ns > 0 && share > t->memory_blocking))
        return;
    sb_printf(&c->h, "memory blocking %.1f%% of wall time > threshold %s", 100.0 * share,
              pct(t->memory_blocking, t1, sizeof t1));
    sb_printf(&c->e, "%.1f ms blocked of %.1f ms (%d nodes x %.3f s); coherence misses "
                     "(invalidation, upgrade) %.1f ms, cold misses %.1f ms",
              ms((double)c->mbt), ms(c->job_ns), c->nodes, c->wall, ms((double)c->coh),
              ms((double)c->cold));
    uint64_t wv;
    int wn = worst_node(c->per_node, "memoryBlockTime", &wv);
    if (wn >= 0 && c->nodes > 1)
        sb_printf(&c->e, "\nnode %d blocks most: %.1f ms, %.1f%% of its wall time", wn,
                  ms((double)wv), c->wall > 0 ? 100.0 * (double)wv / (c->wall * 1e9) : 0.0);
    sb_printf(&c->s, "the structures and procedures below cause it");
    push(&c->l, ADVICE_MEMORY_BLOCKING, 0, "ExcessiveMemoryBlockingTime", "whole program", share,
         t->memory_blocking, (double)c->mbt / 1e9, &c->h, &c->e, &c->s);
    refine_to_structures(c);
    refine_to_procedures(c);
}

/* The structure's written shared blocks by sharing pattern (read-only,
 * private blocks and blocks with no pattern left out); 0 when none. */
static uint64_t written_blocks(const structure_view *sv, uint64_t *mig, uint64_t *pc,
                               uint64_t *ws)
{
    json_object *pt = pj_get(sv->st, "patterns");
    *mig = pj_u64(pt, "migratory");
    *pc = pj_u64(pt, "producer_consumer");
    *ws = pj_u64(pt, "write_shared");
    return *mig + *pc + *ws;
}

/* (2) FalseSharing: false-sharing transfers among the structure's coherence misses */
static void find_false_sharing(advice_ctx *c, structure_view *sv)
{
    const advice_thresholds *t = c->t;
    char t1[32];
    json_object *fs = pj_get(sv->st, "false_sharing");
    uint64_t fsn = pj_u64(fs, "count");
    double fsh = sv->fs_share;
    if (!(fsn && fsh > t->false_sharing))
        return;
    sv->false_sharing = 1;
    sb_printf(&c->h, "false-sharing transfers %.1f%% of the coherence misses of %s > threshold %s",
              100.0 * fsh, sv->name, pct(t->false_sharing, t1, sizeof t1));
    false_sharing_text(sv->st, c->block_size, &c->e, &c->s);
    /* at stake: its coherence misses' time, the false share of it; and
     * the migration false sharing causes (its blocks migrate because the
     * nodes' data share them: padding removes that too) */
    uint64_t mig, pc, ws;
    uint64_t written = written_blocks(sv, &mig, &pc, &ws);
    double msh = written ? (double)mig / (double)written : 0.0;
    push(&c->l, ADVICE_FALSE_SHARING, 0, "FalseSharing", sv->focus, fsh, t->false_sharing,
         (double)sv->coh_ns * (msh > fsh ? msh : fsh) / 1e9, &c->h, &c->e, &c->s);
}

/* (3) MigratorySharing: migratory blocks among the written shared blocks */
static void find_migratory(advice_ctx *c, structure_view *sv)
{
    const advice_thresholds *t = c->t;
    char t1[32];
    uint64_t mig, pc, grp;
    uint64_t written = written_blocks(sv, &mig, &pc, &grp);
    double msh = written ? (double)mig / (double)written : 0.0;
    if (!(written && msh > t->migratory))
        return;
    sb_printf(&c->h, "%.1f%% of the written shared blocks of %s are migratory > threshold %s",
              100.0 * msh, sv->name, pct(t->migratory, t1, sizeof t1));
    sb_printf(&c->e, "%llu of %llu blocks migratory (%llu producer_consumer, %llu write_shared); "
                     "%.1f ms memory blocking, %.1f ms in coherence misses",
              (unsigned long long)mig, (unsigned long long)written, (unsigned long long)pc,
              (unsigned long long)grp, ms((double)sv->mbt), ms((double)sv->coh_ns));
    /* migratory means the new owner read what the last one wrote, then wrote */
    if (sv->false_sharing)
        sb_printf(&c->s, "the false sharing above makes %s's blocks migrate: separate the "
                         "nodes' data first (that finding's advice), and the migration goes with it",
                  sv->name);
    else
        sb_printf(&c->s, "each node in turn reads what the previous one wrote in %s's blocks, "
                         "then writes them (two misses per visit): do each update in one short "
                         "critical section so a block moves once per update, or let each node "
                         "accumulate in private data and combine once at the end (a reduction), "
                         "so a block moves once per node instead of once per update",
                  sv->name);
    /* at stake: its coherence time, the migratory share; nothing of its
     * own when false sharing causes the migration (that finding counts it) */
    double stake = sv->false_sharing ? 0.0 : (double)sv->coh_ns * msh;
    push(&c->l, ADVICE_MIGRATORY, 0, "MigratorySharing", sv->focus, msh, t->migratory,
         stake / 1e9, &c->h, &c->e, &c->s);
}

/* (4) ProducerConsumerSharing: producer_consumer blocks among the written shared blocks */
static void find_producer_consumer(advice_ctx *c, structure_view *sv)
{
    const advice_thresholds *t = c->t;
    char t2[32];
    uint64_t mig, pc, grp;
    uint64_t written = written_blocks(sv, &mig, &pc, &grp);
    double psh = written ? (double)pc / (double)written : 0.0;
    if (!(written && psh > t->producer_consumer))
        return;
    sb_printf(&c->h, "%.1f%% of the written shared blocks of %s are producer_consumer > "
                     "threshold %s",
              100.0 * psh, sv->name, pct(t->producer_consumer, t2, sizeof t2));
    sb_printf(&c->e, "%llu of %llu blocks producer_consumer (%llu migratory, %llu write_shared); "
                     "%.1f ms memory blocking, %.1f ms in coherence misses",
              (unsigned long long)pc, (unsigned long long)written, (unsigned long long)mig,
              (unsigned long long)grp, ms((double)sv->mbt), ms((double)sv->coh_ns));
    sb_printf(&c->s, "one node writes %s and others then read it, each reader missing: "
                     "an update protocol (push the data to the consumers) would save the "
                     "misses; otherwise use larger blocks (DSM_BLOCK_SIZE) so one transfer "
                     "carries more, and batch the producer's writes before a single "
                     "synchronisation",
              sv->name);
    push(&c->l, ADVICE_PRODUCER_CONSUMER, 0, "ProducerConsumerSharing", sv->focus, psh,
         t->producer_consumer, (double)sv->coh_ns * psh / 1e9, &c->h, &c->e, &c->s);
}

/* ReadOnlySharing: read-only blocks among the structure's blocks with a
 * sharing pattern.  They are never invalidated: every miss on them is a
 * node's first fetch, which a replica made once would save. */
static void find_read_only(advice_ctx *c, structure_view *sv)
{
    const advice_thresholds *t = c->t;
    char t1[32];
    json_object *pt = pj_get(sv->st, "patterns");
    uint64_t ro = pj_u64(pt, "read_only");
    uint64_t known = ro + pj_u64(pt, "migratory") + pj_u64(pt, "producer_consumer") +
                     pj_u64(pt, "private") + pj_u64(pt, "write_shared");
    double rsh = known ? (double)ro / (double)known : 0.0;
    json_object *causes = pj_get(sv->st, "causes");
    uint64_t cold = pj_u64(causes, "cold"), cold_ns = pj_u64(causes, "cold_wall");
    if (!(ro && rsh > t->read_only && cold_ns))
        return;
    sb_printf(&c->h, "%.1f%% of the blocks of %s are read-only > threshold %s", 100.0 * rsh,
              sv->name, pct(t->read_only, t1, sizeof t1));
    sb_printf(&c->e, "%llu of %llu blocks written once, then only read (never invalidated); "
                     "%llu cold misses, %.1f ms: each node fetches each block once",
              (unsigned long long)ro, (unsigned long long)known, (unsigned long long)cold,
              ms((double)cold_ns));
    sb_printf(&c->s, "replicate %s: it needs no coherence once written, so let each node take "
                     "its own copy in one bulk transfer after the initialisation (one memcpy into "
                     "private memory, or larger blocks: DSM_BLOCK_SIZE) instead of a miss per "
                     "block per node",
              sv->name);
    push(&c->l, ADVICE_READ_ONLY, 0, "ReadOnlySharing", sv->focus, rsh, t->read_only,
         (double)cold_ns * rsh / 1e9, &c->h, &c->e, &c->s);
}

/* The hypotheses about one structure, in the order they are tested and
 * printed: false sharing first (migration may be its effect). */
static void (*const structure_findings[])(advice_ctx *, structure_view *) = {
    find_false_sharing,
    find_migratory,
    find_producer_consumer,
    find_read_only,
};

/* (2)-(4) per structure, largest memory blocking time first, for the
 * structures with at least the min share of the job's time */
static void find_structure_patterns(advice_ctx *c)
{
    for (size_t i = 0; i < pj_len(c->structures) && c->job_ns > 0; i++) {
        structure_view sv = {.st = pj_at(c->structures, i)};
        sv.mbt = structure_mbt(sv.st);
        if (!((double)sv.mbt / c->job_ns >= c->t->min_share) || !sv.mbt)
            continue;
        sv.name = nm(pj_str(sv.st, "name"));
        snprintf(sv.focus, sizeof sv.focus, "structure %s", sv.name);
        json_object *causes = pj_get(sv.st, "causes"), *fs = pj_get(sv.st, "false_sharing");
        sv.coh_ns = pj_u64(causes, "invalidation_wall") + pj_u64(causes, "upgrade_wall");
        sv.fs_share = pj_double(fs, "share");
        for (size_t k = 0; k < sizeof structure_findings / sizeof structure_findings[0]; k++)
            structure_findings[k](c, &sv);
    }
}

/* GroupedAccess: blocks one node fetches one after another, the gain of
 * fetching each group in bulk (misses saved x their mean miss time) over
 * the memory blocking time. */
static void find_groups(advice_ctx *c, json_object *groups)
{
    const advice_thresholds *t = c->t;
    char t1[32];
    for (size_t i = 0; i < pj_len(groups) && c->mbt; i++) {
        json_object *g = pj_at(groups, i), *mem = pj_arr(g, "members");
        uint64_t gain = pj_u64(g, "gain"), blocks = pj_u64(g, "blocks");
        double sh = (double)gain / (double)c->mbt;
        if (!(sh > t->group) || !pj_len(mem))
            continue;
        char focus[300];
        snprintf(focus, sizeof focus, "group %lld", (long long)json_object_get_int64(pj_get(g, "id")));
        sb_printf(&c->h, "fetching group %lld (%llu blocks) in bulk would save %.1f%% of memory "
                         "blocking time > threshold %s",
                  (long long)json_object_get_int64(pj_get(g, "id")), (unsigned long long)blocks,
                  100.0 * sh, pct(t->group, t1, sizeof t1));
        sb_printf(&c->e, "%llu misses would be saved (%.1f ms): its blocks are fetched one after "
                         "another by the same node; members:",
                  (unsigned long long)pj_u64(g, "misses_saved"), ms((double)gain));
        for (size_t k = 0; k < pj_len(mem) && k < 6; k++) {
            json_object *x = pj_at(mem, k);
            sb_printf(&c->e, "%s %s+%llu (%llu block%s)", k ? "," : "", nm(pj_str(x, "structure")),
                      (unsigned long long)pj_u64(x, "offset"), (unsigned long long)pj_u64(x, "blocks"),
                      pj_u64(x, "blocks") == 1 ? "" : "s");
        }
        sb_printf(&c->s, "fetch these blocks together: put them next to each other and use "
                         "blocks large enough to hold them (DSM_BLOCK_SIZE=%llu would cover %llu "
                         "of them), or copy them into private memory with one memcpy where they "
                         "are first needed",
                  (unsigned long long)(c->block_size * blocks), (unsigned long long)blocks);
        push(&c->l, ADVICE_GROUP, 0, "GroupedAccess", focus, sh, t->group, (double)gain / 1e9,
             &c->h, &c->e, &c->s);
    }
}

static void find_group_access(advice_ctx *c) { find_groups(c, c->groups); }

/* (5) LoadImbalance: barrier wait differs between nodes */
static void find_load_imbalance(advice_ctx *c)
{
    const advice_thresholds *t = c->t;
    char t1[32];
    if (!(pj_len(c->per_node) > 1 && c->wall > 0))
        return;
    uint64_t mx = 0, mn = UINT64_MAX;
    int imx = 0, imn = 0;
    for (size_t i = 0; i < pj_len(c->per_node); i++) {
        json_object *o = pj_at(c->per_node, i);
        uint64_t v = pj_u64(o, "barrier_wait");
        int node = pj_get(o, "node") ? (int)pj_u64(o, "node") : (int)i;
        if (v > mx || i == 0) {
            mx = v;
            imx = node;
        }
        if (v < mn) {
            mn = v;
            imn = node;
        }
    }
    double skew = (double)(mx - mn) / (c->wall * 1e9);
    if (!(skew > t->imbalance))
        return;
    sb_printf(&c->h, "barrier wait skew %.1f%% of wall time > threshold %s", 100.0 * skew,
              pct(t->imbalance, t1, sizeof t1));
    sb_printf(&c->e, "node %d waits %.1f ms at barriers, node %d only %.1f ms (wall %.3f s)", imx,
              ms((double)mx), imn, ms((double)mn), c->wall);
    uint64_t tot = 0;
    for (size_t i = 0; i < pj_len(c->per_node); i++)
        tot += pj_u64(pj_at(c->per_node, i), "barrier_wait");
    sb_printf(&c->e, "; all nodes together %.1f%% of the job's time at barriers",
              c->job_ns > 0 ? 100.0 * (double)tot / c->job_ns : 0.0);
    sb_printf(&c->s, "node %d carries the most work between barriers: move work from it to node "
                     "%d (size each node's share of the work by the measured barrier waits), or "
                     "balance the load dynamically",
              imn, imx);
    push(&c->l, ADVICE_LOAD_IMBALANCE, 0, "LoadImbalance", "nodes", skew, t->imbalance,
         (double)(mx - mn) / 1e9, &c->h, &c->e, &c->s);
}

/* The hypotheses in the order advice.h promises their findings. */
static void (*const program_findings[])(advice_ctx *) = {
    find_memory_blocking,
    find_structure_patterns,
    find_group_access,
    find_load_imbalance,
};

int advice_run(json_object *p, const advice_thresholds *t, advice_finding **out, size_t *n,
               char *err, size_t errlen)
{
    *out = NULL;
    *n = 0;
    if (pjson_check(p, err, errlen))
        return -1;
    void *mark = ptext_mark();
    advice_ctx c;
    advice_ctx_init(&c, p, t);
    for (size_t i = 0; i < sizeof program_findings / sizeof program_findings[0]; i++)
        program_findings[i](&c);
    ptext_release_to(mark); /* the findings hold copies of the names */
    if (c.l.oom) {
        advice_free(c.l.v, c.l.n);
        free(c.l.v);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    *out = c.l.v;
    *n = c.l.n;
    return 0;
}

/* Print text with every line after the first indented. */
static void print_lines(FILE *f, const char *indent, const char *prefix, const char *text)
{
    if (!text || !*text)
        return;
    const char *p = text;
    int first = 1;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        fprintf(f, "%s%s%.*s\n", indent, first ? prefix : "", (int)len, p);
        first = 0;
        p += len + (nl ? 1 : 0);
    }
}

void advice_print(FILE *f, const advice_finding *v, size_t n, const advice_thresholds *t)
{
    char b[32];
    fprintf(f, "thresholds:");
    advice_thresholds tt = *t;
    for (int i = 0; i < ADVICE_NTHRESHOLDS; i++)
        fprintf(f, "%s %s %s", i ? "," : "", advice_threshold_names[i],
                pct(*threshold_field(&tt, i), b, sizeof b));
    fprintf(f, "\n");
    if (!n) {
        fprintf(f, "no hypothesis holds: no bottleneck above the thresholds\n");
        return;
    }
    int top = 0, sub = 0;
    for (size_t i = 0; i < n; i++) {
        const advice_finding *x = &v[i];
        if (x->depth == 0) {
            top++;
            sub = 0;
            fprintf(f, "\n%d. %s (%s): %s\n", top, x->hypothesis, x->focus, x->headline);
            print_lines(f, "     ", "", x->evidence);
            if (x->kind != ADVICE_MEMORY_BLOCKING)
                print_lines(f, "     ", "advice: ", x->suggestion);
        } else {
            sub++;
            fprintf(f, "   %d.%d %s\n", top, sub, x->headline);
            print_lines(f, "         ", "", x->evidence);
        }
    }
}

int advice_first_line(const advice_finding *v, size_t n, char *buf, size_t len)
{
    if (!n) {
        if (len)
            buf[0] = '\0';
        return 0;
    }
    /* the concrete advice with the most time at stake (what its fix could
     * save: a structure's coherence time times the finding's share, a
     * group's gain, the barrier-wait skew); ties keep the first, so false
     * sharing wins over the migration it causes */
    const advice_finding *best = NULL;
    for (size_t i = 0; i < n; i++)
        if (v[i].depth == 0 && v[i].kind != ADVICE_MEMORY_BLOCKING && v[i].suggestion[0] &&
            (!best || v[i].seconds > best->seconds))
            best = &v[i];
    if (best)
        snprintf(buf, len, "%s (%s): %s; %s", best->hypothesis, best->focus, best->headline,
                 best->suggestion);
    else
        snprintf(buf, len, "%s (%s): %s", v[0].hypothesis, v[0].focus, v[0].headline);
    return 1;
}

int advice_summary_line(json_object *profile, char *buf, size_t len)
{
    /* the runtime hands over the file it read back: check it as dsmprof
     * would before the advisor relies on it */
    if (pschema_validate(profile, &pschema_profile, buf, len))
        return -1;
    advice_thresholds t;
    advice_thresholds_default(&t);
    if (advice_thresholds_from_env(&t, buf, len))
        return -1;
    advice_finding *v;
    size_t n;
    if (advice_run(profile, &t, &v, &n, buf, len))
        return -1;
    int rc = advice_first_line(v, n, buf, len);
    advice_free(v, n);
    free(v);
    return rc;
}
