/* profile_write.c - the dsm-profile/2 JSON file (json-c) and the exit
 * summary, from the plain profile_input the runtime filled (profile.h).
 * The schema is documented in doc/profile-format.md and declared for the
 * reader in pschema_defs.c; keep the three in step and bump the schema
 * string (formats.h) on an incompatible change. */
#include "profile.h"

#include <errno.h>
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pfile.h"
#include "ptext.h"

void profile_causes_add(profile_causes *d, const profile_causes *s)
{
    d->cold += s->cold;
    d->cold_first_touch += s->cold_first_touch;
    d->invalidation += s->invalidation;
    d->upgrade += s->upgrade;
    d->cold_wall += s->cold_wall;
    d->invalidation_wall += s->invalidation_wall;
    d->upgrade_wall += s->upgrade_wall;
}

double profile_fs_share(uint64_t fs, uint64_t ts, uint64_t coherence_misses)
{
    uint64_t d = fs + ts > coherence_misses ? fs + ts : coherence_misses;
    return d ? (double)fs / (double)d : 0.0;
}

/* The pattern whose blocks carry most of the structure's misses: what a
 * user must act on (a grid whose few boundary blocks pass data every
 * iteration is producer-consumer, however many interior blocks are read
 * once); without misses, the pattern most blocks have. */
int profile_structure_dominant(const profile_structure *s)
{
    int best = PP_NONE;
    for (int p = 1; p < PP_NPATTERNS; p++)
        if (s->pattern_misses[p] > (best == PP_NONE ? 0 : s->pattern_misses[best]))
            best = p;
    if (best != PP_NONE)
        return best;
    for (int p = 1; p < PP_NPATTERNS; p++)
        if (s->patterns[p] > (best == PP_NONE ? 0 : s->patterns[best]))
            best = p;
    return best;
}

/* ---- JSON ---- */

static json_object *u64(uint64_t v) { return json_object_new_uint64(v); }

static void add(json_object *o, const char *k, json_object *v) { json_object_object_add(o, k, v); }

/* names come from the program: valid UTF-8 whatever their bytes */
static json_object *str(const char *s) { return ptext_json_string(s); }

static json_object *block_metrics(const uint64_t *v)
{
    json_object *o = json_object_new_object();
    for (int m = 0; m < CM_NBLOCK_METRICS; m++)
        add(o, counters_metric_name(m), u64(v[m]));
    return o;
}

static json_object *causes(const profile_causes *c)
{
    json_object *o = json_object_new_object();
    add(o, "cold", u64(c->cold));
    add(o, "cold_first_touch", u64(c->cold_first_touch));
    add(o, "invalidation", u64(c->invalidation));
    add(o, "upgrade", u64(c->upgrade));
    add(o, "cold_wall", u64(c->cold_wall));
    add(o, "invalidation_wall", u64(c->invalidation_wall));
    add(o, "upgrade_wall", u64(c->upgrade_wall));
    return o;
}

/* The first PROFILE_RANGES_LISTED runs (exact; the count says how many
 * there are). */
static json_object *ranges(const profile_runs *r)
{
    json_object *a = json_object_new_array();
    for (uint32_t i = 0; i < r->n && i < PROFILE_RANGES_LISTED; i++) {
        json_object *p = json_object_new_array();
        json_object_array_add(p, u64(r->r[i].lo));
        json_object_array_add(p, u64(r->r[i].hi));
        json_object_array_add(a, p);
    }
    return a;
}

static json_object *writers(const profile_runs *w, int nnodes)
{
    json_object *a = json_object_new_array();
    for (int n = 0; w && n < nnodes; n++) {
        if (!w[n].n)
            continue;
        json_object *o = json_object_new_object();
        add(o, "node", json_object_new_int(n));
        add(o, "ranges", ranges(&w[n]));
        add(o, "ranges_total", u64(w[n].n));
        add(o, "bytes", u64(profile_runs_bytes(w[n].r, w[n].n)));
        json_object_array_add(a, o);
    }
    return a;
}

static json_object *misses(const profile_misses *m)
{
    json_object *o = json_object_new_object();
    add(o, "read_misses", u64(m->read_misses));
    add(o, "write_misses", u64(m->write_misses));
    add(o, "upgrades", u64(m->upgrades));
    add(o, "misses", u64(m->read_misses + m->write_misses + m->upgrades));
    add(o, "wall", u64(m->wall));
    return o;
}

/* Blocks per sharing pattern (group is not one). */
static json_object *patterns(const uint32_t *p)
{
    static const int order[] = { PP_MIGRATORY, PP_PRODUCER_CONSUMER, PP_READ_ONLY, PP_PRIVATE,
                                 PP_WRITE_SHARED, PP_NONE };
    json_object *o = json_object_new_object();
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++)
        add(o, proto_pattern_name(order[k]), u64(p[order[k]]));
    return o;
}

/* A block's detection counts, and how often it was fetched together with
 * the block before it (its group). */
static json_object *detections(const uint32_t *d)
{
    json_object *o = json_object_new_object();
    add(o, "migratory", u64(d[PP_MIGRATORY]));
    add(o, "producer_consumer", u64(d[PP_PRODUCER_CONSUMER]));
    add(o, "read_only", u64(d[PP_READ_ONLY]));
    add(o, "fetched_together", u64(d[PP_GROUP]));
    return o;
}

static json_object *group(const profile_input *in, const profile_group *g)
{
    json_object *o = json_object_new_object();
    add(o, "id", json_object_new_int(g->id));
    add(o, "blocks", u64(g->blocks));
    add(o, "fetched_together", u64(g->fetched_together));
    add(o, "misses_saved", u64(g->fetched_together));
    add(o, "gain", u64(g->gain));
    json_object *runs = json_object_new_array();
    for (size_t k = 0; k < g->nruns; k++) {
        const profile_group_run *r = &g->runs[k];
        json_object *x = json_object_new_object();
        add(x, "structure", str(in->structures[r->structure].name));
        add(x, "offset", u64(r->offset));
        add(x, "first_block", u64(r->first_block));
        add(x, "blocks", u64(r->blocks));
        json_object_array_add(runs, x);
    }
    add(o, "members", runs);
    add(o, "members_total", u64(g->nruns_total));
    return o;
}

static json_object *structure(const profile_input *in, const profile_structure *s)
{
    json_object *o = json_object_new_object();
    add(o, "name", str(s->name));
    add(o, "kind", str(s->kind));
    if (s->site_function) {
        json_object *site = json_object_new_object();
        add(site, "function", str(s->site_function));
        add(site, "file", str(s->site_file));
        add(site, "line", u64(s->site_line));
        json_object *path = json_object_new_array();
        for (size_t i = 0; i < s->npath; i++)
            json_object_array_add(path, str(s->path[i]));
        add(site, "path", path);
        add(o, "site", site);
    }
    add(o, "bytes", u64(s->bytes));
    add(o, "allocations", u64(s->allocations));
    if (s->has_type) {
        json_object *t = json_object_new_object(), *fl = json_object_new_array();
        add(t, "name", str(s->type.name));
        add(t, "size", u64(s->type.size));
        for (uint32_t k = 0; k < s->type.nfields; k++) {
            json_object *f = json_object_new_object();
            add(f, "name", str(s->type.fields[k].name));
            add(f, "offset", u64(s->type.fields[k].offset));
            add(f, "size", u64(s->type.fields[k].size));
            json_object_array_add(fl, f);
        }
        add(t, "fields", fl);
        add(o, "element_type", t);
    }
    add(o, "blocks", u64(s->nblocks));
    add(o, "sharing_pattern", str(proto_pattern_name(profile_structure_dominant(s))));
    json_object *m = block_metrics(s->metrics);
    json_object *pn = json_object_new_array();
    for (int n = 0; n < in->nnodes; n++)
        json_object_array_add(pn, block_metrics(s->per_node + (size_t)n * CM_NBLOCK_METRICS));
    add(m, "per_node", pn);
    add(o, "metrics", m);
    add(o, "patterns", patterns(s->patterns));
    json_object *gr = json_object_new_object();
    add(gr, "blocks", u64(s->group_blocks));
    json_object *ids = json_object_new_array();
    for (size_t k = 0; k < s->ngroup_ids; k++)
        json_object_array_add(ids, json_object_new_int(s->group_ids[k]));
    add(gr, "ids", ids);
    add(o, "groups", gr);
    json_object *c = causes(&s->causes);
    json_object *cpn = json_object_new_array();
    for (int n = 0; n < in->nnodes; n++)
        json_object_array_add(cpn, causes(&s->causes_per_node[n]));
    add(c, "per_node", cpn);
    add(o, "causes", c);

    json_object *fs = json_object_new_object();
    uint64_t coherence = s->causes.invalidation + s->causes.upgrade;
    add(fs, "count", u64(s->fs_transfers));
    add(fs, "true_sharing_transfers", u64(s->ts_transfers));
    add(fs, "coherence_misses", u64(coherence));
    add(fs, "share",
        json_object_new_double(profile_fs_share(s->fs_transfers, s->ts_transfers, coherence)));
    add(fs, "blocks", u64(s->nfs_blocks));
    json_object *fb = json_object_new_array();
    for (size_t i = 0; i < s->nfs_blocks; i++) {
        const profile_fs_block *b = &s->fs_blocks[i];
        json_object *x = json_object_new_object();
        add(x, "index", u64(b->index));
        add(x, "offset", u64(b->offset));
        add(x, "transfers", u64(b->transfers));
        add(x, "writers", writers(b->writers, in->nnodes));
        json_object_array_add(fb, x);
    }
    add(fs, "top_blocks", fb);
    add(o, "false_sharing", fs);

    if (s->blocks) {
        json_object *bl = json_object_new_array();
        for (size_t i = 0; i < s->nblocks_listed; i++) {
            const profile_block *b = &s->blocks[i];
            json_object *x = json_object_new_object();
            add(x, "index", u64(b->index));
            add(x, "offset", u64(b->offset));
            add(x, "misses", u64(b->misses));
            add(x, "memoryBlockTime", u64(b->memory_block_time));
            add(x, "invalidations", u64(b->invalidations));
            add(x, "cold", u64(b->causes.cold));
            add(x, "invalidation", u64(b->causes.invalidation));
            add(x, "upgrade", u64(b->causes.upgrade));
            add(x, "false_sharing", u64(b->fs_transfers));
            add(x, "pattern", str(proto_pattern_name(b->pattern)));
            add(x, "group_id", json_object_new_int(b->group_id));
            add(x, "in_group", json_object_new_boolean(b->in_group));
            add(x, "detections", detections(b->detections));
            json_object_array_add(bl, x);
        }
        add(o, "block_list", bl); /* "blocks" is the count */
    } else {
        add(o, "block_list", NULL);
    }
    return o;
}

static json_object *build(const profile_input *in)
{
    json_object *root = json_object_new_object();
    add(root, "schema", str(PROFILE_SCHEMA));
    add(root, "nodes", json_object_new_int(in->nnodes));
    add(root, "block_size", u64(in->block_size));
    add(root, "mode", str(in->block_mode ? "block" : "page"));
    add(root, "wall_seconds", json_object_new_double(in->wall_seconds));
    add(root, "counters", json_object_new_boolean(in->counters_on));
    add(root, "patterns_detection", json_object_new_boolean(in->patterns_on));
    add(root, "code_attribution", json_object_new_boolean(in->code_attribution));
    add(root, "block_list_limit", u64(PROFILE_BLOCKS_LIMIT));
    json_object *lim = json_object_new_object();
    add(lim, "epochs_dropped", u64(in->epochs_dropped));
    add(lim, "twins_skipped", u64(in->twins_skipped));
    add(lim, "reads_dropped", u64(in->reads_dropped));
    add(root, "false_sharing_evidence_lost", lim);

    /* totals over the job, per node */
    json_object *nodes = json_object_new_array();
    for (int n = 0; n < in->nnodes; n++) {
        const uint64_t *v = in->node_metrics + (size_t)n * CM_NMETRICS;
        json_object *o = json_object_new_object();
        add(o, "node", json_object_new_int(n));
        add(o, "barriers", u64(v[CM_TARGET_BARRIER]));
        add(o, "barrier_wait", u64(v[CM_TARGET_BARRIER_WALL]));
        add(o, "lock_acquires", u64(v[CM_LOCK_ACQUIRES]));
        add(o, "lock_wait", u64(v[CM_LOCK_WAIT_WALL]));
        add(o, "memoryBlockTime", u64(v[CM_MEMORY_BLOCK_TIME]));
        json_object *all = json_object_new_object();
        for (int m = 0; m < CM_NMETRICS; m++)
            add(all, counters_metric_name(m), u64(v[m]));
        add(o, "metrics", all);
        json_object_array_add(nodes, o);
    }
    add(root, "per_node", nodes);

    json_object *st = json_object_new_array();
    for (size_t i = 0; i < in->nstructures; i++)
        json_object_array_add(st, structure(in, &in->structures[i]));
    add(root, "structures", st);

    json_object *pr = json_object_new_array();
    for (size_t i = 0; i < in->nprocedures; i++) {
        const profile_procedure *p = &in->procedures[i];
        json_object *o = misses(&p->m);
        add(o, "name", str(p->name));
        add(o, "file", str(p->file));
        add(o, "line", u64(p->line));
        json_object_array_add(pr, o);
    }
    add(root, "procedures", pr);

    json_object *pa = json_object_new_array();
    for (size_t i = 0; i < in->npairs; i++) {
        const profile_pair *p = &in->pairs[i];
        json_object *o = misses(&p->m);
        add(o, "procedure", str(in->procedures[p->procedure].name));
        add(o, "structure", str(in->structures[p->structure].name));
        json_object_array_add(pa, o);
    }
    add(root, "pairs", pa);

    json_object *gs = json_object_new_array();
    for (size_t i = 0; i < in->ngroups; i++)
        json_object_array_add(gs, group(in, &in->groups[i]));
    add(root, "groups", gs);
    add(root, "groups_total", u64(in->ngroups_total));

    /* the timeline: every slice of the job, empty ones too */
    json_object *ts = json_object_new_object();
    add(ts, "interval_seconds", json_object_new_double(in->slice_seconds));
    json_object *sl = json_object_new_array();
    for (size_t i = 0; i < in->nslices; i++) {
        profile_slice sum = { 0, 0, 0 };
        json_object *pn = json_object_new_array();
        for (int n = 0; n < in->nnodes; n++) {
            const profile_slice *s = &in->slices[i * (size_t)in->nnodes + (size_t)n];
            sum.misses += s->misses;
            sum.memory_block_time += s->memory_block_time;
            sum.barrier_wait += s->barrier_wait;
            json_object *o = json_object_new_object();
            add(o, "misses", u64(s->misses));
            add(o, "memoryBlockTime", u64(s->memory_block_time));
            add(o, "barrier_wait", u64(s->barrier_wait));
            json_object_array_add(pn, o);
        }
        json_object *o = json_object_new_object();
        add(o, "start", json_object_new_double(in->slice_seconds * (double)i));
        add(o, "misses", u64(sum.misses));
        add(o, "memoryBlockTime", u64(sum.memory_block_time));
        add(o, "barrier_wait", u64(sum.barrier_wait));
        add(o, "per_node", pn);
        json_object_array_add(sl, o);
    }
    add(ts, "slices", sl);
    add(root, "timeslices", ts);
    return root;
}

int profile_write_json(const profile_input *in, const char *path, char *err, size_t errlen)
{
    json_object *root = build(in);
    size_t len = 0;
    const char *text =
        root ? json_object_to_json_string_length(
                   root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE, &len)
             : NULL;
    int rc = -1;
    pfile w;
    if (!text)
        snprintf(err, errlen, "out of memory");
    else if (pfile_open(&w, path, err, errlen) == 0) {
        fwrite(text, 1, len, w.f);
        fputc('\n', w.f);
        /* a failed write shows in the stream's error flag, which the
         * commit checks */
        rc = pfile_commit(&w, err, errlen);
    }
    json_object_put(root);
    return rc;
}

/* ---- exit summary ---- */

static double ms(uint64_t ns) { return (double)ns / 1e6; }

void profile_print_summary(const profile_input *in, const char *path, FILE *f)
{
    uint64_t mbt = 0, coh = 0, barrier = 0;
    for (int n = 0; n < in->nnodes; n++) {
        mbt += in->node_metrics[(size_t)n * CM_NMETRICS + CM_MEMORY_BLOCK_TIME];
        barrier += in->node_metrics[(size_t)n * CM_NMETRICS + CM_TARGET_BARRIER_WALL];
    }
    uint64_t fs = 0;
    for (size_t i = 0; i < in->nstructures; i++) {
        coh += in->structures[i].causes.invalidation_wall + in->structures[i].causes.upgrade_wall;
        fs += in->structures[i].fs_transfers;
    }
    fprintf(f, "dsm profile: %d nodes, %s mode (%zu-byte blocks), %.3f s; memory blocking %.1f ms, "
               "in coherence misses %.1f ms, barrier wait %.1f ms (all nodes)\n",
            in->nnodes, in->block_mode ? "block" : "page", in->block_size, in->wall_seconds, ms(mbt),
            ms(coh), ms(barrier));
    size_t shown = 0;
    for (size_t i = 0; i < in->nstructures && shown < 10; i++) {
        const profile_structure *s = &in->structures[i];
        uint64_t t = s->metrics[CM_MEMORY_BLOCK_TIME];
        if (!t)
            break;
        if (!shown)
            fprintf(f, "dsm profile: top structures by memory blocking time:\n");
        uint64_t nm = s->causes.cold + s->causes.invalidation + s->causes.upgrade;
        fprintf(f, "dsm profile:   %-28.28s %9.1f ms %5.1f%%  %llu misses  %s%s\n", s->name, ms(t),
                mbt ? 100.0 * (double)t / (double)mbt : 0.0, (unsigned long long)nm,
                proto_pattern_name(profile_structure_dominant(s)),
                s->fs_transfers ? "  false sharing" : "");
        shown++;
    }
    if (fs)
        fprintf(f, "dsm profile: %llu false-sharing transfers (dsmprof report --structure NAME "
                   "shows the written offsets)\n", (unsigned long long)fs);
    if (path)
        fprintf(f, "dsm profile: written to %s (dsmprof report %s)\n", path, path);
}

/* ---- cleanup ---- */

void profile_input_free(profile_input *in)
{
    for (size_t i = 0; i < in->nstructures; i++) {
        profile_structure *s = &in->structures[i];
        free(s->name);
        profile_type_free(&s->type);
        free(s->site_function);
        free(s->site_file);
        for (size_t k = 0; k < s->npath; k++)
            free(s->path[k]);
        free(s->path);
        free(s->per_node);
        free(s->causes_per_node);
        for (size_t k = 0; k < s->nfs_blocks; k++) {
            for (int n = 0; s->fs_blocks[k].writers && n < in->nnodes; n++)
                profile_runs_free(&s->fs_blocks[k].writers[n]);
            free(s->fs_blocks[k].writers);
        }
        free(s->fs_blocks);
        free(s->blocks);
    }
    free(in->structures);
    for (size_t i = 0; i < in->nprocedures; i++) {
        free(in->procedures[i].name);
        free(in->procedures[i].file);
    }
    free(in->procedures);
    free(in->pairs);
    for (size_t i = 0; i < in->ngroups; i++)
        free(in->groups[i].runs);
    free(in->groups);
    free(in->node_metrics);
    free(in->slices);
    memset(in, 0, sizeof *in);
}
